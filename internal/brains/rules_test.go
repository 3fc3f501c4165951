package brains

import (
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"gomoku-arena/rules"
)

// Under renju Black never plays a forbidden point, even the one the
// heuristic likes best (here a 3-3 at G8, from RULES.md's table).
func TestRenjuAvoidsForbidden(t *testing.T) {
	renju := ruleOf(t, "renju")
	p := position(t,
		"...............",
		"...............",
		"...............",
		"...............",
		"...............",
		"......X........", // G10
		"......X........", // G9
		"....XX.........", // E8 F8; G8 is 6,7
		"...............",
		"...............",
		"...............",
		"...............",
		"O.O............",
		"...............",
		"O.O............",
	)
	g8 := rules.Point{X: 6, Y: 7}
	if v := renju.Play(p.Clone(), g8); !v.Illegal {
		t.Fatalf("test position: G8 should be forbidden, got %+v", v)
	}
	free := ruleOf(t, "freestyle")
	if m, _ := choose(greedyEngine{}, free, p, exactFives(free), quick()); m != g8 {
		t.Logf("note: under freestyle greedy plays %v, not G8", m)
	}
	for _, name := range Names() {
		for seed := int64(0); seed < 5; seed++ {
			eng := makers[name](settings{seed: seed})
			m, ok := choose(eng, renju, p, exactFives(renju), quick())
			if !ok {
				t.Fatalf("%s: no move", name)
			}
			if v := renju.Play(p.Clone(), m); v.Illegal {
				t.Errorf("%s (seed %d) played %v: %s", name, seed, m, v.Reason)
			}
		}
	}
}

// Under pente, with eight stones captured, greedy and search take the
// capture that wins rather than play on.
func TestPenteCaptureWin(t *testing.T) {
	pente := ruleOf(t, "pente")
	p := position(t,
		".........",
		".........",
		"..XOO....", // X at 2,2 brackets O O with 5,2
		".........",
		"....X....",
		"...O.X...",
		".........",
		"....O....",
		"..X......",
	)
	p.Captures[p.ToMove()] = 8
	for _, name := range []string{"greedy", "search"} {
		m, ok := choose(engineOf(name), pente, p, exactFives(pente), quick())
		v := pente.Play(p.Clone(), m)
		if !ok || !v.Over || v.Reason != rules.CaptureWin {
			t.Errorf("%s played %v (%+v), want the capture win at 5,2", name, m, v)
		}
	}
}

// After BOARD reports a capture, the rebuilt position has the stones the
// arbiter listed and keeps count of the capture.
func TestBoardAfterCapture(t *testing.T) {
	pente := ruleOf(t, "pente")
	var out strings.Builder
	s := newSession(engineOf("greedy"), settings{seed: 1}, strings.NewReader(""), &out)
	s.ruleName = "pente"
	s.setRule()
	s.size = 9
	s.newGame()
	// Black 4,4; White 4,5; Black 1,1 (third stone outside the centre);
	// White 4,6; we are Black and play 4,7, capturing 4,5 and 4,6.
	for _, m := range pts(4, 4, 4, 5, 1, 1, 4, 6) {
		if v := pente.Play(s.pos, m); v.Illegal {
			t.Fatalf("setup %v: %s", m, v.Reason)
		}
	}
	s.me = rules.Black
	if v := pente.Play(s.pos, rules.Point{X: 4, Y: 7}); len(v.Captured) != 2 {
		t.Fatalf("setup capture: %+v", v)
	}
	// White answers 0,0; the arbiter re-sends the whole position.
	s.rebuild([]boardStone{{rules.Point{X: 4, Y: 4}, 1}, {rules.Point{X: 1, Y: 1}, 1}, {rules.Point{X: 4, Y: 7}, 1}, {rules.Point{X: 0, Y: 0}, 2}})
	if s.me != rules.Black || s.pos.ToMove() != rules.Black {
		t.Errorf("colour: me %v, to move %v", s.me, s.pos.ToMove())
	}
	if s.pos.Captures[rules.Black] != 2 {
		t.Errorf("captures by Black = %d, want 2", s.pos.Captures[rules.Black])
	}
	if s.pos.Board.At(rules.Point{X: 4, Y: 5}) != rules.Empty || s.pos.Board.At(rules.Point{X: 0, Y: 0}) != rules.White {
		t.Errorf("board not rebuilt")
	}
	// A fresh engine told the same position infers the smallest consistent
	// capture count.
	s.newGame()
	s.rebuild([]boardStone{{rules.Point{X: 4, Y: 4}, 1}, {rules.Point{X: 1, Y: 1}, 1}, {rules.Point{X: 4, Y: 7}, 1}, {rules.Point{X: 0, Y: 0}, 2}})
	if s.me != rules.Black || s.pos.ToMove() != rules.Black || s.pos.Captures[rules.Black] != 2 {
		t.Errorf("fresh rebuild: me %v, to move %v, captures %v", s.me, s.pos.ToMove(), s.pos.Captures)
	}
}

func TestBudget(t *testing.T) {
	ms := time.Millisecond
	cases := []struct {
		name                  string
		turn, match, left, fx int64
		want                  time.Duration
	}{
		{"untimed", -1, -1, -1, 0, 200*ms - 20*ms - 30*ms},
		{"turn limit", 1000, 0, unlimited, 0, 1000*ms - 100*ms - 30*ms},
		{"instant", 0, 0, unlimited, 0, 0},
		{"time left", 5000, 100000, 2500, 0, 100*ms - 10*ms - 20*ms},
		{"match, no time_left", -1, 80000, -1, 0, 2000*ms - 200*ms - 30*ms},
		{"fixed setting", 5000, 0, -1, 50, 50*ms - 5*ms - 10*ms},
	}
	for _, tc := range cases {
		s := newSession(engineOf("search"), settings{timeMS: tc.fx}, strings.NewReader(""), io.Discard)
		s.turnMS, s.matchMS, s.leftMS = tc.turn, tc.match, tc.left
		if got := s.budget(); got != tc.want {
			t.Errorf("%s: budget %v, want %v", tc.name, got, tc.want)
		}
	}
}

// INFO rule and rule_name choose the rule; an unknown name falls back.
func TestRuleSelection(t *testing.T) {
	cases := []struct {
		code int
		name string
		want string
	}{
		{0, "", "freestyle"},
		{1, "", "standard"},
		{4, "", "renju"},
		{2, "", "renju"},
		{8, "", "caro"},
		{9, "", "caro-exact"},
		{0, "outer-open", "outer-open"},
		{1, "pente", "pente"},
		{0, "keryo-pente", "keryo-pente"},
		{1, "no-such-rule", "freestyle"},
	}
	for _, tc := range cases {
		if _, err := rules.ByName(tc.want); err != nil {
			continue
		}
		in := "INFO rule " + strconv.Itoa(tc.code) + "\n"
		if tc.name != "" {
			in += "INFO rule_name " + tc.name + "\n"
		}
		s := newSession(engineOf("random"), settings{}, strings.NewReader(in), io.Discard)
		s.run()
		if s.rule.Name() != tc.want {
			t.Errorf("rule %d name %q: got %s, want %s", tc.code, tc.name, s.rule.Name(), tc.want)
		}
	}
}
