package rules

// Symmetries is the number of symmetries of a square board: the identity,
// three rotations and four reflections.
const Symmetries = 8

// Transform maps p on a board of the given size by symmetry k (0..7). k = 0
// is the identity; 1..3 rotate by 90°, 180°, 270°; 4..7 are the same rotations
// after a reflection across the vertical axis.
func Transform(p Point, size, k int) Point {
	x, y := p.X, p.Y
	if k >= 4 {
		x = size - 1 - x
	}
	for i := 0; i < k%4; i++ {
		x, y = size-1-y, x
	}
	return Point{x, y}
}
