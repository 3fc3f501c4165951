package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"gomoku-arena/arbiter"
	"gomoku-arena/clock"
	"gomoku-arena/engine"
	"gomoku-arena/event"
	"gomoku-arena/results/journal"
	"gomoku-arena/results/rating"
	"gomoku-arena/rules"
	"gomoku-arena/schedule"
)

// The decent bundled engine against random under an SPRT: a sweep, which
// the normalized model with bounds [0, 15] decides after 50 pairs (see
// results/sprt.go), far below the 400 games allowed.
func TestMatchSPRTStopsEarlyWithH1(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := runArena(t, "match", "-rule", "freestyle", "-tc", "0", "-turn", "5s", "-quiet",
		"-games", "400", "-concurrency", "2", "-sprt", "elo0=0,elo1=15", "-out", dir,
		"builtin:search nodes=300", "builtin:random seed=1")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "SPRT: H1 accepted after") {
		t.Fatalf("no H1 decision in\n%s", out)
	}
	recs, err := journal.Read(filepath.Join(dir, "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) >= 400 || len(recs) < 20 {
		t.Errorf("%d games played; want an early stop well before 400", len(recs))
	}
	if !regexp.MustCompile(`(?m)^pentanomial .*: \d+ \d+ \d+ \d+ \d+$`).MatchString(out) {
		t.Errorf("no pentanomial counts in\n%s", out)
	}
}

// statsRE is the parseable stats line as the README documents it.
var statsRE = regexp.MustCompile(`^stats  (\S+) vs (\S+)  games (\d+)  \+(\d+) =(\d+) -(\d+)  score ([\d.]+)%  Elo \S+( ± [\d.]+| ± n/a| \[[^]]*\]| \(a sweep: no finite estimate\))  LOS ([\d.]+%|n/a)  ptnml (\d+) (\d+) (\d+) (\d+) (\d+)(  LLR (-?[\d.]+) \[(-?[\d.]+), (-?[\d.]+)\])?$`)

func TestMatchStatsLinesAndPGN(t *testing.T) {
	dir := t.TempDir()
	pgn := filepath.Join(dir, "games.pgn")
	out, errOut, code := runArena(t, "match", "-rule", "freestyle", "-tc", "0", "-turn", "5s", "-games", "4", "-report", "2",
		"-pgn", pgn, "-out", dir, "-sprt", "elo0=-10,elo1=10,model=logistic", "builtin:greedy", "r=builtin:random seed=3")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	n := 0
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "stats  ") {
			n++
			if !statsRE.MatchString(line) {
				t.Errorf("stats line does not parse:\n%s", line)
			}
		}
	}
	if n < 3 { // after games 2 and 4, and the final one
		t.Errorf("%d stats lines in\n%s", n, out)
	}
	b, err := os.ReadFile(pgn)
	if err != nil {
		t.Fatal(err)
	}
	if c := strings.Count(string(b), "[Result "); c != 4 {
		t.Errorf("%d results in the PGN, want 4:\n%s", c, b)
	}
}

func TestMatchRoundRobinRatingList(t *testing.T) {
	out, errOut, code := runArena(t, "match", "-rule", "freestyle", "-tc", "0", "-turn", "5s", "-games", "2", "-concurrency", "3",
		"-out", t.TempDir(), "builtin:greedy", "a=builtin:random seed=1", "b=builtin:random seed=2")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"rating list (Bradley–Terry", "likelihood of superiority", "stats  greedy vs a", "stats  a vs b"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if c := len(regexp.MustCompile(`(?m)^game \d+  `).FindAllString(out, -1)); c != 6 {
		t.Errorf("%d game lines, want 6 (3 encounters x 2)", c)
	}
}

func TestMatchBadOpeningNamesTheLine(t *testing.T) {
	dir := t.TempDir()
	book := filepath.Join(dir, "book.txt")
	os.WriteFile(book, []byte("-7,-7\n# a comment\n0,0, 1,1\n"), 0o644)
	out, errOut, code := runArena(t, "match", "-rule", "outer-open", "-openings", book, "-out", dir, "builtin:random", "builtin:random")
	if code != exitError || !strings.Contains(errOut, "book.txt:3:") {
		t.Fatalf("exit %d, want %d with book.txt:3 named\n%s%s", code, exitError, out, errOut)
	}
}

func TestParseSPRT(t *testing.T) {
	tests := []struct {
		in   string
		want rating.SPRT
		err  string
	}{
		{"elo1=5", rating.SPRT{Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: "normalized"}, ""},
		{"elo0=-2,elo1=3,alpha=0.1,beta=0.2,model=trinomial", rating.SPRT{Elo0: -2, Elo1: 3, Alpha: 0.1, Beta: 0.2, Model: "trinomial"}, ""},
		{"elo0=0", rating.SPRT{}, "elo1 is required"},
		{"elo1=5,gamma=1", rating.SPRT{}, "unknown key"},
		{"elo1=x", rating.SPRT{}, "not a number"},
		{"elo0=5,elo1=0", rating.SPRT{}, "must be below"},
		{"elo1=5,model=bayes", rating.SPRT{}, "model"},
	}
	for _, tt := range tests {
		got, err := parseSPRT(tt.in, ",", "normalized")
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: err %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%q: %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
	}
}

func TestLimitFlags(t *testing.T) {
	ents := func() []event.EngineSettings {
		return []event.EngineSettings{{Name: "new"}, {Name: "old"}}
	}
	tests := []struct {
		name       string
		flag, key  string
		values     []string
		size       bool
		new, old   []engine.Info
		wantErrSub string
	}{
		{"depth for all", "depth", "max_depth", []string{"8"}, false,
			[]engine.Info{{Key: "max_depth", Value: "8"}}, []engine.Info{{Key: "max_depth", Value: "8"}}, ""},
		{"nodes for one", "nodes", "max_node", []string{"old:5000"}, false,
			nil, []engine.Info{{Key: "max_node", Value: "5000"}}, ""},
		{"memory with a suffix", "max-memory", "max_memory", []string{"350M"}, true,
			[]engine.Info{{Key: "max_memory", Value: "367001600"}}, []engine.Info{{Key: "max_memory", Value: "367001600"}}, ""},
		{"raw info", "info", "", []string{"hash=64", "new:style=2"}, false,
			[]engine.Info{{Key: "hash", Value: "64"}, {Key: "style", Value: "2"}}, []engine.Info{{Key: "hash", Value: "64"}}, ""},
		{"unknown engine", "depth", "max_depth", []string{"nobody:3"}, false, nil, nil, `no engine named "nobody"`},
		{"not a number", "threads", "thread_num", []string{"four"}, false, nil, nil, "not a whole number"},
		{"info without =", "info", "", []string{"hash"}, false, nil, nil, "KEY=VALUE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := ents()
			err := limitFlag(tt.values).apply(e, tt.flag, tt.key, tt.size)
			if tt.wantErrSub != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErrSub) {
					t.Fatalf("err %v, want %q", err, tt.wantErrSub)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(e[0].Info, tt.new) || !reflect.DeepEqual(e[1].Info, tt.old) {
				t.Errorf("new %v old %v; want %v and %v", e[0].Info, e[1].Info, tt.new, tt.old)
			}
		})
	}
}

// benchMatch plays b.N games between two instances of the instant faulty
// engine through the whole match machinery (director, statistics, no files)
// and reports games per second.
func benchMatch(b *testing.B, concurrency int, boardMode bool) {
	free, _ := rules.ByName("freestyle")
	ctl := clock.Control{Match: time.Minute, Tolerance: time.Second}
	ent := func(name string) arbiter.Entrant {
		return arbiter.Entrant{Spec: engine.Spec{Name: name, Command: "builtin:faulty"}, BoardMode: boardMode, Clock: ctl}
	}
	p := &matchPlan{Match: event.NewMatch("bench", free, 15), Quiet: true}
	p.Match.Plan.Games, p.Match.Plan.Director.Concurrency, p.Match.Plan.Director.Entrants, p.Match.Plan.Suite = b.N, concurrency, []arbiter.Entrant{ent("a"), ent("b")}, schedule.Suite{Pairs: true}
	b.ResetTimer()
	start := time.Now()
	if err := p.play(io.Discard, io.Discard); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "games/s")
}

func BenchmarkMatchTurnConcurrency1(b *testing.B)  { benchMatch(b, 1, false) }
func BenchmarkMatchTurnConcurrency2(b *testing.B)  { benchMatch(b, 2, false) }
func BenchmarkMatchBoardConcurrency1(b *testing.B) { benchMatch(b, 1, true) }
func BenchmarkMatchBoardConcurrency2(b *testing.B) { benchMatch(b, 2, true) }

// A match game's record replaced by another game's (another opening of the
// list, colours and number kept) is refused when the match is continued:
// the journal check compares every game's opening with the suite's deal,
// from the suite event.json records.
func TestMatchGameWithAnotherOpeningIsRefused(t *testing.T) {
	dir := t.TempDir()
	book := filepath.Join(dir, "book.txt")
	os.WriteFile(book, []byte("0,0\n-4,-4\n3,3\n-5,5\n"), 0o644)
	out := filepath.Join(dir, "m")
	args := []string{"match", "-quiet", "-rule", "freestyle", "-openings", book, "-games", "4", "-out", out, "builtin:greedy", "builtin:random"}
	if o, errOut, code := runArena(t, args...); code != 0 {
		t.Fatalf("match: exit %d\n%s%s", code, o, errOut)
	}
	path := filepath.Join(out, "journal.jsonl")
	b, _ := os.ReadFile(path)
	lines := strings.SplitAfter(strings.TrimSuffix(string(b), "\n"), "\n")
	var first, third map[string]any
	json.Unmarshal([]byte(lines[0]), &first)
	json.Unmarshal([]byte(lines[2]), &third)
	for _, k := range []string{"game", "black", "white", "black_about", "white_about"} {
		if v, ok := first[k]; ok {
			third[k] = v
		} else {
			delete(third, k)
		}
	}
	forged, _ := json.Marshal(third)
	lines[0] = string(forged) + "\n"
	os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644)
	if _, errOut, code := runArena(t, args...); code != exitError || !strings.Contains(errOut, "but the schedule deals game 1 [7,7]") {
		t.Errorf("continued over a game with another opening: exit %d, %q; want %d naming game 1's opening", code, errOut, exitError)
	}
}
