package schedule

import (
	"testing"

	"gomoku-arena/arbiter"
	"gomoku-arena/engine"
)

// TestShardsPartitionTheSchedule checks that the shards of a batch play
// every game exactly once, both games of a pair in one shard, with shares
// that differ by one pair at most: for odd game counts (a pair straddling
// rounds), gauntlets and unpaired suites alike.
func TestShardsPartitionTheSchedule(t *testing.T) {
	for _, tc := range []struct {
		name           string
		engines, games int
		rounds         int
		gauntlet       bool
		pairs          bool
	}{
		{"pairs", 2, 20, 1, false, true},
		{"odd games over rounds", 3, 3, 4, false, true},
		{"gauntlet", 4, 6, 2, true, true},
		{"single games", 2, 7, 1, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for count := 1; count <= 5; count++ {
				m := &Match{Director: &arbiter.Director{Size: 15}, Games: tc.games, Rounds: tc.rounds, Gauntlet: tc.gauntlet, Suite: Suite{Pairs: tc.pairs}}
				for i := range tc.engines {
					m.Director.Entrants = append(m.Director.Entrants, arbiter.Entrant{Spec: engine.Spec{Name: string(rune('a' + i))}})
				}
				_, all := m.Schedule()
				seen := map[int]int{}
				sizes := []int{}
				for k := range count {
					m.Shard = Shard{k, count}
					share := m.Share()
					sizes = append(sizes, len(share))
					for _, f := range share {
						seen[f.Number]++
					}
				}
				for _, f := range all {
					if seen[f.Number] != 1 {
						t.Fatalf("%d shards: game %d played %d times", count, f.Number, seen[f.Number])
					}
				}
				// Pairs stay together.
				twin := map[[2]int]int{}
				for i, p := range m.places {
					if !tc.pairs {
						continue
					}
					key := [2]int{p.enc.First*10 + p.enc.Second, p.k / 2}
					sh := m.ShardOf(i+1, count)
					if s, ok := twin[key]; ok && s != sh {
						t.Fatalf("%d shards: pair %v split between shards %d and %d", count, key, s, sh)
					}
					twin[key] = sh
				}
				lo, hi := sizes[0], sizes[0]
				for _, n := range sizes {
					lo, hi = min(lo, n), max(hi, n)
				}
				if hi-lo > 2 {
					t.Errorf("%d shards: shares %v differ by more than a pair", count, sizes)
				}
			}
		})
	}
}

func TestParseShard(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Shard
		ok   bool
	}{{"0/4", Shard{0, 4}, true}, {"3/4", Shard{3, 4}, true}, {"4/4", Shard{}, false}, {"-1/4", Shard{}, false}, {"1", Shard{}, false}, {"a/b", Shard{}, false}, {"0/0", Shard{}, false},
		{"0/65536", Shard{0, 65536}, true}, {"0/65537", Shard{}, false}, {"0/4294967297", Shard{}, false}, {"0/99999999999999999999", Shard{}, false}} {
		got, err := ParseShard(tc.in)
		if (err == nil) != tc.ok || (tc.ok && got != tc.want) {
			t.Errorf("ParseShard(%q) = %v, %v", tc.in, got, err)
		}
	}
}
