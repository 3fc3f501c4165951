package schedule

import (
	"fmt"
	"strconv"
	"strings"

	"gomoku-arena/arbiter"
	"gomoku-arena/internal/bounds"
)

// Batches: a match's schedule is a pure function of its settings and seed
// (Schedule), so any part of it can be played anywhere. A shard is one of
// Count shares of it: game pairs (or single games, when the suite does not
// pair them) dealt in turn to shards 0, 1, ..., Count-1, so that both games
// of a pair are always played by one shard, every shard has a share of the
// early games (an SPRT across shards decides on the batch's first games),
// and the shares differ by one pair at most.

// Shard is shard Index (0-based) of Count; the zero Shard is the whole match.
type Shard struct{ Index, Count int }

// Whole reports whether the shard is the whole match (the zero Shard; a
// batch of one shard, 0/1, is a batch: it plays in its shard folder).
func (s Shard) Whole() bool { return s.Count == 0 }

// String is "K/N", or "" for the whole match.
func (s Shard) String() string {
	if s.Whole() {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Folder is the shard's folder name inside a batch's folder:
// shard-K-of-N.
func (s Shard) Folder() string { return fmt.Sprintf("shard-%d-of-%d", s.Index, s.Count) }

// ParseShard reads "K/N": shard K (from 0) of N.
func ParseShard(s string) (Shard, error) {
	k, n, ok := strings.Cut(s, "/")
	if !ok {
		return Shard{}, fmt.Errorf("shard %q: want K/N (shard K of N, K from 0)", s)
	}
	var sh Shard
	var err1, err2 error
	sh.Index, err1 = strconv.Atoi(k)
	sh.Count, err2 = strconv.Atoi(n)
	if err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("shard %q: want K/N with whole numbers (N at most %d)", s, bounds.MaxShards)
	}
	if sh.Count < 1 {
		return Shard{}, fmt.Errorf("shard %q: want at least one shard", s)
	}
	return sh, sh.Validate()
}

// Validate checks 0 <= Index < Count <= bounds.MaxShards.
func (s Shard) Validate() error {
	if s == (Shard{}) {
		return nil
	}
	if s.Count < 1 || s.Index < 0 || s.Index >= s.Count {
		return fmt.Errorf("shard %d/%d: want K/N with 0 <= K < N", s.Index, s.Count)
	}
	if s.Count > bounds.MaxShards {
		return fmt.Errorf("shard %d/%d: at most %d shards", s.Index, s.Count, bounds.MaxShards)
	}
	return nil
}

// ShardOf is the index of the shard (of count) that plays fixture number
// (from 1) of the schedule laid out by Schedule.
func (m *Match) ShardOf(number, count int) int {
	if m.fixtures == nil {
		m.Schedule()
	}
	if count <= 1 {
		return 0
	}
	return m.units[number-1] % count
}

// Share is the fixtures of the match's own shard (all of them for the
// whole match), in schedule order.
func (m *Match) Share() []arbiter.Fixture {
	if m.fixtures == nil {
		m.Schedule()
	}
	var out []arbiter.Fixture
	for _, f := range m.fixtures {
		if m.inShard(f.Number) {
			out = append(out, f)
		}
	}
	return out
}

func (m *Match) inShard(number int) bool {
	return m.Shard.Whole() || m.ShardOf(number, m.Shard.Count) == m.Shard.Index
}

// layUnits numbers the schedule's units (game pairs, or single games), in
// the order of their first game.
func (m *Match) layUnits() {
	type key struct {
		enc  *Encounter
		pair int
	}
	seen := map[key]int{}
	m.units = make([]int, len(m.places))
	for i, p := range m.places {
		k := key{enc: p.enc, pair: -1 - i}
		if m.Suite.Pairs {
			k.pair = p.k / 2
		}
		u, ok := seen[k]
		if !ok {
			u = len(seen)
			seen[k] = u
		}
		m.units[i] = u
	}
}
