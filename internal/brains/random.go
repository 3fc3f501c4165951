package brains

import (
	"math/rand"

	"gomoku-arena/rules"
)

// randomEngine plays a uniformly random legal move, instantly. It is the
// arena's baseline and its fastest opponent for tests.
type randomEngine struct{ rng *rand.Rand }

func (*randomEngine) about() string { return aboutLine("random") }

func (e *randomEngine) move(r *root, _ limits) (rules.Point, bool) {
	var empty []rules.Point
	for i, c := range r.g.cells {
		if c == rules.Empty {
			empty = append(empty, r.g.point(i))
		}
	}
	// Draw without replacement until a legal one comes up: as uniform as
	// listing every legal move, and far cheaper under rules whose legality
	// test is costly.
	for _, i := range e.rng.Perm(len(empty)) {
		if _, ok := legal(r.rule, r.pos, empty[i]); ok {
			return empty[i], true
		}
	}
	return rules.Point{}, false
}
