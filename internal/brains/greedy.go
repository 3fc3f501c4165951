package brains

import "gomoku-arena/rules"

// greedyEngine looks one move ahead and no further: win, else stop the
// opponent's five, else make an open four, else stop the opponent's, else the
// point the window heuristic likes best. It answers in well under a
// millisecond on 15x15.
type greedyEngine struct{}

func (greedyEngine) about() string { return aboutLine("greedy") }

func (greedyEngine) move(r *root, _ limits) (rules.Point, bool) {
	if len(r.threats) > 0 {
		var blocks []moveInfo
		for _, m := range r.cands {
			if containsPoint(r.threats, r.g.point(m.at)) {
				blocks = append(blocks, m)
			}
		}
		if pt, ok := r.firstLegal(blocks); ok {
			return pt, true
		}
	}
	me := r.me
	var mine, theirs []moveInfo
	for _, m := range r.cands {
		if m.fours > 0 && opensFour(r.g, m.at, me) {
			mine = append(mine, m)
		}
		if m.blockFs > 0 && opensFour(r.g, m.at, me.Opponent()) {
			theirs = append(theirs, m)
		}
	}
	for _, ms := range [][]moveInfo{mine, theirs, r.cands} {
		if pt, ok := r.firstLegal(ms); ok {
			return pt, true
		}
	}
	return r.fallback()
}

// opensFour reports whether a stone of c on the empty point i would leave c
// two different points to make five: an open four or a double four, which
// one move cannot stop.
func opensFour(g *grid, i int, c rules.Color) bool {
	g.put(i, c)
	var buf [8]int
	n := len(g.fiveCells(buf[:0], i, c))
	g.take(i)
	return n >= 2
}

func containsPoint(s []rules.Point, p rules.Point) bool {
	for _, q := range s {
		if q == p {
			return true
		}
	}
	return false
}
