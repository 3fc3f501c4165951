package rules

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// renjuPt converts renju notation ("H8": letters A.. including I, row 1 at
// the bottom) to a Point on a board of the given size.
func renjuPt(t testing.TB, size int, s string) Point {
	t.Helper()
	if len(s) < 2 || s[0] < 'A' || s[0] > 'Z' {
		t.Fatalf("bad renju point %q", s)
	}
	row, err := strconv.Atoi(s[1:])
	if err != nil || row < 1 || row > size {
		t.Fatalf("bad renju point %q", s)
	}
	return Point{int(s[0] - 'A'), size - row}
}

// renjuPos builds a 15x15 position with Black to move from space-separated
// renju points. Renju judges only the board, so Moves holds the stones in no
// particular order, padded to an even count.
func renjuPos(t testing.TB, black, white string) *Position {
	t.Helper()
	p, _ := NewPosition(15)
	for _, s := range []struct {
		stones string
		c      Color
	}{{black, Black}, {white, White}} {
		for _, f := range strings.Fields(s.stones) {
			m := renjuPt(t, 15, f)
			if p.Board.At(m) != Empty {
				t.Fatalf("%s placed twice", f)
			}
			p.Board.Set(m, s.c)
			p.Moves = append(p.Moves, m)
		}
	}
	if len(p.Moves)%2 == 1 {
		p.Moves = append(p.Moves, Point{-1, -1})
	}
	return p
}

// renjuDraw renders a board with renju coordinates, for failure messages.
func renjuDraw(b *Board) string {
	var sb strings.Builder
	for y := 0; y < b.Size(); y++ {
		sb.WriteString(strconv.Itoa(b.Size() - y))
		if b.Size()-y < 10 {
			sb.WriteByte(' ')
		}
		for x := 0; x < b.Size(); x++ {
			sb.WriteByte(' ')
			sb.WriteByte(".XO"[b.At(Point{x, y})])
		}
		sb.WriteByte('\n')
	}
	sb.WriteString("  ")
	for x := 0; x < b.Size(); x++ {
		sb.WriteByte(' ')
		sb.WriteByte(byte('A' + x))
	}
	return sb.String()
}

type renjuCase struct {
	name         string
	black, white string
	play         string
	want         Reason // "" legal, Five for a Black win, or a Forbidden reason
}

// The edge cases RULES.md requires, verbatim.
var renjuRulesCases = []renjuCase{
	{"five + two fours", "D8 E8 F8 G8 H9 H10 H11 G7 F6 E5", "", "H8", Five},
	{"one-line 4-4 XXX.X.XXX", "B8 C8 D8 H8 I8 J8", "", "F8", Forbidden44},
	{"one-line 4-4 XX.XX.XX", "B8 C8 F8 H8 I8", "", "E8", Forbidden44},
	{"overline + exact five elsewhere", "C8 D8 E8 G8 H8 F4 F5 F6 F7", "", "F8", Five},
	{"plain overline", "C8 D8 E8 G8 H8", "", "F8", ForbiddenOverline},
	{"4-3", "D8 E8 F8 G9 G10", "", "G8", ""},
	{"4-3-3", "D8 E8 F8 G9 G10 H9 I10", "", "G8", Forbidden33},
	{"dead three + open three", "E8 F8 G9 G10", "C8 I8", "G8", ""},
	{"same without White", "E8 F8 G9 G10", "", "G8", Forbidden33},
	{"edge three |XXX.. + open three", "E1 E2 F3 G3", "", "E3", ""},
	{"three completable only into an overline", "B8 E8 G8 J8 F9 F10", "", "F8", ""},
	{"same without J8", "B8 E8 G8 F9 F10", "", "F8", Forbidden33},
}

// Cases of our own: the recursive three, and the shapes around it.
var renjuOwnCases = []renjuCase{
	// 4-4 in two lines, and a straight four with a four: both 4-4.
	//  8  . . . . X X X m . .      row 8: D8 E8 F8 + G8 = straight four
	//  7  . . . . . . X . .        column G: G9 G10 G11 + G8 = four
	{"4-4 straight four and four", "D8 E8 F8 G9 G10 G11", "G12", "G8", Forbidden44},
	// 4-4-3 is a 4-4.
	{"4-4-3", "D8 E8 F8 G9 G10 G11 H9 I10", "G12", "G8", Forbidden44},
	// A split three (X.XX) counts like a solid one.
	{"split 3-3", "E8 G8 H10 H11", "", "H8", Forbidden33},
	// Three stones in a row blocked on one side is no three.
	{"blocked three + open three", "E8 F8 G9 G10", "D8", "G8", ""},
	// A four that can only become an overline is no four.
	//  8  X . X X m . .   B8 . D8 E8 + F8: C8 would make B8..F8 five — so it
	//  is a four; with A8 also Black, C8 makes an overline: no four.
	{"four only into overline", "A8 B8 D8 E8 F9 F10 F11", "F12", "F8", ""},
	{"same four without A8", "B8 D8 E8 F9 F10 F11", "F12", "F8", Forbidden44},
	// RULES.md: the stone that makes the straight four must be a legal
	// move, "not a five elsewhere". Here the row F8 . m I8 can only become a
	// straight four at G8, which would already make the five G8..G12: so the
	// row is no three, and m is a single three. (Wenzhe Lu's finder, used by
	// many engines, counts such a row as a three and would call m a 3-3.)
	//
	//  13 . O . .
	//  12 . X . .
	//  11 . X . .
	//  10 . X X .
	//   9 . X X .
	//   8 X q m X
	//     F G H I
	{"straight-four point that is a five elsewhere", "F8 I8 G9 G10 G11 G12 H9 H10", "G13", "H8", ""},
}

// The recursive three: whether a row is a three depends on whether its
// straight-four points are legal, which may depend on their own threes.
// Each case was found by searching random boards for moves whose verdict
// changes when the recursion is cut one level short, then reduced to the
// fewest stones; each holds whether or not a straight-four point that makes
// a five elsewhere counts, and whether a line with a four may also count as
// a three, so it tests the recursion and nothing else. Diagrams show the
// relevant part of the board; m is the move, q the points discussed.
var renjuRecursiveCases = []renjuCase{
	// One level: the column three's only straight-four point is a 4-4.
	//
	//  12 . . . . . . .      Column F: F10 . F8 F7 looks like a three, but
	//  11 . X . . . . .      its only straight-four point F9 also makes the
	//  10 . . m . . . .      four F9 G9 . I9 J9: F9 is a 4-4, so no three.
	//   9 . . q X . X X      The diagonal E11 F10 G9 is a real three, one
	//   8 . . X . . . .      three in all: legal.
	//   7 . . X . . . .
	//     D E F G H I J
	{"recursive 1: three whose only point is 4-4", "E11 G9 I9 J9 F8 F7", "", "F10", ""},
	{"recursive 1 without J9: 3-3", "E11 G9 I9 F8 F7", "", "F10", Forbidden33},
	// Two levels.
	//
	//   9 . . . . . . .      m = F8 makes two three-shapes: F8 G7 . I5
	//   8 . . X m . . .      (point H6, legal) and C5 D6 . F8 (point E7).
	//   7 . . q . X . .      E7 would make a four (C5..F8 diagonal) and two
	//   6 . X X . . . .      more three-shapes: E6 E7 E8 (column, point E9)
	//   5 X . . . X . X      and E7 . G5 H4 (point F6). E9 is a 4-4 (column
	//   4 . . O . . X .      plus E9 F8 G7 . I5), so the column is no three:
	//     C D E F G H I      E7 is a 4-3, legal; so F8 has two real threes.
	{"recursive 2: point looks 4-3-3 but is 4-3", "E8 G7 D6 E6 C5 G5 I5 H4", "E4", "F8", Forbidden33},
	// Two levels on both threes: J5 makes J6 J5 . J3 (point J4) and
	// J5 . L5 M5 (point K5). J4's other three needs K5, a 4-4 once J4 and
	// J5 stand; K5's threes need J4 (a 4-4 then) and L4 (legal, via L7).
	//
	//   7 . . . . .          Both points are 4-3: both threes are real.
	//   6 . X . X .
	//   5 . m q X X
	//   4 . . . . .
	//   3 X X . . X
	//     I J K L M
	{"recursive 2: both points 4-3", "J6 L6 L5 M5 I3 J3 M3", "", "J5", Forbidden33},
	// Three levels.
	//
	//  13 X . X X            m = D10 makes D13 D12 . D10 with point D11
	//  12 X X X .            (legal: a four and one three) and the diagonal
	//  11 . . . .            D10 . F12 G13 with point E11. E11 makes a four
	//  10 m . . X            and two three-shapes: E12 E11 . E9 (point E10)
	//   9 . X . X            and D12 E11 . G9 (point F10). F10 looks like a
	//     D E F G            4-3-3 but both its threes are false (E10 and
	//                        F11 are 4-4 by then), so F10 is legal, E11 has
	// two real threes (E10 is a 4-3) and is forbidden, and D10's diagonal is
	// no three: D10 is legal.
	{"recursive 3: 4-3-3 point whose threes are false", "D13 F13 G13 D12 E12 F12 G10 E9 G9", "", "D10", ""},
	// Four levels, found the same way; the reference agrees.
	//
	//  10 . . X . .
	//   9 . . . . X
	//   8 X X X . X
	//   7 X . X . .
	//   6 X . . . m
	//   5 . X . X .
	//   4 . X . X .
	//   3 . X X . .
	//     C D E F G
	{"recursive 4", "E10 G9 C8 D8 E8 G8 C7 E7 C6 D5 F5 D4 F4 D3 E3", "", "G6", Forbidden33},
}

func TestRenjuRecursiveCases(t *testing.T) { runRenjuCases(t, renjuRecursiveCases) }

func TestRenjuRulesCases(t *testing.T) { runRenjuCases(t, renjuRulesCases) }
func TestRenjuOwnCases(t *testing.T)   { runRenjuCases(t, renjuOwnCases) }

func runRenjuCases(t *testing.T, cases []renjuCase) {
	r, err := ByName("renju")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := renjuPos(t, tc.black, tc.white)
			m := renjuPt(t, 15, tc.play)
			before := p.Board.Clone()
			forb := Forbidden(p.Board, m)
			if ref := renjuRefForbidden(p.Board, m); ref != forb {
				t.Errorf("Forbidden = %q, reference says %q", forb, ref)
			}
			v := r.Play(p, m)
			switch tc.want {
			case "":
				if v.Over || forb != "" {
					t.Errorf("want legal and play on, got %+v (Forbidden %q)\n%s", v, forb, renjuDraw(before))
				}
			case Five:
				if !v.Over || v.Winner != Black || v.Reason != Five || v.Illegal || forb != "" {
					t.Errorf("want Black to win by five, got %+v (Forbidden %q)\n%s", v, forb, renjuDraw(before))
				}
			default:
				want := Verdict{Over: true, Winner: White, Reason: tc.want, Illegal: true}
				if v.Over != want.Over || v.Winner != want.Winner || v.Reason != want.Reason || !v.Illegal || forb != tc.want {
					t.Errorf("want %+v, got %+v (Forbidden %q)\n%s", want, v, forb, renjuDraw(before))
				}
				if renjuDraw(p.Board) != renjuDraw(before) || p.Board.Stones(Black) != before.Stones(Black) {
					t.Errorf("forbidden stone left on the board")
				}
			}
		})
	}
}

// renjuRefForbidden is the definition of RULES.md written as plainly as
// possible, on whole lines of the board and without windows, as a reference
// for the fast check.
func renjuRefForbidden(b *Board, m Point) Reason {
	nb := b.Clone()
	nb.Set(m, Black)
	over := false
	for _, d := range Directions {
		switch n := nb.Line(m, d, Black); {
		case n == 5:
			return ""
		case n > 5:
			over = true
		}
	}
	if over {
		return ForbiddenOverline
	}
	fours, threes := 0, 0
	for _, d := range Directions {
		if f := renjuRefFours(nb, m, d); f > 0 {
			fours += f
		} else if renjuRefThree(nb, m, d) {
			threes++
		}
	}
	switch {
	case fours >= 2:
		return Forbidden44
	case threes >= 2:
		return Forbidden33
	}
	return ""
}

// renjuRefLine lists the points of the line through m along d.
func renjuRefLine(b *Board, m, d Point) []Point {
	for b.In(Point{m.X - d.X, m.Y - d.Y}) {
		m = Point{m.X - d.X, m.Y - d.Y}
	}
	var line []Point
	for ; b.In(m); m = (Point{m.X + d.X, m.Y + d.Y}) {
		line = append(line, m)
	}
	return line
}

// renjuRefRow is the set of points of the unbroken Black row through q.
func renjuRefRow(b *Board, q, d Point) map[Point]bool {
	row := map[Point]bool{}
	for _, s := range []int{1, -1} {
		for p := q; b.In(p) && b.At(p) == Black; p = (Point{p.X + s*d.X, p.Y + s*d.Y}) {
			row[p] = true
		}
	}
	return row
}

// renjuRefFours counts the distinct four-stone sets through m that one more
// stone in this line turns into an exact five.
func renjuRefFours(b *Board, m, d Point) int {
	sets := map[string]bool{}
	for _, q := range renjuRefLine(b, m, d) {
		if b.At(q) != Empty {
			continue
		}
		b.Set(q, Black)
		row := renjuRefRow(b, q, d)
		if len(row) == 5 && row[m] {
			key := ""
			for _, p := range renjuRefLine(b, m, d) {
				if row[p] && p != q {
					key += p.String() + ";"
				}
			}
			sets[key] = true
		}
		b.Set(q, Empty)
	}
	return len(sets)
}

// renjuRefThree reports whether some legal Black stone in this line makes a
// straight four through m.
func renjuRefThree(b *Board, m, d Point) bool {
	for _, q := range renjuRefLine(b, m, d) {
		if b.At(q) != Empty {
			continue
		}
		b.Set(q, Black)
		row := renjuRefRow(b, m, d)
		straight := len(row) == 4 && row[q]
		if straight {
			ends := 0
			for _, e := range renjuRefLine(b, m, d) {
				if b.At(e) != Empty {
					continue
				}
				b.Set(e, Black)
				r5 := renjuRefRow(b, e, d)
				if len(r5) == 5 && r5[m] {
					ends++
				}
				b.Set(e, Empty)
			}
			straight = ends == 2
		}
		b.Set(q, Empty)
		if !straight {
			continue
		}
		five := false
		for _, d2 := range Directions {
			five = five || b.Line(q, d2, Black) == 5
		}
		if !five && renjuRefForbidden(b, q) == "" {
			return true
		}
	}
	return false
}

// renjuRandomBoard scatters stones over a 15x15 board, denser in the middle,
// as mid-game positions are.
func renjuRandomBoard(rng *rand.Rand, blacks, whites int) *Board {
	b, _ := NewBoard(15)
	for _, s := range []struct {
		n int
		c Color
	}{{blacks, Black}, {whites, White}} {
		for placed := 0; placed < s.n; {
			p := Point{3 + rng.IntN(9), 3 + rng.IntN(9)}
			if rng.IntN(4) == 0 {
				p = Point{rng.IntN(15), rng.IntN(15)}
			}
			if b.At(p) == Empty {
				b.Set(p, s.c)
				placed++
			}
		}
	}
	return b
}

// The fast check agrees with the plain reference on every empty point of
// many random boards, dense enough to be full of threes and fours.
func TestRenjuForbiddenMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 150
	if testing.Short() {
		n = 30
	}
	kinds := map[Reason]int{}
	for g := 0; g < n; g++ {
		b := renjuRandomBoard(rng, 8+rng.IntN(30), rng.IntN(25))
		for y := 0; y < 15; y++ {
			for x := 0; x < 15; x++ {
				m := Point{x, y}
				if b.At(m) != Empty {
					continue
				}
				got, want := Forbidden(b, m), renjuRefForbidden(b, m)
				kinds[got]++
				if got != want {
					t.Fatalf("at %v: Forbidden = %q, reference %q\n%s", m, got, want, renjuDraw(b))
				}
			}
		}
	}
	t.Logf("verdicts: %v", kinds)
}

// White has no restrictions, and White's overline wins.
func TestRenjuWhite(t *testing.T) {
	r, _ := ByName("renju")
	for _, tc := range []struct {
		name         string
		black, white string
		play         string
		want         Verdict
	}{
		{"white overline wins", "A1 A2 A3 A5 B1 B2", "C8 D8 E8 G8 H8", "F8", Verdict{Over: true, Winner: White, Reason: Five}},
		{"white 4-4 is fine", "A1 A2 A3 A4 B1 B3 B4", "B8 C8 D8 H8 I8 J8", "F8", Verdict{}},
		{"white 3-3 is fine", "A1 A2 A4 B1 B3", "E8 F8 G9 G10", "G8", Verdict{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := renjuPos(t, tc.black, tc.white)
			p.Moves = p.Moves[:len(p.Moves)-1] // White to move
			if p.ToMove() != White {
				t.Fatal("setup: White not to move")
			}
			if v := r.Play(p, renjuPt(t, 15, tc.play)); v.Over != tc.want.Over || v.Winner != tc.want.Winner ||
				v.Reason != tc.want.Reason || v.Illegal {
				t.Errorf("got %+v, want %+v", v, tc.want)
			}
		})
	}
}

// The rules do not depend on the board's orientation: under each of the 8
// symmetries the forbidden points map onto the forbidden points, with the
// same kinds, and a move gets the same verdict as its image.
func TestRenjuSymmetry(t *testing.T) {
	r, _ := ByName("renju")
	rng := rand.New(rand.NewPCG(3, 4))
	n := 100
	if testing.Short() {
		n = 10
	}
	for g := 0; g < n; g++ {
		b := renjuRandomBoard(rng, 10+rng.IntN(25), 5+rng.IntN(20))
		base := ForbiddenPoints(&Position{Board: b})
		var m Point
		for m = (Point{rng.IntN(15), rng.IntN(15)}); b.At(m) != Empty; m = (Point{rng.IntN(15), rng.IntN(15)}) {
		}
		if len(base) > 0 && rng.IntN(2) == 0 {
			m = base[rng.IntN(len(base))].Point // a forbidden point half the time
		}
		baseVerdict := r.Play(&Position{Board: b.Clone()}, m)
		for k := 1; k < Symmetries; k++ {
			tb, _ := NewBoard(15)
			for y := 0; y < 15; y++ {
				for x := 0; x < 15; x++ {
					tb.Set(Transform(Point{x, y}, 15, k), b.At(Point{x, y}))
				}
			}
			want := map[Point]Reason{}
			for _, f := range base {
				want[Transform(f.Point, 15, k)] = f.Reason
			}
			got := ForbiddenPoints(&Position{Board: tb})
			if len(got) != len(want) {
				t.Fatalf("symmetry %d: %d forbidden points, want %d\n%s", k, len(got), len(want), renjuDraw(b))
			}
			for _, f := range got {
				if want[f.Point] != f.Reason {
					t.Fatalf("symmetry %d: %v is %q, want %q\n%s", k, f.Point, f.Reason, want[f.Point], renjuDraw(b))
				}
			}
			v := r.Play(&Position{Board: tb}, Transform(m, 15, k))
			if v.Over != baseVerdict.Over || v.Winner != baseVerdict.Winner || v.Reason != baseVerdict.Reason || v.Illegal != baseVerdict.Illegal {
				t.Fatalf("symmetry %d: %v gets %+v, untransformed %+v\n%s", k, m, v, baseVerdict, renjuDraw(b))
			}
		}
	}
}

// renjuMidgames plays random games near the centre, skipping forbidden and
// winning moves, and keeps the positions after 20 to 60 stones.
func renjuMidgames(n int) []*Position {
	r, _ := ByName("renju")
	rng := rand.New(rand.NewPCG(5, 6))
	var out []*Position
	for len(out) < n {
		p, _ := NewPosition(15)
		target := 20 + rng.IntN(41)
		for tries := 0; len(p.Moves) < target && tries < 10000; tries++ {
			m := Point{7, 7}
			if len(p.Moves) > 0 {
				last := p.Moves[rng.IntN(len(p.Moves))]
				m = Point{last.X + rng.IntN(5) - 2, last.Y + rng.IntN(5) - 2}
			}
			if !p.Board.In(m) || p.Board.At(m) != Empty {
				continue
			}
			q := p.Clone()
			if v := r.Play(q, m); !v.Over {
				p = q
			}
		}
		out = append(out, p)
	}
	return out
}

// BenchmarkRenjuForbiddenCheck judges every empty point of mid-game
// positions; one op is one Forbidden call, as the arbiter makes per Black move.
func BenchmarkRenjuForbiddenCheck(b *testing.B) {
	var boards []*Board
	var points []Point
	for _, p := range renjuMidgames(50) {
		for y := 0; y < 15; y++ {
			for x := 0; x < 15; x++ {
				if p.Board.At(Point{x, y}) == Empty {
					boards = append(boards, p.Board)
					points = append(points, Point{x, y})
				}
			}
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := i % len(points)
		Forbidden(boards[j], points[j])
	}
}

// BenchmarkRenjuForbiddenPoints lists the forbidden points of a mid-game
// position, as `arena rules` does.
func BenchmarkRenjuForbiddenPoints(b *testing.B) {
	ps := renjuMidgames(50)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ForbiddenPoints(ps[i%len(ps)])
	}
}

func ExampleForbidden() {
	b, _ := NewBoard(15)
	// Row 8 (y = 7): B8 C8 D8 . . . H8 I8 J8, as in XXX.X.XXX.
	for _, x := range []int{1, 2, 3, 7, 8, 9} {
		b.Set(Point{x, 7}, Black)
	}
	fmt.Printf("F8: %q\n", Forbidden(b, Point{5, 7})) // fours both ways
	fmt.Printf("E8: %q\n", Forbidden(b, Point{4, 7})) // one four
	// Output:
	// F8: "forbidden 4-4"
	// E8: ""
}
