package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gomoku-arena/results/journal"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

func firstThree(rec *record.Record) []rules.Point {
	var pts []rules.Point
	for _, m := range rec.Moves[:min(3, len(rec.Moves))] {
		pts = append(pts, m.Point)
	}
	return pts
}

// Pente between bundled engines under arena match: captures happen and are
// in the SGF records, and no game is forfeited.
func TestPenteMatchBetweenBundledEngines(t *testing.T) {
	dir := t.TempDir()
	games := "2"
	if !testing.Short() {
		games = "6"
	}
	out, errOut, code := runArena(t, "match", "-rule", "pente", "-games", games, "-tc", "20s", "-out", dir, "-quiet",
		"search=builtin:search time=20", "greedy=builtin:greedy")
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	recs, err := journal.Read(filepath.Join(dir, "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) == 0 || fmt.Sprint(len(recs)) != games {
		t.Fatalf("%d games journaled, want %s", len(recs), games)
	}
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

// arena match -rule renju without an openings file plays the canonical
// openings, as events do: each game pair one of them, the next pair the
// next. Before, every game started from an empty board.
func TestRenjuMatchPlaysTheCanonicalOpenings(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := runArena(t, "match", "-rule", "renju", "-games", "6", "-move-cap", "10", "-tc", "20s", "-out", dir, "-quiet",
		"random=builtin:random seed=3", "greedy=builtin:greedy")
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	recs, err := journal.Read(filepath.Join(dir, "journal.jsonl"))
	if err != nil || len(recs) != 6 {
		t.Fatalf("journal: %v, %d records", err, len(recs))
	}
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
