package affinity

import (
	"os/exec"
	"runtime"
	"slices"
	"testing"

	"golang.org/x/sys/unix"
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

// slice reads thread tid's scheduler slice, in ns.
func slice(t *testing.T, tid int) uint64 {
	t.Helper()
	a, err := unix.SchedGetAttr(tid, 0)
	if err != nil {
		t.Fatalf("sched_getattr %d: %v", tid, err)
	}
	return a.Runtime
}

// A process started on given processors begins with the short slice, and
// the thread that started it keeps its own; one started on every processor
// gets the starting thread's slice; Unhurry gives the default back.
func TestStartOnATablesProcessorGivesTheShortSlice(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	before := slice(t, 0)
	if setSlice(0, shortSlice) != nil || slice(t, 0) != shortSlice {
		setSlice(0, 0)
		t.Skip("this kernel takes no custom slice (before Linux 6.12)")
	}
	setSlice(0, 0)
	if got := slice(t, 0); got != before {
		t.Fatalf("the default slice set back is %d ns, want %d", got, before)
	}
	start := func(cpus []int) int {
		cmd := exec.Command("sleep", "5")
		if err := Start(cpus, cmd.Start); err != nil {
			t.Skipf("no sleep program: %v", err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		return cmd.Process.Pid
	}
	table := start(CPUs()[:1])
	if got := slice(t, table); got != shortSlice {
		t.Errorf("a process started on its table's processor has a slice of %d ns, want %d", got, shortSlice)
	}
	if got := slice(t, 0); got != before {
		t.Errorf("the starting thread's slice is %d ns after, want its own %d", got, before)
	}
	if got := slice(t, start(nil)); got != before {
		t.Errorf("a process started on every processor has a slice of %d ns, want the default %d", got, before)
	}
	if err := Unhurry(table); err != nil {
		t.Fatal(err)
	}
	if got := slice(t, table); got != before {
		t.Errorf("after Unhurry the slice is %d ns, want the default %d", got, before)
	}
}
