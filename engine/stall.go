package engine

import (
	"fmt"
	"time"

	"gomoku-arena/clock"
)

// The arbiter's own stalls (clock.Stalled) are not the engine's: a deadline
// that passed while the arbiter was not running is moved back by the stall
// before the engine is said to have timed out, and the think time reported
// leaves stalls out, with a note for the record.

// forgive moves the exchange's deadline back by the stalls since it began
// that it has not yet allowed for; it reports whether there were any.
func (x *exchange) forgive() bool {
	s := clock.Stalled(x.began)
	if s <= x.forgiven {
		return false
	}
	x.deadline = x.deadline.Add(s - x.forgiven)
	x.forgiven = s
	if !x.lingering {
		x.until = x.deadline
	}
	return true
}

// think is the think time of a move request written at sent: the wall time
// since, less the arbiter's stalls in it, each noted.
func (x *exchange) think(sent time.Time) time.Duration {
	now := time.Now()
	d := now.Sub(sent)
	if s := clock.StalledUntil(sent, now); s > 0 {
		d = max(0, d-s)
		x.notes.add(fmt.Sprintf("warning: the arbiter did not run for %v while this engine was on move; not charged", s.Round(time.Millisecond)))
	}
	return d
}

// wrote marks the end of writing a move request, where think time starts;
// stalls before it no longer count against the engine.
func (x *exchange) wrote() time.Time {
	now := time.Now()
	x.began, x.forgiven = now, 0
	return now
}
