package rules

import "fmt"

// RIFStep is what the RIF opening procedure waits for.
type RIFStep uint8

const (
	// RIFPlace: the tentative Black places moves 1-3: Black at the centre,
	// White touching it, Black within the central 5x5 (one of the 26
	// canonical openings).
	RIFPlace RIFStep = iota
	// RIFSwap: the tentative White keeps White or swaps colours.
	RIFSwap
	// RIFFourth: White plays move 4, anywhere.
	RIFFourth
	// RIFOffer: Black offers two 5th moves that are not symmetric to each
	// other.
	RIFOffer
	// RIFChoose: White chooses one of the offers; the other is removed and
	// White plays move 6 in the game proper.
	RIFChoose
	// RIFDone: the game goes on from Position, White to move.
	RIFDone
)

// RIF is the RIF opening procedure as a state machine. It is pure: the
// arbiter asks the engines and feeds their answers in. The first player is
// the tentative Black until the swap decision.
type RIF struct {
	rule    Rule
	pos     *Position
	step    RIFStep
	swapped bool
	offers  []Point
	opening RIFOpening
}

// NewRIF starts the procedure on an empty board. The size must be odd (the
// zones are around the centre) and at least 7.
func NewRIF(rule Rule, size int) (*RIF, error) {
	if size%2 == 0 || size < 7 {
		return nil, fmt.Errorf("the RIF opening needs an odd board of at least 7x7, not %dx%d", size, size)
	}
	p, err := NewPosition(size)
	if err != nil {
		return nil, err
	}
	return &RIF{rule: rule, pos: p}, nil
}

// Step is what the procedure waits for.
func (r *RIF) Step() RIFStep { return r.step }

// Position is the stones so far. It belongs to the procedure until Done.
func (r *RIF) Position() *Position { return r.pos }

// Black is the seat playing Black: the first player unless White swapped.
func (r *RIF) Black() Seat {
	if r.swapped {
		return SecondPlayer
	}
	return FirstPlayer
}

// Swapped reports whether the tentative White took Black.
func (r *RIF) Swapped() bool { return r.swapped }

// Offers are Black's two 5th moves, once offered.
func (r *RIF) Offers() []Point { return r.offers }

// Opening is the canonical opening moves 1-3 made, once placed.
func (r *RIF) Opening() RIFOpening { return r.opening }

// Actor is the seat that must answer next.
func (r *RIF) Actor() Seat {
	switch r.step {
	case RIFPlace:
		return FirstPlayer
	case RIFSwap:
		return SecondPlayer
	case RIFOffer:
		return r.Black()
	}
	return r.Black().Other() // White: move 4, the choice, move 6
}

// Place takes moves 1-3 and checks their zones.
func (r *RIF) Place(stones []Point) error {
	if r.step != RIFPlace {
		return &ProcedureError{Reason: SwapNotAllowed, Detail: "moves 1-3 already placed"}
	}
	if len(stones) != 3 {
		return &ProcedureError{Reason: WrongStoneCount, Detail: fmt.Sprintf("%d, want 3", len(stones))}
	}
	c := r.pos.Board.Size() / 2
	zones := []struct {
		radius int
		what   string
	}{{0, "move 1 must be the centre"}, {1, "move 2 must touch the centre"}, {2, "move 3 must lie within the central 5x5"}}
	for i, m := range stones {
		if abs(m.X-c) > zones[i].radius || abs(m.Y-c) > zones[i].radius {
			return &ProcedureError{Stone: i + 1, Move: m, Reason: OutsideRIFZone, Detail: zones[i].what}
		}
	}
	if err := playStones(r.rule, r.pos, stones); err != nil {
		return err
	}
	r.opening, _ = IdentifyRIFOpening(r.pos.Board.Size(), stones)
	r.step = RIFSwap
	return nil
}

// Swap takes the tentative White's decision: swap takes Black.
func (r *RIF) Swap(swap bool) error {
	if r.step != RIFSwap {
		return &ProcedureError{Reason: SwapNotAllowed}
	}
	r.swapped, r.step = swap, RIFFourth
	return nil
}

// Fourth takes White's move 4.
func (r *RIF) Fourth(m Point) error {
	if r.step != RIFFourth {
		return &ProcedureError{Reason: SwapNotAllowed, Detail: "not move 4"}
	}
	if err := playStones(r.rule, r.pos, []Point{m}); err != nil {
		return err
	}
	r.step = RIFOffer
	return nil
}

// Offer takes Black's two 5th moves. Both must be legal Black moves, and
// no symmetry that maps the 4-stone position onto itself may map one onto
// the other.
func (r *RIF) Offer(a, b Point) error {
	if r.step != RIFOffer {
		return &ProcedureError{Reason: SwapNotAllowed, Detail: "not move 5"}
	}
	for i, m := range []Point{a, b} {
		if err := playStones(r.rule, r.pos.Clone(), []Point{m}); err != nil {
			pe := err.(*ProcedureError)
			pe.Stone = i + 1
			return pe
		}
	}
	if a == b {
		return &ProcedureError{Stone: 2, Move: b, Reason: SymmetricOffers, Detail: "the same point twice"}
	}
	for _, k := range PositionSymmetries(r.pos) {
		if Transform(a, r.pos.Board.Size(), k) == b {
			return &ProcedureError{Stone: 2, Move: b, Reason: SymmetricOffers, Detail: fmt.Sprintf("symmetry %d of the position maps %v onto %v", k, a, b)}
		}
	}
	r.offers, r.step = []Point{a, b}, RIFChoose
	return nil
}

// Choose takes White's choice among the offers and places it.
func (r *RIF) Choose(m Point) error {
	if r.step != RIFChoose {
		return &ProcedureError{Reason: SwapNotAllowed, Detail: "no offers to choose from"}
	}
	if m != r.offers[0] && m != r.offers[1] {
		return &ProcedureError{Stone: 1, Move: m, Reason: NotOffered}
	}
	if err := playStones(r.rule, r.pos, []Point{m}); err != nil {
		return err
	}
	r.step = RIFDone
	return nil
}

// PositionSymmetries lists the symmetries k (see Transform) that map the
// position onto itself: every stone onto a stone of its own colour. The
// identity is always among them.
func PositionSymmetries(p *Position) []int {
	size := p.Board.Size()
	var ks []int
	for k := 0; k < Symmetries; k++ {
		same := true
		for y := 0; y < size && same; y++ {
			for x := 0; x < size; x++ {
				c := p.Board.At(Point{x, y})
				if c != Empty && p.Board.At(Transform(Point{x, y}, size, k)) != c {
					same = false
					break
				}
			}
		}
		if same {
			ks = append(ks, k)
		}
	}
	return ks
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
