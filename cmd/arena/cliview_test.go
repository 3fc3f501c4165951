package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gomoku-arena/engine"
	"gomoku-arena/event"
	"gomoku-arena/results/rating"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
	"gomoku-arena/schedule"
)

// What `arena gomoku-cli` prints of a small run, in c-gomoku-cli's lines
// (main.cpp, jobs.cpp, sprt.cpp): two games at two tables, then a third,
// every kind of ending c-gomoku-cli words, an SPRT line after every game
// and a tournament update every -games games.
func TestCliViewGolden(t *testing.T) {
	p, err := parseCli(strings.Fields("-engine cmd=builtin:greedy name=alpha -engine cmd=builtin:random name=beta "+
		"-games 3 -rounds 2 -sprt elo0=0 elo1=20 -concurrency 2"), &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	p.CLI.openings = "book.txt"
	p.CLI.about = []engine.About{{Name: "greedy", Version: "1.0", Author: "gomoku-arena", Country: "-"}, {Name: "random"}}
	var out bytes.Buffer
	v := newCliView(&out, p)
	tick := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	v.now = func() time.Time { tick = tick.Add(1500 * time.Millisecond); return tick }
	enc := &schedule.Encounter{First: 0, Second: 1}
	v.encounters = func() []*schedule.Encounter { return []*schedule.Encounter{enc} }
	v.Observe(event.Began{Name: "gomoku-cli", Total: 6})
	played := 0
	finish := func(rec *record.Record, first float64) {
		enc.WDL.Add(first)
		played++
		v.Observe(event.MatchGameCounted{MatchGame: schedule.MatchGame{Record: rec, Encounter: enc, Score: first, Played: played}})
	}
	games := []struct {
		black, white string
		winner       rules.Color
		end          record.Termination
		detail       string
	}{
		{"alpha", "beta", rules.Black, record.Five, ""},
		{"beta", "alpha", rules.White, record.Five, ""},
		{"alpha", "beta", rules.Empty, record.FullBoard, ""},
		{"beta", "alpha", rules.White, record.Forbidden, "forbidden 4-4 at h8"},
		{"alpha", "beta", rules.Black, record.Time, "no move within 5s"},
		{"beta", "alpha", rules.Black, record.Illegal, "occupied 7,7"},
	}
	v.Observe(event.GameStarted{Number: 1, Black: "alpha", White: "beta", Table: 1, Fresh: []string{"alpha", "beta"}}) // each table starts the pair once
	v.Observe(event.GameStarted{Number: 2, Black: "beta", White: "alpha", Table: 2, Fresh: []string{"alpha", "beta"}})
	for i, g := range games {
		rec := &record.Record{Game: i + 1, Black: g.black, White: g.white, Winner: g.winner, End: g.end, Detail: g.detail}
		// Two opening stones, two moves, and for the forfeits the stone
		// refused: c-gomoku-cli prints a line for an illegal or late one.
		rec.Moves = []record.Move{{Color: rules.Black, Opening: true}, {Color: rules.White, Opening: true}, {Color: rules.Black}, {Color: rules.White}}
		switch g.end {
		case record.Time:
			rec.Moves = append(rec.Moves, record.Move{Color: rules.White, Point: rules.Point{X: 3, Y: 4}, Refused: record.RefusedLate})
		case record.Illegal:
			rec.Moves = append(rec.Moves, record.Move{Color: rules.White, Point: rules.Point{X: 7, Y: 7}, Refused: "occupied"})
		}
		first := rec.Score()
		if g.black != "alpha" {
			first = 1 - first
		}
		finish(rec, first)
		if i+3 <= len(games) {
			v.Observe(event.GameStarted{Number: i + 3, Black: games[i+2].black, White: games[i+2].white, Table: 1 + i%2})
		}
	}
	golden(t, "gomoku-cli.golden", out.Bytes())
}

// The c-gomoku-cli outcomes of the arena's terminations, as the Finished
// line words them.
func TestCliOutcomes(t *testing.T) {
	tests := []struct {
		winner       rules.Color
		end          record.Termination
		detail, want string
	}{
		{rules.Black, record.Five, "", "1-0 {Black win by five connection}"},
		{rules.White, record.Five, "", "0-1 {White win by five connection}"},
		{rules.Empty, record.FullBoard, "", "1/2-1/2 {Draw by fullfilled board}"},
		{rules.Empty, record.MoveCap, "", "1/2-1/2 {Draw by adjudication}"},
		{rules.White, record.Forbidden, "forbidden 3-3 at h8", "0-1 {Black play forbidden move - double three}"},
		{rules.White, record.Forbidden, "forbidden overline at h8", "0-1 {Black play forbidden move - overline}"},
		{rules.Black, record.Illegal, "", "1-0 {Black win by opponent illegal move}"},
		{rules.White, record.Time, "", "0-1 {White win by time forfeit}"},
		{rules.Black, record.Crash, "", "1-0 {Black win by opponent crash}"},
		{rules.White, record.Refusal, "", "0-1 {White win by opponent crash}"},
		{rules.Empty, record.DoubleForfeit, "", "1/2-1/2 {Draw by double forfeit}"},
	}
	for _, tt := range tests {
		result, reason := record.CGomokuCliOutcome(&record.Record{Winner: tt.winner, End: tt.end, Detail: tt.detail}, "1-0", "1/2-1/2", "0-1")
		if got := result + " {" + reason + "}"; got != tt.want {
			t.Errorf("%v %s: %q, want %q", tt.winner, tt.end, got, tt.want)
		}
	}
}

// cliSchedule lays out a c-gomoku-cli command line's games and writes one
// line per game as c-gomoku-cli's SGF names them: the game number, Black,
// White, and the opening stones (SGF points, x then y).
func cliSchedule(t *testing.T, args string) string {
	t.Helper()
	p, err := parseCli(strings.Fields(args), &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, f := range p.Match.Deals() {
		fmt.Fprintf(&b, "%d %s %s", f.Number, f.Black, f.White)
		for i, s := range f.Opening {
			fmt.Fprintf(&b, " %c[%c%c]", "BW"[i%2], 'a'+s.X, 'a'+s.Y)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// The games c-gomoku-cli plays from these command lines, as its -sgf file
// (dhbloo/c-gomoku-cli 0891174, built from source) names them: every
// game's colours and opening, in order. They pin its colours after an odd
// opening (the first engine moves first: it is White), its -transform
// order (identity, rotate 90, 180, 270, flip x, flip y, flip xy, flip yx)
// and its shuffle (SplitMix64 under srand), over six passes, and over
// rounds and three engines.
func TestCliScheduleMatchesCGomokuCli(t *testing.T) {
	for _, tc := range []struct{ golden, args string }{
		{"cgc-schedule-odd.golden", "-engine cmd=builtin:greedy name=greedy -engine cmd=builtin:search name=search1 " +
			"-rule 0 -boardsize 15 -games 240 -openings file=testdata/cgc-odd.txt order=random srand=12345 -transform -repeat"},
		{"cgc-schedule-mixed.golden", "-engine cmd=builtin:greedy name=greedy -engine cmd=builtin:search name=search1 " +
			"-engine cmd=builtin:search name=search2 -rule 1 -boardsize 15 -games 5 -rounds 4 " +
			"-openings file=testdata/cgc-mixed.txt order=random srand=99 -transform -repeat"},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("testdata", tc.golden))
			if err != nil {
				t.Fatal(err)
			}
			got := cliSchedule(t, tc.args)
			if got != string(want) {
				g, w := strings.Split(got, "\n"), strings.Split(string(want), "\n")
				for i := range min(len(g), len(w)) {
					if g[i] != w[i] {
						t.Fatalf("first difference at game %d:\ngot  %s\nwant %s (c-gomoku-cli)", i+1, g[i], w[i])
					}
				}
				t.Fatalf("%d lines, want %d", len(g), len(w))
			}
		})
	}
}

// The SPRT line is c-gomoku-cli's: its LLR to three decimals, Wald's
// bounds, and the hypothesis once accepted.
func TestCliSPRTLine(t *testing.T) {
	s := rating.SPRT{Elo0: 0, Elo1: 20, Alpha: 0.05, Beta: 0.05, Model: rating.ModelCGomokuCli}
	tests := []struct {
		w    rating.WDL
		want string
	}{
		{rating.WDL{W: 3}, "SPRT: LLR = 0.000 [-2.944,2.944]"},
		{rating.WDL{W: 12, D: 3}, "SPRT: LLR = 4.158 [-2.944,2.944]. H1 accepted."},
		{rating.WDL{W: 2, L: 40, D: 5}, "SPRT: LLR = -9.431 [-2.944,2.944]. H0 accepted."},
	}
	for _, tt := range tests {
		if got := cliSPRTLine(s, tt.w); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.w, got, tt.want)
		}
	}
}

// The files of a real run are c-gomoku-cli's: RU is the rule's number, RO
// counts rounds and the games within each, Black and White as played, and
// -msg has c-gomoku-cli's header per game.
func TestGomokuCliFiles(t *testing.T) {
	dir := t.TempDir()
	sgf, pgn, msg := filepath.Join(dir, "g.sgf"), filepath.Join(dir, "g.pgn"), filepath.Join(dir, "g.msg")
	out, errOut, code := runArena(t, "gomoku-cli", "-each", "tc=0/5",
		"-engine", "cmd=builtin:greedy", "name=a", "-engine", "cmd=builtin:greedy", "name=b", "-engine", "cmd=builtin:greedy", "name=c",
		"-games", "2", "-rounds", "2", "-rule", "1", "-sgf", sgf, "-pgn", pgn, "-msg", msg)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	s, _ := os.ReadFile(sgf)
	p, _ := os.ReadFile(pgn)
	m, _ := os.ReadFile(msg)
	var ro, rounds, heads []string
	for _, line := range strings.Split(string(s), "\n") {
		if strings.HasPrefix(line, "(;FF[4]GM[4]GN[") {
			if !strings.Contains(line, "RU[1]SZ[15]") {
				t.Errorf("not c-gomoku-cli's RU and SZ: %s", line)
			}
			i := strings.Index(line, "RO[")
			ro = append(ro, line[i+3:i+3+strings.Index(line[i+3:], "]")])
		}
	}
	for _, line := range strings.Split(string(p), "\n") {
		if strings.HasPrefix(line, "[Round ") {
			rounds = append(rounds, strings.Trim(strings.TrimPrefix(line, "[Round "), `"]`))
		}
	}
	for _, line := range strings.Split(string(m), "\n") {
		if strings.HasPrefix(line, "Game ID: ") {
			heads = append(heads, strings.TrimPrefix(line, "Game ID: "))
		}
	}
	want := "1.1 1.2 1.3 1.4 1.5 1.6 2.1 2.2 2.3 2.4 2.5 2.6"
	if got := strings.Join(ro, " "); got != want {
		t.Errorf("SGF RO %s, want %s", got, want)
	}
	if got := strings.Join(rounds, " "); got != want {
		t.Errorf("PGN Round %s, want %s", got, want)
	}
	if got := strings.Join(heads, " "); got != "1 2 3 4 5 6 7 8 9 10 11 12" {
		t.Errorf("-msg game IDs %s", got)
	}
	if strings.Count(out, "Tournament update:") != 6 || strings.Contains(out, "stats ") {
		t.Errorf("want a tournament update every 2 games and no arena summary:\n%s", out)
	}
}
