package rules

import "fmt"

// Color is the colour of a stone or of a player. Black moves first.
type Color uint8

const (
	Empty Color = iota
	Black
	White
)

// Opponent returns the other colour (Empty stays Empty).
func (c Color) Opponent() Color {
	switch c {
	case Black:
		return White
	case White:
		return Black
	}
	return Empty
}

func (c Color) String() string {
	switch c {
	case Black:
		return "black"
	case White:
		return "white"
	}
	return "empty"
}

// Point is an intersection in internal coordinates: 0-based x = column from
// the left, y = row from the top (the protocol's "x,y").
type Point struct{ X, Y int }

func (p Point) String() string { return fmt.Sprintf("%d,%d", p.X, p.Y) }

// Board sizes the arbiter accepts.
const (
	MinSize     = 5
	MaxSize     = 26
	DefaultSize = 15
)

// Directions are the four line directions; each line is scanned both ways.
var Directions = [4]Point{{1, 0}, {0, 1}, {1, 1}, {1, -1}}

// Board is a square grid of stones.
type Board struct {
	size   int
	cells  []Color
	stones int
}

// NewBoard returns an empty board of the given size.
func NewBoard(size int) (*Board, error) {
	if size < MinSize || size > MaxSize {
		return nil, fmt.Errorf("board size %d out of range %d..%d", size, MinSize, MaxSize)
	}
	return &Board{size: size, cells: make([]Color, size*size)}, nil
}

// Size is the number of lines on each side.
func (b *Board) Size() int { return b.size }

// In reports whether p lies on the board.
func (b *Board) In(p Point) bool {
	return p.X >= 0 && p.Y >= 0 && p.X < b.size && p.Y < b.size
}

// At returns the stone at p; off-board points are Empty.
func (b *Board) At(p Point) Color {
	if !b.In(p) {
		return Empty
	}
	return b.cells[p.Y*b.size+p.X]
}

// Set puts c (or Empty) at p, which must be on the board.
func (b *Board) Set(p Point, c Color) {
	i := p.Y*b.size + p.X
	if b.cells[i] != Empty {
		b.stones--
	}
	if c != Empty {
		b.stones++
	}
	b.cells[i] = c
}

// Clone returns an independent copy.
func (b *Board) Clone() *Board {
	return &Board{size: b.size, cells: append([]Color(nil), b.cells...), stones: b.stones}
}

// Run counts the stones of colour c contiguous with p along d, in the
// direction d only, not counting p itself.
func (b *Board) Run(p Point, d Point, c Color) int {
	n := 0
	for q := (Point{p.X + d.X, p.Y + d.Y}); b.In(q) && b.At(q) == c; q = (Point{q.X + d.X, q.Y + d.Y}) {
		n++
	}
	return n
}

// Line returns the length of the unbroken row of c through p along d (both
// ways, p included, whatever stands on p).
func (b *Board) Line(p Point, d Point, c Color) int {
	return 1 + b.Run(p, d, c) + b.Run(p, Point{-d.X, -d.Y}, c)
}

// Full reports whether no empty point is left.
func (b *Board) Full() bool { return b.stones == len(b.cells) }

// Stones counts the stones of colour c on the board.
func (b *Board) Stones(c Color) int {
	n := 0
	for _, s := range b.cells {
		if s == c {
			n++
		}
	}
	return n
}
