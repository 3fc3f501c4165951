package pairing

import (
	"math/rand/v2"
	"testing"
)

// The duals matchWithDuals reports must bound what forcing an edge costs:
// the best matching through edge e (of the same size, with maxCardinality)
// weighs at most the optimum minus e's slack / 4. The exact Dutch order rests
// on it (dutch_order.go drops edges whose slack exceeds what a tie may cost).
func TestMatchWithSlacksBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for it := range 400 {
		n := 2 + rng.IntN(8)
		edges := randomGraph(rng, n, 20)
		maxCard := it%2 == 0
		mate, slack, _ := matchWithDuals(n, edges, nil, maxCard)
		card, opt := bruteMatching(n, edges, maxCard)
		got := 0
		var w wide
		for _, e := range edges {
			if mate[e.u] == e.v {
				got++
				w = w.add(e.w)
			}
		}
		if (maxCard && got != card) || w != opt {
			t.Fatalf("graph %d: matching of %d pairs, weight %v; brute force %d, %v", it, got, w, card, opt)
		}
		for k, e := range edges {
			if slack[k].neg() {
				t.Fatalf("graph %d: edge %d-%d has negative slack", it, e.u, e.v)
			}
			// Force e: match the rest without u and v.
			var rest []matchEdge
			for _, f := range edges {
				if f.u != e.u && f.u != e.v && f.v != e.u && f.v != e.v {
					rest = append(rest, f)
				}
			}
			c2, w2 := bruteMatching(n, rest, maxCard)
			if maxCard && c2+1 != card {
				continue // forcing e costs a pair: out of any tie
			}
			w2 = w2.add(e.w)
			gap := opt.sub(w2)
			if gap.add(gap).add(gap).add(gap).less(slack[k]) {
				t.Fatalf("graph %d (maxCard %v): edge %d-%d slack %v but forcing it costs only %v", it, maxCard, e.u, e.v, slack[k], gap)
			}
		}
	}
}

// matchWithDuals is matchWithCertificate with every edge's slack, and
// whether each vertex's dual is zero.
func matchWithDuals(n int, edges []matchEdge, likely []bool, maxCardinality bool) ([]int, []wide, []bool) {
	mate, d, _ := matchWithCertificate(n, storedEdges(edges, likely), len(edges), maxCardinality, 0, len(edges))
	slack := make([]wide, len(edges))
	for k, e := range edges {
		slack[k] = d.slack(e)
	}
	return mate, slack, d.zero()
}
