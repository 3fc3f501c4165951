package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gomoku-arena/results/journal"
	"gomoku-arena/results/rating"
)

// arena rate on a real event's folder: every engine listed with the games
// its journal holds, the same list from the folder and from the same games
// as PGN, every format rendered, and bad input refused naming file and line.
func TestRateEventFolder(t *testing.T) {
	dir := t.TempDir()
	cfg := writeEvent(t, dir, "rated", "")
	if _, errOut, code := runArena(t, "run", "-quiet", "-no-check", cfg); code != 0 {
		t.Fatalf("run: %s", errOut)
	}
	out := filepath.Join(dir, "out")
	recs, err := journal.Read(filepath.Join(out, "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	played := map[string]int{}
	var pgn strings.Builder
	for _, r := range recs {
		if !r.IsGame() || r.End == "double forfeit" {
			continue
		}
		played[r.Black]++
		played[r.White]++
		// Black moved first: PGN's White.
		if err := rating.WriteRatingPGN(&pgn, r.Black, r.White, r.Score()); err != nil {
			t.Fatal(err)
		}
	}
	pgnPath := filepath.Join(dir, "rated.pgn")
	os.WriteFile(pgnPath, []byte(pgn.String()), 0o644)

	fromFolder, errOut, code := runArena(t, "rate", "-offset", "1600", out)
	if code != 0 {
		t.Fatalf("rate: exit %d: %s", code, errOut)
	}
	fromPGN, errOut, code := runArena(t, "rate", "-offset", "1600", pgnPath)
	if code != 0 {
		t.Fatalf("rate: exit %d: %s", code, errOut)
	}
	if fromFolder != fromPGN {
		t.Errorf("the folder and its games as PGN rate differently\n%s\n%s", fromFolder, fromPGN)
	}
	if !strings.HasPrefix(fromFolder, "Rank Name ") {
		t.Errorf("not BayesElo's table:\n%s", fromFolder)
	}

	js, _, code := runArena(t, "rate", "-format", "json", out)
	var list struct {
		Format  int `json:"format"`
		Ratings []struct {
			Name  string  `json:"name"`
			Elo   float64 `json:"elo"`
			Plus  float64 `json:"plus"`
			Minus float64 `json:"minus"`
			Games int     `json:"games"`
			Score float64 `json:"score"`
			Oppo  float64 `json:"oppo"`
			Draws float64 `json:"draws"`
		} `json:"ratings"`
	}
	if err := json.Unmarshal([]byte(js), &list); err != nil || code != 0 || list.Format != 1 {
		t.Fatalf("json (exit %d, %v):\n%s", code, err, js)
	}
	if len(list.Ratings) != len(played) {
		t.Errorf("%d engines rated, %d played", len(list.Ratings), len(played))
	}
	mean := 0.0
	for _, r := range list.Ratings {
		if r.Games != played[r.Name] || r.Plus <= 0 || r.Minus <= 0 {
			t.Errorf("%+v: played %d", r, played[r.Name])
		}
		mean += r.Elo / float64(len(list.Ratings))
	}
	if mean > 0.01 || mean < -0.01 {
		t.Errorf("mean rating %v, want 0 (no offset)", mean)
	}

	md, _, _ := runArena(t, "rate", "-format", "markdown", "-los", out)
	html, _, _ := runArena(t, "rate", "-format", "html", "-los", out)
	csvOut, _, _ := runArena(t, "rate", "-format", "csv", out)
	rows, err := csv.NewReader(strings.NewReader(csvOut)).ReadAll()
	if err != nil || len(rows) < 1+len(played) || rows[0][0] != "Rank" {
		t.Errorf("csv (%v):\n%s", err, csvOut)
	}
	if !strings.Contains(md, "| Rank | Name |") || !strings.Contains(md, "Likelihood of superiority") {
		t.Errorf("markdown:\n%s", md)
	}
	if !strings.Contains(html, "<table>") || strings.Count(html, "<table>") != 2 {
		t.Errorf("html:\n%s", html)
	}

	// Refusals.
	bad := filepath.Join(dir, "bad.pgn")
	os.WriteFile(bad, []byte(pgn.String()+"[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. 0-1\n"), 0o644)
	corrupt := filepath.Join(dir, "corrupt")
	os.MkdirAll(corrupt, 0o755)
	id, _ := os.ReadFile(filepath.Join(out, "event.json"))
	os.WriteFile(filepath.Join(corrupt, "event.json"), id, 0o644)
	lines, _ := os.ReadFile(filepath.Join(out, "journal.jsonl"))
	os.WriteFile(filepath.Join(corrupt, "journal.jsonl"), []byte(strings.Replace(string(lines), `"black"`, `"black`, 1)), 0o644)
	pgnLines := strings.Count(pgn.String(), "\n")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{bad}, exitError, fmt.Sprintf("bad.pgn:%d: the game", pgnLines+5) + " ends 0-1 but its Result tag"},
		{[]string{corrupt}, exitError, "journal.jsonl:1: "},
		{[]string{dir}, exitError, "is not an event or match folder"},
		{[]string{out, pgnPath, out}, exitError, "is named twice"},
		{[]string{filepath.Join(dir, "missing.pgn")}, exitError, "no such file"},
		{[]string{"-format", "xml", out}, exitUsage, `-format "xml"`},
		{[]string{"-drawelo", "0", out}, exitError, "drawelo 0"},
		{nil, exitUsage, "name at least one folder or PGN file"},
	} {
		_, errOut, code := runArena(t, append([]string{"rate"}, c.args...)...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("rate %v: exit %d, %q; want exit %d saying %q", c.args, code, errOut, c.code, c.want)
		}
	}
}
