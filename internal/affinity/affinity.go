// Package affinity places the arbiter's own threads on processors: a table
// of games pinned to one (see arbiter.Director), and the engine processes
// it starts left free of that pin, on every processor the arbiter was given.
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
	var cpus []int
	for c := 0; c < len(given)*64 && len(cpus) < given.Count(); c++ {
		if given.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	return cpus
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

// Free runs start, which starts a process, with the calling thread allowed
// every processor the arbiter was given, so that the process does not
// inherit a pin: an engine's threads go where the kernel puts them.
func Free(start func() error) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var cur unix.CPUSet
	if !known || unix.SchedGetaffinity(0, &cur) != nil || cur == given {
		return start()
	}
	unix.SchedSetaffinity(0, &given)
	defer unix.SchedSetaffinity(0, &cur)
	return start()
}
