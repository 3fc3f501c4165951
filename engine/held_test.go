package engine

import (
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"gomoku-arena/internal/affinity"
	"gomoku-arena/rules"
)

// An engine held to a table's processor while it runs one thread
// (Spec.CPUsOneThread) is let go when a look finds more: past its
// probation, the look at the start of a game does it (at most every
// heldLookEvery). builtin:faulty is a Go program, with threads from its
// start; its probation is taken as over from the start, so that only the
// game's look can let it go.
func TestAHeldEngineSeenWithThreadsAtAGamesStartIsLetGo(t *testing.T) {
	cpus := affinity.CPUs()
	if len(cpus) < 2 {
		t.Skipf("the test may run on %d processor(s): nothing to hold", len(cpus))
	}
	spec := faultySpec()
	spec.CPUs, spec.CPUsOneThread = cpus[:1], true
	e, err := Start(spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	e.commands = probation
	newGame(t, e, 15)                                        // the process just started: maybe one thread yet
	e.current().looked = time.Time{}                         // the last look long ago
	if err := e.NewGame(15, nil, in(generous)); err != nil { // RESTART: the look
		t.Fatal(err)
	}
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", e.Pid()))
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) < 2 {
		t.Skipf("builtin:faulty runs %d thread(s)", len(tasks))
	}
	for _, task := range tasks {
		var tid int
		fmt.Sscan(task.Name(), &tid)
		if got, err := affinity.Of(tid); err != nil || len(got) != len(cpus) {
			t.Errorf("thread %d of %d may run on %v (%v), want every processor of %v", tid, len(tasks), got, err, cpus)
		}
	}
}

// threadSlices lists the scheduler slices (ns) of the threads of process pid.
func threadSlices(t *testing.T, pid int) []uint64 {
	t.Helper()
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		t.Fatal(err)
	}
	var out []uint64
	for _, task := range tasks {
		var tid int
		fmt.Sscan(task.Name(), &tid)
		if a, err := unix.SchedGetAttr(tid, 0); err == nil {
			out = append(out, a.Runtime)
		}
	}
	return out
}

// customSlices reports whether the kernel takes a thread's own slice
// (Linux 6.12 and later), and the default one.
func customSlices(t *testing.T) (ok bool, def uint64) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	a, err := unix.SchedGetAttr(0, 0)
	if err != nil {
		return false, 0
	}
	def = a.Runtime
	a.Size, a.Runtime = unix.SizeofSchedAttr, 100_000
	if unix.SchedSetAttr(0, a, 0) != nil {
		return false, def
	}
	b, _ := unix.SchedGetAttr(0, 0)
	a.Runtime = 0
	unix.SchedSetAttr(0, a, 0)
	return b != nil && b.Runtime == 100_000 && def != 100_000, def
}

// An engine started on its table's processor runs with the short slice
// while it runs one thread, held there or pinned for good; one seen
// running more is given the default slice on every thread.
func TestAnEngineOnItsTablesProcessorRunsWithTheShortSlice(t *testing.T) {
	cpus := affinity.CPUs()
	ok, def := customSlices(t)
	if len(cpus) < 1 || !ok {
		t.Skip("this kernel takes no custom slice (before Linux 6.12)")
	}
	script := `while read -r l; do case "$l" in START*|RESTART*) echo OK;; BEGIN*|TURN*) echo 1,1;; esac; done`
	for _, oneThread := range []bool{true, false} {
		one := Spec{Name: "sh", Command: "/bin/sh", Args: []string{"-c", script}, StartTimeout: generous, WriteTimeout: generous,
			CloseGrace: 100 * time.Millisecond, CPUs: cpus[:1], CPUsOneThread: oneThread}
		threaded := faultySpec()
		threaded.CPUs, threaded.CPUsOneThread = cpus[:1], oneThread
		for _, c := range []struct {
			spec Spec
			want uint64
		}{{one, 100_000}, {threaded, def}} {
			e, err := Start(c.spec)
			if err != nil {
				t.Fatal(err)
			}
			newGame(t, e, 15)
			if r := e.Turn(rules.Point{X: 7, Y: 7}, in(generous)); r.Fault != "" {
				t.Fatalf("%s: %s %s", c.spec.Name, r.Fault, r.Detail)
			}
			for i, s := range threadSlices(t, e.Pid()) {
				if s != c.want {
					t.Errorf("%s (one thread held: %v): thread %d has a slice of %d ns, want %d", c.spec.Name, oneThread, i, s, c.want)
				}
			}
			e.Close()
		}
	}
}
