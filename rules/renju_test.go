package rules

import (
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
	// White's overline wins; it is Black that is restricted.
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
}

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
	n := 300
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
