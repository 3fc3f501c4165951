package pairing

import (
	"iter"
	"math/bits"
)

// The blossom algorithm costs O(n·m) on a graph of n vertices and m edges,
// and the Swiss brackets of a big event are dense: a round-2 bracket of 2,000
// players has two million edges, of which an optimal matching uses a
// thousand. sparseMatching solves a small candidate subgraph instead and then
// certifies the result on the whole graph with linear-programming duality:
// the blossom algorithm ends with dual variables (one per vertex, one per
// blossom) under which every candidate edge has non-negative slack and every
// matched edge is tight. If every other edge of the whole graph has
// non-negative slack too, those duals prove that no matching of the whole
// graph weighs more, so the candidate matching is a maximum-weight matching
// of the whole graph. Edges that break the proof join the candidates and the
// subgraph is solved again; after a few rounds without a proof the whole
// graph is solved directly.
//
// Only the subgraph is stored: the whole graph is an edgeSeq, read once for
// the first candidates and once per certificate, so that a bracket's graph
// can be computed from its players as it is read instead of held in memory
// (tens of millions of edges in a 10,000-player round).
//
// The result has the optimal weight, as the dense algorithm's has; when
// several matchings share that weight, the two may return different ones.

// sparseFrom and sparseDensity say which graphs are worth the detour: at
// least sparseFrom vertices and sparseDensity edges per vertex on average.
// Variables so that tests can send small graphs through the sparse path with
// few candidates.
var (
	sparseFrom          = 300
	sparseDensity       = 16
	candidatesPerVertex = 12 // edges per vertex in the first subgraph, from its heaviest levels
	violatorsPerVertex  = 6  // worst uncertified edges per vertex added per retry
	sparseRetries       = 6  // solves of a growing subgraph before giving up
)

// edgeSeq reads a graph's edges, each with whether an optimal matching
// probably uses it (a hint for the first candidates, see likelyPair). It
// may compute the edges as it reads them: the graph of a big bracket is
// never stored whole (dutch.go), so every pass over it is a new reading.
type edgeSeq = iter.Seq2[matchEdge, bool]

// storedEdges reads a slice of edges, likely[k] (nil: none) hinting edge k.
func storedEdges(edges []matchEdge, likely []bool) edgeSeq {
	return func(yield func(matchEdge, bool) bool) {
		for k, e := range edges {
			if !yield(e, likely != nil && likely[k]) {
				return
			}
		}
	}
}

func sparseMatching(n int, edges []matchEdge, likely []bool, maxCardinality bool) ([]int, bool) {
	mate, _, _, ok := sparseMatcher(n, storedEdges(edges, likely), maxCardinality, 0)
	return mate, ok
}

// sparseMatcher is sparseMatching that also returns the matcher of the last
// subgraph, whose duals certify the result on the whole graph for the
// weights plus bonus (the cardinality bonus, with maxCardinality). It keeps
// only the subgraph: the whole graph is read once for the first candidates
// and once per certificate, and the bonus is added where an edge is read.
// coarse is how many low bits of the weights the first subgraph's choice
// ignores (see initialCandidates).
func sparseMatcher(n int, edges edgeSeq, maxCardinality bool, coarse uint) (mate []int, m *matcher, bonus wide, ok bool) {
	cands, maxw := initialCandidates(n, edges, coarse)
	if maxCardinality {
		if bonus, ok = cardinalityBonus(n, maxw); !ok {
			return nil, nil, wide{}, false
		}
	}
	in := map[[2]int]bool{}
	for _, e := range cands {
		in[[2]int{e.u, e.v}] = true
	}
	for range sparseRetries {
		sub := make([]matchEdge, len(cands))
		for k, e := range cands {
			sub[k] = matchEdge{e.u, e.v, e.w.add(bonus)}
		}
		m = &matcher{}
		mate = m.run(n, sub, false)
		viol := m.violators(n, edges, bonus, in)
		if len(viol) == 0 {
			if sparseSolved != nil {
				var all []matchEdge
				for e := range edges {
					all = append(all, e)
				}
				sparseSolved(n, all, maxCardinality, mate)
			}
			return mate, m, bonus, true
		}
		cands = append(cands, viol...)
	}
	return nil, nil, wide{}, false
}

// cardinalityBonus is the constant c that makes maximum cardinality first,
// then weight, the plain maximum weight once added to every edge: heavier
// than any matching (maxw is the heaviest edge). c must keep the doubled
// weights and the duals well inside the signed range; ok is false when it
// cannot.
func cardinalityBonus(n int, maxw wide) (c wide, ok bool) {
	c, ok = maxw.mulSmall(uint64(n/2 + 1))
	if !ok || c.bitLen() > wideBits-8 {
		return wide{}, false
	}
	return c.add(wideOf(1)), true
}

// initialCandidates picks the first subgraph in one pass over the graph,
// and returns it with the heaviest weight: the likely edges, every edge of
// a vertex with at most candidatesPerVertex of them, and for every other
// vertex a few edges of each of its heaviest weight levels
// (candidateLevels of them). Swiss weights come in few levels shared by
// many partners (players alike in score, colour preference and floats
// weigh the same against each other), so a vertex's heaviest edges are
// mostly ties; the few taken from each level are spread over its partners
// by a hash rather than the lowest indices, which would send every vertex
// to the same few partners and leave the subgraph without a good matching.
//
// The levels are those of the weights less their low coarse bits. The
// exchange keys of a bracket's remainder (dutch_order.go) give every pair a
// weight of its own, falling with its higher player's position: counted as
// levels, they would send every player to the same few top players, and the
// subgraph would need several rounds of growth before a proof; without them
// the levels are the criteria's, as in the first matching of the bracket.
func initialCandidates(n int, edges edgeSeq, coarse uint) ([]matchEdge, wide) {
	vs := make([]vertexPicks, n)
	in := map[[2]int]bool{}
	var cands []matchEdge
	take := func(e matchEdge) {
		if key := [2]int{e.u, e.v}; !in[key] {
			in[key] = true
			cands = append(cands, e)
		}
	}
	var maxw wide
	for e, likely := range edges {
		if maxw.less(e.w) {
			maxw = e.w
		}
		if likely {
			take(e)
		}
		vs[e.u].consider(e, e.u, coarse)
		vs[e.v].consider(e, e.v, coarse)
	}
	for v := range vs {
		if vs[v].deg <= candidatesPerVertex {
			for _, e := range vs[v].few {
				take(e)
			}
			continue
		}
		for _, l := range vs[v].levels {
			for _, p := range l.picks {
				take(p.e)
			}
		}
	}
	return cands, maxw
}

// vertexPicks is what initialCandidates keeps of one vertex's edges: the
// first few, and the picks of its heaviest levels.
type vertexPicks struct {
	deg    int
	few    []matchEdge // the first candidatesPerVertex edges
	levels []pickLevel // heaviest first, at most candidateLevels
}

type pickLevel struct {
	w     wide
	picks []pick
}

type pick struct {
	e matchEdge
	h uint64
}

// consider takes edge e of vertex v into account.
func (p *vertexPicks) consider(e matchEdge, v int, coarse uint) {
	p.deg++
	if p.deg <= candidatesPerVertex {
		p.few = append(p.few, e)
	}
	w := e.w.shr(coarse)
	// Find w's level among the heaviest kept, or make room for it.
	i := 0
	for i < len(p.levels) && w.less(p.levels[i].w) {
		i++
	}
	if i == candidateLevels {
		return
	}
	if i == len(p.levels) || p.levels[i].w != w {
		if len(p.levels) < candidateLevels {
			p.levels = append(p.levels, pickLevel{})
		}
		copy(p.levels[i+1:], p.levels[i:])
		p.levels[i] = pickLevel{w: w}
	}
	h := spread(uint64(v), pairKey(e))
	l := &p.levels[i]
	if len(l.picks) < max(1, candidatesPerVertex/candidateLevels) {
		l.picks = append(l.picks, pick{e, h})
		return
	}
	j := 0
	for x := range l.picks {
		if l.picks[j].h < l.picks[x].h {
			j = x
		}
	}
	if h < l.picks[j].h {
		l.picks[j] = pick{e, h}
	}
}

// candidateLevels is how many of a vertex's heaviest weight levels the
// first subgraph draws from.
const candidateLevels = 4

// spread is a hash of a vertex and an edge, to choose among equal edges
// without favouring low indices.
func spread(v, k uint64) uint64 {
	x := v*0x9e3779b97f4a7c15 ^ k*0xbf58476d1ce4e5b9
	x ^= x >> 31
	x *= 0x94d049bb133111eb
	return x ^ x>>29
}

// pairKey names an edge by its ends, for spread.
func pairKey(e matchEdge) uint64 {
	return uint64(min(e.u, e.v))<<32 | uint64(max(e.u, e.v))
}

// violators checks the duals m ended with against every edge of the whole
// graph (weights plus bonus, not yet doubled, as given to run) and returns
// the edges of negative slack, the worst few per vertex, adding them to in
// (the candidates so far). None means the matching is certified.
func (m *matcher) violators(n int, edges edgeSeq, bonus wide, in map[[2]int]bool) []matchEdge {
	tree := m.blossomTree(n)
	type viol struct {
		e matchEdge
		s wide
	}
	worst := make([][]viol, n)
	keep := func(v int, e matchEdge, s wide) {
		w := worst[v]
		if len(w) < violatorsPerVertex {
			worst[v] = append(w, viol{e, s})
			return
		}
		// Replace the least violated (largest slack) if this one is worse.
		j := 0
		for i := range w {
			if w[j].s.less(w[i].s) {
				j = i
			}
		}
		// Among equal violations, spread the picks (see initialCandidates).
		if s.less(w[j].s) || s == w[j].s && spread(uint64(v), pairKey(e)) < spread(uint64(v), pairKey(w[j].e)) {
			w[j] = viol{e, s}
		}
	}
	for e := range edges {
		w := e.w.add(bonus)
		w2 := w.add(w)
		s := m.dual[e.u].add(m.dual[e.v]).sub(w2).sub(w2)
		if !s.neg() {
			continue // non-negative without blossom duals, which are never negative
		}
		s = s.add(tree.shared(e.u, e.v))
		// A candidate has non-negative slack: the subgraph's duals are
		// optimal for it. The check only guards against running forever.
		if !s.neg() || in[[2]int{e.u, e.v}] {
			continue
		}
		keep(e.u, e, s)
		keep(e.v, e, s)
	}
	var out []matchEdge
	for _, w := range worst {
		for _, x := range w {
			if key := [2]int{x.e.u, x.e.v}; !in[key] {
				in[key] = true
				out = append(out, x.e)
			}
		}
	}
	return out
}

// blossomTree is the nesting of the blossoms m ended with, to add up the
// blossom duals in an edge's slack: those of every blossom holding both
// ends, which are the blossoms around the ends' innermost common one.
// Blossoms can be nested hundreds deep, so each blossom keeps the sum for
// itself and its enclosing ones (acc) and jumps up the tree by powers of two
// (up): memory n·log n, where a list of each vertex's blossoms would be n
// times the depth.
type blossomTree struct {
	n     int
	inner []int     // per vertex: its innermost blossom, -1 for none
	depth []int32   // per blossom (index b-n): how many blossoms enclose it
	acc   []wide    // per blossom: twice the duals of it and those enclosing it
	up    [][]int32 // up[j][b-n]: the blossom 2^j levels out from b, -1 past the top
}

func (m *matcher) blossomTree(n int) *blossomTree {
	t := &blossomTree{n: n, inner: m.bparent[:n], depth: make([]int32, n), acc: make([]wide, n)}
	done := make([]bool, n)
	var path []int
	top := 0
	for v := range n {
		// Settle v's blossoms from the first settled one (or the top) in.
		path = path[:0]
		for b := m.bparent[v]; b != -1 && !done[b-n]; b = m.bparent[b] {
			path = append(path, b)
		}
		for i := len(path) - 1; i >= 0; i-- {
			b := path[i]
			d := m.dual[b].add(m.dual[b])
			if p := m.bparent[b]; p != -1 {
				t.depth[b-n] = t.depth[p-n] + 1
				d = d.add(t.acc[p-n])
			}
			t.acc[b-n] = d
			done[b-n] = true
			top = max(top, int(t.depth[b-n]))
		}
	}
	t.up = [][]int32{make([]int32, n)}
	for b := range n {
		t.up[0][b] = -1
		if done[b] {
			if p := m.bparent[b+n]; p != -1 {
				t.up[0][b] = int32(p)
			}
		}
	}
	for j := 1; 1<<j <= top; j++ {
		prev, cur := t.up[j-1], make([]int32, n)
		for b := range n {
			cur[b] = -1
			if x := prev[b]; x != -1 {
				cur[b] = prev[int(x)-n]
			}
		}
		t.up = append(t.up, cur)
	}
	return t
}

// shared is twice the duals of the blossoms holding both u and v.
func (t *blossomTree) shared(u, v int) wide {
	a, b := t.inner[u], t.inner[v]
	if a == -1 || b == -1 {
		return wide{}
	}
	n := t.n
	lift := func(x, levels int) int {
		for j := 0; levels > 0; j++ {
			if levels&1 == 1 {
				x = int(t.up[j][x-n])
			}
			levels >>= 1
		}
		return x
	}
	da, db := int(t.depth[a-n]), int(t.depth[b-n])
	if da > db {
		a = lift(a, da-db)
	} else {
		b = lift(b, db-da)
	}
	if a != b {
		for j := len(t.up) - 1; j >= 0; j-- {
			if x, y := t.up[j][a-n], t.up[j][b-n]; x != y {
				a, b = int(x), int(y)
			}
		}
		if a = int(t.up[0][a-n]); a == -1 {
			return wide{}
		}
	}
	return t.acc[a-n]
}

// certificate is the duals a maximum-weight matching ended with, to read
// edges' slacks from without a slice of them all. An edge whose slack
// exceeds 4·g is in no matching that weighs less than g below the optimum
// (for maxCardinality: of the same size), because the duals bound every
// matching's weight by the optimum plus zero, minus the slacks of its edges
// (blossom_slack_test.go).
type certificate struct {
	m     *matcher
	tree  *blossomTree
	bonus wide // the cardinality bonus the duals are for
}

// matchWithCertificate returns a maximum-weight matching (for
// maxCardinality, of maximum size first) and the duals certifying it, in
// units of a quarter of the input weights, for a graph of size edges read
// from edges. Big graphs are matched
// sparsely, keeping only a subgraph; a graph the sparse matcher cannot
// certify is matched whole, which stores every edge: ok is false, and
// nothing is stored, when that is more than denseLimit edges.
func matchWithCertificate(n int, edges edgeSeq, size int, maxCardinality bool, coarse uint, denseLimit int) ([]int, *certificate, bool) {
	var m *matcher
	var mate []int
	var c wide
	if n >= sparseFrom && size >= sparseDensity*n {
		mate, m, c, _ = sparseMatcher(n, edges, maxCardinality, coarse)
	}
	if m == nil {
		if size > denseLimit {
			return nil, nil, false
		}
		// As in sparseMatcher: a bonus per edge heavier than any matching
		// makes the plain maximum-weight duals certify the cardinality too.
		work := make([]matchEdge, 0, size)
		var maxw wide
		for e := range edges {
			work = append(work, e)
			if maxw.less(e.w) {
				maxw = e.w
			}
		}
		if maxCardinality {
			c, _ = cardinalityBonus(n, maxw)
		}
		for k := range work {
			work[k].w = work[k].w.add(c)
		}
		m = &matcher{}
		mate = m.run(n, work, false)
	}
	return mate, &certificate{m, m.blossomTree(n), c}, true
}

// slack is edge e's slack, in quarters of the input weights.
func (d *certificate) slack(e matchEdge) wide {
	w := e.w.add(d.bonus)
	w2 := w.add(w)
	return d.m.dual[e.u].add(d.m.dual[e.v]).sub(w2).sub(w2).add(d.tree.shared(e.u, e.v))
}

// zero says, per vertex, whether its dual is zero.
func (d *certificate) zero() []bool {
	zero := make([]bool, d.tree.n)
	for v := range zero {
		zero[v] = d.m.dual[v].isZero()
	}
	return zero
}

// mulSmall multiplies a non-negative a by k; ok is false on overflow of
// the signed range.
func (a wide) mulSmall(k uint64) (wide, bool) {
	if a.neg() {
		return wide{}, false
	}
	var r wide
	var carry, c uint64
	h0, l0 := bits.Mul64(a.w0, k)
	h1, l1 := bits.Mul64(a.w1, k)
	h2, l2 := bits.Mul64(a.w2, k)
	h3, l3 := bits.Mul64(a.w3, k)
	r.w0 = l0
	r.w1, c = bits.Add64(l1, h0, 0)
	r.w2, c = bits.Add64(l2, h1, c)
	r.w3, carry = bits.Add64(l3, h2, c)
	if h3 != 0 || carry != 0 || r.neg() {
		return wide{}, false
	}
	return r, true
}
