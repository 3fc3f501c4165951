package schedule

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"strings"

	"gomoku-arena/internal/mode"
	"gomoku-arena/rules"
)

// Opening suites for authors' matches: which opening each game of a match
// starts from. A suite is pure: the same list, options and number of games
// always deal the same openings, so a match can be replayed and two
// encounters of a gauntlet play the same positions.

// Order is how a suite walks its list.
type Order uint8

const (
	OrderSequential Order = iota // the list from top to bottom, then again
	OrderRandom                  // the list shuffled once with the seed, then walked like sequential
	// OrderPasses walks the list in passes, each in a new order shuffled
	// by the seed and the pass number: every opening is played once
	// before any is played again, and which board, round or entrant gets
	// which opening is left to the seed, never to the list's order (an
	// outer-open list starts in the corner). An event deals its openings
	// so, one per pairing (Tournament).
	OrderPasses
)

var orderNames = []string{OrderSequential: "sequential", OrderRandom: "random", OrderPasses: "passes"}

// ParseOrder reads an order's name: "sequential", "random" or "passes".
func ParseOrder(s string) (Order, error) { return mode.Parse[Order]("opening order", orderNames, s) }

func (o Order) String() string { return mode.Name("Order", orderNames, o) }

// Transform is how a suite reuses its list under the eight board
// symmetries.
type Transform uint8

const (
	NoTransform     Transform = iota // every opening as written
	TransformCycle                   // pass p through the list plays every opening under symmetry p mod 8 (c-gomoku-cli's -transform, in its order under StyleCGomokuCli)
	TransformRandom                  // every pair (or game) draws one of the 8 symmetries
)

var transformNames = []string{NoTransform: "none", TransformCycle: "cycle", TransformRandom: "random"}

// ParseTransform reads a transform's name: "none", "cycle" or "random".
func ParseTransform(s string) (Transform, error) {
	return mode.Parse[Transform]("transform", transformNames, s)
}

func (t Transform) String() string { return mode.Name("Transform", transformNames, t) }

// Suite deals the openings of a match.
type Suite struct {
	Openings  []rules.Opening // validated (CheckOpenings); empty means every game starts on an empty board
	Order     Order
	Seed      uint64 // for OrderRandom, OrderPasses and TransformRandom (Seeded)
	Transform Transform
	// Pairs makes games 2k and 2k+1 share one opening (the caller swaps the
	// engines' colours between them): the game pairs of the pentanomial
	// statistics. Without it every game takes the next opening.
	Pairs bool
	// Style picks c-gomoku-cli's random order and symmetry sequence
	// (StyleCGomokuCli) instead of the arena's; Match.Schedule reads it too.
	Style Style
}

// Deal is the opening of one game.
type Deal struct {
	Opening  rules.Opening // arbiter.Stones already transformed; Line and Text name the source line
	Symmetry int           // 0..7, the symmetry applied (rules.Transform)
}

// Validate reports an order or transform that is not one of the constants.
func (s Suite) Validate() error {
	if int(s.Order) >= len(orderNames) {
		return fmt.Errorf("opening order %v: want %s", s.Order, strings.Join(orderNames, ", "))
	}
	if int(s.Transform) >= len(transformNames) {
		return fmt.Errorf("transform %v: want %s", s.Transform, strings.Join(transformNames, ", "))
	}
	if s.Style > StyleCGomokuCli {
		return fmt.Errorf("suite style %v: want %v or %v", s.Style, StyleArena, StyleCGomokuCli)
	}
	return nil
}

// Seeded reports whether the deal depends on the Seed.
func (s Suite) Seeded() bool {
	return s.Order == OrderRandom || s.Order == OrderPasses || s.Transform == TransformRandom
}

// Deal returns the openings of games 0..n-1 on a board of the given size, or
// nil when the suite has no openings.
func (s Suite) Deal(n, size int) []Deal {
	if len(s.Openings) == 0 || n <= 0 {
		return nil
	}
	order := make([]int, len(s.Openings))
	for i := range order {
		order[i] = i
	}
	rng := rand.New(rand.NewPCG(s.Seed, 0x676f6d6f6b75)) // the second word is fixed: the seed alone decides
	switch {
	case s.Order == OrderRandom && s.Style == StyleCGomokuCli:
		order = CGomokuCliShuffle(len(order), s.Seed)
	case s.Order == OrderRandom:
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	}
	deals := make([]Deal, n)
	unit := -1
	var d Deal
	for g := range deals {
		u := g
		if s.Pairs {
			u = g / 2
		}
		if u != unit {
			unit = u
			k := 0
			switch s.Transform {
			case TransformCycle:
				k = (u / len(order)) % rules.Symmetries
				if s.Style == StyleCGomokuCli {
					k = CGomokuCliSymmetry(u / len(order))
				}
			case TransformRandom:
				k = rng.IntN(rules.Symmetries)
			}
			if s.Order == OrderPasses && u%len(order) == 0 {
				order = passOrder(len(order), s.Seed, u/len(order))
			}
			o := s.Openings[order[u%len(order)]]
			d = Deal{Opening: o.Transformed(size, k), Symmetry: k}
		}
		deals[g] = d
	}
	return deals
}

// Digest is the SHA-256 of an opening list's stones, one opening a line
// ("7,7 8,8"), as event.json records it beside them: the list the games
// were dealt from, whatever file it was read from.
func Digest(list [][]rules.Point) string {
	h := sha256.New()
	for _, o := range list {
		for i, p := range o {
			if i > 0 {
				h.Write([]byte{' '})
			}
			h.Write([]byte(p.String()))
		}
		h.Write([]byte{'\n'})
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// passOrder is the order of the list's n openings in the given pass of
// OrderPasses: a shuffle seeded by the seed and the pass alone, so a
// resumed event deals what its first run dealt.
func passOrder(n int, seed uint64, pass int) []int {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	rng := rand.New(rand.NewPCG(seed, uint64(pass)))
	rng.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
	return order
}

// DefaultOpenings are the openings a match or an event plays when it names
// no list: under renju the 26 canonical openings, under outer-open with
// arbiterOpens (the arbiter places Black's first stone) every point of the
// outer zone, else none (games start on an empty board).
func DefaultOpenings(rule rules.Rule, size int, arbiterOpens bool) []rules.Opening {
	switch {
	case rule.Name() == "renju":
		return rules.RIFOpeningList(size)
	case rule.Name() == "outer-open" && arbiterOpens:
		var list []rules.Opening
		for _, m := range rules.OuterOpenFirstMoves(size) {
			list = append(list, rules.Opening{Stones: []rules.Point{m}, Text: m.String()})
		}
		return list
	}
	return nil
}

// CheckOpenings rejects openings that cannot be played under rule on a board
// of the given size (Opening.Validate: an outer-open first stone outside the
// zone, a renju forbidden move, a finished game), naming the list and line:
// `book.txt:12: "0,0, 1,0": opening: stone 1 (h8) under outer-open: ...`.
func CheckOpenings(list []rules.Opening, name string, rule rules.Rule, size int) error {
	if len(list) == 0 {
		return fmt.Errorf("%s: no openings", name)
	}
	for _, o := range list {
		line := o.Line
		o.Line = 0 // the prefix names the line; Validate would name it again
		if err := o.Validate(rule, size); err != nil {
			return fmt.Errorf("%s:%d: %q: %w", name, line, o.Text, err)
		}
	}
	return nil
}
