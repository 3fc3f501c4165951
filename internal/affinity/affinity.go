// Package affinity places the arbiter's threads and the engines it starts on
// processors: a table of games and its own engines on one (see
// arbiter.Director), every other engine on every processor the arbiter was
// given. An engine started on its table's processor also begins with the
// kernel's shortest scheduler slice (see Start).
package affinity

import (
	"runtime"

	"golang.org/x/sys/unix"
)

// given is the processors the arbiter was given when it started (by
// taskset, a Slurm allocation, a container's cpuset), before any pin.
var given unix.CPUSet

var known = unix.SchedGetaffinity(0, &given) == nil

// CPUs lists the processors the arbiter was given; nil where they cannot be
// read.
func CPUs() []int {
	if !known {
		return nil
	}
	return list(given)
}

// Pin keeps the calling goroutine's thread on processor cpu until restore
// is called. The caller must have locked the goroutine to its thread
// (runtime.LockOSThread) for as long.
func Pin(cpu int) (restore func()) {
	var one unix.CPUSet
	one.Set(cpu)
	if !known || unix.SchedSetaffinity(0, &one) != nil {
		return func() {}
	}
	return func() { unix.SchedSetaffinity(0, &given) }
}

// Start runs start, which starts a process, on the calling goroutine's
// thread allowed only the processors cpus (all that the arbiter was given
// when cpus is empty), so that the process begins there and keeps them:
// a process inherits its parent thread's processors, and a table's thread
// may be pinned to another one. The thread's own processors are restored.
//
// A process started on given processors (a table's: its engine shares the
// processor with the table's thread, which waits for its answers) also
// begins with the short slice, and its threads and children inherit it
// (see Unhurry): the command that wakes it runs it at once, ahead of the
// thread that wrote the command. With the kernel's default slice that
// thread often ran on into its wait for the answer and then slept and woke
// again, two more system calls and a wake-up a move (docs/performance.md).
// The engine loses nothing by it: the slice orders who runs first after a
// wake-up, not how much processor time each gets.
func Start(cpus []int, start func() error) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if len(cpus) > 0 && setSlice(0, shortSlice) == nil {
		defer setSlice(0, 0)
	}
	want := given
	if len(cpus) > 0 {
		want = unix.CPUSet{}
		for _, c := range cpus {
			want.Set(c)
		}
	}
	var cur unix.CPUSet
	if !known || unix.SchedGetaffinity(0, &cur) != nil || cur == want {
		return start()
	}
	if unix.SchedSetaffinity(0, &want) != nil {
		return start()
	}
	defer unix.SchedSetaffinity(0, &cur)
	return start()
}

// Free lets thread tid (a thread of any process) run on every processor
// the arbiter was given, as a process Start(nil) starts does.
func Free(tid int) error {
	if !known {
		return nil
	}
	return unix.SchedSetaffinity(tid, &given)
}

// shortSlice is the scheduler slice (Linux 6.12 and later: EEVDF's custom
// slice of sched_setattr) of an engine started on its table's processor:
// the shortest the kernel takes. Earlier kernels ignore it.
const shortSlice = 100_000 // ns

// Unhurry gives thread tid (of any process) the kernel's default slice
// again: for an engine's threads once it runs more than one, which then
// share its processor with each other, where short slices would only
// switch between them more often.
func Unhurry(tid int) error { return setSlice(tid, 0) }

// setSlice sets thread tid's (0: the caller's) scheduler slice to ns
// nanoseconds, the kernel's default for 0, keeping its policy and nice
// value; a thread under a real-time policy is left as it is.
func setSlice(tid int, ns uint64) error {
	a, err := unix.SchedGetAttr(tid, 0)
	if err != nil {
		return err
	}
	switch a.Policy {
	case unix.SCHED_NORMAL, unix.SCHED_BATCH, unix.SCHED_IDLE:
	default:
		return nil
	}
	a.Size, a.Runtime, a.Deadline, a.Period = unix.SizeofSchedAttr, ns, 0, 0
	return unix.SchedSetAttr(tid, a, 0)
}

// Of lists the processors process (or thread) pid may run on; 0 is the
// calling thread.
func Of(pid int) ([]int, error) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(pid, &set); err != nil {
		return nil, err
	}
	return list(set), nil
}

// list lists the processors in s.
func list(s unix.CPUSet) []int {
	var cpus []int
	for c := 0; c < len(s)*64 && len(cpus) < s.Count(); c++ {
		if s.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	return cpus
}
