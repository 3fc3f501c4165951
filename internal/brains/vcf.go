package brains

import "gomoku-arena/rules"

// vcfDepth bounds a VCF search, in fours played by the attacker.
const vcfDepth = 12

// vcf looks for a victory by continuous fours for the side to move: a chain
// of fours, each answered by the one forced block, ending in a five or in two
// fives at once. It returns the first move of such a chain, or -1. It is
// cheap (each four has one answer) and sees wins far beyond the alpha-beta
// horizon. It only trusts lines where the defender never gets a four of his
// own, so it can miss wins but never claims a false one (up to the rules the
// grid ignores: forbidden moves, captures).
func (s *searchEngine) vcf(depth int) int {
	g := s.g
	att := g.turn
	def := att.Opponent()
	if g.fours[def] > 0 || depth == 0 {
		return -1
	}
	s.nodes++
	if s.abort || s.timeUp() {
		s.abort = true
		return -1
	}
	var cand [64]int
	fours := cand[:0]
	for i, c := range g.cells {
		if c != rules.Empty || g.near[i] == 0 {
			continue
		}
		if g.makesFiveNow(i, att) {
			return i
		}
		if g.makesFour(i, att) && len(fours) < cap(cand) {
			fours = append(fours, i)
		}
	}
	var buf [8]int
	for _, i := range fours {
		g.play(i)
		fives := g.fiveCells(buf[:0], i, att)
		switch {
		case len(fives) >= 2:
			g.undo(i)
			return i
		case len(fives) == 1:
			b := fives[0]
			g.play(b)
			won := g.fours[def] == 0 && s.vcf(depth-1) >= 0
			g.undo(b)
			if won {
				g.undo(i)
				return i
			}
		}
		g.undo(i)
	}
	return -1
}

// makesFiveNow reports whether c makes five on the empty point i.
func (g *grid) makesFiveNow(i int, c rules.Color) bool {
	if g.fours[c] == 0 {
		return false
	}
	for _, w := range g.geo.windows[i] {
		if g.cnt[c][w] == 4 && g.cnt[c.Opponent()][w] == 0 {
			return g.makesFive(i, c)
		}
	}
	return false
}

// makesFour reports whether c on the empty point i would complete four
// stones in some window free of the opponent.
func (g *grid) makesFour(i int, c rules.Color) bool {
	o := c.Opponent()
	for _, w := range g.geo.windows[i] {
		if g.cnt[c][w] == 3 && g.cnt[o][w] == 0 {
			return true
		}
	}
	return false
}
