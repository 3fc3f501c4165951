package engine

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"gomoku-arena/clock"
	"gomoku-arena/rules"
)

// What an engine is told of its time control never says "play instantly"
// (timeout_turn 0), and an untimed clock's time_left is the protocol's
// "no limit".
func TestClockInfos(t *testing.T) {
	for _, ctl := range []clock.Control{{Match: 20 * time.Minute}, {}, {Turn: 5 * time.Second}, {Match: time.Minute, Increment: time.Second}} {
		for _, in := range ClockInfos(ctl) {
			if in.Key == KeyTimeoutTurn && in.Value == "0" {
				t.Errorf("%v: timeout_turn 0 tells engines to play instantly", ctl)
			}
		}
	}
	cases := []struct {
		name string
		ctl  clock.Control
		want []Info
	}{
		{"sudden death", clock.Control{Match: 20 * time.Minute},
			[]Info{{"timeout_turn", "1200000"}, {"timeout_match", "1200000"}}},
		{"per move", clock.Control{Turn: 5 * time.Second},
			[]Info{{"timeout_turn", "5000"}, {"timeout_match", "0"}}},
		{"untimed: the hang cap", clock.Control{Hang: time.Minute},
			[]Info{{"timeout_turn", "60000"}, {"timeout_match", "0"}}},
		{"increment", clock.Control{Match: time.Minute, Turn: 10 * time.Second, Increment: time.Second},
			[]Info{{"timeout_turn", "10000"}, {"timeout_match", "60000"}, {"time_increment", "1000"}}},
	}
	for _, tc := range cases {
		if got := ClockInfos(tc.ctl); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	if got := TimeLeft(clock.New(clock.Control{})); got != (Info{"time_left", "2147483647"}) {
		t.Errorf("untimed time_left = %v", got)
	}
	c := clock.New(clock.Control{Match: 10 * time.Second, Tolerance: time.Second})
	c.Charge(2500 * time.Millisecond)
	if got := TimeLeft(c); got != (Info{"time_left", "7500"}) {
		t.Errorf("time_left = %v", got)
	}
}

// For any settings the clock accepts and any moves, every time an engine is
// told fits in the protocol's 32-bit milliseconds.
func TestClockInfosFitTheProtocol(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func() time.Duration {
		switch rng.IntN(4) {
		case 0:
			return 0
		case 1:
			return clock.MaxDuration
		}
		return time.Duration(rng.Int64N(int64(clock.MaxDuration) + 1))
	}
	check := func(ctl clock.Control, in Info) {
		t.Helper()
		v, err := strconv.ParseInt(in.Value, 10, 64)
		if err != nil || v < 0 || v > math.MaxInt32 {
			t.Fatalf("%+v: INFO %s %s", ctl, in.Key, in.Value)
		}
	}
	for range 500 {
		ctl := clock.Control{Match: pick(), Turn: pick(), Increment: pick(), Tolerance: pick(), Hang: pick()}
		if ctl.Match == 0 {
			ctl.Increment = 0
		}
		for _, in := range ClockInfos(ctl) {
			check(ctl, in)
		}
		c := clock.New(ctl)
		for range 300 {
			c.Charge(time.Duration(rng.Int64N(int64(c.Budget()) + 1)))
			check(ctl, TimeLeft(c))
		}
	}
}

// Rules with a Gomocup code are told by their code alone; rule_name goes
// only to rules without one.
func TestRuleInfosRuleNameOnlyWithoutCode(t *testing.T) {
	for _, name := range rules.Names() {
		r, _ := rules.ByName(name)
		infos := RuleInfos(r)
		if infos[0] != (Info{"rule", strconv.Itoa(r.Code())}) || infos[1] != (Info{"game_type", "2"}) {
			t.Errorf("%s: %v", name, infos)
		}
		var sent bool
		for _, in := range infos {
			if in.Key == KeyRuleName {
				sent = in.Value == name
			}
		}
		coded := name == "freestyle" || name == "standard" || name == "renju" || strings.HasPrefix(name, "caro")
		if sent == coded {
			t.Errorf("%s: rule_name sent %v", name, sent)
		}
	}
}

// A game's INFO lines come in the order the protocol page gives: the clock,
// the rule, the folder, then the entrant's own.
func TestGameInfosOrder(t *testing.T) {
	free, _ := rules.ByName("freestyle")
	got := GameInfos(clock.Control{Turn: time.Second}, free, "/e/alpha", []Info{MaxMemory(1 << 20), {"hash", "64"}})
	want := []Info{{"timeout_turn", "1000"}, {"timeout_match", "0"}, {"rule", "0"}, {"game_type", "2"},
		{"folder", "/e/alpha"}, {"max_memory", "1048576"}, {"hash", "64"}}
	if !slices.Equal(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
	if got := GameInfos(clock.Control{Turn: time.Second}, free, "", nil); len(got) != 4 {
		t.Errorf("no folder: %v", got)
	}
	if got := []Info{ThreadNum(4), MaxDepth(6), MaxNode(5000)}; !slices.Equal(got, []Info{{"thread_num", "4"}, {"max_depth", "6"}, {"max_node", "5000"}}) {
		t.Errorf("limits: %v", got)
	}
}

// Each key is told once: a default and the value that replaces it are
// never both sent, and the value kept is the last one given, in the place
// of the first.
func TestGameInfosTellEachKeyOnce(t *testing.T) {
	free, _ := rules.ByName("freestyle")
	got := GameInfos(clock.Control{Match: time.Minute}, free, "", []Info{MaxMemory(367001600), {"hash", "64"}, {"max_memory", "134217728"}, {"TIMEOUT_TURN", "1500"}})
	want := []Info{{"timeout_turn", "1500"}, {"timeout_match", "60000"}, {"rule", "0"}, {"game_type", "2"},
		{"max_memory", "134217728"}, {"hash", "64"}}
	if !slices.Equal(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}

// An INFO line read back is the line written; time_left less the time
// since is never negative, and the untimed value stays untimed.
func TestInfoLineRoundTrip(t *testing.T) {
	for _, in := range []Info{TimeLeft(clock.New(clock.Control{Match: time.Minute})), MaxMemory(1 << 20), Folder("/e/alpha")} {
		if got, ok := ParseInfo(in.Line()); !ok || got != in {
			t.Errorf("%q read back as %v, %v", in.Line(), got, ok)
		}
	}
	if _, ok := ParseInfo("TURN 7,7"); ok {
		t.Error("TURN read as an INFO line")
	}
	if got := TimeLeftLess(Info{KeyTimeLeft, "1500"}, 2*time.Second); got.Value != "0" {
		t.Errorf("1500 ms less 2 s: %v", got)
	}
	if got := TimeLeftLess(Info{KeyTimeLeft, "1500"}, 500*time.Millisecond); got.Value != "1000" {
		t.Errorf("1500 ms less 500 ms: %v", got)
	}
	if got := TimeLeftLess(TimeLeft(clock.New(clock.Control{})), time.Hour); got.Value != "2147483647" {
		t.Errorf("untimed: %v", got)
	}
}
