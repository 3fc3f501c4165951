package rules

import "testing"

// Every symmetry is a bijection of the board, and the eight are distinct on a
// point off every axis of symmetry.
func TestTransformBijectiveAndDistinct(t *testing.T) {
	const size = 15
	seen := map[Point]bool{}
	for k := 0; k < Symmetries; k++ {
		img := map[Point]bool{}
		for y := 0; y < size; y++ {
			for x := 0; x < size; x++ {
				q := Transform(Point{x, y}, size, k)
				if q.X < 0 || q.Y < 0 || q.X >= size || q.Y >= size {
					t.Fatalf("k=%d maps %d,%d off the board to %v", k, x, y, q)
				}
				img[q] = true
			}
		}
		if len(img) != size*size {
			t.Errorf("k=%d is not a bijection: %d images", k, len(img))
		}
		seen[Transform(Point{1, 3}, size, k)] = true
	}
	if len(seen) != Symmetries {
		t.Errorf("1,3 has %d distinct images, want %d", len(seen), Symmetries)
	}
	if got := Transform(Point{7, 7}, size, 5); got != (Point{7, 7}) {
		t.Errorf("centre moved to %v", got)
	}
}
