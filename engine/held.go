package engine

import (
	"strconv"
	"time"

	"gomoku-arena/internal/affinity"
)

// An engine started on its table's processor (Spec.CPUs) shares it with the
// table's thread: it begins with the kernel's short scheduler slice
// (affinity.Start), so that the command that wakes it runs it at once and
// its answer is there when the table reads (no poll, no second wake-up);
// and a table with processors to spare holds it to that processor only
// while it runs one thread (Spec.CPUsOneThread): an instant engine then
// answers on the processor its table writes from, and the pipe round trip
// of a move wakes no other processor (at one game at a time, half the
// arbiter's processor time per move; docs/performance.md), while an engine
// that searches on several threads must get the processors it was given.
// Both last while the engine runs one thread. Settle's looks at an
// engine's processes (settle.go) see its thread count: those before each
// command on probation, and one at the start of a game (at most every
// heldLookEvery). The first that finds a process of the engine running
// more than one thread lets every thread of every process it reaches run
// on every processor (when held) with the default slice, for good;
// threads they start later inherit that. An engine that starts its
// threads when it starts, or at its first search, is so let go before its
// second move; one that starts them after its probation, at the start of
// a game at most heldLookEvery after.

// freeTasks bounds the threads of one process that freeIfThreaded lets go:
// what the engine spawns costs the arbiter once, and a bounded amount.
const freeTasks = 4096

// freePasses bounds the listings of a process's threads when it is let go.
const freePasses = 8

// heldLookEvery spaces the looks at a held engine at the start of its
// games: a look reads two /proc files or more (a few per cent of the
// arbiter's processor time per game of an instant engine, looked at every
// game), and an engine that starts threads after its probation is let go
// at most this long after its next game began.
const heldLookEvery = 100 * time.Millisecond

// heldLook is the look at a held (or short-sliced) engine at the start of
// a game, unless one was made less than heldLookEvery ago: it lets the
// engine go when it runs more than one thread.
func (p *proc) heldLook() {
	if !p.held && !p.short {
		return
	}
	now := time.Now()
	if now.Sub(p.looked) < heldLookEvery {
		return
	}
	p.looked = now
	if p.lone() { // one thread, no child (settle.go): nothing to let go
		return
	}
	lk := lookers.Get().(*looker)
	defer lookers.Put(lk)
	lk.own = &p.leader
	defer func() { lk.own = nil }()
	lk.look(p.pid, false)
	p.threaded = p.threaded || lk.many
	p.freeIfThreaded()
}

// freeIfThreaded lets a held engine seen running more than one thread run
// on every processor, and gives its threads the default slice.
func (p *proc) freeIfThreaded() {
	if !p.held && !p.short || !p.threaded {
		return
	}
	held, short := p.held, p.short
	p.held, p.short = false, false
	lk := lookers.Get().(*looker)
	defer lookers.Put(lk)
	lk.own = &p.leader
	defer func() { lk.own = nil }()
	procs := [settleLookProcs]int{p.pid}
	n := 1
	for i := 0; i < n; i++ {
		pid := strconv.Itoa(procs[i])
		// Listed again until no thread is new: a thread that one not yet
		// let go starts meanwhile inherits its processor and slice.
		done := map[string]bool{}
		for range freePasses {
			fresh := false
			for _, tid := range taskIDs(pid, freeTasks) {
				if done[tid] {
					continue
				}
				done[tid], fresh = true, true
				if id, err := strconv.Atoi(tid); err == nil { // best effort: a thread may have ended
					if held {
						affinity.Free(id)
					}
					if short {
						affinity.Unhurry(id)
					}
				}
			}
			if !fresh {
				break
			}
		}
		for _, c := range fieldsOf(lk.leaderRead(pid, i == 0, leaderChildren)) {
			if n == len(procs) {
				break
			}
			if id, err := strconv.Atoi(c); err == nil {
				procs[n] = id
				n++
			}
		}
	}
}
