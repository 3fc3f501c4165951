package clock

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"gomoku-arena/rules"
)

func TestChargeAndBudget(t *testing.T) {
	s := time.Second
	type step struct {
		side  rules.Color
		think time.Duration
		ok    bool
		left  time.Duration // side's clock after the move
	}
	cases := []struct {
		name  string
		ctl   Control
		steps []step
	}{
		{"sudden death charges and stops at zero inside the tolerance",
			Control{Match: 10 * s, Tolerance: s},
			[]step{{rules.Black, 4 * s, true, 6 * s}, {rules.White, s, true, 9 * s},
				{rules.Black, 6*s + s/2, true, 0}, {rules.Black, s, true, 0}, {rules.Black, s + 1, false, 0}}},
		{"increment after each move",
			Control{Match: 10 * s, Increment: 2 * s, Tolerance: s},
			[]step{{rules.Black, 5 * s, true, 7 * s}, {rules.Black, 8 * s, true, 2 * s}, {rules.Black, 3*s + 1, false, 2 * s}}},
		{"per-move limit binds before the match clock",
			Control{Match: 100 * s, Turn: 5 * s, Tolerance: s},
			[]step{{rules.White, 6 * s, true, 94 * s}, {rules.White, 6*s + 1, false, 94 * s}}},
		{"per-move limit alone",
			Control{Turn: 2 * s, Tolerance: 0},
			[]step{{rules.Black, 2 * s, true, 0}, {rules.Black, 2*s + 1, false, 0}}},
		{"untimed still has the hang cap",
			Control{Hang: 30 * s},
			[]step{{rules.Black, 30 * s, true, 0}, {rules.Black, 31 * s, false, 0}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := New(tc.ctl)
			for i, st := range tc.steps {
				if ok := c.Charge(st.side, st.think); ok != st.ok {
					t.Fatalf("step %d: Charge(%v, %v) = %v, want %v", i, st.side, st.think, ok, st.ok)
				}
				if got := c.Left(st.side); got != st.left {
					t.Fatalf("step %d: left %v, want %v", i, got, st.left)
				}
			}
		})
	}
}

func TestGameInfosNeverSayPlayInstantly(t *testing.T) {
	for _, ctl := range []Control{{Match: 20 * time.Minute}, {}, {Turn: 5 * time.Second}, {Match: time.Minute, Increment: time.Second}} {
		for _, in := range ctl.GameInfos() {
			if in.Key == "timeout_turn" && in.Value == "0" {
				t.Errorf("%v: timeout_turn 0 tells engines to play instantly", ctl)
			}
		}
	}
	got := Control{Match: 20 * time.Minute}.GameInfos()
	if got[0] != (Info{"timeout_turn", "1200000"}) || got[1] != (Info{"timeout_match", "1200000"}) {
		t.Errorf("20m sudden death: %v", got)
	}
	c := New(Control{})
	if got := c.MoveInfos(rules.Black); got[0].Value != "2147483647" {
		t.Errorf("untimed time_left = %v", got)
	}
}

func TestValidate(t *testing.T) {
	if err := (Control{Match: -1}).Validate(); err == nil {
		t.Error("negative match time accepted")
	}
	if err := (Control{Increment: time.Second}).Validate(); err == nil {
		t.Error("increment without match time accepted")
	}
	if err := (Control{Match: time.Minute, Increment: time.Second}).Validate(); err != nil {
		t.Error(err)
	}
}

// A match time near the largest Duration plus a tolerance overflowed into a
// negative budget ("no move within -2562047h…"): Validate now refuses
// settings past MaxDuration, and the sums saturate even for a Control that
// skipped Validate.
func TestHugeSettingsNeverTurnNegative(t *testing.T) {
	huge := Control{Match: 2562047 * time.Hour, Tolerance: time.Hour, Hang: 2562047 * time.Hour}
	if err := huge.Validate(); err == nil {
		t.Error("Validate accepts a 2562047h match time")
	}
	c := New(huge)
	if b := c.Budget(rules.Black); b <= 0 {
		t.Errorf("budget %v", b)
	}
	if !c.Charge(rules.Black, time.Second) {
		t.Error("a one-second move lost on time")
	}
	if err := (Control{Match: MaxDuration, Turn: MaxDuration, Increment: MaxDuration, Tolerance: MaxDuration, Hang: MaxDuration}).Validate(); err != nil {
		t.Errorf("the largest accepted settings: %v", err)
	}
	if err := (Control{Turn: MaxDuration + time.Millisecond}).Validate(); err == nil {
		t.Error("Validate accepts a turn past MaxDuration")
	}
}

// For any settings Validate accepts and any moves, the budget and the time
// left never go negative, and every time sent to an engine fits in the
// protocol's 32-bit milliseconds.
func TestAcceptedSettingsSaturate(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func() time.Duration {
		switch rng.IntN(4) {
		case 0:
			return 0
		case 1:
			return MaxDuration
		}
		return time.Duration(rng.Int64N(int64(MaxDuration) + 1))
	}
	for range 2000 {
		ctl := Control{Match: pick(), Turn: pick(), Increment: pick(), Tolerance: pick(), Hang: pick()}
		if ctl.Match == 0 {
			ctl.Increment = 0
		}
		if err := ctl.Validate(); err != nil {
			t.Fatalf("%+v: %v", ctl, err)
		}
		c := New(ctl)
		for _, in := range ctl.GameInfos() {
			checkMs(t, ctl, in)
		}
		for move := range 3000 { // pente games may run long
			side := []rules.Color{rules.Black, rules.White}[move%2]
			b := c.Budget(side)
			if b < 0 {
				t.Fatalf("%+v: move %d: budget %v", ctl, move, b)
			}
			think := time.Duration(rng.Int64N(int64(b) + 1))
			if rng.IntN(2) == 0 {
				think = 0
			}
			if !c.Charge(side, think) {
				t.Fatalf("%+v: move %d: %v within budget %v lost on time", ctl, move, think, b)
			}
			if c.Left(side) < 0 {
				t.Fatalf("%+v: move %d: left %v", ctl, move, c.Left(side))
			}
			for _, in := range c.MoveInfos(side) {
				checkMs(t, ctl, in)
			}
		}
	}
}

func checkMs(t *testing.T, ctl Control, in Info) {
	t.Helper()
	v, err := strconv.ParseInt(in.Value, 10, 64)
	if err != nil || v < 0 || v > math.MaxInt32 {
		t.Fatalf("%+v: INFO %s %s", ctl, in.Key, in.Value)
	}
}
