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
package clock

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"gomoku-arena/rules"
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

func (c Control) hang() time.Duration {
	if c.Hang > 0 {
		return c.Hang
	}
	return DefaultHang
}

// String renders the control as match/turn+increment, e.g. "20m0s/0s+0s".
func (c Control) String() string {
	return fmt.Sprintf("%v/%v+%v", c.Match, c.Turn, c.Increment)
}

// Info is one INFO key and value an engine is told.
type Info struct{ Key, Value string }

// ms is d in whole milliseconds, at most 2147483647 (what "no limit" is in
// time_left): a clock grown by increments is never sent as a number an
// engine's 32-bit integer cannot hold.
func ms(d time.Duration) string { return strconv.FormatInt(min(d.Milliseconds(), unlimited), 10) }

// unlimited is what the protocol sends for "no limit" in time_left.
const unlimited = math.MaxInt32

// GameInfos are the INFO lines sent before a game. timeout_turn is never 0 in
// a game with a clock, since engines read 0 as "play instantly": without a
// per-move limit they are told the match time, and without any clock the
// hang cap.
func (c Control) GameInfos() []Info {
	turn := c.Turn
	if turn == 0 {
		turn = c.Match
	}
	if turn == 0 {
		turn = c.hang()
	}
	infos := []Info{{"timeout_turn", ms(turn)}, {"timeout_match", ms(c.Match)}}
	if c.Increment > 0 {
		infos = append(infos, Info{"time_increment", ms(c.Increment)})
	}
	return infos
}

// Clock is the state of both sides' clocks in one game.
type Clock struct {
	ctl  Control
	left [3]time.Duration // indexed by rules.Color
}

// New starts both sides with the full match time.
func New(ctl Control) *Clock {
	c := &Clock{ctl: ctl}
	c.left[rules.Black], c.left[rules.White] = ctl.Match, ctl.Match
	return c
}

// Left is the time left on side's clock (0 when there is no match clock).
func (c *Clock) Left(side rules.Color) time.Duration { return c.left[side] }

// Budget is how long the arbiter waits for side's next move before it
// declares the move late: the tightest limit plus the tolerance, and never
// more than the hang cap.
func (c *Clock) Budget(side rules.Color) time.Duration {
	limit := c.ctl.hang()
	if c.ctl.Match > 0 {
		limit = min(limit, add(c.left[side], c.ctl.Tolerance))
	}
	if c.ctl.Turn > 0 {
		limit = min(limit, add(c.ctl.Turn, c.ctl.Tolerance))
	}
	return limit
}

// MoveInfos are the INFO lines sent before each move request.
func (c *Clock) MoveInfos(side rules.Color) []Info {
	if c.ctl.Match == 0 {
		return []Info{{"time_left", strconv.Itoa(unlimited)}}
	}
	return []Info{{"time_left", ms(c.left[side])}}
}

// Charge books a move's think time to side. It reports false when the move
// was late past the tolerance: side has lost on time.
func (c *Clock) Charge(side rules.Color, think time.Duration) bool {
	if think > c.Budget(side) {
		return false
	}
	if c.ctl.Match > 0 {
		c.left[side] = add(max(0, c.left[side]-think), c.ctl.Increment)
	}
	return true
}
