package rules

import "fmt"

// Position is a game in progress: the board, every stone placed in order, and
// the stones each side has captured. Colours alternate from Black.
type Position struct {
	Board    *Board
	Moves    []Point // every stone placed, in order (captured ones too)
	Captures [3]int  // stones captured by Black and by White, indexed by Color
	// Before is the number of turns taken before Moves[0]: zero for a game
	// from the empty board, more for a position set up with stones at once
	// (SetupPosition). ToMove and the rules' first-move restrictions count
	// turns from it.
	Before int
}

// Turn is the number of turns taken: the setup's and the moves'.
func (p *Position) Turn() int { return p.Before + len(p.Moves) }

// SetupPosition is a position given by its stones rather than its moves,
// as problem collections and opening books write them (SGF AB/AW): the
// stones are placed at once, toMove plays next, and the turns already taken
// are counted as the stones on the board (one more when that count would
// give the other side the move). No rule judges setup stones, and no capture
// is counted: a rule with captures cannot continue from one (the caller
// refuses it).
func SetupPosition(size int, black, white []Point, toMove Color) (*Position, error) {
	p, err := NewPosition(size)
	if err != nil {
		return nil, err
	}
	for _, set := range []struct {
		c      Color
		stones []Point
	}{{Black, black}, {White, white}} {
		for _, m := range set.stones {
			if !p.Board.In(m) {
				return nil, fmt.Errorf("setup stone %v off the %dx%d board", m, size, size)
			}
			if p.Board.At(m) != Empty {
				return nil, fmt.Errorf("setup stone %v on a point already set", m)
			}
			p.Board.Set(m, set.c)
		}
	}
	if toMove != Black && toMove != White {
		return nil, fmt.Errorf("setup: no side to move")
	}
	p.Before = len(black) + len(white)
	if p.ToMove() != toMove {
		p.Before++
	}
	return p, nil
}

// NewPosition returns the empty position on a board of the given size.
func NewPosition(size int) (*Position, error) {
	b, err := NewBoard(size)
	if err != nil {
		return nil, err
	}
	return &Position{Board: b}, nil
}

// ToMove is the colour whose turn it is.
func (p *Position) ToMove() Color {
	if p.Turn()%2 == 0 {
		return Black
	}
	return White
}

// Place puts the side to move's stone on m without judging it. Rules call it
// after their checks; openings use it through Setup.
func (p *Position) Place(m Point) {
	p.Board.Set(m, p.ToMove())
	p.Moves = append(p.Moves, m)
}

// Clone returns an independent copy.
func (p *Position) Clone() *Position {
	return &Position{Board: p.Board.Clone(), Moves: append([]Point(nil), p.Moves...), Captures: p.Captures, Before: p.Before}
}

// Setup plays the given stones under r from the empty board, as an opening
// would. It fails if any stone is illegal or ends the game.
func Setup(r Rule, size int, stones []Point) (*Position, error) {
	p, err := NewPosition(size)
	if err != nil {
		return nil, err
	}
	for i, m := range stones {
		if v := r.Play(p, m); v.Over {
			return nil, &SetupError{Index: i, Move: m, Reason: v.Reason}
		}
	}
	return p, nil
}

// SetupError says which opening stone could not be played.
type SetupError struct {
	Index  int
	Move   Point
	Reason Reason
}

func (e *SetupError) Error() string {
	return fmt.Sprintf("opening stone %d (%v): %s", e.Index+1, e.Move, e.Reason)
}

// placeable rejects a move that cannot go on the board at all.
func (p *Position) placeable(m Point) (Verdict, bool) {
	c := p.ToMove()
	if !p.Board.In(m) {
		return Lost(c, OffBoard), false
	}
	if p.Board.At(m) != Empty {
		return Lost(c, Occupied), false
	}
	return Verdict{}, true
}

// drawIfFull ends the game as a draw when no point is left. Rules call it
// after testing for a win, so a five on the last point wins.
func (p *Position) drawIfFull() Verdict {
	if p.Board.Full() {
		return Verdict{Over: true, Reason: FullBoard}
	}
	return Verdict{}
}
