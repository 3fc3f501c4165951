package pairing

// Deciding an opponent without a weighted matching per decision.
//
// The generation order asks, S1 player by S1 player, for the first opponent
// an optimal matching allows (lowestOpponent). Linear-programming duality
// turns that into an unweighted question: under dual variables optimal for
// the criteria (the guidance left out), every optimal matching uses only
// tight edges (zero slack) and leaves unmatched only vertices of zero dual.
// So an opponent c is possible for s only if the tight graph, with the
// decisions so far, has a matching that pairs s with c and covers every
// vertex of positive dual. One search of Edmonds' (unweighted) blossom
// algorithm from s's current partner, with s taken out, marks every vertex
// that can be left over instead of that partner (the "outer" vertices), so
// it answers the question for all candidates at once; a second search
// re-pairs the graph around the chosen one.
//
// The converse needs the blossom duals too (a tight matching may still cross
// a blossom of positive dual twice), so the matching found is checked: it
// must weigh exactly the optimum. If it does not, the decision falls back to
// the exact weighted trials. Vertices that may stay unmatched are handled
// with a second copy of the tight graph, each such vertex joined to its
// copy: the matchings covering every positive-dual vertex are exactly the
// perfect matchings of the doubled graph, read on the first copy.

// tightOff makes every decision take the weighted trials (for tests that
// compare the two ways).
var tightOff bool

// tightGraph is the tight subgraph of a bracket's graph under duals optimal
// for the current phase's criteria.
type tightGraph struct {
	n      int      // vertices of the bracket graph; the copy is n..2n-1
	tight  pairBits // the tight edges of the bracket graph
	free   []bool   // per vertex: zero dual, may stay unmatched
	double bool     // some vertex is free: search the doubled graph

	// Search state, reused between searches.
	match, base, parent []int32
	outer, inBlossom    []bool
	seen                []bool
	queue               []int32
	// tree lists the vertices the last search touched (reached, labelled
	// or contracted), so that the next search resets only those and a
	// contraction scans only them: the tree is usually a small part of a
	// bracket of thousands.
	tree []int32
	dead [2]int32 // vertices taken out of the search
	stop int32    // the search ends as soon as stop is outer
}

// tightGraph returns the tight subgraph for the current phase, or nil when
// the fast path cannot be used. Without guidance the duals of the phase's
// matching are the criteria's own; otherwise the criteria are matched once
// more, alone.
func (g *bracketGraph) tightGraph() *tightGraph {
	if g.tg != nil || g.noTight {
		return g.tg
	}
	g.noTight = true
	tight, zero := g.tightAt, g.zero
	if !g.dualsTight {
		criteria := func(u, v int) wide { return g.weight(u, v).shr(g.gbits) }
		es, n := g.unbanned(nil, criteria)
		g.work += n
		_, d, ok := matchWithCertificate(g.nv, es, n, g.whole, 0, maxBracketEdges)
		if !ok {
			return nil // the trials decide, or are refused in turn
		}
		tight, zero = newPairBits(g.nv), d.zero()
		for e := range es {
			if d.slack(e).isZero() {
				tight.add(e.u, e.v)
			}
		}
	}
	t := &tightGraph{n: g.nv, tight: tight, free: zero}
	// The current matching is optimal, so it must be tight and leave only
	// free vertices unmatched; anything else means these duals do not
	// describe the phase, and the slow path decides.
	for u, v := range g.mate {
		if v < 0 {
			if !t.free[u] {
				return nil
			}
		} else if !t.tight.has(u, v) {
			return nil
		}
	}
	for _, f := range t.free {
		t.double = t.double || f
	}
	size := t.n
	if t.double {
		size *= 2
	}
	t.match = make([]int32, size)
	t.base = make([]int32, size)
	t.parent = make([]int32, size)
	t.outer = make([]bool, size)
	t.inBlossom = make([]bool, size)
	t.seen = make([]bool, size)
	t.queue = make([]int32, 0, size)
	for i := range size {
		t.base[i], t.parent[i] = int32(i), -1
	}
	g.tg, g.noTight = t, false
	return t
}

// load sets the search's matching from the bracket's: the first copy as
// mate, the second its mirror, free unmatched vertices joined to their copy.
func (t *tightGraph) load(mate []int) {
	for u, v := range mate {
		switch {
		case v >= 0:
			t.match[u] = int32(v)
		case t.double:
			t.match[u] = int32(u + t.n)
		default:
			t.match[u] = -1
		}
		if t.double {
			if v >= 0 {
				t.match[u+t.n] = int32(v + t.n)
			} else {
				t.match[u+t.n] = int32(u)
			}
		}
	}
	t.dead = [2]int32{-1, -1}
	t.stop = -1
}

// search grows Edmonds' alternating tree from the unmatched root over the
// search graph: first-copy vertices joined by tight edges not banned,
// second-copy vertices by any tight edge (the copy only has to exist), each
// free vertex to its copy. It stops at the first augmenting path and
// returns its far end (the path is in parent and match); or returns -2 as
// soon as stop is outer; or returns -1 with outer marking every vertex an
// even alternating path from root reaches.
func (t *tightGraph) search(g *bracketGraph, root int32) int32 {
	for _, i := range t.tree {
		t.base[i] = i
		t.parent[i] = -1
		t.outer[i] = false
	}
	n := int32(t.n)
	t.queue = append(t.queue[:0], root)
	t.tree = append(t.tree[:0], root)
	t.outer[root] = true
	for qi := 0; qi < len(t.queue); qi++ {
		if t.stop >= 0 && t.outer[t.stop] {
			return -2
		}
		v := t.queue[qi]
		if v == t.dead[0] || v == t.dead[1] {
			continue
		}
		orig, shift := v, int32(0)
		if v >= n {
			orig, shift = v-n, n
		}
		for x := range t.tight.row(int(orig)) {
			if shift == 0 && g.banned.has(int(orig), x) {
				continue
			}
			w := int32(x)
			if end := t.visit(v, w+shift, root); end >= 0 {
				return end
			}
		}
		if t.double && t.free[orig] {
			twin := orig + n
			if shift != 0 {
				twin = orig
			}
			if end := t.visit(v, twin, root); end >= 0 {
				return end
			}
		}
	}
	if t.stop >= 0 && t.outer[t.stop] {
		return -2
	}
	return -1
}

// visit extends the tree from outer vertex v along the edge to to; it
// returns to if that ends an augmenting path, else -1.
func (t *tightGraph) visit(v, to, root int32) int32 {
	if to == t.dead[0] || to == t.dead[1] || t.base[v] == t.base[to] || t.match[v] == to {
		return -1
	}
	if to == root || (t.match[to] >= 0 && t.parent[t.match[to]] >= 0) {
		t.contract(v, to)
		return -1
	}
	if t.parent[to] < 0 {
		t.parent[to] = v
		t.tree = append(t.tree, to)
		if t.match[to] < 0 {
			return to
		}
		m := t.match[to]
		t.outer[m] = true
		t.queue = append(t.queue, m)
		t.tree = append(t.tree, m)
	}
	return -1
}

// contract shrinks the blossom closed by the edge v-to into its base.
func (t *tightGraph) contract(v, to int32) {
	b := t.lca(v, to)
	for _, i := range t.tree {
		t.inBlossom[i] = false
	}
	t.markPath(v, b, to)
	t.markPath(to, b, v)
	// Only tree vertices have a base in the tree other than themselves.
	for _, i := range t.tree {
		if t.inBlossom[t.base[i]] {
			t.base[i] = b
			if !t.outer[i] {
				t.outer[i] = true
				t.queue = append(t.queue, i)
			}
		}
	}
}

func (t *tightGraph) lca(a, b int32) int32 {
	for _, i := range t.tree {
		t.seen[i] = false
	}
	for {
		a = t.base[a]
		t.seen[a] = true
		if t.match[a] < 0 {
			break
		}
		a = t.parent[t.match[a]]
	}
	for {
		b = t.base[b]
		if t.seen[b] {
			return b
		}
		b = t.parent[t.match[b]]
	}
}

func (t *tightGraph) markPath(v, b, child int32) {
	for t.base[v] != b {
		t.inBlossom[t.base[v]] = true
		t.inBlossom[t.base[t.match[v]]] = true
		t.parent[v] = child
		child = t.match[v]
		v = t.parent[t.match[v]]
	}
}

// augment flips the path search found, ending at end.
func (t *tightGraph) augment(end int32) {
	for v := end; v >= 0; {
		pv := t.parent[v]
		next := t.match[pv]
		t.match[v], t.match[pv] = pv, v
		v = next
	}
}

// fastDecide decides v's partner on the tight graph: the first of cands
// (or, with twinOK, leaving v unmatched, after them) that an optimal
// matching obeying every decision so far allows. It reports whether one was
// found (and then makes that matching the current one) and ok false, having
// changed nothing, when the slow path must decide.
func (g *bracketGraph) fastDecide(v int, cands []int, twinOK bool) (found, ok bool) {
	if tightOff {
		return false, false
	}
	t := g.tightGraph()
	if t == nil {
		orderFallbacks++
		return false, false
	}
	found, ok = g.decideTight(t, v, cands, twinOK)
	if !ok {
		orderFallbacks++
	}
	return found, ok
}

func (g *bracketGraph) decideTight(t *tightGraph, v int, cands []int, twinOK bool) (found, ok bool) {
	t.load(g.mate)
	x := t.match[v]
	if x < 0 {
		return false, false
	}
	// Take v out: its partner is left over, and the search marks which
	// vertices could be left over instead.
	t.dead[0] = int32(v)
	t.match[x] = -1
	// Only candidates joined to v by a usable tight edge can be picked;
	// the search may stop as soon as the first of them is outer.
	usable := make([]bool, len(cands))
	for i, c := range cands {
		if int32(c) != x && t.tight.has(v, c) && !g.banned.has(v, c) {
			usable[i] = true
			if t.stop < 0 {
				t.stop = int32(c)
			}
		}
	}
	if t.stop < 0 && !(twinOK && t.double && t.free[v]) {
		// No candidate has a tight edge to v that is not banned, and v may
		// not stay unmatched: under duals optimal for the criteria no
		// optimum pairs v with any of them, and the search is not needed.
		return false, true
	}
	if t.search(g, x) >= 0 {
		return false, false // an augmenting path: the duals do not describe this matching
	}
	pick := int32(-1)
	for i, c := range cands {
		if usable[i] && t.outer[c] {
			pick = int32(c)
			break
		}
	}
	if twin := int32(v + t.n); pick < 0 && twinOK && t.double && t.free[v] && twin != x && t.outer[twin] {
		pick = twin
	}
	if pick < 0 {
		return false, true
	}
	// Pair v with pick, and re-pair pick's partner along the path the
	// search proved to exist.
	z := t.match[pick]
	t.match[pick] = -1
	t.match[z] = -1
	t.dead[1] = pick
	t.stop = -1
	if t.search(g, x) != z {
		return false, false
	}
	t.augment(z)
	mate := make([]int, g.nv)
	for u := range mate {
		m := t.match[u]
		if m < 0 || int(m) >= g.nv {
			m = -1
		}
		mate[u] = int(m)
	}
	if int(pick) < g.nv {
		mate[v], mate[pick] = int(pick), v
	} else {
		mate[v] = -1
	}
	if !g.sameValue(g.mate, mate) {
		return false, false // crossed a blossom of positive dual: not an optimum
	}
	g.mate = mate
	return true, true
}

// sameValue says whether matching b has a's size and weight above the
// guidance, summing only the pairs that differ.
func (g *bracketGraph) sameValue(a, b []int) bool {
	var gain, loss wide
	size := 0
	for u := range a {
		if a[u] == b[u] {
			continue
		}
		if v := a[u]; v > u {
			loss = loss.add(g.weight(u, v).shr(g.gbits))
			size--
		}
		if v := b[u]; v > u {
			gain = gain.add(g.weight(u, v).shr(g.gbits))
			size++
		}
	}
	return size == 0 && gain == loss
}
