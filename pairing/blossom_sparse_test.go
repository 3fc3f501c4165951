package pairing

import (
	"math/rand/v2"
	"testing"
)

// forceSparse sends every graph through sparseMatching with tiny candidate
// sets, so that the certificate and the retries are exercised, and restores
// the settings when the test ends.
func forceSparse(t *testing.T, candidates, violators, retries int) {
	old := [5]int{sparseFrom, sparseDensity, candidatesPerVertex, violatorsPerVertex, sparseRetries}
	sparseFrom, sparseDensity, candidatesPerVertex, violatorsPerVertex, sparseRetries = 0, 0, candidates, violators, retries
	t.Cleanup(func() {
		sparseFrom, sparseDensity, candidatesPerVertex, violatorsPerVertex, sparseRetries = old[0], old[1], old[2], old[3], old[4]
	})
}

func TestSparseMatchingAgainstBruteForce(t *testing.T) {
	forceSparse(t, 1, 1, 1000)
	rng := rand.New(rand.NewPCG(5, 6))
	trials := 3000
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
		if trial%5 == 4 {
			for k := range edges {
				edges[k].w = edges[k].w.shl(60).add(edges[k].w)
			}
		}
		for _, maxCard := range []bool{false, true} {
			mate, ok := sparseMatching(n, edges, nil, maxCard)
			if !ok {
				t.Fatalf("trial %d: no certificate after %d retries", trial, sparseRetries)
			}
			card, w := checkMatching(t, n, edges, mate)
			bc, bw := bruteMatching(n, edges, maxCard)
			if w != bw || (maxCard && card != bc) {
				t.Fatalf("trial %d n=%d maxCard=%v: got card %d weight %v, brute force %d %v; edges %v",
					trial, n, maxCard, card, w, bc, bw, edges)
			}
		}
	}
}

// TestSparseMatchingAgainstDense compares the certified sparse matching with
// the dense algorithm on bigger graphs shaped like Swiss brackets: weights
// that fall with the distance from an ideal partner, plus random noise and
// missing edges (rematches).
func TestSparseMatchingAgainstDense(t *testing.T) {
	forceSparse(t, 3, 2, 1000)
	rng := rand.New(rand.NewPCG(7, 8))
	trials := 300
	if testing.Short() {
		trials = 60
	}
	for trial := range trials {
		n := 2 + rng.IntN(80)
		missing := rng.Float64() * 0.5
		var edges []matchEdge
		for u := range n {
			for v := u + 1; v < n; v++ {
				if rng.Float64() < missing {
					continue
				}
				d := v - u - n/2
				if d < 0 {
					d = -d
				}
				w := int64(n-d)<<20 | rng.Int64N(4)<<10 | int64(2*n-u-v)
				if trial%3 == 0 {
					w = rng.Int64N(3) // many ties
				}
				edges = append(edges, matchEdge{u, v, wideOf(w).shl(uint(trial % 50))})
			}
		}
		for _, maxCard := range []bool{false, true} {
			mate, ok := sparseMatching(n, edges, nil, maxCard)
			if !ok {
				t.Fatalf("trial %d: no certificate", trial)
			}
			card, w := checkMatching(t, n, edges, mate)
			dc, dw := checkMatching(t, n, edges, denseMatching(n, edges, maxCard))
			if w != dw || (maxCard && card != dc) {
				t.Fatalf("trial %d n=%d maxCard=%v: sparse card %d weight %v, dense %d %v", trial, n, maxCard, card, w, dc, dw)
			}
		}
	}
}

// TestSparseMatchingOnSwissBrackets sends the brackets of real Swiss events
// through the sparse matcher and checks each result against the dense
// algorithm on the same graph: the same cardinality and the same weight, so
// the same value of every Dutch criterion the weights encode. (When several
// pairings tie on every criterion the two may pick different ones.) Small
// events go through the sparse path with lowered thresholds; without -short
// the early rounds of a 1000-player event go through it with the real ones.
func TestSparseMatchingOnSwissBrackets(t *testing.T) {
	solved := 0
	sparseSolved = func(n int, edges []matchEdge, maxCard bool, mate []int) {
		solved++
		card, w := checkMatching(t, n, edges, mate)
		dc, dw := checkMatching(t, n, edges, denseMatching(n, edges, maxCard))
		if w != dw || (maxCard && card != dc) {
			t.Fatalf("bracket graph n=%d maxCard=%v: sparse card %d weight %v, dense %d %v", n, maxCard, card, w, dc, dw)
		}
	}
	t.Cleanup(func() { sparseSolved = nil })
	t.Run("small events, low thresholds", func(t *testing.T) {
		old := [2]int{sparseFrom, sparseDensity}
		sparseFrom, sparseDensity = 24, 4
		defer func() { sparseFrom, sparseDensity = old[0], old[1] }()
		events := 12
		if testing.Short() {
			events = 5
		}
		for ev := range events {
			n := 30 + 15*ev
			s := newSim(t, n, 9, uint64(ev))
			if ev%3 == 0 {
				s.forfeits = 0.05
			}
			for r := 1; r <= 9; r++ {
				s.pairAndPlay(r)
			}
		}
	})
	if !testing.Short() {
		t.Run("1000 players", func(t *testing.T) {
			s := newSim(t, 1000, 11, 1)
			for r := 1; r <= 4; r++ {
				s.pairAndPlay(r)
			}
		})
	}
	if solved == 0 {
		t.Fatal("no graph went through the sparse matcher")
	}
	t.Logf("%d bracket graphs solved sparse and checked", solved)
}

// TestBlossomTreeShared checks the blossom duals an edge's slack sums
// (blossomTree.shared, jumping up the nesting by powers of two) against a
// walk up both ends' chains of enclosing blossoms, on graphs whose matchings
// end with nested blossoms.
func TestBlossomTreeShared(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	nested := 0
	for trial := range 2000 {
		n := 3 + rng.IntN(14)
		edges := randomGraph(rng, n, 8)
		m := &matcher{}
		m.run(n, edges, trial%2 == 0)
		tree := m.blossomTree(n)
		for u := range n {
			if b := m.bparent[u]; b != -1 && m.bparent[b] != -1 {
				nested++
			}
			for v := range n {
				var want wide
				around := map[int]bool{}
				for b := m.bparent[u]; b != -1; b = m.bparent[b] {
					around[b] = true
				}
				for b := m.bparent[v]; b != -1; b = m.bparent[b] {
					if around[b] {
						want = want.add(m.dual[b]).add(m.dual[b])
					}
				}
				if got := tree.shared(u, v); got != want {
					t.Fatalf("trial %d: vertices %d and %d share blossom duals %v, tree says %v", trial, u, v, want, got)
				}
			}
		}
	}
	if nested == 0 {
		t.Fatal("no nested blossom: the test checks little")
	}
}

// randomGraph is a graph on n vertices with two pairs in three joined, at
// weights below maxW.
func randomGraph(rng *rand.Rand, n int, maxW int64) []matchEdge {
	var edges []matchEdge
	for u := range n {
		for v := u + 1; v < n; v++ {
			if rng.IntN(3) > 0 {
				edges = append(edges, matchEdge{u, v, wideOf(rng.Int64N(maxW))})
			}
		}
	}
	return edges
}
