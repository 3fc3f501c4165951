package event

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gomoku-arena/clock"
	"gomoku-arena/event/outfolder"
	"gomoku-arena/results/journal"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// bundledMatch is a match of pairs between two engines (NAME, COMMAND,
// ARGS...) under rule, as arena match plays it: 20 s a side, the rule's
// own openings.
func bundledMatch(t *testing.T, rule string, games, moveCap int, out string, engines ...[]string) []*record.Record {
	t.Helper()
	r, err := rules.ByName(rule)
	if err != nil {
		t.Fatal(err)
	}
	ctl := clock.Control{Match: 20 * time.Second, Tolerance: clock.DefaultTolerance, Hang: clock.DefaultHang}
	order, _ := ParseOrder("sequential")
	s := MatchSetup{Settings: Settings{Name: "match", Rule: r, Size: r.DefaultSize(), Concurrency: 1, MoveCap: moveCap, RuleOpenings: true, Out: out},
		Games: games, Rounds: 1, Pairs: true, Order: order}
	for _, e := range engines {
		s.Engines = append(s.Engines, EngineSettings{Name: e[0], Command: e[1], Args: e[2:], Clock: ctl})
	}
	m, err := s.Match()
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Run(context.Background(), context.Background(), newRecorder()); err != nil {
		t.Fatal(err)
	}
	recs, err := journal.Read(filepath.Join(out, outfolder.JournalFile))
	if err != nil || len(recs) != games {
		t.Fatalf("journal: %v, %d games, want %d", err, len(recs), games)
	}
	return recs
}

// Pente between bundled engines in a match: captures happen and are in
// the SGF records, and no game is forfeited.
func TestPenteMatchBetweenBundledEngines(t *testing.T) {
	games := 2
	if !testing.Short() {
		games = 6
	}
	dir := t.TempDir()
	recs := bundledMatch(t, "pente", games, 0, dir, []string{"search", "builtin:search", "time=20"}, []string{"greedy", "builtin:greedy"})
	for _, r := range recs {
		if r.Rule != "pente" || r.Size != 19 || r.End.Forfeit() {
			t.Errorf("game %d: %s %dx%d, %s (%s)", r.Game, r.Rule, r.Size, r.Size, r.End, r.Detail)
		}
		// The tournament rule: the first player's second stone is outside
		// the central 5x5.
		if len(r.Moves) > 2 {
			m := r.Moves[2].Point
			if abs(m.X-9) <= 2 && abs(m.Y-9) <= 2 {
				t.Errorf("game %d: Black's second stone %v inside the central 5x5", r.Game, m)
			}
		}
	}
	if !testing.Short() {
		sgfs, _ := filepath.Glob(filepath.Join(dir, "games", "*.sgf"))
		captured := false
		for _, f := range sgfs {
			b, _ := os.ReadFile(f)
			captured = captured || strings.Contains(string(b), "captured: ")
		}
		if !captured {
			t.Error("six pente games without a single capture in the records")
		}
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// A renju match without an openings file plays the canonical openings, as
// events do: each game pair one of them, the next pair the next.
func TestRenjuMatchPlaysTheCanonicalOpenings(t *testing.T) {
	recs := bundledMatch(t, "renju", 6, 10, t.TempDir(), []string{"random", "builtin:random", "seed=3"}, []string{"greedy", "builtin:greedy"})
	byGame := map[int]rules.RIFOpening{}
	for _, r := range recs {
		o, ok := rules.IdentifyRIFOpening(15, firstThree(r))
		if !ok || !r.Moves[0].Opening || !r.Moves[2].Opening {
			t.Fatalf("game %d does not start from a canonical opening: %v", r.Game, firstThree(r))
		}
		byGame[r.Game] = o
	}
	for g := 1; g <= 6; g += 2 {
		if byGame[g] != byGame[g+1] {
			t.Errorf("games %d and %d (a pair) open with %v and %v", g, g+1, byGame[g], byGame[g+1])
		}
	}
	if byGame[1] == byGame[3] || byGame[3] == byGame[5] || byGame[1] == byGame[5] {
		t.Errorf("three pairs, openings %v, %v, %v", byGame[1], byGame[3], byGame[5])
	}
}
