package event

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// familyEvent writes a double round robin between bundled engines with
// fast clocks; each engine is NAME=COMMAND ARGS...
func familyEvent(t *testing.T, dir, name, head string, engines ...string) string {
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
	return writeConfig(t, dir, name, src)
}

// playedGames runs the event to its end and returns its games (byes left
// out), checking that the opening stones the observer heard of begin with
// the records' opening stones.
func playedGames(t *testing.T, cfg string) []*record.Record {
	t.Helper()
	ev, obs := runOK(t, cfg)
	recs := gamesOf(readJournal(t, ev.Folder()))
	placed := map[[2]int][]record.Move{}
	for _, o := range kinds[OpeningPlaced](obs) {
		placed[[2]int{o.Round, o.Number}] = o.Stones
	}
	for _, r := range recs {
		var opening []record.Move
		for _, m := range r.Moves {
			if !m.Opening {
				break
			}
			opening = append(opening, m)
		}
		got, ok := placed[[2]int{r.Round, r.Game}]
		// The placed stones may go on with an opening procedure's.
		if len(opening) > 0 && (!ok || len(got) < len(opening) ||
			!slices.EqualFunc(got[:len(opening)], opening, func(a, b record.Move) bool { return a.Point == b.Point })) {
			t.Errorf("game %d: the observer heard of the opening %v, the record has %v", r.Game, got, opening)
		}
	}
	return recs
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
	recs := playedGames(t, familyEvent(t, t.TempDir(), "renju", "rule = \"renju\"\n", engines...))
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

// Swap2 and the RIF procedure configured in an event: under swap2 the
// records name the colours the engines ended with; under rif the engines
// that take part in the extension play the procedure and random plays from
// the canonical list.
func TestOpeningProceduresInAnEvent(t *testing.T) {
	dir := t.TempDir()
	recs := playedGames(t, familyEvent(t, dir, "swap2", "rule = \"freestyle\"\nopening_procedure = \"swap2\"\n",
		"search=builtin:search time=20", "greedy=builtin:greedy"))
	if len(recs) != 2 {
		t.Fatalf("%d swap2 games", len(recs))
	}
	for _, r := range recs {
		if r.End.Forfeit() || r.Moves[0].Opening {
			t.Errorf("swap2 game %d: %s (%s), first stone by the arbiter: %v", r.Game, r.End, r.Detail, r.Moves[0].Opening)
		}
		if !slices.Contains(r.Messages, "arbiter: swap2: "+r.Black+" plays Black, "+r.White+" White") {
			t.Errorf("swap2 game %d: record names %s/%s, messages %v", r.Game, r.Black, r.White, r.Messages)
		}
	}

	recs = playedGames(t, familyEvent(t, dir, "rif", "rule = \"renju\"\nopening_procedure = \"rif\"\n",
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

// A 14-entrant Swiss under arbiter-opens: its 77 games open with 77
// different stones of the zone's 104 (before, 7 stones, the same every
// round).
func TestArbiterOpensSwissEventRotatesOpenings(t *testing.T) {
	var engines []string
	for i := range 14 {
		engines = append(engines, fmt.Sprintf("r%02d=builtin:random seed=%d", i, i+1))
	}
	cfg := familyEvent(t, t.TempDir(), "swiss", "opening_policy = \"arbiter-opens\"\nmove_cap = 8\nseed = 11\n", engines...)
	cfg = writeConfig(t, strings.TrimSuffix(cfg, "/swiss.toml"), "swiss",
		strings.Replace(mustRead(t, cfg), `format = "double-round-robin"`, `format = "swiss"`, 1))
	recs := playedGames(t, cfg)
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
