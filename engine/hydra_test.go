package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFreezeHoldsAHydra freezes an engine whose helper forks a replacement
// and exits in a loop, each generation writing its number to a file: frozen,
// no generation may follow another. SIGSTOP to the processes the arbiter
// lists misses the one being born; the cgroup freezer does not.
func TestFreezeHoldsAHydra(t *testing.T) {
	how, err := Freezer()
	if err != nil {
		t.Skipf("%v: engines are frozen by SIGSTOP here, which a hydra dodges (needs root or a delegated cgroup)", err)
	}
	t.Logf("freezing with %s", how)
	prog := hostile(t)
	for _, sandboxed := range []bool{false, true} {
		t.Run(map[bool]string{false: "unconfined", true: "bwrap"}[sandboxed], func(t *testing.T) {
			dir := t.TempDir()
			gen := filepath.Join(dir, "gen")
			spec := Spec{Name: "hydra", Command: prog, Args: []string{"hydra=" + gen}, Dir: dir, StartTimeout: generous}
			spec.Limits.FreezeIdle = true
			if sandboxed {
				bw, err := Bwrap()
				if err != nil {
					t.Skip(err)
				}
				spec.Sandbox = &Sandbox{Bwrap: bw}
			}
			hydraFrozen(t, spec, gen)
		})
	}
}

func hydraFrozen(t *testing.T, spec Spec, gen string) {
	e, err := Start(spec)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	g := newGame(t, e, 15)
	g.play(e, 1, generous)
	if r := g.replies[0]; r.Fault != "" {
		t.Fatalf("move: %v %s", r.Fault, r.Detail)
	}
	read := func() string {
		b, _ := os.ReadFile(gen)
		return strings.TrimSpace(string(b))
	}
	const idle = 500 * time.Millisecond
	a := read()
	time.Sleep(idle)
	if b := read(); a == b {
		t.Skipf("the hydra made no generation in %v even unfrozen (at %q): machine too busy to tell", idle, b)
	}
	e.Freeze()
	a = read()
	time.Sleep(idle)
	b := read()
	e.Thaw()
	if a != b {
		t.Errorf("frozen, the hydra went on from generation %s to %s", a, b)
	}
	time.Sleep(idle)
	if c := read(); c == b {
		t.Errorf("thawed, the hydra stays at generation %s", c)
	}
}
