package pairing

import (
	"math/rand/v2"
	"testing"
)

// bruteMatching returns the best (cardinality if asked, then weight) over all
// matchings of a small graph, by exhaustive search.
func bruteMatching(n int, edges []matchEdge, maxCard bool) (card int, w wide) {
	adj := make([][]int, n) // edge indices
	for k, e := range edges {
		adj[e.u] = append(adj[e.u], k)
	}
	used := make([]bool, n)
	bestCard, bestW := -1, wide{}
	var rec func(v, c int, acc wide)
	rec = func(v, c int, acc wide) {
		for v < n && used[v] {
			v++
		}
		if v == n {
			better := false
			switch {
			case bestCard < 0:
				better = true
			case maxCard && c != bestCard:
				better = c > bestCard
			default:
				better = bestW.less(acc)
			}
			if better {
				bestCard, bestW = c, acc
			}
			return
		}
		used[v] = true
		rec(v+1, c, acc) // v stays single
		for _, k := range adj[v] {
			u := edges[k].v
			if !used[u] {
				used[u] = true
				rec(v+1, c+1, acc.add(edges[k].w))
				used[u] = false
			}
		}
		used[v] = false
	}
	rec(0, 0, wide{})
	return bestCard, bestW
}

func checkMatching(t *testing.T, n int, edges []matchEdge, mate []int) (int, wide) {
	t.Helper()
	wt := map[[2]int]wide{}
	for _, e := range edges {
		wt[[2]int{e.u, e.v}] = e.w
		wt[[2]int{e.v, e.u}] = e.w
	}
	card, sum := 0, wide{}
	for v, u := range mate {
		if u < 0 {
			continue
		}
		if mate[u] != v {
			t.Fatalf("mate not symmetric: %d->%d->%d", v, u, mate[u])
		}
		w, ok := wt[[2]int{v, u}]
		if !ok {
			t.Fatalf("matched non-edge %d-%d", v, u)
		}
		if v < u {
			card++
			sum = sum.add(w)
		}
	}
	return card, sum
}

func TestBlossomAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	trials := 4000
	if testing.Short() {
		trials = 500
	}
	for trial := range trials {
		n := 1 + rng.IntN(10)
		density := rng.Float64()
		maxW := []int64{1, 3, 10, 1000}[rng.IntN(4)]
		var edges []matchEdge
		for u := range n {
			for v := u + 1; v < n; v++ {
				if rng.Float64() < density {
					edges = append(edges, matchEdge{u, v, wideOf(rng.Int64N(maxW + 1))})
				}
			}
		}
		huge := trial%5 == 4 // exercise the high word of the weights
		if huge {
			for k := range edges {
				edges[k].w = edges[k].w.shl(60).add(edges[k].w)
			}
		}
		for _, maxCard := range []bool{false, true} {
			mate := maxWeightMatching(n, edges, maxCard)
			card, w := checkMatching(t, n, edges, mate)
			bc, bw := bruteMatching(n, edges, maxCard)
			if w != bw || (maxCard && card != bc) {
				t.Fatalf("trial %d n=%d maxCard=%v: got card %d weight %v, brute force %d %v; edges %v",
					trial, n, maxCard, card, w, bc, bw, edges)
			}
		}
	}
}

func TestBlossomKnownCases(t *testing.T) {
	e := func(u, v int, w int64) matchEdge { return matchEdge{u, v, wideOf(w)} }
	tests := []struct {
		name    string
		n       int
		edges   []matchEdge
		maxCard bool
		want    []int
	}{
		{"empty", 0, nil, false, []int{}},
		{"single edge", 2, []matchEdge{e(0, 1, 1)}, false, []int{1, 0}},
		{"path prefers middle heavy", 4, []matchEdge{e(0, 1, 2), e(1, 2, 5), e(2, 3, 2)}, false, []int{-1, 2, 1, -1}},
		{"path max cardinality", 4, []matchEdge{e(0, 1, 2), e(1, 2, 5), e(2, 3, 2)}, true, []int{1, 0, 3, 2}},
		// A triangle with a pendant: forces a blossom.
		{"blossom", 4, []matchEdge{e(0, 1, 6), e(1, 2, 6), e(0, 2, 6), e(2, 3, 7)}, false, []int{1, 0, 3, 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := maxWeightMatching(tc.n, tc.edges, tc.maxCard)
			for i := range tc.want {
				if got[i] != tc.want[i] {
					t.Fatalf("got %v, want %v", got, tc.want)
				}
			}
		})
	}
}
