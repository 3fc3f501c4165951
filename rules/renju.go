package rules

func init() { register(renju{}) }

// renju is the RIF rule: Black wins only with an exact five and may not play
// a double four, a double three or an overline; White wins with five or more
// and has no restrictions. The definitions are those of ../shared/RULES.md.
type renju struct{}

func (renju) Name() string     { return "renju" }
func (renju) Code() int        { return 4 }
func (renju) DefaultSize() int { return DefaultSize }

// Forbidden is Forbidden for the rule value, so a caller holding a Rule can
// ask whether it has forbidden points with a type assertion.
func (renju) Forbidden(b *Board, m Point) Reason { return Forbidden(b, m) }

func (renju) Play(p *Position, m Point) Verdict {
	if v, ok := p.placeable(m); !ok {
		return v
	}
	c := p.ToMove()
	if c == Black {
		if why := Forbidden(p.Board, m); why != "" {
			return Lost(Black, why)
		}
	}
	p.Place(m)
	for _, d := range Directions {
		n := p.Board.Line(m, d, c)
		if n == 5 || n > 5 && c == White {
			return Verdict{Over: true, Winner: c, Reason: Five}
		}
	}
	return p.drawIfFull()
}

// Forbidden judges a Black stone on m, an empty point of b, at this moment:
// it returns Forbidden44, Forbidden33 or ForbiddenOverline, or "" when Black
// may play there (an exact five is never forbidden). It returns OffBoard or
// Occupied when m cannot take a stone at all. b is not changed.
func Forbidden(b *Board, m Point) Reason {
	if !b.In(m) {
		return OffBoard
	}
	if b.At(m) != Empty {
		return Occupied
	}
	return forbidden(b, m, false)
}

// ForbiddenPoint is one point where Black may not play, and why.
type ForbiddenPoint struct {
	Point  Point
	Reason Reason
}

// ForbiddenPoints lists the empty points of p's board where a Black stone
// would be forbidden now, row by row from the top. The list describes the
// board whoever is to move, as renju boards show it; it is judged again when
// Black actually plays.
func ForbiddenPoints(p *Position) []ForbiddenPoint {
	var out []ForbiddenPoint
	b := p.Board
	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			m := Point{x, y}
			if b.At(m) != Empty {
				continue
			}
			if why := forbidden(b, m, false); why != "" {
				out = append(out, ForbiddenPoint{m, why})
			}
		}
	}
	return out
}

// The check reads each of the four lines through the move as a window of
// renjuReach cells either side. Five cells either side are enough: a five,
// four or straight four through the move spans at most four cells on one
// side, and exactness needs only the cell beyond it (a row that reaches the
// window's edge is already longer than five).
const renjuReach = 5

// renjuWall marks a window cell off the board: neither a stone nor empty.
const renjuWall Color = 3

type renjuWindow [2*renjuReach + 1]Color

// readRenjuWindow reads the line through m along d with a Black stone on m.
func readRenjuWindow(b *Board, m, d Point) renjuWindow {
	var w renjuWindow
	for i := -renjuReach; i <= renjuReach; i++ {
		x, y := m.X+i*d.X, m.Y+i*d.Y
		if x < 0 || y < 0 || x >= b.size || y >= b.size {
			w[i+renjuReach] = renjuWall
		} else {
			w[i+renjuReach] = b.cells[y*b.size+x]
		}
	}
	w[renjuReach] = Black
	return w
}

// run is the unbroken row of Black through cell i, as first and last index.
func (w *renjuWindow) run(i int) (lo, hi int) {
	lo, hi = i, i
	for lo > 0 && w[lo-1] == Black {
		lo--
	}
	for hi < len(w)-1 && w[hi+1] == Black {
		hi++
	}
	return lo, hi
}

// exactFive reports whether a Black stone on empty cell i makes an exact five
// (through i, in this line).
func (w *renjuWindow) exactFive(i int) bool {
	if i < 0 || i >= len(w) || w[i] != Empty {
		return false
	}
	w[i] = Black
	lo, hi := w.run(i)
	w[i] = Empty
	return hi-lo+1 == 5
}

// fours counts the fours through the move in this line. A four is identified
// by its four stones, so a straight four (two ways to five with the same
// stones) counts once, while XXX.X.XXX or XX.XX.XX with the move in the
// middle count twice.
func (w *renjuWindow) fours() int {
	var seen [len(renjuWindow{})]uint16
	n := 0
	for i := range w {
		if w[i] != Empty {
			continue
		}
		w[i] = Black
		lo, hi := w.run(i)
		w[i] = Empty
		if hi-lo+1 != 5 || lo > renjuReach || hi < renjuReach {
			continue
		}
		key := uint16(1<<(hi+1)-1<<lo) &^ (1 << i)
		dup := false
		for _, k := range seen[:n] {
			dup = dup || k == key
		}
		if !dup {
			seen[n] = key
			n++
		}
	}
	return n
}

// straightFourPoints appends to dst the cells where one more Black stone
// makes a straight four through the move: four in a row, both ends making an
// exact five. Whether those stones are legal is for the caller to judge.
func (w *renjuWindow) straightFourPoints(dst []int) []int {
	for i := range w {
		if w[i] != Empty {
			continue
		}
		w[i] = Black
		lo, hi := w.run(renjuReach)
		if hi-lo+1 == 4 && lo <= i && i <= hi && w.exactFive(lo-1) && w.exactFive(hi+1) {
			dst = append(dst, i)
		}
		w[i] = Empty
	}
	return dst
}

// forbidden judges Black on empty m. When owned is true the board is scratch
// space the check may change and restore; otherwise it is copied before the
// first change (the common case never needs one).
func forbidden(b *Board, m Point, owned bool) Reason {
	var ws [len(Directions)]renjuWindow
	overline := false
	for k, d := range Directions {
		ws[k] = readRenjuWindow(b, m, d)
		lo, hi := ws[k].run(renjuReach)
		switch n := hi - lo + 1; {
		case n == 5:
			return "" // an exact five wins whatever else the move makes
		case n > 5:
			overline = true
		}
	}
	if overline {
		return ForbiddenOverline
	}
	// A line holding a four is a four, not also a three.
	fours, threes := 0, 0
	var buf [len(Directions)][2*renjuReach + 1]int
	var points [len(Directions)][]int
	for k := range ws {
		if f := ws[k].fours(); f > 0 {
			fours += f
			continue
		}
		points[k] = ws[k].straightFourPoints(buf[k][:0])
		if len(points[k]) > 0 {
			threes++
		}
	}
	if fours >= 2 {
		return Forbidden44
	}
	if threes < 2 {
		return ""
	}
	// Two or more lines look like threes; each is a three only if one of
	// its straight-four points is a legal Black move once m is on the board.
	if !owned {
		b = b.Clone()
	}
	b.Set(m, Black)
	defer b.Set(m, Empty)
	real := 0
	for k, d := range Directions {
		for _, i := range points[k] {
			q := Point{m.X + (i-renjuReach)*d.X, m.Y + (i-renjuReach)*d.Y}
			if legalStraightFour(b, q) {
				real++
				break
			}
		}
		if real >= 2 {
			return Forbidden33
		}
	}
	return ""
}

// legalStraightFour reports whether Black may make the straight four on q:
// the move must not be forbidden, and — as RULES.md defines a three — not a
// five elsewhere either (a five there ends the game instead of making the
// four, so the row is no three).
func legalStraightFour(b *Board, q Point) bool {
	for _, d := range Directions {
		if b.Line(q, d, Black) == 5 {
			return false
		}
	}
	return forbidden(b, q, true) == ""
}
