package clock

import (
	"sync"
	"time"
)

// The arbiter's own stalls: times when its process, or the whole machine,
// did not run (SIGSTOP and SIGCONT, a debugger, a paused virtual machine, a
// laptop lid, swapping), so it could not have seen an engine's answer. An
// engine must not lose time to them: the engine package stops its wait for a
// move at a deadline only once it has checked that no stall ate into it, and
// takes stalls out of the think time it reports (Reply.Elapsed), with a note
// in the record. A stall's time is charged to nobody: an engine that was
// thinking during one gets that thinking for free, which is the lesser harm.
//
// Stalls are seen by a heartbeat: a goroutine that wakes every Beat and
// notes each gap between wakes longer than StallThreshold, from a Beat
// after the last wake (so a stall is seen to within a Beat, and never as
// longer than it was). This is the one part of the package that reads the
// wall clock (the monotonic reading). The heartbeat is what wakes the
// arbiter while engines think: each wake costs the Go runtime tens of
// microseconds of processor time (at a 10 ms beat, about 1% of a
// processor), so it beats no more often than a stall's precision needs.
const (
	Beat           = 50 * time.Millisecond
	StallThreshold = 250 * time.Millisecond
	maxStalls      = 256 // the most recent stalls kept
)

var heart struct {
	once   sync.Once
	mu     sync.Mutex
	base   time.Time
	last   time.Duration // since base, of the last beat
	stalls []span
}

type span struct{ from, to time.Duration }

// Watch starts the heartbeat, once per process; stalls before it are not
// seen.
func Watch() {
	heart.once.Do(func() {
		heart.mu.Lock()
		heart.base = time.Now()
		heart.mu.Unlock()
		go func() {
			for {
				time.Sleep(Beat)
				heart.mu.Lock()
				now := time.Since(heart.base)
				if now-heart.last > StallThreshold {
					heart.stalls = append(heart.stalls, span{heart.last + Beat, now})
					if len(heart.stalls) > maxStalls {
						heart.stalls = heart.stalls[len(heart.stalls)-maxStalls:]
					}
				}
				heart.last = now
				heart.mu.Unlock()
			}
		}()
	})
}

// Stalled is how long the arbiter did not run since the moment from,
// including a stall it is only now coming out of (the heartbeat has not yet
// woken). It is 0 until Watch has been called.
func Stalled(from time.Time) time.Duration {
	return StalledUntil(from, time.Now())
}

// StalledUntil is Stalled for a caller that has just read the clock (now):
// a move's clock readings are a few per cent of the arbiter's time per
// move of an instant engine.
func StalledUntil(from, at time.Time) time.Duration {
	heart.mu.Lock()
	defer heart.mu.Unlock()
	if heart.base.IsZero() {
		return 0
	}
	f := from.Sub(heart.base)
	now := at.Sub(heart.base)
	var total time.Duration
	add := func(s span) {
		if s.from < f {
			s.from = f
		}
		if s.to > s.from {
			total += s.to - s.from
		}
	}
	for i := len(heart.stalls) - 1; i >= 0 && heart.stalls[i].to > f; i-- {
		add(heart.stalls[i])
	}
	if now-heart.last > StallThreshold {
		add(span{heart.last + Beat, now})
	}
	return total
}
