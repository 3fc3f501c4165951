package pairing

import "math/bits"

// This file holds the one matching algorithm the Swiss system needs:
// maximum-weight matching in a general graph, Edmonds' blossom algorithm with
// the primal-dual bookkeeping of Galil ("Efficient algorithms for finding
// maximum matching in graphs", 1986), O(n^3).
//
// Weights are 256-bit integers (wide) because the Dutch system ranks a
// pairing by a long list of criteria in strict priority; each criterion gets
// its own bit field in the weight, and for large brackets those fields need
// more than 128 bits together. All arithmetic is exact: the input weights are
// doubled internally so that every dual variable and every halved slack stays
// an integer.
//
// Big dense graphs (the brackets of events with thousands of players) are
// first solved on a sparse subgraph and certified on the whole graph; see
// blossom_sparse.go.

// wide is a signed 256-bit integer in two's complement: w3 (signed, most
// significant) to w0. 256 bits hold every Dutch criterion of a bracket of
// thousands of players at once (see weightBudget in dutch.go). Four named
// words rather than an array: the compiler keeps struct fields, but not array
// elements, in registers, which makes the matcher several times faster.
type wide struct {
	w0, w1, w2, w3 uint64
}

const wideBits = 256

func wideOf(v int64) wide {
	s := uint64(v >> 63)
	return wide{uint64(v), s, s, s}
}

func (a wide) add(b wide) wide {
	var r wide
	var c uint64
	r.w0, c = bits.Add64(a.w0, b.w0, 0)
	r.w1, c = bits.Add64(a.w1, b.w1, c)
	r.w2, c = bits.Add64(a.w2, b.w2, c)
	r.w3, _ = bits.Add64(a.w3, b.w3, c)
	return r
}

func (a wide) sub(b wide) wide {
	var r wide
	var c uint64
	r.w0, c = bits.Sub64(a.w0, b.w0, 0)
	r.w1, c = bits.Sub64(a.w1, b.w1, c)
	r.w2, c = bits.Sub64(a.w2, b.w2, c)
	r.w3, _ = bits.Sub64(a.w3, b.w3, c)
	return r
}

// neg reports whether a < 0.
func (a wide) neg() bool { return int64(a.w3) < 0 }

func (a wide) less(b wide) bool {
	if a.w3 != b.w3 {
		return int64(a.w3) < int64(b.w3)
	}
	if a.w2 != b.w2 {
		return a.w2 < b.w2
	}
	if a.w1 != b.w1 {
		return a.w1 < b.w1
	}
	return a.w0 < b.w0
}

func (a wide) isZero() bool { return a.w0|a.w1|a.w2|a.w3 == 0 }

// half divides by two, rounding towards minus infinity.
func (a wide) half() wide {
	return wide{a.w0>>1 | a.w1<<63, a.w1>>1 | a.w2<<63, a.w2>>1 | a.w3<<63, uint64(int64(a.w3) >> 1)}
}

// shl shifts left by s < wideBits bits (a must not overflow).
func (a wide) shl(s uint) wide {
	for ; s >= 64; s -= 64 {
		a = wide{0, a.w0, a.w1, a.w2}
	}
	if s == 0 {
		return a
	}
	return wide{a.w0 << s, a.w1<<s | a.w0>>(64-s), a.w2<<s | a.w1>>(64-s), a.w3<<s | a.w2>>(64-s)}
}

// bitLen is the number of bits of a non-negative a.
func (a wide) bitLen() int {
	switch {
	case a.w3 != 0:
		return 192 + bits.Len64(a.w3)
	case a.w2 != 0:
		return 128 + bits.Len64(a.w2)
	case a.w1 != 0:
		return 64 + bits.Len64(a.w1)
	}
	return bits.Len64(a.w0)
}

// matchEdge is an undirected edge u-v with weight w.
type matchEdge struct {
	u, v int
	w    wide
}

// maxWeightMatching returns mate, where mate[v] is v's partner or -1, for a
// matching of maximum total weight among the n vertices. With
// maxCardinality it returns, among the matchings of maximum size, one of
// maximum weight. Edges must not be loops; weights must be non-negative and
// below 2^(wideBits-4).
func maxWeightMatching(n int, edges []matchEdge, maxCardinality bool) []int {
	if n >= sparseFrom && len(edges) >= sparseDensity*n {
		if mate, ok := sparseMatching(n, edges, nil, maxCardinality); ok {
			return mate
		}
	}
	return denseMatching(n, edges, maxCardinality)
}

// sparseSolved, when set (by tests), sees every graph that sparseMatcher
// solved, to compare its result with denseMatching's.
var sparseSolved func(n int, edges []matchEdge, maxCardinality bool, mate []int)

// denseMatching runs the blossom algorithm on every edge given.
func denseMatching(n int, edges []matchEdge, maxCardinality bool) []int {
	m := &matcher{}
	return m.run(n, edges, maxCardinality)
}

type matcher struct {
	nv, ne      int
	edges       []matchEdge
	endpoint    []int
	neighbend   [][]int
	mate        []int
	label       []int
	labelend    []int
	inblossom   []int
	bparent     []int
	bchilds     [][]int
	bbase       []int
	bendps      [][]int
	bestedge    []int
	bbestedges  [][]int
	unused      []int
	dual        []wide
	twice       []wide // twice each (already doubled) edge weight, for slack
	allowedge   []bool
	queue       []int
	leavesBuf   []int
	bestedgeto  []int
	maxCardinal bool
}

func (m *matcher) slack(k int) wide {
	e := &m.edges[k]
	return m.dual[e.u].add(m.dual[e.v]).sub(m.twice[k])
}

func (m *matcher) leaves(b int, out []int) []int {
	if b < m.nv {
		return append(out, b)
	}
	for _, t := range m.bchilds[b] {
		if t < m.nv {
			out = append(out, t)
		} else {
			out = m.leaves(t, out)
		}
	}
	return out
}

func (m *matcher) assignLabel(w, t, p int) {
	for {
		b := m.inblossom[w]
		m.label[w], m.label[b] = t, t
		m.labelend[w], m.labelend[b] = p, p
		m.bestedge[w], m.bestedge[b] = -1, -1
		if t == 1 {
			m.queue = m.leaves(b, m.queue)
			return
		}
		// A T-blossom's base is matched; its mate becomes an S-vertex.
		base := m.bbase[b]
		w, t, p = m.endpoint[m.mate[base]], 1, m.mate[base]^1
	}
}

// scanBlossom traces back from v and w to find a common S-ancestor (the
// base of a new blossom), or returns -1 when the paths reach two distinct
// roots (an augmenting path).
func (m *matcher) scanBlossom(v, w int) int {
	var path []int
	base := -1
	for v != -1 || w != -1 {
		b := m.inblossom[v]
		if m.label[b]&4 != 0 {
			base = m.bbase[b]
			break
		}
		path = append(path, b)
		m.label[b] = 5
		if m.labelend[b] == -1 {
			v = -1
		} else {
			v = m.endpoint[m.labelend[b]]
			b = m.inblossom[v]
			v = m.endpoint[m.labelend[b]]
		}
		if w != -1 {
			v, w = w, v
		}
	}
	for _, b := range path {
		m.label[b] = 1
	}
	return base
}

func (m *matcher) addBlossom(base, k int) {
	v, w := m.edges[k].u, m.edges[k].v
	bb := m.inblossom[base]
	bv := m.inblossom[v]
	bw := m.inblossom[w]
	b := m.unused[len(m.unused)-1]
	m.unused = m.unused[:len(m.unused)-1]
	m.bbase[b] = base
	m.bparent[b] = -1
	m.bparent[bb] = b
	var path, endps []int
	for bv != bb {
		m.bparent[bv] = b
		path = append(path, bv)
		endps = append(endps, m.labelend[bv])
		v = m.endpoint[m.labelend[bv]]
		bv = m.inblossom[v]
	}
	path = append(path, bb)
	reverse(path)
	reverse(endps)
	endps = append(endps, 2*k)
	for bw != bb {
		m.bparent[bw] = b
		path = append(path, bw)
		endps = append(endps, m.labelend[bw]^1)
		w = m.endpoint[m.labelend[bw]]
		bw = m.inblossom[w]
	}
	m.bchilds[b] = path
	m.bendps[b] = endps
	m.label[b] = 1
	m.labelend[b] = m.labelend[bb]
	m.dual[b] = wide{}
	m.leavesBuf = m.leaves(b, m.leavesBuf[:0])
	for _, x := range m.leavesBuf {
		if m.label[m.inblossom[x]] == 2 {
			m.queue = append(m.queue, x)
		}
		m.inblossom[x] = b
	}
	// Compute the least-slack edges from the new blossom to each S-blossom.
	bestedgeto := m.bestedgeto
	for i := range bestedgeto {
		bestedgeto[i] = -1
	}
	consider := func(k int) {
		i, j := m.edges[k].u, m.edges[k].v
		if m.inblossom[j] == b {
			i, j = j, i
		}
		_ = i
		bj := m.inblossom[j]
		if bj != b && m.label[bj] == 1 && (bestedgeto[bj] == -1 || m.slack(k).less(m.slack(bestedgeto[bj]))) {
			bestedgeto[bj] = k
		}
	}
	for _, sub := range path {
		if m.bbestedges[sub] == nil {
			m.leavesBuf = m.leaves(sub, m.leavesBuf[:0])
			for _, x := range m.leavesBuf {
				for _, p := range m.neighbend[x] {
					consider(p / 2)
				}
			}
		} else {
			for _, k := range m.bbestedges[sub] {
				consider(k)
			}
		}
		m.bbestedges[sub] = nil
		m.bestedge[sub] = -1
	}
	list := []int{}
	for _, k := range bestedgeto {
		if k != -1 {
			list = append(list, k)
		}
	}
	m.bbestedges[b] = list
	m.bestedge[b] = -1
	for _, k := range list {
		if m.bestedge[b] == -1 || m.slack(k).less(m.slack(m.bestedge[b])) {
			m.bestedge[b] = k
		}
	}
}

func (m *matcher) expandBlossom(b int, endstage bool) {
	for _, s := range m.bchilds[b] {
		m.bparent[s] = -1
		if s < m.nv {
			m.inblossom[s] = s
		} else if endstage && m.dual[s].isZero() {
			m.expandBlossom(s, endstage)
		} else {
			for _, x := range m.leaves(s, nil) {
				m.inblossom[x] = s
			}
		}
	}
	if !endstage && m.label[b] == 2 {
		// Relabel the sub-blossoms on the even path from the entry child to
		// the base as T/S, so the alternating tree stays consistent.
		childs := m.bchilds[b]
		endps := m.bendps[b]
		nc := len(childs)
		at := func(j int) int { return ((j % nc) + nc) % nc }
		entrychild := m.inblossom[m.endpoint[m.labelend[b]^1]]
		j := indexOf(childs, entrychild)
		var jstep, endptrick int
		if j&1 != 0 {
			j -= nc
			jstep, endptrick = 1, 0
		} else {
			jstep, endptrick = -1, 1
		}
		p := m.labelend[b]
		for j != 0 {
			m.label[m.endpoint[p^1]] = 0
			m.label[m.endpoint[endps[at(j-endptrick)]^endptrick^1]] = 0
			m.assignLabel(m.endpoint[p^1], 2, p)
			m.allowedge[endps[at(j-endptrick)]/2] = true
			j += jstep
			p = endps[at(j-endptrick)] ^ endptrick
			m.allowedge[p/2] = true
			j += jstep
		}
		bv := childs[at(j)]
		m.label[m.endpoint[p^1]], m.label[bv] = 2, 2
		m.labelend[m.endpoint[p^1]], m.labelend[bv] = p, p
		m.bestedge[bv] = -1
		j += jstep
		for childs[at(j)] != entrychild {
			bv = childs[at(j)]
			if m.label[bv] == 1 {
				j += jstep
				continue
			}
			found := -1
			for _, x := range m.leaves(bv, nil) {
				if m.label[x] != 0 {
					found = x
					break
				}
			}
			if found >= 0 {
				m.label[found] = 0
				m.label[m.endpoint[m.mate[m.bbase[bv]]]] = 0
				m.assignLabel(found, 2, m.labelend[found])
			}
			j += jstep
		}
	}
	m.label[b], m.labelend[b] = -1, -1
	m.bchilds[b], m.bendps[b] = nil, nil
	m.bbase[b] = -1
	m.bbestedges[b] = nil
	m.bestedge[b] = -1
	m.unused = append(m.unused, b)
}

func (m *matcher) augmentBlossom(b, v int) {
	t := v
	for m.bparent[t] != b {
		t = m.bparent[t]
	}
	if t >= m.nv {
		m.augmentBlossom(t, v)
	}
	childs := m.bchilds[b]
	endps := m.bendps[b]
	nc := len(childs)
	at := func(j int) int { return ((j % nc) + nc) % nc }
	i := indexOf(childs, t)
	j := i
	var jstep, endptrick int
	if i&1 != 0 {
		j -= nc
		jstep, endptrick = 1, 0
	} else {
		jstep, endptrick = -1, 1
	}
	for j != 0 {
		j += jstep
		t = childs[at(j)]
		p := endps[at(j-endptrick)] ^ endptrick
		if t >= m.nv {
			m.augmentBlossom(t, m.endpoint[p])
		}
		j += jstep
		t = childs[at(j)]
		if t >= m.nv {
			m.augmentBlossom(t, m.endpoint[p^1])
		}
		m.mate[m.endpoint[p]] = p ^ 1
		m.mate[m.endpoint[p^1]] = p
	}
	// Rotate so that the new base comes first.
	m.bchilds[b] = append(append([]int{}, childs[i:]...), childs[:i]...)
	m.bendps[b] = append(append([]int{}, endps[i:]...), endps[:i]...)
	m.bbase[b] = m.bbase[m.bchilds[b][0]]
}

func (m *matcher) augmentMatching(k int) {
	v, w := m.edges[k].u, m.edges[k].v
	for _, sp := range [2][2]int{{v, 2*k + 1}, {w, 2 * k}} {
		s, p := sp[0], sp[1]
		for {
			bs := m.inblossom[s]
			if bs >= m.nv {
				m.augmentBlossom(bs, s)
			}
			m.mate[s] = p
			if m.labelend[bs] == -1 {
				break
			}
			t := m.endpoint[m.labelend[bs]]
			bt := m.inblossom[t]
			s = m.endpoint[m.labelend[bt]]
			j := m.endpoint[m.labelend[bt]^1]
			if bt >= m.nv {
				m.augmentBlossom(bt, j)
			}
			m.mate[j] = m.labelend[bt]
			p = m.labelend[bt] ^ 1
		}
	}
}

func (m *matcher) run(n int, edges []matchEdge, maxCardinality bool) []int {
	m.nv, m.ne = n, len(edges)
	m.maxCardinal = maxCardinality
	m.edges = make([]matchEdge, len(edges))
	m.twice = make([]wide, len(edges))
	var maxw wide
	for k, e := range edges {
		e.w = e.w.add(e.w) // doubled: keeps halved slacks integral
		m.edges[k] = e
		m.twice[k] = e.w.add(e.w)
		if maxw.less(e.w) {
			maxw = e.w
		}
	}
	m.endpoint = make([]int, 2*m.ne)
	deg := make([]int, n)
	for k, e := range m.edges {
		m.endpoint[2*k], m.endpoint[2*k+1] = e.u, e.v
		deg[e.u]++
		deg[e.v]++
	}
	m.neighbend = make([][]int, n)
	for v := range n {
		m.neighbend[v] = make([]int, 0, deg[v])
	}
	for k, e := range m.edges {
		m.neighbend[e.u] = append(m.neighbend[e.u], 2*k+1)
		m.neighbend[e.v] = append(m.neighbend[e.v], 2*k)
	}
	m.mate = filled(n, -1)
	m.label = make([]int, 2*n)
	m.labelend = filled(2*n, -1)
	m.inblossom = make([]int, n)
	for v := range n {
		m.inblossom[v] = v
	}
	m.bparent = filled(2*n, -1)
	m.bchilds = make([][]int, 2*n)
	m.bbase = filled(2*n, -1)
	for v := range n {
		m.bbase[v] = v
	}
	m.bendps = make([][]int, 2*n)
	m.bestedge = filled(2*n, -1)
	m.bbestedges = make([][]int, 2*n)
	m.bestedgeto = make([]int, 2*n)
	for b := 2*n - 1; b >= n; b-- {
		m.unused = append(m.unused, b)
	}
	m.dual = make([]wide, 2*n)
	for v := range n {
		m.dual[v] = maxw
	}
	m.allowedge = make([]bool, m.ne)

	for range n {
		m.matchTightGreedily()
		// One stage: grow alternating trees until an augmentation.
		for i := range m.label {
			m.label[i] = 0
			m.bestedge[i] = -1
		}
		for b := n; b < 2*n; b++ {
			m.bbestedges[b] = nil
		}
		clear(m.allowedge)
		m.queue = m.queue[:0]
		for v := range n {
			if m.mate[v] == -1 && m.label[m.inblossom[v]] == 0 {
				m.assignLabel(v, 1, -1)
			}
		}
		augmented := false
		for {
			for len(m.queue) > 0 && !augmented {
				v := m.queue[len(m.queue)-1]
				m.queue = m.queue[:len(m.queue)-1]
				for _, p := range m.neighbend[v] {
					k := p / 2
					w := m.endpoint[p]
					if m.inblossom[v] == m.inblossom[w] {
						continue
					}
					var kslack wide
					if !m.allowedge[k] {
						// v and w are the edge's ends: no need to load it.
						kslack = m.dual[v].add(m.dual[w]).sub(m.twice[k])
						if kslack.neg() || kslack.isZero() {
							m.allowedge[k] = true
						}
					}
					if m.allowedge[k] {
						if m.label[m.inblossom[w]] == 0 {
							m.assignLabel(w, 2, p^1)
						} else if m.label[m.inblossom[w]] == 1 {
							base := m.scanBlossom(v, w)
							if base >= 0 {
								m.addBlossom(base, k)
							} else {
								m.augmentMatching(k)
								augmented = true
								break
							}
						} else if m.label[w] == 0 {
							m.label[w] = 2
							m.labelend[w] = p ^ 1
						}
					} else if m.label[m.inblossom[w]] == 1 {
						b := m.inblossom[v]
						if m.bestedge[b] == -1 || kslack.less(m.slack(m.bestedge[b])) {
							m.bestedge[b] = k
						}
					} else if m.label[w] == 0 {
						if m.bestedge[w] == -1 || kslack.less(m.slack(m.bestedge[w])) {
							m.bestedge[w] = k
						}
					}
				}
			}
			if augmented {
				break
			}
			// No augmenting path with the current duals: compute the dual
			// adjustment delta and its kind.
			deltatype := -1
			var delta wide
			deltaedge, deltablossom := -1, -1
			if !m.maxCardinal {
				deltatype = 1
				delta = m.dual[0]
				for v := 1; v < n; v++ {
					if m.dual[v].less(delta) {
						delta = m.dual[v]
					}
				}
			}
			for v := range n {
				if m.label[m.inblossom[v]] == 0 && m.bestedge[v] != -1 {
					d := m.slack(m.bestedge[v])
					if deltatype == -1 || d.less(delta) {
						delta, deltatype, deltaedge = d, 2, m.bestedge[v]
					}
				}
			}
			for b := range 2 * n {
				if m.bparent[b] == -1 && m.label[b] == 1 && m.bestedge[b] != -1 {
					d := m.slack(m.bestedge[b]).half()
					if deltatype == -1 || d.less(delta) {
						delta, deltatype, deltaedge = d, 3, m.bestedge[b]
					}
				}
			}
			for b := n; b < 2*n; b++ {
				if m.bbase[b] >= 0 && m.bparent[b] == -1 && m.label[b] == 2 && (deltatype == -1 || m.dual[b].less(delta)) {
					delta, deltatype, deltablossom = m.dual[b], 4, b
				}
			}
			if deltatype == -1 {
				// Maximum cardinality reached; finish with a final dual
				// adjustment so the optimum is certified.
				deltatype = 1
				delta = m.dual[0]
				for v := 1; v < n; v++ {
					if m.dual[v].less(delta) {
						delta = m.dual[v]
					}
				}
				if delta.neg() {
					delta = wide{}
				}
			}
			for v := range n {
				switch m.label[m.inblossom[v]] {
				case 1:
					m.dual[v] = m.dual[v].sub(delta)
				case 2:
					m.dual[v] = m.dual[v].add(delta)
				}
			}
			for b := n; b < 2*n; b++ {
				if m.bbase[b] >= 0 && m.bparent[b] == -1 {
					switch m.label[b] {
					case 1:
						m.dual[b] = m.dual[b].add(delta)
					case 2:
						m.dual[b] = m.dual[b].sub(delta)
					}
				}
			}
			if deltatype == 1 {
				break
			} else if deltatype == 2 {
				m.allowedge[deltaedge] = true
				i, j := m.edges[deltaedge].u, m.edges[deltaedge].v
				if m.label[m.inblossom[i]] == 0 {
					i, j = j, i
				}
				_ = j
				m.queue = append(m.queue, i)
			} else if deltatype == 3 {
				m.allowedge[deltaedge] = true
				m.queue = append(m.queue, m.edges[deltaedge].u)
			} else {
				m.expandBlossom(deltablossom, false)
			}
		}
		if !augmented {
			break
		}
		for b := n; b < 2*n; b++ {
			if m.bparent[b] == -1 && m.bbase[b] >= 0 && m.label[b] == 1 && m.dual[b].isZero() {
				m.expandBlossom(b, true)
			}
		}
	}
	mate := make([]int, n)
	for v := range n {
		mate[v] = -1
		if m.mate[v] >= 0 {
			mate[v] = m.endpoint[m.mate[v]]
		}
	}
	return mate
}

// matchTightGreedily pairs unmatched vertices outside any blossom along
// tight edges, each such edge an augmenting path of one edge. That keeps
// every invariant of the stages (duals unchanged, matched edges tight, the
// unmatched vertices' duals equal, blossoms untouched) and saves a stage
// per pair: Swiss brackets have large classes of equally good partners,
// which the stages would otherwise pair one augmentation at a time, each
// rescanning the graph.
func (m *matcher) matchTightGreedily() {
	for v := range m.nv {
		if m.mate[v] != -1 || m.inblossom[v] != v {
			continue
		}
		for _, p := range m.neighbend[v] {
			w := m.endpoint[p]
			if m.mate[w] != -1 || m.inblossom[w] != w {
				continue
			}
			k := p / 2
			if s := m.dual[v].add(m.dual[w]).sub(m.twice[k]); s.isZero() {
				m.mate[v], m.mate[w] = p, p^1
				break
			}
		}
	}
}

func filled(n, v int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = v
	}
	return s
}

func reverse(s []int) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

func indexOf(s []int, x int) int {
	for i, y := range s {
		if y == x {
			return i
		}
	}
	return -1
}

// shr shifts a non-negative a right by s < wideBits bits.
func (a wide) shr(s uint) wide {
	for ; s >= 64; s -= 64 {
		a = wide{a.w1, a.w2, a.w3, 0}
	}
	if s == 0 {
		return a
	}
	return wide{a.w0>>s | a.w1<<(64-s), a.w1>>s | a.w2<<(64-s), a.w2>>s | a.w3<<(64-s), a.w3 >> s}
}
