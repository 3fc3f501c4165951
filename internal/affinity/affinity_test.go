package affinity

import (
	"os/exec"
	"runtime"
	"slices"
	"testing"
)

// A process started from a pinned thread inherits the pin; started through
// Start, it runs on the processors asked for, all the arbiter's by default,
// whichever thread starts it.
func TestStartPlacesProcesses(t *testing.T) {
	cpus := CPUs()
	if len(cpus) < 2 {
		t.Skipf("the test may run on %d processor(s): nothing to pin", len(cpus))
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer Pin(cpus[1])()
	for _, c := range []struct {
		name  string
		start func(*exec.Cmd) error
		want  []int
	}{
		{"inherited", (*exec.Cmd).Start, cpus[1:2]},
		{"Start(nil)", func(cmd *exec.Cmd) error { return Start(nil, cmd.Start) }, cpus},
		{"Start(first)", func(cmd *exec.Cmd) error { return Start(cpus[:1], cmd.Start) }, cpus[:1]},
	} {
		cmd := exec.Command("sleep", "5")
		if err := c.start(cmd); err != nil {
			t.Skipf("no sleep program: %v", err)
		}
		got, err := Of(cmd.Process.Pid)
		cmd.Process.Kill()
		cmd.Wait()
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: the process may run on %v, want %v", c.name, got, c.want)
		}
	}
	if got, _ := Of(0); !slices.Equal(got, cpus[1:2]) {
		t.Errorf("the starting thread may run on %v after, want its pin %v", got, cpus[1:2])
	}
}
