package engine

import (
	"fmt"
	"os"
	"testing"
	"time"

	"gomoku-arena/internal/affinity"
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
