package brains

import (
	"sort"

	"gomoku-arena/rules"
)

// exactFives asks rule, on a probe position, whether an overline wins for
// each colour: the engines then know standard, renju and caro apart from
// freestyle without knowing them by name. A rule that rejects or ignores the
// overline counts as "exact five only".
func exactFives(rule rules.Rule) [3]bool {
	var exact [3]bool
	for _, c := range []rules.Color{rules.Black, rules.White} {
		p, err := rules.NewPosition(15)
		if err != nil {
			return exact
		}
		// Row 2 gets c's stones XXX.XX; the other side scatters stones two
		// apart on row 13, where nothing can be captured or lined up. Black
		// starts, so for White the scattered stones go first.
		row := []rules.Point{{X: 2, Y: 2}, {X: 3, Y: 2}, {X: 4, Y: 2}, {X: 6, Y: 2}, {X: 7, Y: 2}}
		k := 0
		other := func() { p.Place(rules.Point{X: 2 * k, Y: 13}); k++ }
		if c == rules.White {
			other()
		}
		for _, m := range row {
			p.Place(m)
			other()
		}
		if p.ToMove() != c {
			continue
		}
		v := rule.Play(p, rules.Point{X: 5, Y: 2})
		exact[c] = !(v.Over && v.Winner == c && !v.Illegal)
	}
	return exact
}

// passed returns a copy of p with the turn handed to the other side, to ask
// the rule what the opponent could do if we did nothing. The pass is recorded
// as a repeat of the last move so that rules counting moves see one more.
func passed(p *rules.Position) *rules.Position {
	q := p.Clone()
	last := rules.Point{X: p.Board.Size() / 2, Y: p.Board.Size() / 2}
	if n := len(p.Moves); n > 0 {
		last = p.Moves[n-1]
	}
	q.Moves = append(q.Moves, last)
	return q
}

// legal reports whether m is a legal move for the side to move, and the
// rule's verdict on it.
func legal(rule rules.Rule, p *rules.Position, m rules.Point) (rules.Verdict, bool) {
	v := rule.Play(p.Clone(), m)
	return v, !v.Illegal
}

// root is what every engine needs to know about the position before choosing:
// its immediate wins, the opponent's immediate wins, and the points worth
// considering, best first by the grid's heuristic.
type root struct {
	rule    rules.Rule
	pos     *rules.Position
	g       *grid
	me      rules.Color
	wins    []rules.Point // legal moves that win at once (five or captures)
	threats []rules.Point // points where the opponent would win at once
	cands   []moveInfo    // points near stones, best first (legality unchecked)
}

func newRoot(rule rules.Rule, p *rules.Position, exact [3]bool) *root {
	r := &root{rule: rule, pos: p, me: p.ToMove()}
	r.g = newGrid(p.Board, r.me, exact)
	g := r.g
	var opp *rules.Position
	for i := range g.cells {
		if g.cells[i] != rules.Empty || g.near[i] == 0 {
			continue
		}
		mi := g.assess(i)
		r.cands = append(r.cands, mi)
		pt := g.point(i)
		if mi.win || g.brackets(i, r.me) {
			if v, ok := legal(rule, p, pt); ok && v.Over && v.Winner == r.me {
				r.wins = append(r.wins, pt)
			}
		}
		if mi.block || g.brackets(i, r.me.Opponent()) {
			if opp == nil {
				opp = passed(p)
			}
			if v := rule.Play(opp.Clone(), pt); v.Over && !v.Illegal && v.Winner == r.me.Opponent() {
				r.threats = append(r.threats, pt)
			}
		}
	}
	sortMoves(r.cands, g.n)
	return r
}

// sortMoves orders by score, then by closeness to the centre, then by index,
// so equal choices are decided the same way every time.
func sortMoves(ms []moveInfo, n int) {
	c := n / 2
	dist := func(i int) int { return abs(i%n-c) + abs(i/n-c) }
	sort.Slice(ms, func(a, b int) bool {
		if ms[a].score != ms[b].score {
			return ms[a].score > ms[b].score
		}
		da, db := dist(ms[a].at), dist(ms[b].at)
		if da != db {
			return da < db
		}
		return ms[a].at < ms[b].at
	})
}

// firstLegal returns the first legal move of ms, in order.
func (r *root) firstLegal(ms []moveInfo) (rules.Point, bool) {
	for _, m := range ms {
		pt := r.g.point(m.at)
		if _, ok := legal(r.rule, r.pos, pt); ok {
			return pt, true
		}
	}
	return rules.Point{}, false
}

// fallback is the best legal move anywhere on the board: for positions where
// no point near the stones is legal (an empty board under outer-open, pente's
// third stone) or where there are no stones at all.
func (r *root) fallback() (rules.Point, bool) {
	var all []moveInfo
	for i, c := range r.g.cells {
		if c == rules.Empty {
			all = append(all, r.g.assess(i))
		}
	}
	sortMoves(all, r.g.n)
	return r.firstLegal(all)
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
