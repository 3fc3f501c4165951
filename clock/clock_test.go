package clock

import (
	"math/rand/v2"
	"testing"
	"time"
)

func TestChargeAndBudget(t *testing.T) {
	s := time.Second
	type step struct {
		think time.Duration
		ok    bool
		left  time.Duration // the clock after the move
	}
	cases := []struct {
		name  string
		ctl   Control
		steps []step
	}{
		{"sudden death charges and stops at zero inside the tolerance",
			Control{Match: 10 * s, Tolerance: s},
			[]step{{4 * s, true, 6 * s}, {6*s + s/2, true, 0}, {s, true, 0}, {s + 1, false, 0}}},
		{"increment after each move",
			Control{Match: 10 * s, Increment: 2 * s, Tolerance: s},
			[]step{{5 * s, true, 7 * s}, {8 * s, true, 2 * s}, {3*s + 1, false, 2 * s}}},
		{"per-move limit binds before the match clock",
			Control{Match: 100 * s, Turn: 5 * s, Tolerance: s},
			[]step{{6 * s, true, 94 * s}, {6*s + 1, false, 94 * s}}},
		{"per-move limit alone",
			Control{Turn: 2 * s, Tolerance: 0},
			[]step{{2 * s, true, 0}, {2*s + 1, false, 0}}},
		{"untimed still has the hang cap",
			Control{Hang: 30 * s},
			[]step{{30 * s, true, 0}, {31 * s, false, 0}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := New(tc.ctl)
			for i, st := range tc.steps {
				if ok := c.Charge(st.think); ok != st.ok {
					t.Fatalf("step %d: Charge(%v) = %v, want %v", i, st.think, ok, st.ok)
				}
				if got := c.Left(); got != st.left {
					t.Fatalf("step %d: left %v, want %v", i, got, st.left)
				}
			}
		})
	}
}

// Each side has a clock of its own: charging one leaves the other alone.
func TestSidesHaveClocksOfTheirOwn(t *testing.T) {
	ctl := Control{Match: 10 * time.Second, Tolerance: time.Second}
	black, white := New(ctl), New(ctl)
	black.Charge(4 * time.Second)
	if black.Left() != 6*time.Second || white.Left() != 10*time.Second {
		t.Errorf("after black's move: black %v, white %v", black.Left(), white.Left())
	}
	if black.Control() != ctl {
		t.Errorf("Control() = %v", black.Control())
	}
}

// The hang cap applies when a control sets none.
func TestHangLimit(t *testing.T) {
	if got := (Control{}).HangLimit(); got != DefaultHang {
		t.Errorf("default hang %v", got)
	}
	if got := (Control{Hang: time.Second}).HangLimit(); got != time.Second {
		t.Errorf("hang %v", got)
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
	if b := c.Budget(); b <= 0 {
		t.Errorf("budget %v", b)
	}
	if !c.Charge(time.Second) {
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
// left never go negative (engine's info tests check that what engines are
// told fits the protocol's 32-bit milliseconds).
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
		for move := range 3000 { // pente games may run long
			b := c.Budget()
			if b < 0 {
				t.Fatalf("%+v: move %d: budget %v", ctl, move, b)
			}
			think := time.Duration(rng.Int64N(int64(b) + 1))
			if rng.IntN(2) == 0 {
				think = 0
			}
			if !c.Charge(think) {
				t.Fatalf("%+v: move %d: %v within budget %v lost on time", ctl, move, think, b)
			}
			if c.Left() < 0 {
				t.Fatalf("%+v: move %d: left %v", ctl, move, c.Left())
			}
		}
	}
}

// Durations read as people write them.
func TestHuman(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0 s", 250 * time.Millisecond: "250 ms", 1668483385: "1.67 s", 5 * time.Second: "5 s",
		time.Minute: "1 min", 20 * time.Minute: "20 min", 90 * time.Second: "1 min 30 s", 2*time.Hour + 5*time.Minute: "2 h 5 min",
		time.Hour: "1 h", 59*time.Minute + 59*time.Second + 700*time.Millisecond: "1 h", -1500 * time.Millisecond: "-1.5 s",
	} {
		if got := Human(d); got != want {
			t.Errorf("Human(%v) = %q, want %q", d, got, want)
		}
	}
}

// The defaults every front end starts from are one value, and a probe's
// grace falls back to its tolerance only where the control has none.
func TestDefaultControl(t *testing.T) {
	d := Default()
	if d != (Control{Match: DefaultMatch, Tolerance: DefaultTolerance}) || d.HangLimit() != DefaultHang || d.Validate() != nil {
		t.Fatalf("Default() = %+v", d)
	}
	if g := (Control{}).ToleranceOrDefault(); g != DefaultTolerance {
		t.Errorf("no tolerance: %v, want %v", g, DefaultTolerance)
	}
	if g := (Control{Tolerance: 3 * time.Second}).ToleranceOrDefault(); g != 3*time.Second {
		t.Errorf("3s tolerance: %v", g)
	}
}
