package rules

import "fmt"

// Seat is a player of an opening procedure before colours are settled: the
// first player places the first stones (tentative Black), the second answers.
type Seat uint8

const (
	FirstPlayer Seat = iota
	SecondPlayer
)

// Other is the other seat.
func (s Seat) Other() Seat { return 1 - s }

func (s Seat) String() string {
	if s == FirstPlayer {
		return "first player"
	}
	return "second player"
}

// Reasons an opening procedure rejects an answer. The answering player loses
// the game, as for an illegal move.
const (
	WrongStoneCount Reason = "wrong number of stones"
	OutsideRIFZone  Reason = "outside the RIF opening zone"
	SymmetricOffers Reason = "5th-move offers symmetric to each other"
	NotOffered      Reason = "not one of the offered 5th moves"
	SwapNotAllowed  Reason = "swap not allowed here"
)

// ProcedureError is an answer an opening procedure rejects: which stone (0
// when the answer as a whole is wrong) and why.
type ProcedureError struct {
	Stone  int // 1-based within the answer; 0 for the answer as a whole
	Move   Point
	Reason Reason
	Detail string
}

func (e *ProcedureError) Error() string {
	s := string(e.Reason)
	if e.Stone > 0 {
		s = fmt.Sprintf("stone %d (%v): %s", e.Stone, e.Move, e.Reason)
	}
	if e.Detail != "" {
		s += " (" + e.Detail + ")"
	}
	return s
}

// Swap2Step is what a Swap2 opening waits for.
type Swap2Step uint8

const (
	// Swap2Place: the first player places three stones (Black, White, Black).
	Swap2Place Swap2Step = iota
	// Swap2Second: the second player takes Black (swap), or plays the 4th
	// stone as White, or places the 4th and 5th stones and hands the choice
	// back.
	Swap2Second
	// Swap2First: after the second player's two stones, the first player
	// takes Black (swap) or plays the 6th stone as White.
	Swap2First
	// Swap2Done: colours are settled; the game goes on from Position.
	Swap2Done
)

// Swap2 is the Swap2 opening (the freestyle world championships' opening,
// Gomocup's SWAP2BOARD) as a state machine. It is pure: the arbiter asks the
// engines and feeds their answers in. "Swap" in an answer always means "I
// take Black and the other player plays the next stone as White", which is
// how SWAP2BOARD reads it.
type Swap2 struct {
	rule  Rule
	pos   *Position
	step  Swap2Step
	black Seat // the seat playing Black once Done
	swaps []Seat
}

// NewSwap2 starts a Swap2 opening on an empty board of the given size.
func NewSwap2(rule Rule, size int) (*Swap2, error) {
	p, err := NewPosition(size)
	if err != nil {
		return nil, err
	}
	return &Swap2{rule: rule, pos: p}, nil
}

// Step is what the procedure waits for.
func (s *Swap2) Step() Swap2Step { return s.step }

// Actor is the seat that must answer next.
func (s *Swap2) Actor() Seat {
	if s.step == Swap2Second {
		return SecondPlayer
	}
	return FirstPlayer
}

// Position is the stones so far. It belongs to the procedure until Done.
func (s *Swap2) Position() *Position { return s.pos }

// Black is the seat playing Black; meaningful once Done.
func (s *Swap2) Black() Seat { return s.black }

// Swaps lists the seats that answered "swap", in order.
func (s *Swap2) Swaps() []Seat { return s.swaps }

// Place takes the first player's three stones.
func (s *Swap2) Place(stones []Point) error {
	if s.step != Swap2Place {
		return &ProcedureError{Reason: SwapNotAllowed, Detail: "stones already placed"}
	}
	if len(stones) != 3 {
		return &ProcedureError{Reason: WrongStoneCount, Detail: fmt.Sprintf("%d, want 3", len(stones))}
	}
	if err := s.play(stones); err != nil {
		return err
	}
	s.step = Swap2Second
	return nil
}

// Answer takes the deciding player's answer: swap, or stones (the second
// player 1 or 2, the first player 1).
func (s *Swap2) Answer(swap bool, stones []Point) error {
	var most int
	switch s.step {
	case Swap2Second:
		most = 2
	case Swap2First:
		most = 1
	default:
		return &ProcedureError{Reason: SwapNotAllowed, Detail: "no choice is pending"}
	}
	actor := s.Actor()
	if swap {
		if len(stones) > 0 {
			return &ProcedureError{Reason: WrongStoneCount, Detail: "swap with stones"}
		}
		s.swaps = append(s.swaps, actor)
		s.black, s.step = actor, Swap2Done
		return nil
	}
	if len(stones) < 1 || len(stones) > most {
		return &ProcedureError{Reason: WrongStoneCount, Detail: fmt.Sprintf("%d, want swap or 1..%d", len(stones), most)}
	}
	if err := s.play(stones); err != nil {
		return err
	}
	if len(stones) == 2 {
		s.step = Swap2First
		return nil
	}
	// One stone: the answering player stays White.
	s.black, s.step = actor.Other(), Swap2Done
	return nil
}

// play places stones in turn under the rule; none may end the game.
func (s *Swap2) play(stones []Point) error {
	return playStones(s.rule, s.pos, stones)
}

// playStones plays stones on p (on a copy first, so a rejected answer
// leaves p as it was).
func playStones(rule Rule, p *Position, stones []Point) error {
	q := p.Clone()
	for i, m := range stones {
		if v := rule.Play(q, m); v.Over {
			return &ProcedureError{Stone: i + 1, Move: m, Reason: v.Reason}
		}
	}
	*p = *q
	return nil
}
