package affinity

import (
	"os/exec"
	"runtime"
	"slices"
	"testing"

	"golang.org/x/sys/unix"
)

// A process started from a pinned thread inherits the pin; started through
// Free, it may run wherever the arbiter may.
func TestFreeStartsProcessesUnpinned(t *testing.T) {
	cpus := CPUs()
	if len(cpus) < 2 {
		t.Skipf("the test may run on %d processor(s): nothing to pin", len(cpus))
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer Pin(cpus[1])()
	for _, free := range []bool{false, true} {
		cmd := exec.Command("sleep", "5")
		start := cmd.Start
		if free {
			start = func() error { return Free(cmd.Start) }
		}
		if err := start(); err != nil {
			t.Skipf("no sleep program: %v", err)
		}
		got, err := of(cmd.Process.Pid)
		cmd.Process.Kill()
		cmd.Wait()
		if err != nil {
			t.Fatal(err)
		}
		want := cpus
		if !free {
			want = cpus[1:2]
		}
		if !slices.Equal(got, want) {
			t.Errorf("started with Free %v: the process may run on %v, want %v", free, got, want)
		}
	}
}

// of lists the processors process pid may run on.
func of(pid int) ([]int, error) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(pid, &set); err != nil {
		return nil, err
	}
	var cpus []int
	for c := 0; c < len(set)*64; c++ {
		if set.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	return cpus, nil
}
