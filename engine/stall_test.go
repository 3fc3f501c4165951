package engine

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// stallArbiter, when set, makes TestArbiterStallIsNotCharged play the
// arbiter's part: the folder where the engine signals it was asked.
const stallArbiter = "ENGINE_TEST_STALL_ARBITER"

// TestArbiterStallIsNotCharged stops the arbiter (a copy of this test
// binary) with SIGSTOP while an engine that answers in 0.3s is on move, for
// longer than the 1s the engine has, then resumes it: the engine must not
// lose on time, its think time must leave the stall out, and the stall must
// be noted.
func TestArbiterStallIsNotCharged(t *testing.T) {
	if dir := os.Getenv(stallArbiter); dir != "" {
		stallArbiterRole(t, dir)
		return
	}
	prog := hostile(t)
	dir := t.TempDir()
	cmd := exec.Command("/proc/self/exe", "-test.run=^TestArbiterStallIsNotCharged$", "-test.v")
	cmd.Env = append(os.Environ(), stallArbiter+"="+dir, hostileEnv+"="+prog)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	asked := filepath.Join(dir, "asked")
	for end := in(generous); ; time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat(asked); err == nil {
			break
		}
		if time.Now().After(end) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the engine was never asked for a move:\n%s", out.String())
		}
	}
	stopped := time.Now()
	syscall.Kill(cmd.Process.Pid, syscall.SIGSTOP)
	time.Sleep(2 * time.Second) // the engine's whole budget and more
	syscall.Kill(cmd.Process.Pid, syscall.SIGCONT)
	resumed := time.Now()
	err := cmd.Wait()
	var r Reply
	var read time.Time // when the arbiter had the reply
	for _, l := range strings.Split(out.String(), "\n") {
		if j, ok := strings.CutPrefix(l, "REPLY "); ok {
			if err := json.Unmarshal([]byte(j), &r); err != nil {
				t.Fatal(err)
			}
		}
		if j, ok := strings.CutPrefix(l, "READ "); ok {
			read.UnmarshalText([]byte(strings.TrimSpace(j)))
		}
	}
	if err != nil || r.Line == "" && r.Fault == "" {
		t.Fatalf("the arbiter: %v\n%s", err, out.String())
	}
	t.Logf("reply %q after %v, fault %q %s; notes %q", r.Line, r.Elapsed, r.Fault, r.Detail, r.Notes)
	if r.Fault != "" {
		t.Fatalf("the engine was charged the arbiter's stall: %s %s", r.Fault, r.Detail)
	}
	if r.Elapsed >= time.Second {
		t.Errorf("think time %v includes the stall", r.Elapsed)
	}
	n, ok := noteWith(r, "warning: the arbiter did not run")
	switch {
	case ok && !strings.Contains(n, "not charged"):
		t.Errorf("note %q", n)
	case !ok && !read.IsZero() && (read.Before(stopped) || read.Add(-r.Elapsed).After(resumed)):
		// Without a note nothing was subtracted: the think time ran from
		// read-Elapsed to read. A busy machine can let the stop land
		// before the request's write had ended, or after its answer.
		t.Skipf("the stop (%v to %v) missed the think time (%v to %v): the machine was too busy to stop the arbiter while the engine was on move",
			stopped.Format(time.StampMicro), resumed.Format(time.StampMicro), read.Add(-r.Elapsed).Format(time.StampMicro), read.Format(time.StampMicro))
	case !ok:
		t.Errorf("no note of the stall in %q", r.Notes)
	}
}

// stallArbiterRole asks the engine for one move with a 1s deadline and
// prints the reply.
func stallArbiterRole(t *testing.T, dir string) {
	prog := os.Getenv(hostileEnv)
	e, err := Start(Spec{Name: "slow", Command: prog, Args: []string{"slow=" + filepath.Join(dir, "asked") + ":300"}, Dir: dir, StartTimeout: generous})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if err := e.NewGame(15, nil, in(generous)); err != nil {
		t.Fatal(err)
	}
	r := e.Begin(in(time.Second))
	read, _ := time.Now().MarshalText()
	b, _ := json.Marshal(r)
	os.Stdout.Write(append(append([]byte("REPLY "), b...), '\n'))
	os.Stdout.Write(append(append([]byte("READ "), read...), '\n'))
}
