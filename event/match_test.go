package event

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"gomoku-arena/arbiter"
	"gomoku-arena/clock"
	"gomoku-arena/engine"
	"gomoku-arena/event/outfolder"
	"gomoku-arena/internal/config"
	"gomoku-arena/results/journal"
	"gomoku-arena/rules"
	"gomoku-arena/schedule"
)

// testMatch is a match of pairs between the faulty engine, which exits on
// an INFO key told twice, and greedy, with the settings every front end
// fills (MatchSetup, EngineSettings), played into out.
func testMatch(t *testing.T, out string) MatchSetup {
	t.Helper()
	free, err := rules.ByName("freestyle")
	if err != nil {
		t.Fatal(err)
	}
	ctl := clock.Control{Match: 30 * time.Second, Tolerance: time.Second, Hang: clock.DefaultHang}
	order, _ := ParseOrder("sequential")
	return MatchSetup{Settings: Settings{Name: "match", Rule: free, Size: 15, Concurrency: 1, RuleOpenings: true, Out: out,
		StartTimeout: time.Minute,
		Engines: []EngineSettings{
			{Name: "once", Command: "builtin:faulty", Args: []string{"info-once"}, Clock: ctl, Limits: engine.Limits{Memory: 350 << 20},
				Info: []engine.Info{{Key: "max_memory", Value: "134217728"}, {Key: "timeout_turn", Value: "1500"}}},
			{Name: "greedy", Command: "builtin:greedy", Clock: ctl},
		}},
		Games: 4, Rounds: 1, Pairs: true, Order: order}
}

// A match end to end through its front door: the settings become a match
// (MatchSetup.Match), which plays every game, journals it, tallies its
// pair, and the same settings run again continue it from the folder; a
// per-engine INFO replaces the limit's max_memory (the engine would exit
// on a key told twice).
func TestMatchEndToEnd(t *testing.T) {
	out := filepath.Join(t.TempDir(), "m")
	m, err := testMatch(t, out).Match()
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Run(context.Background(), context.Background(), newRecorder()); err != nil {
		t.Fatal(err)
	}
	recs, err := journal.Read(filepath.Join(out, outfolder.JournalFile))
	if err != nil || len(recs) != 4 {
		t.Fatalf("journal: %v, %d games, want 4", err, len(recs))
	}
	for _, r := range recs {
		if r.End.Forfeit() {
			t.Errorf("game %d ended by %s: %s", r.Game, r.End, r.Detail)
		}
	}
	encs := m.Encounters()
	if len(encs) != 1 || encs[0].WDL.Games() != 4 {
		t.Fatalf("encounters %+v", encs)
	}
	again, err := testMatch(t, out).Match()
	if err != nil {
		t.Fatal(err)
	}
	rec := newRecorder()
	if err := again.Run(context.Background(), context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	if n := len(rec.finished()); n != 0 {
		t.Errorf("continued: %d more games played, want none", n)
	}
	changed := testMatch(t, out)
	changed.Games = 6
	m, err = changed.Match()
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Run(context.Background(), context.Background(), newRecorder()); err == nil || !strings.Contains(err.Error(), "different match") {
		t.Errorf("a changed match in the folder: %v", err)
	}
}

// A match sandboxed from its settings (Confinement, arena match's
// -sandbox) shows each engine its own working folder and declared files
// (-files) and hides its rival's, as an event's sandbox does
// (TestOneProgramSeveralEntrants).
func TestMatchSandboxHidesTheRival(t *testing.T) {
	if _, err := engine.Bwrap(); err != nil {
		t.Skip(err)
	}
	root := t.TempDir()
	s := testMatch(t, filepath.Join(root, "m"))
	s.Engines[0].Dir, s.Engines[1].Dir = filepath.Join(root, "once"), filepath.Join(root, "greedy")
	for _, e := range s.Engines {
		os.MkdirAll(e.Dir, 0o755)
	}
	weights := filepath.Join(root, "weights")
	os.MkdirAll(weights, 0o755)
	s.Engines[0].Files = []string{weights} // arena match -files once:weights
	s.Confinement.Sandbox = config.SandboxBwrap
	m, err := s.Match()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.confine(); err != nil {
		t.Fatal(err)
	}
	cs, err := containments(m.Plan.Director.Entrants, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cs {
		own, rival := s.Engines[i].Dir, s.Engines[1-i].Dir
		shown := map[string]engine.Access{}
		for _, p := range c.Paths {
			shown[p.Path] = p.Access
		}
		if shown[realPathOf(own)] != engine.ReadWrite {
			t.Errorf("%s: its own folder %s is %q: %v", c.Entrant, own, shown[realPathOf(own)], c.Paths)
		}
		if a, ok := shown[realPathOf(rival)]; ok && a != engine.Hidden {
			t.Errorf("%s: its rival's folder %s is %q", c.Entrant, rival, a)
		}
		if want := map[int]engine.Access{0: engine.ReadOnly}[i]; shown[realPathOf(weights)] != want {
			t.Errorf("%s: the declared %s is %q, want %q", c.Entrant, weights, shown[realPathOf(weights)], want)
		}
	}
}

// A gauntlet of four over two rounds: the first engine plays each other
// a pair of games in turn, round 1 from the first opening, round 2 from
// the second.
func TestMatchGauntletSchedule(t *testing.T) {
	m := NewMatch("t", nil, 15)
	m.Plan.Games, m.Plan.Rounds, m.Plan.Gauntlet, m.Plan.Director.Entrants = 2, 2, true, make([]arbiter.Entrant, 4)
	m.Plan.Suite = schedule.Suite{Pairs: true, Openings: []rules.Opening{{Stones: []rules.Point{{X: 7, Y: 7}}, Line: 1}, {Stones: []rules.Point{{X: 0, Y: 0}}, Line: 2}}}
	encs, fixtures := m.Plan.Schedule()
	var got [][3]int
	for _, f := range fixtures {
		got = append(got, [3]int{f.Black, f.White, f.Opening[0].X})
	}
	want := [][3]int{
		{0, 1, 7}, {1, 0, 7}, {0, 2, 7}, {2, 0, 7}, {0, 3, 7}, {3, 0, 7}, // round 1: pair 0, first opening
		{0, 1, 0}, {1, 0, 0}, {0, 2, 0}, {2, 0, 0}, {0, 3, 0}, {3, 0, 0}, // round 2: pair 1, second opening
	}
	if len(encs) != 3 || !reflect.DeepEqual(got, want) {
		t.Errorf("%d encounters, fixtures (black, white, opening x)\n%v\nwant\n%v", len(encs), got, want)
	}
}
