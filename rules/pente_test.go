package rules

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// penteDiagram builds a position from a drawn board (one string per row,
// top row first, spaces ignored): X and O are stones, x and o are stones the
// move is expected to capture, * is the move. Moves is padded so that toMove
// is to move and the opening restrictions are behind; Pente judges the board.
func penteDiagram(t testing.TB, rows []string, toMove Color) (p *Position, m Point, taken map[Point]bool) {
	t.Helper()
	size := len(rows)
	p, err := NewPosition(size)
	if err != nil {
		t.Fatal(err)
	}
	taken = map[Point]bool{}
	m = Point{-1, -1}
	for y, row := range rows {
		row = strings.ReplaceAll(row, " ", "")
		if len(row) != size {
			t.Fatalf("row %d has %d points, want %d", y, len(row), size)
		}
		for x, ch := range row {
			q := Point{x, y}
			switch ch {
			case 'X', 'x':
				p.Board.Set(q, Black)
			case 'O', 'o':
				p.Board.Set(q, White)
			case '*':
				m = q
			case '.':
			default:
				t.Fatalf("bad diagram character %q", ch)
			}
			if ch == 'x' || ch == 'o' {
				taken[q] = true
			}
		}
	}
	n := 10
	if toMove == White {
		n = 11
	}
	p.Moves = make([]Point, n)
	return p, m, taken
}

type penteCase struct {
	name     string
	rule     string
	toMove   Color
	before   int // the mover's captures before the move
	board    []string
	over     bool
	reason   Reason
	wantDraw bool
	moves    int // stones placed so far, when it matters
}

var penteCases = []penteCase{
	{name: "pair captured", rule: "pente", toMove: Black, board: []string{
		".......",
		".......",
		".......",
		".*ooX..",
		".......",
		".......",
		".......",
	}},
	{name: "pair captured on a diagonal, by White", rule: "pente", toMove: White, board: []string{
		".......",
		".O.....",
		"..x....",
		"...x...",
		"....*..",
		".......",
		".......",
	}},
	{name: "one stone is not captured", rule: "pente", toMove: Black, board: []string{
		".......",
		".......",
		".......",
		"..*OX..",
		".......",
		".......",
		".......",
	}},
	{name: "three stones are not captured in pente", rule: "pente", toMove: Black, board: []string{
		".......",
		".......",
		".......",
		".*OOOX.",
		".......",
		".......",
		".......",
	}},
	{name: "keryo captures three", rule: "keryo-pente", toMove: Black, board: []string{
		".......",
		".......",
		".......",
		".*oooX.",
		".......",
		".......",
		".......",
	}},
	{name: "keryo captures two", rule: "keryo-pente", toMove: Black, board: []string{
		".......",
		".......",
		"...X...",
		"...o...",
		"...o...",
		"...*...",
		".......",
	}},
	{name: "keryo does not capture four", rule: "keryo-pente", toMove: Black, board: []string{
		".......",
		".......",
		".......",
		"*OOOOX.",
		".......",
		".......",
		".......",
	}},
	{name: "a gap breaks the bracket", rule: "pente", toMove: Black, board: []string{
		".......",
		".......",
		".......",
		"*.OOX..",
		".......",
		".......",
		".......",
	}},
	{name: "an empty far end is no bracket", rule: "pente", toMove: Black, board: []string{
		".......",
		".......",
		".......",
		"..*OO..",
		".......",
		".......",
		".......",
	}},
	{name: "several pairs at once", rule: "pente", toMove: Black, board: []string{
		"X..X...",
		".o.o...",
		"..oo...",
		"...*OO.",
		"..O.o..",
		".....o.",
		"......X",
	}},
	{name: "eight pairs at once win", rule: "pente", toMove: Black, board: []string{
		"X..X..X",
		".o.o.o.",
		"..ooo..",
		"Xoo*ooX",
		"..ooo..",
		".o.o.o.",
		"X..X..X",
	}, over: true, reason: CaptureWin},
	{name: "keryo pairs and a three at once", rule: "keryo-pente", toMove: Black, board: []string{
		"...X...",
		"X..o...",
		".o.o...",
		"..oo...",
		"...*ooX",
		"...O...",
		"...X...",
	}},
	{name: "playing into a bracket is safe", rule: "pente", toMove: White, board: []string{
		".......",
		".......",
		".......",
		".XO*X..",
		".......",
		".......",
		".......",
	}},
	{name: "playing into a bracket still captures elsewhere", rule: "pente", toMove: White, board: []string{
		"...O...",
		"...x...",
		"...x...",
		".XO*X..",
		".......",
		".......",
		".......",
	}},
	{name: "capture along the top edge", rule: "pente", toMove: Black, board: []string{
		"*ooX...",
		".......",
		".......",
		".......",
		".......",
		".......",
		".......",
	}},
	{name: "capture into the corner", rule: "pente", toMove: Black, board: []string{
		".......",
		".......",
		".......",
		"...X...",
		"....o..",
		".....o.",
		"......*",
	}},
	{name: "capture away from the corner", rule: "pente", toMove: Black, board: []string{
		"X......",
		".o.....",
		"..o....",
		"...*...",
		".......",
		".......",
		".......",
	}},
	{name: "the edge does not bracket", rule: "pente", toMove: Black, board: []string{
		".......",
		".......",
		".......",
		"OO*....",
		".......",
		".......",
		".......",
	}},
	{name: "five wins", rule: "pente", toMove: Black, board: []string{
		".......",
		".......",
		".......",
		"XX*XX..",
		".......",
		".......",
		".......",
	}, over: true, reason: Five},
	{name: "overline wins", rule: "pente", toMove: White, board: []string{
		".......",
		".......",
		".......",
		"OOO*OO.",
		".......",
		".......",
		".......",
	}, over: true, reason: Five},
	{name: "four does not win", rule: "pente", toMove: Black, board: []string{
		".......",
		".......",
		".......",
		"XX*X...",
		".......",
		".......",
		".......",
	}},
	{name: "capture that also makes five", rule: "pente", toMove: Black, board: []string{
		"...X...",
		"...X...",
		"...X...",
		"...X...",
		"...*ooX",
		".......",
		".......",
	}, over: true, reason: Five},
	{name: "five beside a pair at the edge", rule: "pente", toMove: Black, board: []string{
		".......",
		".......",
		".......",
		"XXXX*OO",
		".......",
		".......",
		".......",
	}, over: true, reason: Five},
	{name: "capture and five in one move, bracketed", rule: "pente", toMove: Black, before: 8, board: []string{
		"........",
		"........",
		"........",
		"XXXX*ooX",
		"........",
		"........",
		"........",
		"........",
	}, over: true, reason: Five},
	{name: "capture win at exactly 10", rule: "pente", toMove: Black, before: 8, board: []string{
		".......",
		".......",
		".......",
		".*ooX..",
		".......",
		".......",
		".......",
	}, over: true, reason: CaptureWin},
	{name: "8 captures then a quiet move", rule: "pente", toMove: Black, before: 8, board: []string{
		".......",
		".......",
		".......",
		".*OO...",
		".......",
		".......",
		".......",
	}},
	{name: "6 + 2 captures is not a win", rule: "pente", toMove: White, before: 6, board: []string{
		".......",
		".......",
		".......",
		".*xxO..",
		".......",
		".......",
		".......",
	}},
	{name: "capture win by White, two pairs past 10", rule: "pente", toMove: White, before: 8, board: []string{
		".......",
		".......",
		".......",
		"Oxx*xxO",
		".......",
		".......",
		".......",
	}, over: true, reason: CaptureWin},
	{name: "keryo: 13 + 2 = 15 wins", rule: "keryo-pente", toMove: Black, before: 13, board: []string{
		".......",
		".......",
		".......",
		".*ooX..",
		".......",
		".......",
		".......",
	}, over: true, reason: CaptureWin},
	{name: "keryo: 12 + 3 = 15 wins", rule: "keryo-pente", toMove: Black, before: 12, board: []string{
		".......",
		".......",
		".......",
		".*oooX.",
		".......",
		".......",
		".......",
	}, over: true, reason: CaptureWin},
	{name: "keryo: 12 + 2 = 14 does not", rule: "keryo-pente", toMove: Black, before: 12, board: []string{
		".......",
		".......",
		".......",
		".*ooX..",
		".......",
		".......",
		".......",
	}},
	{name: "keryo: 10 captures do not win", rule: "keryo-pente", toMove: Black, before: 8, board: []string{
		".......",
		".......",
		".......",
		".*ooX..",
		".......",
		".......",
		".......",
	}},
	// The board is full but the game has had more moves than points:
	// stones were captured. Fullness is the board's, not the record's.
	{name: "full board is a draw", rule: "pente", toMove: Black, board: []string{
		"OXOOXOO",
		"XOXOXXX",
		"OOOXOXO",
		"OOOXXXO",
		"XXXOXOO",
		"XXXXOOX",
		"XOOOXX*",
	}, over: true, reason: FullBoard, wantDraw: true, moves: 60},
	{name: "a capture on the last point empties it again", rule: "pente", toMove: Black, board: []string{
		"OXOOXOO",
		"XOXOXXX",
		"OOOXOXO",
		"OOOXXXO",
		"XXXOoOO",
		"XXXXOoX",
		"XOOOXX*",
	}},
}

func TestPenteCases(t *testing.T) {
	for _, tc := range penteCases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := ByName(tc.rule)
			if err != nil {
				t.Fatal(err)
			}
			p, m, taken := penteDiagram(t, tc.board, tc.toMove)
			p.Captures[tc.toMove] = tc.before
			if tc.moves > 0 {
				p.Moves = make([]Point, tc.moves)
			}
			moves := len(p.Moves)
			v := r.Play(p, m)
			if v.Over != tc.over || v.Reason != tc.reason || v.Illegal {
				t.Errorf("verdict %+v, want over=%v reason %q", v, tc.over, tc.reason)
			}
			if v.Over && !tc.wantDraw && v.Winner != tc.toMove {
				t.Errorf("winner %v, want the mover %v", v.Winner, tc.toMove)
			}
			if tc.wantDraw && v.Winner != Empty {
				t.Errorf("winner %v, want a draw", v.Winner)
			}
			got := map[Point]bool{}
			for _, q := range v.Captured {
				got[q] = true
			}
			if len(got) != len(v.Captured) || len(got) != len(taken) {
				t.Errorf("captured %v, want %d stones %v", v.Captured, len(taken), taken)
			}
			for q := range taken {
				if !got[q] {
					t.Errorf("%v not captured", q)
				}
				if p.Board.At(q) != Empty {
					t.Errorf("captured %v still on the board", q)
				}
			}
			if p.Captures[tc.toMove] != tc.before+len(taken) || p.Captures[tc.toMove.Opponent()] != 0 {
				t.Errorf("captures %v, want %d for %v", p.Captures, tc.before+len(taken), tc.toMove)
			}
			if p.Board.At(m) != tc.toMove || len(p.Moves) != moves+1 || p.Moves[moves] != m {
				t.Errorf("move not placed and recorded")
			}
		})
	}
}

// Every one of the eight directions captures, and only the pair it brackets.
func TestPenteCaptureEveryDirection(t *testing.T) {
	r, _ := ByName("pente")
	for _, d := range captureDirections {
		p, _ := NewPosition(9)
		p.Moves = make([]Point, 10)
		m := Point{4, 4}
		at := func(i int) Point { return Point{m.X + i*d.X, m.Y + i*d.Y} }
		p.Board.Set(at(1), White)
		p.Board.Set(at(2), White)
		p.Board.Set(at(3), Black)
		p.Board.Set(at(-1), White) // a lone stone behind is untouched
		v := r.Play(p, m)
		if len(v.Captured) != 2 || p.Board.At(at(1)) != Empty || p.Board.At(at(2)) != Empty ||
			p.Board.At(at(-1)) != White || p.Board.Stones(White) != 1 {
			t.Errorf("direction %v: captured %v", d, v.Captured)
		}
	}
}

func TestPenteOpening(t *testing.T) {
	for _, name := range []string{"pente", "keryo-pente"} {
		r, _ := ByName(name)
		if r.DefaultSize() != 19 || r.Code() != 0 {
			t.Errorf("%s: size %d code %d", name, r.DefaultSize(), r.Code())
		}
		c := Point{9, 9}
		for _, tc := range []struct {
			name   string
			moves  []Point
			reason Reason // for the last move; "" legal
		}{
			{"first stone at the centre", []Point{c}, ""},
			{"first stone off the centre", []Point{{9, 10}}, PenteCentre},
			{"second stone anywhere", []Point{c, {10, 10}}, ""},
			{"third stone inside 5x5", []Point{c, {10, 10}, {11, 7}}, PenteTournamentRule},
			{"third stone at the 5x5 corner", []Point{c, {10, 10}, {7, 11}}, PenteTournamentRule},
			{"third stone 3 away", []Point{c, {10, 10}, {12, 9}}, ""},
			{"third stone 3 away diagonally", []Point{c, {10, 10}, {6, 6}}, ""},
			{"fourth stone anywhere", []Point{c, {10, 10}, {12, 9}, {9, 8}}, ""},
			{"fifth stone anywhere", []Point{c, {10, 10}, {12, 9}, {9, 8}, {8, 8}}, ""},
		} {
			p, _ := NewPosition(19)
			var v Verdict
			for i, m := range tc.moves {
				if v = r.Play(p, m); v.Over && i < len(tc.moves)-1 {
					t.Fatalf("%s/%s: move %d: %+v", name, tc.name, i+1, v)
				}
			}
			if tc.reason == "" && v.Over {
				t.Errorf("%s/%s: %+v, want legal", name, tc.name, v)
			}
			if tc.reason != "" {
				mover := Color(Black)
				if len(tc.moves)%2 == 0 {
					mover = White
				}
				if !v.Over || !v.Illegal || v.Reason != tc.reason || v.Winner != mover.Opponent() {
					t.Errorf("%s/%s: %+v, want %q", name, tc.name, v, tc.reason)
				}
				if len(p.Moves) != len(tc.moves)-1 || p.Board.At(tc.moves[len(tc.moves)-1]) != Empty {
					t.Errorf("%s/%s: illegal stone left on the board", name, tc.name)
				}
			}
		}
	}
	// The smallest board keeps the rule playable.
	p, _ := NewPosition(PenteMinSize)
	r, _ := ByName("pente")
	for _, m := range []Point{{3, 3}, {3, 4}, {0, 3}} {
		if v := r.Play(p, m); v.Over {
			t.Errorf("7x7 opening %v: %+v", m, v)
		}
	}
}

// Rotating or reflecting a position rotates or reflects what a move captures
// and leaves its verdict alone.
func TestPenteSymmetry(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for _, name := range []string{"pente", "keryo-pente"} {
		r, _ := ByName(name)
		for g := 0; g < 200; g++ {
			const size = 9
			p, _ := NewPosition(size)
			for i := 0; i < 20+rng.IntN(40); i++ {
				q := Point{rng.IntN(size), rng.IntN(size)}
				p.Board.Set(q, Color(1+rng.IntN(2)))
			}
			p.Moves = make([]Point, 10+rng.IntN(2))
			p.Captures[p.ToMove()] = rng.IntN(r.(pente).captureWin)
			var m Point
			for m = (Point{rng.IntN(size), rng.IntN(size)}); p.Board.At(m) != Empty; m = (Point{rng.IntN(size), rng.IntN(size)}) {
			}
			base := p.Clone()
			bv := r.Play(base, m)
			for k := 1; k < Symmetries; k++ {
				tp := p.Clone()
				for y := 0; y < size; y++ {
					for x := 0; x < size; x++ {
						tp.Board.Set(Transform(Point{x, y}, size, k), p.Board.At(Point{x, y}))
					}
				}
				v := r.Play(tp, Transform(m, size, k))
				if v.Over != bv.Over || v.Winner != bv.Winner || v.Reason != bv.Reason || len(v.Captured) != len(bv.Captured) ||
					tp.Captures != base.Captures {
					t.Fatalf("%s symmetry %d: %+v, untransformed %+v", name, k, v, bv)
				}
				want := map[Point]bool{}
				for _, q := range bv.Captured {
					want[Transform(q, size, k)] = true
				}
				for _, q := range v.Captured {
					if !want[q] {
						t.Fatalf("%s symmetry %d: captured %v, untransformed %v", name, k, v.Captured, bv.Captured)
					}
				}
			}
		}
	}
}

// The rules that have no captures are untouched by them.
func TestFiveRulesUnchanged(t *testing.T) {
	for _, name := range []string{"freestyle", "standard", "outer-open", "caro"} {
		r, err := ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		p, m, _ := penteDiagram(t, []string{
			".......",
			".......",
			".......",
			".*OOX..",
			".......",
			".......",
			".......",
		}, Black)
		if v := r.Play(p, m); v.Over || len(v.Captured) != 0 || p.Board.Stones(White) != 2 {
			t.Errorf("%s captured: %+v", name, v)
		}
	}
}

func ExampleRule_pente() {
	r, _ := ByName("pente")
	p, _ := NewPosition(19)
	// Black opens at the centre; its second stone stands 3 points away.
	for _, m := range []Point{{9, 9}, {10, 10}, {6, 9}, {11, 11}} {
		r.Play(p, m)
	}
	v := r.Play(p, Point{12, 12}) // Black brackets White's diagonal pair
	fmt.Println(v.Captured, p.Captures[Black], p.Board.Stones(White))
	// Output: [11,11 10,10] 2 0
}
