package pairing

import (
	"errors"
	"fmt"
	"math/bits"
	"sort"
)

// How a round is paired (C.04.3, 2025 edition):
//
// Players are ranked by score, then pairing number, and grouped into
// scoregroups. Brackets are paired from the top down: a bracket holds the
// moved-down players (MDPs) left over from the bracket above, then the
// residents of the scoregroup. Each bracket is decided by one maximum-weight
// matching whose edge weights pack the criteria into bit fields, highest
// priority in the highest bits, so that a heavier matching is exactly a
// better one in the lexicographic order of the criteria:
//
//	violations   only in PairSwissFallback: fewest rematches etc.
//	C5           the bye goes to the lowest score possible
//	C6           most pairs inside the bracket (fewest downfloaters)
//	C7           MDPs paired by score, highest first (downfloater scores)
//	C8           most pairs in the following bracket (see below)
//	C9           the bye goes to the player with fewest unplayed games
//	             (weighed in the bracket the bye comes from, when the bye
//	             is its single downfloater)
//	C10, C11     topscorers (final round): colour difference beyond ±2,
//	             same colour three times in a row
//	C12, C13     colour preferences, then strong preferences, granted
//	C14..C17     repeated downfloats/upfloats of the previous two rounds
//	C18..C21     their score differences (dutch_floatsd.go)
//	ranking      lower-ranked residents float, lowest-ranked gets the bye
//	S1/S2        pairs as close as possible to S1[i] against S2[i]
//
// The absolute criteria (no rematch, the bye only to an eligible player,
// no meeting of two non-topscorers with the same absolute colour preference)
// are edges left out of the graph. The completion criterion is enforced by
// matching the bracket together with every lower player, asking for a
// maximum-cardinality matching (and adding a bye vertex when the count is
// odd): a bracket may only keep pairs that leave the rest of the round
// pairable. For big events that whole-remainder matching is too costly at the
// top, so brackets above fullLimit players (bracket plus everything below)
// look only at the next scoregroup; if the bottom then cannot be completed,
// the round is paired again with whole-remainder matchings everywhere.
// Big graphs are matched sparsely (blossom_sparse.go), with likelyPair
// naming the pairs near the Dutch order as the first candidates.
//
// A bracket's graph is never stored whole: an edge's weight is computed
// from the two players whenever it is read (pairWeight in matchBracket).
// The sparse matcher reads the graph once for its first candidates and
// once per certificate, keeping only its subgraph; then the pairs an
// optimum may still use (slack within the bound, see accept) are kept for
// the generation order as a bit set, with bit sets of the bans and of the
// tight pairs (bracketGraph). In big brackets those pairs are the tight
// pairs of the first matching, which Swiss weights (a few levels shared by
// many players) make 70 to 85% of all pairs. So memory is still quadratic,
// but at about a byte per pair of a bracket where the whole graph cost 140
// (maxBracketPairs bounds it); everything else grows with the players.

// Every field is always in the weight (256 bits; a bracket needing more
// than weightBudget is refused, never paired by fewer criteria). The 2,000
// player benchmarks need at most about 155 bits.
//
// What is still approximate, in the order it matters:
//
//   - The rules' generation order (transpositions and exchanges), which
//     decides between pairings equal on every criterion, is exact
//     (dutch_order.go, dutch_tight.go) wherever the tight-graph search or
//     the bounded weighted trials can decide; a decision neither reaches
//     keeps the first matching's choice (counted in orderExhausted; none
//     in the cross-checks and benchmarks so far).
//   - C18-C21 (score differences of repeated floaters) are weighed by MDP
//     score (dutch_floatsd.go), exact except where two MDPs meet. C8 weighs
//     the following bracket's pairs and then its score differences, but
//     not when that bracket is the last one.
//   - Colour allocation and preferences follow the 2017 text; the 2025
//     wording of those articles was not available, but bbpPairings' 2025
//     implementation allocates the same colours on every cross-checked
//     round (crosscheck_test.go).

// weightBudget is the most bits a packed edge weight may use: the matcher
// doubles weights and adds pairs of duals, and the sparse matcher adds a
// cardinality bonus (n/2+1 times the heaviest edge) to them.
const weightBudget = wideBits - 24

// Memory bounds. A bracket keeps three or four bit sets of its pairs
// (bracketGraph), about a byte per pair: maxBracketPairs bounds that, the
// square of the players of a bracket (with those below it) over two. And a
// matching stores its whole graph, about 140 bytes per edge, only when the
// sparse matcher finds no certificate: maxBracketEdges bounds those edges.
// A round needing more is refused with an error naming the bracket and the
// count, never left to run out of memory. (Variables for tests.)
var maxBracketPairs = 1_000_000_000

var maxBracketEdges = 30_000_000

// fullLimit bounds the size of a bracket-plus-remainder matching done for
// every bracket; see above.
const fullLimit = 160

var errWindowTooNarrow = errors.New("window too narrow")

func (t *tourney) pairRound(relax Relaxation) ([]Pairing, error) {
	if len(t.players) == 0 {
		return nil, nil
	}
	if out, ok := t.untouchedRound(); ok {
		return out, nil
	}
	out, err := t.pairBrackets(relax, false)
	if errors.Is(err, errWindowTooNarrow) {
		out, err = t.pairBrackets(relax, true)
	}
	return out, err
}

// untouchedRound pairs a field in which nobody has played or scored yet
// (the first round): one homogeneous bracket, no constraints, so the Dutch
// rules reduce to S1[i] against S2[i] and the bye to the last player.
func (t *tourney) untouchedRound() ([]Pairing, bool) {
	for _, e := range t.players {
		if e.pts != 0 || len(e.colours) != 0 || len(e.met) != 0 || e.noBye || e.unplayed != t.players[0].unplayed || e.floats != [2]int{} {
			return nil, false
		}
	}
	ps := t.players
	var out []Pairing
	var bye *entrant
	if len(ps)%2 == 1 {
		bye = ps[len(ps)-1]
		ps = ps[:len(ps)-1]
	}
	half := len(ps) / 2
	for i := range half {
		f, s := t.allocate(ps[i], ps[i+half])
		out = append(out, Pairing{Round: t.round, Black: f.id, White: s.id})
	}
	if bye != nil {
		out = append(out, Pairing{Round: t.round, Black: bye.id, White: Bye})
	}
	return out, true
}

func (t *tourney) pairBrackets(relax Relaxation, forceFull bool) ([]Pairing, error) {
	var groups [][]*entrant
	for i := 0; i < len(t.players); {
		j := i
		for j < len(t.players) && t.players[j].pts == t.players[i].pts {
			j++
		}
		groups = append(groups, t.players[i:j])
		i = j
	}
	type pair struct{ a, b *entrant }
	var pairs []pair
	var bye *entrant
	var carry []*entrant
	windowUsed := false
	restCount := len(t.players)
	for gi, g := range groups {
		restCount -= len(g)
		bracket := append(append([]*entrant{}, carry...), g...)
		if len(bracket) == 0 {
			continue
		}
		var next []*entrant
		if gi+1 < len(groups) {
			next = groups[gi+1]
		}
		whole := forceFull || len(bracket)+restCount <= fullLimit || len(next) == restCount
		var lower []*entrant
		if whole {
			for _, h := range groups[gi+1:] {
				lower = append(lower, h...)
			}
		} else {
			lower = next
			windowUsed = true
		}
		mate, err := t.matchBracket(bracket, lower, next, len(g), whole, relax, true)
		if err != nil {
			return nil, err
		}
		nb := len(bracket)
		if whole && t.byeOutside(bracket, lower, mate) {
			// C9 is for the bracket whose single downfloater is the
			// bye: here some of its players go below its score too.
			if mate, err = t.matchBracket(bracket, lower, next, len(g), whole, relax, false); err != nil {
				return nil, err
			}
		}
		if whole {
			nodes := nb + len(lower)
			if nodes%2 == 1 {
				nodes++
			}
			for v := range nodes {
				if mate[v] < 0 {
					if windowUsed {
						return nil, errWindowTooNarrow
					}
					return nil, &NoLegalPairingError{Round: t.round, Reason: t.explain(relax)}
				}
			}
		}
		carry = carry[:0:0]
		for i, e := range bracket {
			m := mate[i]
			switch {
			case m >= 0 && m < nb:
				if i < m {
					pairs = append(pairs, pair{e, bracket[m]})
				}
			case whole && m == nb+len(lower) && len(lower) == 0:
				bye = e
			// A player the matching gives the bye while lower brackets
			// remain floats down like any other: the bye is settled in
			// the last bracket, where C9 weighs every candidate.
			default:
				carry = append(carry, e)
			}
		}
	}
	if len(carry) > 0 {
		// Only reachable when the last bracket was not matched as a whole,
		// which pairBrackets never does; kept as a guard.
		return nil, &NoLegalPairingError{Round: t.round, Reason: "players left unpaired at the bottom"}
	}
	out := make([]Pairing, 0, len(pairs)+1)
	sort.SliceStable(pairs, func(i, j int) bool {
		hi := func(p pair) (*entrant, *entrant) {
			if p.a.rankPos < p.b.rankPos {
				return p.a, p.b
			}
			return p.b, p.a
		}
		ai, al := hi(pairs[i])
		bi, bl := hi(pairs[j])
		if ai.pts != bi.pts {
			return ai.pts > bi.pts
		}
		if ai.pts+al.pts != bi.pts+bl.pts {
			return ai.pts+al.pts > bi.pts+bl.pts
		}
		return ai.rankPos < bi.rankPos
	})
	for _, p := range pairs {
		f, s := t.allocate(p.a, p.b)
		out = append(out, Pairing{Round: t.round, Black: f.id, White: s.id})
	}
	if bye != nil {
		out = append(out, Pairing{Round: t.round, Black: bye.id, White: Bye})
	}
	return out, nil
}

// byeOutside reports whether a whole-remainder matching gives the bye to a
// player of the bracket while some player of the bracket is paired below
// the bracket's score: then the bye is not the bracket's single
// downfloater, and C9 must not decide the bracket (as bbpPairings reads it).
func (t *tourney) byeOutside(bracket, lower []*entrant, mate []int) bool {
	nb := len(bracket)
	resPts := bracket[nb-1].pts
	byeNode := nb + len(lower)
	if byeNode >= len(mate) || mate[byeNode] < 0 || mate[byeNode] >= nb {
		return false
	}
	for i := range nb {
		if m := mate[i]; m >= nb && m < byeNode && lower[m-nb].pts < resPts {
			return true
		}
	}
	return false
}

// explain says, for the error message, why nothing legal exists.
func (t *tourney) explain(relax Relaxation) string {
	eligible := 0
	for _, e := range t.players {
		if !e.noBye {
			eligible++
		}
	}
	if len(t.players)%2 == 1 && eligible == 0 && relax < AllowAnything {
		return "odd number of players and every one of them has already had a bye or a win without playing"
	}
	return "every way to pair all players needs a rematch, a second bye, or two players with the same absolute colour preference to meet"
}

// violations counts how many absolute criteria a pair (b == nil: the bye)
// would break, or -1 if relax does not allow the pair at all.
func (t *tourney) violations(a, b *entrant, relax Relaxation) int {
	rematch, other := 0, 0
	if b == nil {
		if a.noBye {
			other++
		}
	} else {
		if a.met[b.id] {
			rematch++
		}
		if !a.top && !b.top && a.strength == prefAbsolute && b.strength == prefAbsolute && a.pref == b.pref {
			other++
		}
	}
	switch {
	case relax == Strict && rematch+other > 0, relax == AllowRematch && other > 0:
		return -1
	}
	return rematch + other
}

// field is one criterion's slice of the edge weight.
type field struct {
	maxEdge int64 // largest value on one edge
	maxSum  int64 // largest total over a matching
}

// bracketMatch is the matching of one bracket: its vertices (the bracket's
// players, then the lower players, then, when whole and the count is odd,
// the bye), the fields of its edge weights, highest priority first, and the
// values of the edge being weighed. An edge's weight is computed from its
// two players whenever it is read: the graph of a big bracket is never
// stored whole.
type bracketMatch struct {
	t     *tourney
	relax Relaxation
	c9    bool // C9 decides the bye here

	nodes       []*entrant
	nb          int // the bracket's players: nodes[:nb]
	nmdp        int // its moved-down players: nodes[:nmdp]
	nNext       int // the following scoregroup: nodes[nb:nb+nNext]
	byeNode     int // -1: no bye
	resPts      int // the residents' score
	mdpLevels   []int
	mdpAt       []int // node i's MDP score level, -1 for a resident or lower player
	maxPts      int
	maxUnplayed int
	pairsMax    int64

	fs      []field
	shifts  []uint
	nSig    int // fs[:nSig] are the criteria, fs[nSig:] the guidance
	kbits   uint
	gbits   uint
	noGuide bool
	vals    []int64

	// The fields' indices in fs; -1 where a field is not weighed.
	fViol, fByeScore, fPairs, fNext, fByeUnplayed  int
	fMDP                                           []int
	fC10, fC11, fC12, fC13, fC14, fC15, fC16, fC17 int
	fRank, fByeRank, fSplit                        int
	sds                                            *floatSD

	// C8's second half: the score differences in the following bracket.
	sdLevels []int
	owns     [][]bool // owns[l][node]: the node can make difference sdLevels[l]
	fNextSD  []int
	nextPts  int
	floor    int  // one point below the following bracket
	nextSD   bool // the differences are weighed
}

// add appends a field counted on every edge of the graph (or, byeOnly, on
// the bye's edge alone).
func (m *bracketMatch) add(maxEdge int64, byeOnly bool) int {
	s := maxEdge * m.pairsMax
	if byeOnly {
		s = maxEdge
	}
	m.fs = append(m.fs, field{maxEdge, s})
	return len(m.fs) - 1
}

// bounded appends a field counted only on pairs inside the bracket: its
// total is bounded by the bracket's players (each matched once), far
// narrower than maxEdge times the pairs of the whole graph.
func (m *bracketMatch) bounded(maxEdge, maxSum int64) int {
	m.fs = append(m.fs, field{maxEdge, maxSum})
	return len(m.fs) - 1
}

// isNext says whether node x is in the following scoregroup, the first part
// of the lower players.
func (m *bracketMatch) isNext(x int) bool { return x >= m.nb && x < m.nb+m.nNext }

// newBracketMatch lays out the fields of one bracket's matching. next is the
// following scoregroup (for C8); residents is how many of bracket's players
// belong to its scoregroup.
func (t *tourney) newBracketMatch(bracket, lower, next []*entrant, residents int, whole bool, relax Relaxation, c9 bool) *bracketMatch {
	nb := len(bracket)
	m := &bracketMatch{t: t, relax: relax, c9: c9, nb: nb, nNext: len(next), byeNode: -1,
		fViol: -1, fC10: -1, fC11: -1}
	m.nodes = append(append([]*entrant{}, bracket...), lower...)
	if whole && len(m.nodes)%2 == 1 {
		m.byeNode = len(m.nodes)
	}
	nv := len(m.nodes)
	if m.byeNode >= 0 {
		nv++
	}
	m.nmdp = nb - residents
	m.resPts = bracket[nb-1].pts
	// Distinct MDP scores, highest first (C7).
	for _, e := range bracket[:m.nmdp] {
		if len(m.mdpLevels) == 0 || m.mdpLevels[len(m.mdpLevels)-1] != e.pts {
			m.mdpLevels = append(m.mdpLevels, e.pts)
		}
	}
	minPts := 1 << 30
	for _, e := range m.nodes {
		m.maxPts = max(m.maxPts, e.pts)
		minPts = min(minPts, e.pts)
		m.maxUnplayed = max(m.maxUnplayed, e.unplayed)
	}
	m.pairsMax = int64(nv/2 + 1)

	// The fields, highest priority first; values are filled per edge in
	// the same order.
	if relax > Strict {
		m.fViol = m.add(3, false)
	}
	m.fByeScore = m.add(int64(m.maxPts-minPts), true)
	perPair, perPlayer := int64(nb/2), int64(nb)
	m.fPairs = m.bounded(1, perPair)
	// mdpCount[l] is how many MDPs score mdpLevels[l].
	mdpCount := make([]int64, len(m.mdpLevels))
	mdpLevel := map[*entrant]int{}
	for _, e := range bracket[:m.nmdp] {
		for l, pts := range m.mdpLevels {
			if e.pts == pts {
				mdpCount[l]++
				mdpLevel[e] = l
			}
		}
	}
	m.fMDP = make([]int, len(m.mdpLevels))
	for i := range m.mdpLevels {
		m.fMDP[i] = m.bounded(2, mdpCount[i])
	}
	m.fNext = m.add(1, false)
	// C8's second half: the score differences in the following bracket,
	// the biggest first (one field per difference, counting how often it
	// occurs there). Not when the following bracket is the last one, which
	// the completion criterion already decides.
	if len(next) > 0 && !(whole && len(next) == len(lower)) {
		m.nextSD = true
		m.nextPts = next[0].pts
		m.floor = m.nextPts - 2
		seen := map[int]bool{m.nextPts - m.floor: true}
		for _, e := range bracket {
			seen[e.pts-m.floor] = true
			seen[e.pts-m.nextPts] = true
		}
		for v := range seen {
			if v > 0 {
				m.sdLevels = append(m.sdLevels, v)
			}
		}
		sort.Sort(sort.Reverse(sort.IntSlice(m.sdLevels)))
	}
	// A player in the bracket or the following one owns the one element
	// (pair or float) it makes there, and owns[l] marks the players who can
	// make difference sdLevels[l]. Every vertex is matched once, so giving
	// each edge its owners' marks minus the difference it makes scores a
	// matching by (owners - occurrences): a field only as wide as the
	// number of owners, which is small for all but the smallest levels.
	m.owns = make([][]bool, len(m.sdLevels)) // by node
	m.fNextSD = make([]int, len(m.sdLevels))
	for l, v := range m.sdLevels {
		m.owns[l] = make([]bool, len(m.nodes))
		n := int64(0)
		for i, e := range bracket {
			if e.pts-m.nextPts == v || e.pts-(m.nextPts-2) == v {
				m.owns[l][i] = true
				n++
			}
		}
		if v == 2 {
			for i := range next {
				m.owns[l][nb+i] = true
				n++
			}
		}
		m.fs = append(m.fs, field{2, n})
		m.fNextSD[l] = len(m.fs) - 1
	}
	m.fByeUnplayed = m.add(int64(m.maxUnplayed), true)
	if t.final {
		m.fC10 = m.bounded(2, perPlayer)
		m.fC11 = m.bounded(2, perPlayer)
	}
	m.fC12 = m.bounded(2, perPlayer)
	m.fC13 = m.bounded(2, perPlayer)
	m.fC14 = m.bounded(2, perPlayer)
	m.fC15 = m.bounded(1, perPair)
	m.fC16 = m.bounded(2, perPlayer)
	m.fC17 = m.bounded(1, perPair)
	m.sds = t.floatSDFields(bracket, m.nmdp, m.mdpLevels, mdpCount, mdpLevel, m.bounded)
	m.mdpAt = filled(len(m.nodes), -1)
	for i, e := range bracket[:m.nmdp] {
		m.mdpAt[i] = mdpLevel[e]
	}
	m.nSig = len(m.fs)
	m.fRank = m.bounded(int64(2*nb), int64(2*nb)*perPair)
	m.fByeRank = m.add(int64(len(t.players)), true)
	m.fSplit = m.bounded(int64(nb), int64(nb)*perPair)
	m.vals = make([]int64, len(m.fs))
	return m
}

// layout assigns the fields' shifts from the lowest priority up, the
// guidance fields (the approximate order below the criteria) from zero and
// the criteria from zero too; refine puts the exact order's keys between
// them. Every field is kept: the weight is wide enough for brackets of
// thousands of players, and a bracket that would need more bits is refused
// rather than paired by fewer criteria.
func (m *bracketMatch) layout(nEdges int) error {
	m.shifts = make([]uint, len(m.fs))
	sbits := uint(0)
	for i := len(m.fs) - 1; i >= 0; i-- {
		n := uint(bits.Len64(uint64(m.fs[i].maxSum)))
		if i >= m.nSig {
			m.shifts[i] = m.gbits
			m.gbits += n
		} else {
			m.shifts[i] = sbits
			sbits += n
		}
	}
	// A graph of more than orderEdges edges is matched without the
	// guidance (dutch_order.go): then the guidance gets no bits at all,
	// which keeps the weights of brackets of thousands of players inside
	// the budget.
	m.noGuide = nEdges > orderEdges
	if m.noGuide {
		m.gbits = 0
	}
	m.kbits = exchangeKeyBits(m.nb)
	if total := sbits + m.kbits + m.gbits; total > weightBudget {
		return fmt.Errorf("swiss: round %d: a bracket of %d players needs %d-bit matching weights, more than the %d available", m.t.round, m.nb, total, weightBudget)
	}
	return nil
}

// nextSDOf is the score difference the element (pair, or float when j < 0:
// the bye) of nodes i and j makes in the following bracket; -1 for none.
func (m *bracketMatch) nextSDOf(i, j int) int {
	a, b := m.nodes[i], (*entrant)(nil)
	if j >= 0 {
		b = m.nodes[j]
	}
	aIn, bIn := i < m.nb, j >= 0 && j < m.nb
	aN, bN := m.isNext(i), j >= 0 && m.isNext(j)
	switch {
	case aIn && bIn:
		return -1
	case aIn && bN:
		return a.pts - b.pts
	case bIn && aN:
		return b.pts - a.pts
	case aN && bN:
		return 0
	case aIn:
		return a.pts - m.floor // a floats through the following bracket
	case bIn:
		return b.pts - m.floor
	case aN || bN:
		return m.nextPts - m.floor
	}
	return -1
}

func (m *bracketMatch) setNextSD(i, j int) {
	if len(m.sdLevels) == 0 {
		return
	}
	sd := -1
	if m.nextSD {
		sd = m.nextSDOf(i, j)
	}
	for l, v := range m.sdLevels {
		c := int64(0)
		if m.owns[l][i] {
			c++
		}
		if j >= 0 && m.owns[l][j] {
			c++
		}
		if sd == v {
			c--
		}
		m.vals[m.fNextSD[l]] = c
	}
}

func (m *bracketMatch) weigh(from, to int) wide {
	var w wide
	for i := from; i < to; i++ {
		if m.vals[i] != 0 {
			w = w.add(wideOf(m.vals[i]).shl(m.shifts[i]))
		}
	}
	return w
}

// pairWeight is the weight of the edge between nodes i < j (j == byeNode:
// i's bye). ok is false when relax does not allow the pair.
func (m *bracketMatch) pairWeight(i, j int) (w wide, ok bool) {
	t, vals, nb, nmdp := m.t, m.vals, m.nb, m.nmdp
	a := m.nodes[i]
	if j == m.byeNode {
		v := t.violations(a, nil, m.relax)
		if v < 0 {
			return wide{}, false
		}
		clear(vals)
		if m.fViol >= 0 {
			vals[m.fViol] = int64(3 - v)
		}
		m.setNextSD(i, -1)
		vals[m.fByeScore] = int64(m.maxPts - a.pts)
		if m.c9 && i < nb {
			// C9 decides the bye only in the bracket the assignee
			// comes from (C5 above already fixes the assignee's
			// score): weighing lower players here would let the
			// bye's unplayed games decide pairs in this bracket.
			vals[m.fByeUnplayed] = int64(m.maxUnplayed - a.unplayed)
		}
		vals[m.fByeRank] = int64(a.rankPos)
		return packWeight(m.weigh(0, m.nSig), m.weigh(m.nSig, len(m.fs)), m.kbits, m.gbits, m.noGuide), true
	}
	b := m.nodes[j]
	v := t.violations(a, b, m.relax)
	if v < 0 {
		return wide{}, false
	}
	clear(vals)
	if m.fViol >= 0 {
		vals[m.fViol] = int64(3 - v)
	}
	aIn, bIn := i < nb, j < nb
	if (aIn || m.isNext(i)) && (bIn || m.isNext(j)) && !(aIn && bIn) {
		vals[m.fNext] = 1
	}
	m.setNextSD(i, j)
	if aIn && bIn {
		vals[m.fPairs] = 1
		for l, pts := range m.mdpLevels {
			c := int64(0)
			if i < nmdp && a.pts == pts {
				c++
			}
			if j < nmdp && b.pts == pts {
				c++
			}
			vals[m.fMDP[l]] = c
		}
		t.colourFields(a, b, vals, m.fC10, m.fC11, m.fC12, m.fC13)
		// Floats: the higher score downfloats, the lower upfloats;
		// a resident paired inside the bracket does not float down.
		for _, e := range [2]*entrant{a, b} {
			if e.pts == m.resPts {
				if e.floats[0] == floatDown {
					vals[m.fC14]++
				}
				if e.floats[1] == floatDown {
					vals[m.fC16]++
				}
			}
		}
		vals[m.fC15], vals[m.fC17] = 1, 1
		if a.pts != b.pts {
			lo := a
			if b.pts < a.pts {
				lo = b
			}
			if lo.floats[0] == floatUp {
				vals[m.fC15] = 0
			}
			if lo.floats[1] == floatUp {
				vals[m.fC17] = 0
			}
		}
		m.sds.fill(a, b, m.mdpAt[i], m.mdpAt[j], vals)
		vals[m.fRank] = int64(2*nb - i - j)
		d := j - i
		ideal := (nb - 2*nmdp) / 2
		if i < nmdp && j >= nmdp {
			ideal = nmdp
		}
		dev := d - ideal
		if dev < 0 {
			dev = -dev
		}
		vals[m.fSplit] = int64(max(nb-dev, 0))
	}
	return packWeight(m.weigh(0, m.nSig), m.weigh(m.nSig, len(m.fs)), m.kbits, m.gbits, m.noGuide), true
}

// pairs yields every pair the round allows, read afresh on every pass.
func (m *bracketMatch) pairs(yield func(matchEdge, bool) bool) {
	nLower := len(m.nodes) - m.nb
	for i := range m.nodes {
		for j := i + 1; j < len(m.nodes); j++ {
			if w, ok := m.pairWeight(i, j); ok && !yield(matchEdge{i, j, w}, likelyPair(i, j, m.nb, m.nmdp, nLower)) {
				return
			}
		}
		if m.byeNode >= 0 {
			if w, ok := m.pairWeight(i, m.byeNode); ok && !yield(matchEdge{i, m.byeNode, w}, true) {
				return
			}
		}
	}
}

// matchBracket builds and solves the matching for one bracket (see
// bracketMatch and newBracketMatch).
func (t *tourney) matchBracket(bracket, lower, next []*entrant, residents int, whole bool, relax Relaxation, c9 bool) ([]int, error) {
	m := t.newBracketMatch(bracket, lower, next, residents, whole, relax, c9)
	nv := len(m.nodes)
	if m.byeNode >= 0 {
		nv++
	}
	nEdges := t.countEdges(m.nodes, m.byeNode >= 0, relax)
	if err := m.layout(nEdges); err != nil {
		return nil, err
	}
	nb := m.nb
	tooMany := func(n int, what string, limit int) error {
		return fmt.Errorf("swiss: round %d: a bracket of %d players, matched with %d players below it, has %d %s, more than the %d this pairing holds in memory", t.round, nb, len(lower), n, what, limit)
	}
	if n := nv * (nv - 1) / 2; n > maxBracketPairs {
		return nil, tooMany(n, "pairs of players", maxBracketPairs)
	}
	mate, d, ok := matchWithCertificate(nv, m.pairs, nEdges, whole, 0, maxBracketEdges)
	if !ok {
		return nil, tooMany(nEdges, "possible pairs to match whole", maxBracketEdges)
	}
	g := &bracketGraph{nv: nv, nb: nb, nmdp: m.nmdp, whole: whole, kbits: m.kbits, gbits: m.gbits, noGuide: m.noGuide,
		pairWeight: func(u, v int) wide { w, _ := m.pairWeight(u, v); return w },
		likelyPair: func(u, v int) bool { return v == m.byeNode || likelyPair(u, v, nb, m.nmdp, len(lower)) }}
	g.begin(mate, d, m.pairs, nEdges)
	if mate := g.refine(); mate != nil {
		return mate, nil
	}
	return nil, tooMany(g.refused, "pairs left to match whole", maxBracketEdges)
}

// packWeight is an edge's weight from its criteria and its guidance (none
// in graphs matched without it, see noGuide): the criteria in the high
// bits, above room for the exchange keys of the remainder.
func packWeight(crit, guide wide, kbits, gbits uint, noGuide bool) wide {
	if noGuide {
		guide = wide{}
	}
	return crit.shl(kbits + gbits).add(guide)
}

// countEdges is the number of edges matchBracket's graph will have: the
// pairs of nodes (and with bye, each node with the bye) that relax allows.
func (t *tourney) countEdges(nodes []*entrant, bye bool, relax Relaxation) int {
	n := 0
	for i, a := range nodes {
		for _, b := range nodes[i+1:] {
			if t.violations(a, b, relax) >= 0 {
				n++
			}
		}
		if bye && t.violations(a, nil, relax) >= 0 {
			n++
		}
	}
	return n
}

// likelyWindow is how far from the pairing the Dutch order prefers a pair
// may be and still be a starting candidate for the sparse matcher.
const likelyWindow = 8

// likelyPair says whether nodes i < j (bracket positions first, then the
// lower players) are close to a pair the Dutch order prefers: S1[k] against
// S2[k] (or MDP k against resident k) inside the bracket, the bracket's
// bottom against the top of the rest, and neighbours or the same halves
// below. Only a hint for speed: see sparseMatching.
func likelyPair(i, j, nb, nmdp, nlower int) bool {
	near := func(d, target int) bool { return d-target <= likelyWindow && target-d <= likelyWindow }
	d := j - i
	switch {
	case j < nb:
		ideal := (nb - 2*nmdp) / 2
		if i < nmdp && j >= nmdp {
			ideal = nmdp
		}
		return near(d, ideal) || d <= likelyWindow
	case i < nb:
		return j-nb <= 2*likelyWindow || nb-i <= likelyWindow
	default:
		return d <= likelyWindow || near(d, nlower/2)
	}
}

// colourFields fills the colour criteria for a pair inside the bracket.
func (t *tourney) colourFields(a, b *entrant, vals []int64, fC10, fC11, fC12, fC13 int) {
	f, s := t.allocate(a, b)
	topPair := a.top || b.top
	for _, x := range [2]struct {
		e *entrant
		c int
	}{{f, first}, {s, second}} {
		e, c := x.e, x.c
		if fC10 >= 0 {
			cd := e.cd + c
			if !topPair || (cd <= 2 && cd >= -2) {
				vals[fC10]++
			}
			n := len(e.colours)
			if !topPair || n < 2 || int(e.colours[n-1]) != c || int(e.colours[n-2]) != c {
				vals[fC11]++
			}
		}
		if e.pref == 0 || e.pref == c {
			vals[fC12]++
		}
		if e.strength < prefStrong || e.pref == c {
			vals[fC13]++
		}
	}
}

// allocate applies the colour allocation rules to a pair and returns the
// first mover, then the second:
//  1. grant both colour preferences;
//  2. grant the stronger preference (both absolute, for topscorers: the
//     wider colour difference);
//  3. alternate colours from the most recent round in which one player had
//     one colour and the other the other (played games only, aligned from
//     the latest);
//  4. grant the higher-ranked player's preference;
//  5. the higher-ranked player takes the initial colour (the first move
//     unless SwissOptions.InitialSecond) with an odd pairing number, the
//     other colour with an even one.
func (t *tourney) allocate(a, b *entrant) (*entrant, *entrant) {
	hi, lo := a, b
	if b.rankPos < a.rankPos {
		hi, lo = b, a
	}
	give := func(e *entrant, c int) (*entrant, *entrant) {
		other := hi
		if e == hi {
			other = lo
		}
		if c == first {
			return e, other
		}
		return other, e
	}
	switch {
	case hi.pref == 0 && lo.pref == 0:
		// fall through to rule 5
	case lo.pref == 0 || (hi.pref != 0 && hi.pref != lo.pref):
		return give(hi, hi.pref)
	case hi.pref == 0:
		return give(lo, lo.pref)
	default: // same preference
		if hi.strength != lo.strength {
			if hi.strength > lo.strength {
				return give(hi, hi.pref)
			}
			return give(lo, lo.pref)
		}
		if hi.strength == prefAbsolute && abs(hi.cd) != abs(lo.cd) {
			if abs(hi.cd) > abs(lo.cd) {
				return give(hi, hi.pref)
			}
			return give(lo, lo.pref)
		}
		nh, nl := len(hi.colours), len(lo.colours)
		for k := 1; k <= min(nh, nl); k++ {
			ch, cl := hi.colours[nh-k], lo.colours[nl-k]
			if ch != cl {
				return give(hi, -int(ch))
			}
		}
		return give(hi, hi.pref)
	}
	initial, other := first, second
	if t.initialSecond {
		initial, other = second, first
	}
	if hi.id%2 == 0 { // pairing number id+1 is odd
		return give(hi, initial)
	}
	return give(hi, other)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
