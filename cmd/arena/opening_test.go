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

// writeFamilyEvent writes an event between bundled engines with fast clocks.
func writeFamilyEvent(t *testing.T, dir, name, head string, engines ...string) string {
	t.Helper()
	src := "name = \"" + name + "\"\noutput = \"out-" + name + "\"\nformat = \"double-round-robin\"\n" + head +
		"\n[clock]\nmatch = \"20s\"\n"
	for _, e := range engines {
		n, cmd, _ := strings.Cut(e, "=")
		fields := strings.Fields(cmd)
		src += "\n[[engine]]\nname = \"" + n + "\"\ncommand = \"" + fields[0] + "\"\n"
		if len(fields) > 1 {
			src += "args = [\"" + strings.Join(fields[1:], "\", \"") + "\"]\n"
		}
	}
	cfg := filepath.Join(dir, name+".toml")
	if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// runEventOK runs the event and returns its games (byes left out).
func runEventOK(t *testing.T, cfg string) []*record.Record {
	t.Helper()
	out, errOut, code := runArena(t, "run", "-quiet", cfg)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "standings") {
		t.Fatalf("no standings in\n%s", out)
	}
	name := strings.TrimSuffix(filepath.Base(cfg), ".toml")
	recs, err := journal.Read(filepath.Join(filepath.Dir(cfg), "out-"+name, "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var games []*record.Record
	for _, r := range recs {
		if r.End != record.ByeEnd {
			games = append(games, r)
		}
	}
	return games
}

func firstThree(rec *record.Record) []rules.Point {
	var pts []rules.Point
	for _, m := range rec.Moves[:min(3, len(rec.Moves))] {
		pts = append(pts, m.Point)
	}
	return pts
}

// A renju event with no openings file plays the canonical openings: each
// pairing one, both of its games, colours reversed. No game ends in a
// forfeit: every engine plays renju legally or loses by a forbidden move.
func TestRenjuEventPlaysTheCanonicalOpenings(t *testing.T) {
	engines := []string{"search=builtin:search time=20", "greedy=builtin:greedy", "random=builtin:random seed=5"}
	if !testing.Short() {
		engines = append(engines, "search2=builtin:search time=40")
	}
	dir := t.TempDir()
	recs := runEventOK(t, writeFamilyEvent(t, dir, "renju", "rule = \"renju\"\n", engines...))
	n := len(engines)
	if len(recs) != n*(n-1) {
		t.Fatalf("%d games, want %d", len(recs), n*(n-1))
	}
	byPair := map[[2]string][]*record.Record{}
	for _, r := range recs {
		if r.End.Forfeit() {
			t.Errorf("game %d %s vs %s: forfeit %s (%s)", r.Game, r.Black, r.White, r.End, r.Detail)
		}
		if len(r.Moves) < 3 || !r.Moves[0].Opening || !r.Moves[2].Opening || (len(r.Moves) > 3 && r.Moves[3].Opening) {
			t.Fatalf("game %d: the first three stones are not the arbiter's opening", r.Game)
		}
		if _, ok := rules.IdentifyRIFOpening(15, firstThree(r)); !ok {
			t.Errorf("game %d starts with no canonical opening: %v", r.Game, firstThree(r))
		}
		key := [2]string{min(r.Black, r.White), max(r.Black, r.White)}
		byPair[key] = append(byPair[key], r)
	}
	seen := map[string]bool{}
	for pair, games := range byPair {
		if len(games) != 2 || games[0].Black != games[1].White {
			t.Errorf("%v: %d games, colours not reversed", pair, len(games))
			continue
		}
		a, _ := rules.IdentifyRIFOpening(15, firstThree(games[0]))
		b, _ := rules.IdentifyRIFOpening(15, firstThree(games[1]))
		if a != b {
			t.Errorf("%v: openings %v and %v differ", pair, a, b)
		}
		if seen[a.Name] {
			t.Errorf("%v: opening %v used by two pairings", pair, a)
		}
		seen[a.Name] = true
	}
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

// Swap2 and the RIF procedure configured in an event: under swap2 the
// records name the colours the engines ended with; under rif the engines
// that take part in the extension play the procedure and random plays from
// the canonical list.
func TestOpeningProceduresInAnEvent(t *testing.T) {
	dir := t.TempDir()
	recs := runEventOK(t, writeFamilyEvent(t, dir, "swap2", "rule = \"freestyle\"\nopening_procedure = \"swap2\"\n",
		"search=builtin:search time=20", "greedy=builtin:greedy"))
	if len(recs) != 2 {
		t.Fatalf("%d swap2 games", len(recs))
	}
	for _, r := range recs {
		if r.End.Forfeit() || r.Moves[0].Opening {
			t.Errorf("swap2 game %d: %s (%s), first stone by the arbiter: %v", r.Game, r.End, r.Detail, r.Moves[0].Opening)
		}
		if !contains(r.Messages, "arbiter: swap2: "+r.Black+" plays Black, "+r.White+" White") {
			t.Errorf("swap2 game %d: record names %s/%s, messages %v", r.Game, r.Black, r.White, r.Messages)
		}
	}

	recs = runEventOK(t, writeFamilyEvent(t, dir, "rif", "rule = \"renju\"\nopening_procedure = \"rif\"\n",
		"search=builtin:search time=20", "greedy=builtin:greedy", "random=builtin:random seed=7"))
	if len(recs) != 6 {
		t.Fatalf("%d rif games", len(recs))
	}
	for _, r := range recs {
		withRandom := r.Black == "random" || r.White == "random"
		if r.End.Forfeit() {
			t.Errorf("rif game %d: %s (%s)", r.Game, r.End, r.Detail)
		}
		if r.Moves[0].Opening != withRandom {
			t.Errorf("rif game %d (%s vs %s): first stone placed by the arbiter: %v", r.Game, r.Black, r.White, r.Moves[0].Opening)
		}
		if _, ok := rules.IdentifyRIFOpening(15, firstThree(r)); !ok {
			t.Errorf("rif game %d starts with no canonical opening", r.Game)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
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

// A 14-entrant Swiss under arbiter-opens, as a config runs it: its 77 games
// open with 77 different stones of the zone's 104 (before, 7 stones, the
// same every round).
func TestArbiterOpensSwissEventRotatesOpenings(t *testing.T) {
	dir := t.TempDir()
	var engines []string
	for i := range 14 {
		engines = append(engines, fmt.Sprintf("r%02d=builtin:random seed=%d", i, i+1))
	}
	cfg := writeFamilyEvent(t, dir, "swiss", "opening_policy = \"arbiter-opens\"\nmove_cap = 8\nseed = 11\n", engines...)
	src, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, []byte(strings.Replace(string(src), `format = "double-round-robin"`, `format = "swiss"`, 1)), 0o644)
	recs := runEventOK(t, cfg)
	if len(recs) != 77 {
		t.Fatalf("%d games, want 77", len(recs))
	}
	first := map[rules.Point]int{}
	for _, r := range recs {
		if len(r.Moves) == 0 || !r.Moves[0].Opening || (len(r.Moves) > 1 && r.Moves[1].Opening) {
			t.Fatalf("game %d: the arbiter did not place Black's first stone", r.Game)
		}
		first[r.Moves[0].Point]++
	}
	if len(first) != 77 {
		t.Errorf("77 games opened with %d distinct stones", len(first))
	}
}
