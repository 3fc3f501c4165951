package brains

import (
	"testing"
	"time"
)

// midgame is a quiet middle-game position for benchmarks.
var midgame = []string{
	"...............",
	"...............",
	"...............",
	"...............",
	"......O........",
	".....XOX.......",
	"....X.XO.......",
	".....OOX.......",
	"......X.O......",
	"...............",
	"...............",
	"...............",
	"...............",
	"...............",
	"...............",
}

func BenchmarkGreedyMove(b *testing.B) {
	free := ruleOf(b, "freestyle")
	p := position(b, midgame...)
	ex := exactFives(free)
	for b.Loop() {
		choose(greedyEngine{}, free, p, ex, limits{start: time.Now(), budget: time.Second})
	}
}

// BenchmarkSearchNodes reports the search's speed in nodes per second on a
// fixed-depth search of the middle-game position.
func BenchmarkSearchNodes(b *testing.B) {
	free := ruleOf(b, "freestyle")
	p := position(b, midgame...)
	r := newRoot(free, p, exactFives(free))
	s := newSearchEngine()
	var nodes int64
	start := time.Now()
	for b.Loop() {
		clear(s.tt)
		s.think(r.g, append([]moveInfo(nil), r.cands...), limits{start: time.Now(), budget: time.Minute, depth: 5})
		nodes += s.nodes
	}
	b.ReportMetric(float64(nodes)/time.Since(start).Seconds(), "nodes/s")
}

func BenchmarkGreedyMoveRenju(b *testing.B) {
	renju := ruleOf(b, "renju")
	p := position(b, midgame...)
	ex := exactFives(renju)
	for b.Loop() {
		choose(greedyEngine{}, renju, p, ex, limits{start: time.Now(), budget: time.Second})
	}
}
