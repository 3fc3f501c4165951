package schedule

import (
	"context"
	"fmt"
	"testing"
	"time"

	"gomoku-arena/arbiter"
	"gomoku-arena/clock"
	"gomoku-arena/engine"
	"gomoku-arena/pairing"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// swissEvent is a Swiss of n builtin:random entrants under rule, short
// games (a move cap) so a whole event plays in seconds.
func swissEvent(t *testing.T, rule string, n, rounds int, openings [][]rules.Point, seed uint64) *Tournament {
	r, err := rules.ByName(rule)
	if err != nil {
		t.Fatal(err)
	}
	d := &arbiter.Director{Event: "openings", Rule: r, Size: 15, MoveCap: 8, Concurrency: 2}
	for i := 0; i < n; i++ {
		d.Entrants = append(d.Entrants, arbiter.Entrant{
			Spec:  engine.Spec{Name: fmt.Sprintf("e%02d", i), Command: "builtin:random", Dir: t.TempDir()},
			Clock: clock.Control{Match: 30 * time.Second, Tolerance: time.Second},
		})
	}
	t.Cleanup(d.Close)
	return &Tournament{Director: d, Format: pairing.SwissFormat, Rounds: rounds, Openings: openings, Seed: seed}
}

// openingKey names the opening stones a game was played from.
func openingKey(rec *record.Record) string {
	var s string
	for _, m := range rec.Moves {
		if m.Opening {
			s += m.Point.String() + " "
		}
	}
	return s
}

func playEvent(t *testing.T, tour *Tournament, done []*record.Record, stopAfter int) []*record.Record {
	t.Helper()
	drain, stop := context.WithCancel(context.Background())
	defer stop()
	var recs []*record.Record
	if err := tour.Resume(done); err != nil {
		t.Fatal(err)
	}
	err := tour.Run(drain, context.Background(), func(rec *record.Record) error {
		if rec.End != record.ByeEnd {
			recs = append(recs, rec)
			if len(recs) == stopAfter {
				stop()
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// An outer-open Swiss of 14 entrants under arbiter-opens plays 77 games:
// each from its own first stone (the zone has 104), and no stone on board 1
// round after round. Before the fix the counter restarted every round: 7
// stones in all, the corner on board 1 every time.
func TestSwissRotatesOpeningsAcrossTheEvent(t *testing.T) {
	var list [][]rules.Point
	for _, m := range rules.OuterOpenFirstMoves(15) {
		list = append(list, []rules.Point{m})
	}
	recs := playEvent(t, swissEvent(t, "outer-open", 14, 11, list, 7), nil, 0)
	if len(recs) != 77 {
		t.Fatalf("%d games, want 77", len(recs))
	}
	seen := map[string]int{}
	board1 := map[string]int{}
	for _, rec := range recs {
		k := openingKey(rec)
		if k == "" {
			t.Fatalf("game %d started from an empty board", rec.Game)
		}
		seen[k]++
		if rec.Game == 1 || (rec.Game-1)%7 == 0 {
			board1[k]++
		}
	}
	if len(seen) != 77 {
		t.Errorf("77 games used %d distinct openings, want 77", len(seen))
	}
	if len(board1) < 9 {
		t.Errorf("board 1 of 11 rounds opened with only %d distinct stones: %v", len(board1), board1)
	}
}

// A renju Swiss of 11 rounds (12 entrants: 66 games) plays all 26 canonical
// openings before any is played a second time, and then as evenly as 66
// games allow: each two or three times.
func TestRenjuSwissPlaysEveryCanonicalOpeningBeforeARepeat(t *testing.T) {
	var list [][]rules.Point
	for _, o := range rules.RIFOpeningList(15) {
		list = append(list, o.Stones)
	}
	recs := playEvent(t, swissEvent(t, "renju", 12, 11, list, 1), nil, 0)
	if len(recs) != 66 {
		t.Fatalf("%d games, want 66", len(recs))
	}
	byGame := make([]string, len(recs))
	for _, rec := range recs {
		byGame[rec.Game-1] = openingKey(rec)
	}
	count := map[string]int{}
	for g, k := range byGame {
		if count[k] > 0 && len(count) < 26 {
			t.Fatalf("game %d repeats an opening while %d of 26 are unused", g+1, 26-len(count))
		}
		count[k]++
	}
	if len(count) != 26 {
		t.Fatalf("%d distinct openings, want 26", len(count))
	}
	for k, c := range count {
		if c < 2 || c > 3 {
			t.Errorf("opening %s played %d times in 66 games, want 2 or 3", k, c)
		}
	}
}

// A resumed Swiss deals the openings the first run dealt: the choice
// depends on the seed and the results so far, not on the run.
func TestResumedSwissDealsTheSameOpenings(t *testing.T) {
	var list [][]rules.Point
	for _, o := range rules.RIFOpeningList(15) {
		list = append(list, o.Stones)
	}
	whole := playEvent(t, swissEvent(t, "renju", 6, 5, list, 3), nil, 0)
	first := playEvent(t, swissEvent(t, "renju", 6, 5, list, 3), nil, 7)
	rest := playEvent(t, swissEvent(t, "renju", 6, 5, list, 3), first, 0)
	resumed := map[int]string{}
	for _, rec := range append(first, rest...) {
		resumed[rec.Game] = openingKey(rec)
	}
	if len(resumed) != len(whole) {
		t.Fatalf("resumed event played %d games, the whole one %d", len(resumed), len(whole))
	}
	// The pairings after the break depend on the games' results, which
	// random engines change; the openings follow the game numbers.
	for _, rec := range whole {
		if resumed[rec.Game] != openingKey(rec) {
			t.Errorf("game %d: opening %q on resume, %q in one run", rec.Game, resumed[rec.Game], openingKey(rec))
		}
	}
	other := playEvent(t, swissEvent(t, "renju", 6, 5, list, 4), nil, 0)
	same := 0
	for i := range other {
		if openingKey(other[i]) == openingKey(whole[i]) {
			same++
		}
	}
	if same == len(other) {
		t.Error("seeds 3 and 4 dealt the same openings")
	}
}

// Formats scheduled in advance deal the same way: a round robin's 28 pairs
// of 8 entrants get 28 different first stones, and a double round robin
// gives both games of a pair (colours exchanged) the same opening.
func TestRoundRobinOpenings(t *testing.T) {
	var list [][]rules.Point
	for _, m := range rules.OuterOpenFirstMoves(15) {
		list = append(list, []rules.Point{m})
	}
	for _, format := range []pairing.Format{pairing.RoundRobinFormat, pairing.DoubleRoundRobinFormat} {
		tour := &Tournament{Director: &arbiter.Director{Entrants: make([]arbiter.Entrant, 8)}, Format: format, Openings: list, Seed: 5}
		fs, err := tour.Fixtures()
		if err != nil {
			t.Fatal(err)
		}
		byPair := map[[2]int]string{}
		distinct := map[string]bool{}
		for _, f := range fs {
			k := fmt.Sprint(f.Opening)
			pair := [2]int{min(f.Black, f.White), max(f.Black, f.White)}
			if o, ok := byPair[pair]; ok && o != k {
				t.Errorf("%s: pair %v plays %s and %s", format, pair, o, k)
			}
			byPair[pair] = k
			distinct[k] = true
		}
		if len(distinct) != 28 {
			t.Errorf("%s: 28 pairs, %d distinct openings", format, len(distinct))
		}
	}
}
