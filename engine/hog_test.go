package engine

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestTmpfsHogIsCounted runs a hostile engine that fills its /tmp and
// /dev/shm, which are kept in memory, under a 64 MiB memory limit: each is
// bounded by the limit, their use counts as the engine's memory, and what
// it left there goes with it. Sandboxed, bubblewrap makes them; unconfined,
// the arbiter does where it may (root).
func TestTmpfsHogIsCounted(t *testing.T) {
	const limit, fill = 64 << 20, 100_000_000
	prog := hostile(t)
	for _, sandboxed := range []bool{true, false} {
		t.Run(map[bool]string{true: "bwrap", false: "unconfined"}[sandboxed], func(t *testing.T) {
			spec := Spec{Name: "hog", Command: prog, StartTimeout: generous,
				Args: []string{fmt.Sprintf("fill=/tmp:%d", fill), fmt.Sprintf("fill=/dev/shm:%d", fill)}}
			spec.Limits.Memory = limit
			if sandboxed {
				bw, err := Bwrap()
				if err != nil {
					t.Skip(err)
				}
				spec.Sandbox = &Sandbox{Bwrap: bw}
			}
			e, err := Start(spec)
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			if err := e.NewGame(15, nil, in(generous)); err != nil {
				t.Fatal(err)
			}
			r := e.Begin(in(generous))
			if r.Fault != "" {
				t.Fatalf("%v %s", r.Fault, r.Detail)
			}
			var files []string
			var most int64
			for _, n := range r.Notes {
				var file string
				var wrote int64
				if _, err := fmt.Sscanf(n, "MESSAGE fill %s wrote %d", &file, &wrote); err == nil {
					t.Logf("%s: %d bytes", file, wrote)
					files = append(files, file)
					most = max(most, wrote)
				}
			}
			used, _ := e.Memory()
			over, detail := e.CheckMemory()
			t.Logf("memory %d MiB; over=%v %s", used>>20, over, detail)
			e.Close()
			var left []string
			for _, f := range files {
				if strings.HasPrefix(f, "/") {
					if _, err := os.Stat(f); err == nil {
						left = append(left, f)
						os.Remove(f)
					}
				}
			}
			if !sandboxed && (os.Getuid() != 0 || privateTmpRefused.Load()) {
				t.Skipf("an unconfined engine gets no private /tmp here (needs root and a mount namespace): memory %d MiB, left %v (removed)", used>>20, left)
			}
			if most > limit {
				t.Errorf("wrote %d bytes to one file, over the %d limit", most, limit)
			}
			if len(files) != 2 {
				t.Fatalf("the hog did not report its files: %q", r.Notes)
			}
			if !over {
				t.Errorf("an engine holding %d MiB in its /tmp and /dev/shm is not over a %d MiB limit", used>>20, limit>>20)
			}
			if len(left) > 0 {
				t.Errorf("the engine's files outlived it: %v", left)
			}
		})
	}
}
