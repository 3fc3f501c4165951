package brains

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"gomoku-arena/rules"
)

// position sets up a board from a picture: X is the side to move, O the
// opponent, rows from the top. The move count is made consistent with the
// stones so X is to move.
func position(t testing.TB, pic ...string) *rules.Position {
	t.Helper()
	n := len(pic)
	var own, opp []rules.Point
	for y, row := range pic {
		row = strings.ReplaceAll(row, " ", "")
		if len(row) != n {
			t.Fatalf("row %d has %d points, want %d", y, len(row), n)
		}
		for x, ch := range row {
			switch ch {
			case 'X':
				own = append(own, rules.Point{X: x, Y: y})
			case 'O':
				opp = append(opp, rules.Point{X: x, Y: y})
			}
		}
	}
	// Interleave so that X ends up to move: X is Black if the counts are
	// equal, White if O has one more.
	var stones []boardStone
	for _, m := range own {
		stones = append(stones, boardStone{m, 1})
	}
	for _, m := range opp {
		stones = append(stones, boardStone{m, 2})
	}
	me := rules.Black
	if len(opp) == len(own)+1 {
		me = rules.White
	} else if len(opp) != len(own) {
		t.Fatalf("X has %d stones, O %d: X cannot be to move", len(own), len(opp))
	}
	colour := func(st boardStone) rules.Color {
		if st.field == 1 {
			return me
		}
		return me.Opponent()
	}
	return placed(n, stones, colour, me)
}

// pts is a list of points from x, y pairs.
func pts(xy ...int) []rules.Point {
	var ps []rules.Point
	for i := 0; i+1 < len(xy); i += 2 {
		ps = append(ps, rules.Point{X: xy[i], Y: xy[i+1]})
	}
	return ps
}

func ruleOf(t testing.TB, name string) rules.Rule {
	t.Helper()
	r, err := rules.ByName(name)
	if err != nil {
		t.Skipf("rule %s not available yet: %v", name, err)
	}
	return r
}

func engineOf(name string) engine {
	return makers[name](settings{seed: 1})
}

func quick() limits {
	return limits{start: time.Now(), budget: 100 * time.Millisecond}
}

func TestTactics(t *testing.T) {
	cases := []struct {
		name string
		pic  []string
		want []rules.Point // any of these
	}{
		{"win in one", []string{
			"...........",
			"...........",
			"...XXXX....",
			"...OOO.....",
			"..O........",
			"...........",
			"...........",
			"...........",
			"...........",
			"...........",
			"...........",
		}, pts(2, 2, 7, 2)},
		{"win beats block", []string{
			"O..........",
			"...........",
			"...XXXX....",
			"...........",
			"..OOOO.X...",
			"...........",
			"...........",
			"...........",
			"...........",
			"...........",
			"...........",
		}, pts(2, 2, 7, 2)},
		{"block a five", []string{
			"...........",
			"...........",
			"...........",
			"....X......",
			"..XOOOO....",
			"...X.......",
			"...........",
			"...........",
			"...........",
			"...........",
			"...........",
		}, pts(7, 4)},
		{"block a broken five", []string{
			"...........",
			"...........",
			"...........",
			"...X.......",
			"..XOO.OO...",
			"....X......",
			"...........",
			"...........",
			"...........",
			"...........",
			"...........",
		}, pts(5, 4)},
		{"make an open four", []string{
			"...........",
			"...........",
			"...........",
			"...........",
			"....XXX....",
			"...........",
			"....OO.....",
			"......O....",
			"...........",
			"...........",
			"...........",
		}, pts(3, 4, 7, 4)},
		{"stop an open three", []string{
			"...........",
			"...........",
			"...........",
			"...........",
			"....OOO....",
			"...........",
			"....X.X....",
			"...........",
			"...........",
			"...........",
			"...........",
		}, pts(3, 4, 7, 4, 2, 4, 8, 4)},
	}
	free := ruleOf(t, "freestyle")
	for _, name := range []string{"greedy", "search"} {
		for _, tc := range cases {
			t.Run(name+"/"+tc.name, func(t *testing.T) {
				p := position(t, tc.pic...)
				m, ok := choose(engineOf(name), free, p, exactFives(free), quick())
				if !ok || !containsPoint(tc.want, m) {
					t.Errorf("played %v (ok=%v), want one of %v", m, ok, tc.want)
				}
			})
		}
	}
}

// The same tactics through the protocol: BOARD in, move out.
func TestTacticsOverProtocol(t *testing.T) {
	for _, name := range []string{"greedy", "search"} {
		t.Run(name, func(t *testing.T) {
			e := startEngine(t, name, "time=50")
			e.send("START 15\n")
			e.read()
			// Own four on row 3 (x 3..6, open at 2 and 7) against a four of
			// the opponent's on row 9: win, do not block.
			e.send("BOARD\n3,3,1\n3,9,2\n4,3,1\n4,9,2\n5,3,1\n5,9,2\n6,3,1\n6,9,2\n0,0,1\nDONE\n")
			if m := parseMove(t, e.read(), 15); m != (rules.Point{X: 2, Y: 3}) && m != (rules.Point{X: 7, Y: 3}) {
				t.Errorf("win: played %v", m)
			}
			e.send("RESTART\n")
			e.read()
			e.send("BOARD\n3,3,2\n3,9,1\n4,3,2\n4,9,1\n5,3,2\n2,3,1\n6,3,2\nDONE\n")
			if m := parseMove(t, e.read(), 15); m != (rules.Point{X: 7, Y: 3}) {
				t.Errorf("block: played %v", m)
			}
		})
	}
}

// Under standard rules an overline does not win, so a five is the only win.
func TestExactFives(t *testing.T) {
	for _, tc := range []struct {
		rule         string
		black, white bool
	}{
		{"freestyle", false, false},
		{"standard", true, true},
		{"caro", false, false}, // code 8: an overline wins
		{"caro-exact", true, true},
		{"outer-open", false, false},
		{"renju", true, false},
	} {
		ex := exactFives(ruleOf(t, tc.rule))
		if ex[rules.Black] != tc.black || ex[rules.White] != tc.white {
			t.Errorf("%s: exact = %v, want black %v white %v", tc.rule, ex, tc.black, tc.white)
		}
	}
}

// Every engine plays legal games against itself under every rule the rules
// package knows, on its customary board.
func TestLegalUnderEveryRule(t *testing.T) {
	for _, rn := range rules.Names() {
		rule := ruleOf(t, rn)
		ex := exactFives(rule)
		for _, name := range Names() {
			t.Run(rn+"/"+name, func(t *testing.T) {
				eng := engineOf(name)
				p, _ := rules.NewPosition(rule.DefaultSize())
				for ply := 0; ply < 60; ply++ {
					m, ok := choose(eng, rule, p, ex, limits{start: time.Now(), budget: 10 * time.Millisecond})
					if !ok {
						t.Fatalf("move %d: no move", ply+1)
					}
					v := rule.Play(p, m)
					if v.Illegal {
						t.Fatalf("move %d %v illegal: %s", ply+1, m, v.Reason)
					}
					if v.Over {
						return
					}
				}
			})
		}
	}
}

func TestSearchRespectsBudget(t *testing.T) {
	free := ruleOf(t, "freestyle")
	p := position(t,
		"...............",
		"...............",
		"...............",
		"...............",
		"......O........",
		".....XOX.......",
		"......XO.......",
		".....O.X.......",
		"...............",
		"...............",
		"...............",
		"...............",
		"...............",
		"...............",
		"...............",
	)
	// A search whose budget is already spent must still answer, with a legal
	// move: the clock stops it, never an unfinished iteration. (No timing
	// assertion: the budget itself is what is tested.)
	for _, budget := range []time.Duration{0, time.Millisecond, 50 * time.Millisecond} {
		m, ok := choose(newSearchEngine(), free, p, exactFives(free), limits{start: time.Now().Add(-budget), budget: budget})
		if !ok || p.Board.At(m) != rules.Empty {
			t.Errorf("budget %v spent: move %v, ok %v", budget, m, ok)
		}
	}
}

func TestMaxDepthAndNodes(t *testing.T) {
	free := ruleOf(t, "freestyle")
	p := position(t,
		"...............",
		"...............",
		"...............",
		"...............",
		"......O........",
		".....XOX.......",
		"......XO.......",
		"...............",
		"...............",
		"...............",
		"...............",
		"...............",
		"...............",
		"...............",
		"...............",
	)
	s := newSearchEngine()
	r := newRoot(free, p, exactFives(free))
	_, _, depth := s.think(r.g, r.cands, limits{start: time.Now(), budget: time.Minute, depth: 3})
	if depth != 3 {
		t.Errorf("max depth 3: finished depth %d", depth)
	}
	s.think(r.g, r.cands, limits{start: time.Now(), budget: time.Minute, nodes: 500})
	if s.nodes > 500 {
		t.Errorf("max nodes 500: searched %d", s.nodes)
	}
}

func ExampleMain() {
	in := strings.NewReader("START 15\nINFO rule_name outer-open\nBEGIN\nEND\n")
	var out strings.Builder
	Main([]string{"greedy"}, in, &out)
	fmt.Print(strings.ReplaceAll(out.String(), "\r", ""))
	// Output:
	// OK
	// 7,1
}
