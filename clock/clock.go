// Package clock owns time accounting for one game: each side's match time,
// the per-move limit, the increment and the tolerance that separates a late
// move from a hung engine. Its accounting is pure: it never reads the wall
// clock. The arbiter measures each move's think time and charges it here.
// The one exception is the heartbeat that notices the arbiter's own stalls
// (stall.go), which are never charged to an engine.
//
// What counts as think time: the wall time from the moment the arbiter has
// finished writing the move request (BEGIN, TURN or BOARD...DONE) to the
// moment it reads the engine's move line. Process start-up and the START
// handshake are not charged; they have their own start-up timeout. The
// opponent's turn is never charged.
//
// A move is on time when its think time is within the side's budget: the
// time left on its clock (and the per-move limit, when one is set) plus the
// tolerance. A move inside the tolerance is accepted and charged (the clock
// stops at zero); past it the side loses on time, and the arbiter stops
// waiting at that very moment, so a hung engine loses without answering.
// Even an untimed game never waits forever: each move is capped by Hang.
//
// A Clock is one side's: the game keeps one per player and charges each
// move to the clock of the engine that made it, whatever colour it plays
// (an opening procedure may settle colours late). The clock knows nothing of
// colours or of the protocol: what engines are told of it (timeout_turn,
// time_left...) is written by package engine (engine/info.go).
package clock

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Defaults.
const (
	DefaultMatch     = 20 * time.Minute // per side per game, sudden death
	DefaultTolerance = time.Second
	DefaultHang      = 5 * time.Minute
)

// MaxDuration is the longest setting a Control may have: 2147483647 ms
// (596h31m23.647s), the most the protocol's millisecond times carry to
// engines that read them as 32-bit integers. The clock's own sums saturate
// besides, so no setting, however large, turns into a negative budget.
const MaxDuration = math.MaxInt32 * time.Millisecond

// Control is a time control.
type Control struct {
	Match     time.Duration // per side per game; 0 = no match clock
	Turn      time.Duration // per move; 0 = no per-move limit
	Increment time.Duration // added after each move when Match > 0
	Tolerance time.Duration // grace past a budget before a move counts as late
	Hang      time.Duration // the longest the arbiter waits for one move, timed or not; 0 = DefaultHang
}

// Default is the control of a side whose settings give none of their
// own: DefaultMatch, sudden death, with DefaultTolerance (Hang 0 is
// DefaultHang, HangLimit). Every front end starts from it and sets on top
// what it is given (an event file's [clock] tables, arena match's flags),
// so the defaults are applied here once.
func Default() Control { return Control{Match: DefaultMatch, Tolerance: DefaultTolerance} }

// Validate rejects impossible controls: a negative setting, or one longer
// than MaxDuration.
// The error is a *SettingError, which names the setting so that each
// front end can say where it was given (a config's line, a flag).
func (c Control) Validate() error {
	for _, f := range []struct {
		name string
		d    time.Duration
	}{{"match", c.Match}, {"turn", c.Turn}, {"increment", c.Increment}, {"tolerance", c.Tolerance}, {"hang", c.Hang}} {
		if err := CheckDuration(f.d); err != nil {
			return &SettingError{Setting: f.name, Problem: err.Error()}
		}
	}
	if c.Increment > 0 && c.Match == 0 {
		return &SettingError{Setting: "increment", Problem: fmt.Sprintf("%v needs a match time", c.Increment)}
	}
	return nil
}

// SettingError is a setting of a Control that cannot be used.
type SettingError struct {
	Setting string // match, turn, increment, tolerance or hang, as configs and flags call it
	Problem string
}

func (e *SettingError) Error() string { return "clock " + e.Setting + ": " + e.Problem }

// CheckDuration rejects a setting below 0 or above MaxDuration.
func CheckDuration(d time.Duration) error {
	switch {
	case d < 0:
		return fmt.Errorf("negative duration %v", d)
	case d > MaxDuration:
		return fmt.Errorf("%v is longer than %v, the longest time the protocol carries (2147483647 ms)", d, MaxDuration)
	}
	return nil
}

// add is a + b for durations that are not negative, saturating at the
// largest Duration instead of overflowing into a negative one.
func add(a, b time.Duration) time.Duration {
	if b > 0 && a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// Timed reports whether any limit applies besides the hang cap.
func (c Control) Timed() bool { return c.Match > 0 || c.Turn > 0 }

// HangLimit is the longest the arbiter waits for one move: Hang, or
// DefaultHang when the control sets none.
func (c Control) HangLimit() time.Duration {
	if c.Hang > 0 {
		return c.Hang
	}
	return DefaultHang
}

// ToleranceOrDefault is Tolerance, or Default's when the control sets
// none: the grace of a wait that is not a game's move (a check's probe).
func (c Control) ToleranceOrDefault() time.Duration {
	if c.Tolerance > 0 {
		return c.Tolerance
	}
	return Default().Tolerance
}

// String renders the control as match/turn+increment, e.g. "20m0s/0s+0s".
func (c Control) String() string {
	return fmt.Sprintf("%v/%v+%v", c.Match, c.Turn, c.Increment)
}

// Clock is one side's clock in one game.
type Clock struct {
	ctl  Control
	left time.Duration
}

// New starts a clock with the full match time.
func New(ctl Control) *Clock { return &Clock{ctl: ctl, left: ctl.Match} }

// Control is the time control the clock runs.
func (c *Clock) Control() Control { return c.ctl }

// Left is the time left on the clock (0 when there is no match clock).
func (c *Clock) Left() time.Duration { return c.left }

// Budget is how long the arbiter waits for the side's next move before it
// declares the move late: the tightest limit plus the tolerance, and never
// more than the hang cap.
func (c *Clock) Budget() time.Duration {
	limit := c.ctl.HangLimit()
	if c.ctl.Match > 0 {
		limit = min(limit, add(c.left, c.ctl.Tolerance))
	}
	if c.ctl.Turn > 0 {
		limit = min(limit, add(c.ctl.Turn, c.ctl.Tolerance))
	}
	return limit
}

// Charge books a move's think time. It reports false when the move was late
// past the tolerance: the side has lost on time.
func (c *Clock) Charge(think time.Duration) bool {
	if think > c.Budget() {
		return false
	}
	if c.ctl.Match > 0 {
		c.left = add(max(0, c.left-think), c.ctl.Increment)
	}
	return true
}

// Human writes a duration as people write one: "250 ms", "1.67 s",
// "20 min", "1 min 30 s", "2 h 5 min"; never Go's "1m0s" or
// "1.668483385s". The page, the terminal and the live page write every
// clock and think time with it.
func Human(d time.Duration) string {
	neg := ""
	if d < 0 {
		neg, d = "-", -d
	}
	trim := func(f float64) string {
		s := strconv.FormatFloat(f, 'f', 2, 64)
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
		return s
	}
	switch {
	case d == 0:
		return "0 s"
	case d < time.Second:
		return neg + trim(float64(d)/float64(time.Millisecond)) + " ms"
	case d < time.Minute:
		return neg + trim(d.Seconds()) + " s"
	case d < time.Hour:
		m, s := d/time.Minute, (d%time.Minute+time.Second/2)/time.Second
		if s == 60 {
			m, s = m+1, 0
		}
		if m == 60 {
			return neg + "1 h"
		}
		if s == 0 {
			return fmt.Sprintf("%s%d min", neg, m)
		}
		return fmt.Sprintf("%s%d min %d s", neg, m, s)
	}
	h, m := d/time.Hour, (d%time.Hour+time.Minute/2)/time.Minute
	if m == 60 {
		h, m = h+1, 0
	}
	if m == 0 {
		return fmt.Sprintf("%s%d h", neg, h)
	}
	return fmt.Sprintf("%s%d h %d min", neg, h, m)
}
