package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"

	"gomoku-arena/internal/proctest"
	"gomoku-arena/results/record"
)

// writeLeague writes a league of n deterministic engines (greedy and the
// faulty engine's plain play, both the same every time) whose pairings are
// mini-matches of openings openings, taken by the seed from a list of 16.
func writeLeague(t *testing.T, dir string, n, openings int) string {
	t.Helper()
	var list strings.Builder
	for i := range 16 {
		fmt.Fprintf(&list, "0,0, %d,%d\n", i%4-2, i/4+1)
	}
	if err := os.WriteFile(filepath.Join(dir, "openings.txt"), []byte(list.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, `name = "league"
rule = "freestyle"
format = "round-robin"
openings = "openings.txt"
openings_per_pairing = %d
seed = 9
concurrency = 2
output = "out"

[clock]
match = "30s"
turn = "10s"
`, openings)
	for i := range n {
		cmd := `command = "builtin:greedy"`
		if i%2 == 1 {
			cmd = `command = "builtin:faulty"`
		}
		fmt.Fprintf(&b, "\n[[engine]]\nname = \"e%d\"\n%s\n", i, cmd)
	}
	cfg := filepath.Join(dir, "league.toml")
	if err := os.WriteFile(cfg, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// The league plays 2N games a pair, each of the same N openings once with
// each colour; killed with SIGKILL mid-event and run again, it ends with the
// games, standings and pair table of an uninterrupted run, and its pair
// table (pairs.json) is the journal's. The must-hold size (10 engines, 12
// openings: 1,080 games, twice) is not for -short, which plays 4 engines
// and 3 openings.
func TestLeagueMiniMatchesResumeAfterSIGKILL(t *testing.T) {
	n, openings := 10, 12
	if testing.Short() {
		n, openings = 4, 3
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg := writeLeague(t, dir, n, openings)
	out := filepath.Join(dir, "out")
	cmd, buf := startArena(t, nil, "run", "-quiet", cfg)
	waitJournal(t, cmd, buf, filepath.Join(out, "journal.jsonl"), 2*openings+3) // into the second mini-match
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	proctest.WaitNoEngines(t, self)
	o, e, code := runArena(t, "run", "-quiet", cfg)
	if code != 0 || !strings.Contains(o, "continuing league") {
		t.Fatalf("resume: exit %d\n%s%s", code, o, e)
	}
	recs := mustJournal(t, filepath.Join(out, "journal.jsonl"))
	eachGameOnce(t, recs)
	pairs := n * (n - 1) / 2
	if len(recs) != 2*openings*pairs {
		t.Fatalf("%d games, want %d: %d for each of %d pairs", len(recs), 2*openings*pairs, 2*openings, pairs)
	}
	checkMiniMatches(t, recs, openings)
	if got, want := readPairs(t, out), pairsOf(recs); got != want {
		t.Errorf("pairs.json is not the journal's pair scores:\n%s\nwant\n%s", got, want)
	}

	whole := t.TempDir()
	cfg2 := writeLeague(t, whole, n, openings)
	if o, e, code := runArena(t, "run", "-quiet", "-no-check", cfg2); code != 0 {
		t.Fatalf("uninterrupted: exit %d\n%s%s", code, o, e)
	}
	uninterrupted := mustJournal(t, filepath.Join(whole, "out", "journal.jsonl"))
	if a, b := gamesByNumber(recs), gamesByNumber(uninterrupted); a != b {
		t.Errorf("the resumed league's games differ from an uninterrupted one's:\n%s\nwant\n%s", a, b)
	}
	for _, f := range []string{"standings.json", "pairs.json", "crosstable.csv", "pairs.csv"} {
		a, _ := os.ReadFile(filepath.Join(out, f))
		b, _ := os.ReadFile(filepath.Join(whole, "out", f))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s differs between the resumed and the uninterrupted league:\n%s\nwant\n%s", f, a, b)
		}
	}
	page, _ := os.ReadFile(filepath.Join(out, "index.html"))
	if !bytes.Contains(page, []byte("<h2>Pairs</h2>")) || !bytes.Contains(page, []byte("mini-matches of")) {
		t.Error("index.html shows no pair table")
	}
	proctest.WaitNoEngines(t, self)
}

// checkMiniMatches checks that every pair played the same openings, each
// once with each engine moving first, and nothing else.
func checkMiniMatches(t *testing.T, recs []*record.Record, openings int) {
	t.Helper()
	type pair struct{ a, b string }
	played := map[pair]map[string]int{}
	all := map[string]bool{}
	for _, r := range recs {
		var stones []string
		for _, m := range r.Moves {
			if m.Opening {
				stones = append(stones, fmt.Sprintf("%d,%d", m.Point.X, m.Point.Y))
			}
		}
		o := strings.Join(stones, " ")
		all[o] = true
		k := pair{min(r.Black, r.White), max(r.Black, r.White)}
		if played[k] == nil {
			played[k] = map[string]int{}
		}
		played[k][o+" first "+r.Black]++
	}
	if len(all) != openings {
		t.Errorf("%d distinct openings played, want the same %d for every pair", len(all), openings)
	}
	for k, games := range played {
		if len(games) != 2*openings {
			t.Errorf("%s-%s: %d distinct (opening, first mover), want %d", k.a, k.b, len(games), 2*openings)
		}
		for g, c := range games {
			if c != 1 {
				t.Errorf("%s-%s: %s played %d times", k.a, k.b, g, c)
			}
		}
	}
}

// pairsOf is each pair's score from the journal: "A B games W-D-L W-D-L
// points points", A the engine listed first (entrants e0, e1, ... sort so).
func pairsOf(recs []*record.Record) string {
	type side struct {
		w, d, l int
		pts     float64
	}
	type score struct {
		a, b  side
		games int
	}
	scores := map[[2]string]*score{}
	for _, r := range recs {
		k := [2]string{min(r.Black, r.White), max(r.Black, r.White)}
		if scores[k] == nil {
			scores[k] = &score{}
		}
		s := scores[k]
		s.games++
		bp, wp := r.Points()
		for _, x := range []struct {
			name string
			pts  float64
		}{{r.Black, bp}, {r.White, wp}} {
			sd := &s.a
			if x.name == k[1] {
				sd = &s.b
			}
			sd.pts += x.pts
			switch x.pts {
			case 1:
				sd.w++
			case 0:
				sd.l++
			default:
				sd.d++
			}
		}
	}
	var lines []string
	for k, s := range scores {
		lines = append(lines, fmt.Sprintf("%s %s %d %d-%d-%d %d-%d-%d %g %g", k[0], k[1], s.games, s.a.w, s.a.d, s.a.l, s.b.w, s.b.d, s.b.l, s.a.pts, s.b.pts))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// readPairs reads pairs.json in pairsOf's form.
func readPairs(t *testing.T, out string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(out, "pairs.json"))
	if err != nil {
		t.Fatal(err)
	}
	type side struct {
		Name                string
		Wins, Draws, Losses int
		Points              float64
	}
	var f struct {
		Format int
		Pairs  []struct {
			Games int
			A, B  side
		}
	}
	if err := json.Unmarshal(b, &f); err != nil || f.Format != 1 {
		t.Fatalf("pairs.json: format %d, %v", f.Format, err)
	}
	var lines []string
	for _, p := range f.Pairs {
		lines = append(lines, fmt.Sprintf("%s %s %d %d-%d-%d %d-%d-%d %g %g", p.A.Name, p.B.Name, p.Games,
			p.A.Wins, p.A.Draws, p.A.Losses, p.B.Wins, p.B.Draws, p.B.Losses, p.A.Points, p.B.Points))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// A league game's record replaced by another game's of the same league
// (another opening, its result kept), under the replaced game's round,
// number and colours, replays by itself; only the schedule's deal says
// it is not the game. arena standings and the resumed run refuse it
// naming the opening, and both still accept a folder of format 1, whose
// event.json recorded no opening suite, saying so.
func TestLeagueGameWithAnotherOpeningIsRefused(t *testing.T) {
	dir := t.TempDir()
	cfg := writeLeague(t, dir, 4, 2)
	t.Chdir(dir)
	if out, errOut, code := runArena(t, "run", "-quiet", cfg); code != 0 {
		t.Fatalf("league: exit %d\n%s\n%s", code, out, errOut)
	}
	out := filepath.Join(dir, "out")
	path := filepath.Join(out, "journal.jsonl")
	honest, _ := os.ReadFile(path)
	lines := strings.SplitAfter(strings.TrimSuffix(string(honest), "\n"), "\n")
	var recs []map[string]any
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, m)
	}
	opening := func(m map[string]any) string {
		var o []any
		for _, mv := range m["moves"].([]any) {
			if mv.(map[string]any)["opening"] == true {
				o = append(o, mv)
			}
		}
		b, _ := json.Marshal(o)
		return string(b)
	}
	first := 0
	for i, m := range recs {
		if m["game"] == float64(1) {
			first = i
		}
	}
	other := -1
	for i, m := range recs {
		if opening(m) != opening(recs[first]) {
			other = i
			break
		}
	}
	if other < 0 {
		t.Fatal("every game of the league has game 1's opening")
	}
	forged := map[string]any{}
	for k, v := range recs[other] {
		forged[k] = v
	}
	for _, k := range []string{"round", "game", "black", "white", "black_about", "white_about"} {
		if v, ok := recs[first][k]; ok {
			forged[k] = v
		} else {
			delete(forged, k)
		}
	}
	b, _ := json.Marshal(forged)
	lines[first] = string(b) + "\n"
	os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644)
	for _, args := range [][]string{{"standings", out}, {"run", "-quiet", cfg}} {
		_, errOut, code := runArena(t, args...)
		if code != 1 || !strings.Contains(errOut, "game 1") || !strings.Contains(errOut, "but the schedule deals game 1") {
			t.Errorf("arena %s over a game with another opening: exit %d, %q; want exit 1 naming game 1's opening", args[0], code, errOut)
		}
	}
	// A folder of format 1: its games' openings cannot be checked, and it
	// still reads, saying so.
	os.WriteFile(path, honest, 0o644)
	idPath := filepath.Join(out, "event.json")
	var id map[string]any
	b, _ = os.ReadFile(idPath)
	json.Unmarshal(b, &id)
	id["format"] = 1
	delete(id, "opening_suite")
	b, _ = json.Marshal(id)
	os.WriteFile(idPath, b, 0o644)
	if _, errOut, code := runArena(t, "standings", out); code != 0 || !strings.Contains(errOut, "format 1, which records no opening suite") {
		t.Errorf("standings of a format 1 folder: exit %d, %q; want 0 and the note", code, errOut)
	}
	// Continued, it records the suite (its journal checked against it).
	if _, errOut, code := runArena(t, "run", "-quiet", cfg); code != 0 {
		t.Fatalf("continuing a format 1 folder: exit %d, %s", code, errOut)
	}
	b, _ = os.ReadFile(idPath)
	if !strings.Contains(string(b), `"opening_suite"`) || !strings.Contains(string(b), `"format": 2`) {
		t.Errorf("the continued folder's event.json is still format 1:\n%s", b)
	}
}
