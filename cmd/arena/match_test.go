package main

import (
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"gomoku-arena/clock"
	"gomoku-arena/engine"
	"gomoku-arena/event"
	"gomoku-arena/results/rating"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// statsRE is the parseable stats line as the README documents it.
var statsRE = regexp.MustCompile(`^stats  (\S+) vs (\S+)  games (\d+)  \+(\d+) =(\d+) -(\d+)  score ([\d.]+)%  Elo \S+( ± [\d.]+| ± n/a| \[[^]]*\]| \(a sweep: no finite estimate\))  LOS ([\d.]+%|n/a)  ptnml (\d+) (\d+) (\d+) (\d+) (\d+)(  LLR (-?[\d.]+) \[(-?[\d.]+), (-?[\d.]+)\])?$`)

// A stats line every -report games, and one at the end, each in the
// documented form (the PGN the match writes: event.TestMatchRoundRobinRatingsAndPGN).
func TestMatchStatsLines(t *testing.T) {
	out, errOut, code := runArena(t, "match", "-rule", "freestyle", "-tc", "0", "-turn", "5s", "-games", "4", "-report", "2",
		"-out", t.TempDir(), "-sprt", "elo0=-10,elo1=10,model=logistic", "builtin:greedy", "r=builtin:random seed=3")
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
}

// A round robin prints a stats line per pair, the rating list and the LOS
// matrix (the tallies and ratings: event.TestMatchRoundRobinRatingsAndPGN).
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
	var s event.MatchSetup
	s.Name, s.Size, s.Games, s.Rounds, s.Concurrency, s.Pairs = "bench", 15, b.N, 1, concurrency, true
	s.Rule, _ = rules.ByName("freestyle")
	ctl := clock.Control{Match: time.Minute, Tolerance: time.Second}
	for _, name := range []string{"a", "b"} {
		s.Engines = append(s.Engines, event.EngineSettings{Name: name, Command: "builtin:faulty", BoardMode: boardMode, Clock: ctl})
	}
	m, err := s.Match()
	if err != nil {
		b.Fatal(err)
	}
	p := &matchPlan{Match: m, Quiet: true}
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

// namedPlan is a match between engines of these names that is never
// played, built as parseMatch builds one (event.MatchSetup), for what the
// command prints of its tallies.
func namedPlan(t testing.TB, pairs bool, sprt *rating.SPRT, names ...string) *matchPlan {
	t.Helper()
	var s event.MatchSetup
	s.Name, s.Size, s.Games, s.Rounds, s.Concurrency, s.Pairs, s.SPRT = "t", 15, 2, 1, 1, pairs, sprt
	for _, n := range names {
		s.Engines = append(s.Engines, event.EngineSettings{Name: n, Command: "builtin:random"})
	}
	m, err := s.Match()
	if err != nil {
		t.Fatal(err)
	}
	return &matchPlan{Match: m}
}

// What arena match prints when the SPRT decides (the decision itself:
// event.TestMatchSPRTStopsEarlyWithH1): the deciding pair's stats line and
// the decision at once, and in the summary the pentanomial counts and the
// decision with the test's settings; and what it prints of a continued
// match (event.TestKilledMatchContinues).
func TestMatchPrintsTheSPRTDecision(t *testing.T) {
	sprt := &rating.SPRT{Elo0: 0, Elo1: 15, Alpha: 0.05, Beta: 0.05, Model: rating.ModelNormalized}
	p := namedPlan(t, true, sprt, "search", "random")
	p.Match.Out = "out/m"
	var b strings.Builder
	v := &matchView{printer: newPrinter(&b, true, nil), plan: p, stdout: &b}
	v.Observe(event.Began{Name: "match", Total: 400, Capped: true, Finished: 3})
	e := &event.Encounter{First: 0, Second: 1, WDL: rating.WDL{W: 100}, Penta: rating.Pentanomial{0, 0, 0, 0, 50}, Decision: rating.H1}
	var u event.MatchGameCounted
	u.Record, u.Encounter, u.Played, u.Decided = &record.Record{Game: 100, Black: "random", White: "search", Winner: rules.White, End: record.Five}, e, 100, true
	v.Observe(u)
	p.summary(&b, []*event.Encounter{e}, v.decision)
	out := b.String()
	for _, want := range []string{"continuing out/m: 3 games already finished\n", "\nSPRT: H1 accepted after 100 games\n",
		"SPRT: H1 accepted after 100 games  (model normalized, elo0 0, elo1 15, alpha 0.05, beta 0.05; LLR"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if !regexp.MustCompile(`(?m)^pentanomial .*: 0 0 0 0 50$`).MatchString(out) {
		t.Errorf("no pentanomial counts in\n%s", out)
	}
	if n := strings.Count(out, "stats  search vs random  games 100"); n != 2 {
		t.Errorf("%d stats lines of the deciding pair, want 2 (at the decision and in the summary):\n%s", n, out)
	}
}
