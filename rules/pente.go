package rules

// Reasons for the Pente opening restrictions.
const (
	PenteCentre         Reason = "first stone not at the centre"
	PenteTournamentRule Reason = "third stone within the central 5x5 (tournament rule)"
)

// PenteMinSize is the smallest board Pente is played on: the tournament rule
// needs points outside the central 5x5.
const PenteMinSize = 7

func init() {
	register(pente{name: "pente", captureWin: 10})
	register(pente{name: "keryo-pente", keryo: true, captureWin: 15})
}

// pente is Pente and Keryo-Pente: five or more in a row wins, and a stone
// that brackets exactly two enemy stones in a line (Keryo: two or three)
// captures them; enough captured stones also win.
type pente struct {
	name       string
	keryo      bool // three stones can be captured as well as two
	captureWin int  // captured stones that win the game
}

func (r pente) Name() string   { return r.name }
func (r pente) Code() int      { return 0 } // Gomocup has no code for Pente
func (pente) DefaultSize() int { return 19 }

// MinSize is PenteMinSize: CheckSize refuses smaller boards.
func (pente) MinSize() int { return PenteMinSize }

// captureDirections is the eight directions a capture can go from the stone placed.
var captureDirections = [8]Point{{1, 0}, {0, 1}, {1, 1}, {1, -1}, {-1, 0}, {0, -1}, {-1, -1}, {-1, 1}}

func (r pente) Play(p *Position, m Point) Verdict {
	if v, ok := p.placeable(m); !ok {
		return v
	}
	c := p.ToMove()
	size := p.Board.Size()
	centre := Point{size / 2, size / 2}
	switch p.Turn() {
	case 0:
		if m != centre {
			return Lost(c, PenteCentre)
		}
	case 2:
		if inCentralSquare(m, centre) {
			return Lost(c, PenteTournamentRule)
		}
	}
	p.Place(m)
	captured := r.capture(p.Board, m, c)
	p.Captures[c] += len(captured)
	v := Verdict{Captured: captured}
	for _, d := range Directions {
		if p.Board.Line(m, d, c) >= 5 {
			v.Over, v.Winner, v.Reason = true, c, Five
			return v
		}
	}
	if p.Captures[c] >= r.captureWin {
		v.Over, v.Winner, v.Reason = true, c, CaptureWin
		return v
	}
	d := p.drawIfFull()
	d.Captured = captured
	return d
}

// capture removes the enemy stones that c's stone on m brackets and returns
// them, direction by direction, each from the move outwards. Only the stone
// just placed captures, so a stone played between two enemies is never taken.
func (r pente) capture(b *Board, m Point, c Color) []Point {
	var out []Point
	enemy := c.Opponent()
	for _, d := range captureDirections {
		n := b.Run(m, d, enemy)
		if n != 2 && !(n == 3 && r.keryo) {
			continue
		}
		end := Point{m.X + (n+1)*d.X, m.Y + (n+1)*d.Y}
		if !b.In(end) || b.At(end) != c {
			continue
		}
		for i := 1; i <= n; i++ {
			q := Point{m.X + i*d.X, m.Y + i*d.Y}
			b.Set(q, Empty)
			out = append(out, q)
		}
	}
	return out
}

// inCentralSquare reports whether m lies in the 5x5 square around centre,
// where the tournament rule forbids the first player's second stone.
func inCentralSquare(m, centre Point) bool {
	return m.X-centre.X < 3 && centre.X-m.X < 3 && m.Y-centre.Y < 3 && centre.Y-m.Y < 3
}
