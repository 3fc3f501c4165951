package check

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"gomoku-arena/arbiter"
	"gomoku-arena/clock"
	"gomoku-arena/engine"
	"gomoku-arena/internal/bundled"
	"gomoku-arena/rules"
)

// TestMain serves the bundled and faulty engines (builtin:NAME) from this
// test binary.
func TestMain(m *testing.M) {
	bundled.ServeIfAsked()
	os.Exit(m.Run())
}

// testSettings are short: the probes wait little past their own limit,
// the games are short. Nothing here asserts a time: a loaded machine only
// makes the checks slower.
func testSettings(t *testing.T, rule string) Settings {
	r, err := rules.ByName(rule)
	if err != nil {
		t.Fatal(err)
	}
	return Settings{Rule: r, StartTimeout: 30 * time.Second, ProbeSlack: 2 * time.Second, MoveCap: 16, GameTime: time.Minute}
}

func testEntrant(name, args string, ctl clock.Control) arbiter.Entrant {
	f := strings.Fields(args)
	// A busy machine may keep an engine from reading its INFO lines within
	// the default second: a write timeout no load reaches.
	return arbiter.Entrant{Spec: engine.Spec{Name: name, Command: f[0], Args: f[1:], WriteTimeout: time.Minute}, Clock: ctl}
}

func fastClock() clock.Control {
	return clock.Control{Match: 4 * time.Second, Tolerance: time.Second}
}

func finding(t *testing.T, r Report, check string) Finding {
	t.Helper()
	for _, f := range r.Findings {
		if f.Check == check {
			return f
		}
	}
	t.Fatalf("%s: no %s finding in %+v", r.Engine, check, r.Findings)
	return Finding{}
}

// TestBundledPass: the bundled engines pass every check (a warning is
// allowed only where it is not theirs to fix: none is expected).
func TestBundledPass(t *testing.T) {
	t.Parallel()
	s := testSettings(t, "freestyle")
	var ents []arbiter.Entrant
	for _, name := range []string{"search", "greedy", "random"} {
		ents = append(ents, testEntrant(name, "builtin:"+name, clock.Control{Match: 10 * time.Second, Tolerance: time.Second}))
	}
	s.Concurrency = len(ents)
	for _, r := range Entrants(context.Background(), ents, s, nil) {
		if len(r.Findings) != len(Names) {
			t.Errorf("%s: %d findings, want one per check (%d): %+v", r.Engine, len(r.Findings), len(Names), r.Findings)
		}
		for _, f := range r.Findings {
			if f.Check == "end" && f.Verdict == Warn && strings.HasPrefix(f.Seen, "exits ") {
				// It exited, later than the arena waits: on a busy machine
				// the check rightly says so, and it is not the engine's.
				t.Logf("%s: %s: %s", r.Engine, f.Check, f.Seen)
				continue
			}
			if f.Verdict != Pass {
				t.Errorf("%s: %s: %s: %s (remedy: %s)", r.Engine, f.Check, f.Verdict, f.Seen, f.Remedy)
			}
		}
	}
}

// TestQuirksFound: each habit of the faulty engine is found by the check
// that names it, with the verdict it deserves under the settings.
func TestQuirksFound(t *testing.T) {
	t.Parallel()
	type want struct {
		check   string
		verdict Verdict
		seen    string // in Seen, when set
		remedy  string // in Remedy, when set
	}
	cases := []struct {
		name string
		args string
		rule string
		set  func(*Settings, *arbiter.Entrant)
		want []want
	}{
		{"hash sized to max_memory", "builtin:faulty hash-max-memory", "freestyle",
			func(s *Settings, e *arbiter.Entrant) {
				// Touching 64 MiB takes seconds on a loaded machine: time enough.
				e.Infos = []engine.Info{{Key: "max_memory", Value: "67108864"}}
				e.Clock.Match, s.ProbeSlack = 30*time.Second, 10*time.Second
			},
			[]want{{"memory", Fail, "limit 64.0 MiB", "info max_memory"}}},
		{"budget by timeout_turn alone", "builtin:faulty turn-budget", "freestyle", nil,
			[]want{{"time", Fail, "", "timeout_turn"}}},
		{"timeout_turn plus 800ms", "builtin:faulty turn-plus=800ms", "freestyle",
			func(s *Settings, e *arbiter.Entrant) {
				e.Clock = clock.Control{Match: 60 * time.Second, Turn: time.Second, Tolerance: time.Second}
			},
			[]want{{"time", Fail, "1s per-move limit", "info timeout_turn"}}},
		{"BOARD only with the opponent's stone last, pente", "builtin:faulty board-opp-last", "pente", nil,
			[]want{{"board", Fail, "its own stone last", ""}}},
		{"BOARD only with the opponent's stone last, freestyle", "builtin:faulty board-opp-last", "freestyle", nil,
			[]want{{"board", Warn, "its own stone last", ""}}},
		// Until the arena starts an engine afresh after any RESTART not
		// answered OK, the game after one it never moved in is lost: fail;
		// after that, a warning. Either way it is found and named.
		{"RESTART answered UNKNOWN", "builtin:faulty restart=unknown", "freestyle",
			func(s *Settings, e *arbiter.Entrant) { s.StartTimeout = 5 * time.Second }, // a RESTART waited out costs it
			[]want{{"restart", "", `answers RESTART with "UNKNOWN"`, ""}}},
		{"silent to SWAP2BOARD", "builtin:faulty silent-swap2", "freestyle",
			func(s *Settings, e *arbiter.Entrant) { s.Procedure = rules.Swap2Procedure },
			[]want{{"swap2", Fail, "no answer", ""}}},
		{"silent to SWAP2BOARD, not used", "builtin:faulty silent-swap2", "freestyle", nil,
			[]want{{"swap2", Warn, "no answer", ""}}},
		{"SWAP2BOARD stones as x,y,c only", "builtin:faulty swap2-colors", "freestyle",
			func(s *Settings, e *arbiter.Entrant) { s.Procedure = rules.Swap2Procedure },
			[]want{{"swap2", Fail, "only with stones as x,y,c", "swap2_colors = true"}}},
		{"SWAP2BOARD stones as x,y,c only, so set", "builtin:faulty swap2-colors", "freestyle",
			func(s *Settings, e *arbiter.Entrant) { s.Procedure, e.Swap2Colors = rules.Swap2Procedure, true },
			[]want{{"swap2", Pass, "only with stones as x,y,c", ""}}},
		{"floods DEBUG", "builtin:faulty debug-flood=400", "freestyle", nil,
			[]want{{"output", Warn, "floods", ""}}},
		{"chatters DEBUG", "builtin:faulty debug-flood=4", "freestyle", nil,
			[]want{{"output", Warn, "chatters", ""}}},
		{"stray lines", "builtin:faulty garbage", "freestyle", nil,
			[]want{{"output", Warn, "stray lines", ""}}},
		{"refuses the size", "builtin:faulty refuse-start", "freestyle", nil,
			[]want{{"start", Fail, "cannot play", "size"}}},
		{"does not know outer-open", "builtin:faulty", "outer-open", nil,
			[]want{{"rule", Fail, "inside the zone", "arbiter-opens"}}},
		{"does not know outer-open, the arbiter opens", "builtin:faulty", "outer-open",
			func(s *Settings, e *arbiter.Entrant) { s.ArbiterOpens = true },
			[]want{{"rule", Pass, "", ""}}},
		{"plays a renju overline", "builtin:faulty", "renju", nil,
			[]want{{"rule", Fail, "overline", ""}}},
		{"ignores END", "builtin:faulty ignore-end", "freestyle", nil,
			[]want{{"end", Warn, "after END", ""}}},
		{"complains about INFO keys", "builtin:faulty info-error", "outer-open",
			func(s *Settings, e *arbiter.Entrant) { s.ArbiterOpens = true },
			[]want{{"info", Warn, "rule_name", ""}}},
		{"crashes", "builtin:faulty crash-at=2", "freestyle", nil,
			[]want{{"turn", Fail, "crash", ""}}},
	}
	// The checks mostly wait (on silences and deadlines): they run at
	// once, more of them than the test runner's parallelism would allow.
	reports := make([]Report, len(cases))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for i, tc := range cases {
		s := testSettings(t, tc.rule)
		ent := testEntrant("faulty", tc.args, fastClock())
		if tc.set != nil {
			tc.set(&s, &ent)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			reports[i] = Engine(context.Background(), ent, s)
		}()
	}
	wg.Wait()
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := reports[i]
			for _, w := range tc.want {
				f := finding(t, r, w.check)
				if (w.verdict != "" && f.Verdict != w.verdict) || (w.verdict == "" && f.Verdict == Pass) ||
					!strings.Contains(f.Seen, w.seen) || !strings.Contains(f.Remedy, w.remedy) {
					t.Errorf("%s: got %s %q (remedy %q); want %s with %q (remedy with %q)", w.check, f.Verdict, f.Seen, f.Remedy, w.verdict, w.seen, w.remedy)
				}
			}
			if t.Failed() {
				for _, f := range r.Findings {
					t.Logf("%s %s: %s | %s", f.Verdict, f.Check, f.Seen, f.Remedy)
				}
			}
		})
	}
}

// The per-move budget advised to an engine that spends all of timeout_turn
// keeps it within the clock in a long game (a quarter of the board filled),
// whatever the clock: under a minute it is well under the 2,000 ms at
// which an engine told 3,000 ms still lost on time.
func TestMoveBudgetFitsTheClock(t *testing.T) {
	for _, tc := range []struct {
		ctl  clock.Control
		size int
	}{
		{clock.Control{Match: time.Minute}, 15},
		{clock.Control{Match: 3 * time.Minute}, 15},
		{clock.Control{Match: 10 * time.Second, Increment: time.Second}, 15},
		{clock.Control{Match: 15 * time.Minute}, 20},
	} {
		b := MoveBudget(tc.ctl, tc.size)
		moves := time.Duration(tc.size * tc.size / 4)
		if b*moves > tc.ctl.Match+moves*tc.ctl.Increment || b <= 0 {
			t.Errorf("%+v on %dx%d: %v a move, %v for %d moves", tc.ctl, tc.size, tc.size, b, b*moves, moves)
		}
	}
	if b := MoveBudget(clock.Control{Match: time.Minute}, 15); b >= 2*time.Second {
		t.Errorf("under a minute: %v a move", b)
	}
}

// The probes run under the settings given: an engine that exits on INFO
// timeout_match 0 (as a public engine panics on it) is never told that
// under a clock with a match time, and passes the check of the clock it
// plays under; under no match time it is told it, and fails.
func TestProbesUnderTheClockGiven(t *testing.T) {
	t.Parallel()
	s := testSettings(t, "freestyle")
	const args = "builtin:faulty exit-on-info=timeout_match=0"
	r := Engine(context.Background(), testEntrant("faulty", args, clock.Control{Match: 30 * time.Second, Tolerance: time.Second}), s)
	for _, f := range r.Findings {
		if f.Verdict == Fail {
			t.Errorf("under a 30 s clock: %s: %s: %s", f.Check, f.Verdict, f.Seen)
		}
	}
	r = Engine(context.Background(), testEntrant("faulty", args, clock.Control{Turn: 2 * time.Second, Tolerance: time.Second}), s)
	if !r.Failed() {
		t.Errorf("under a per-move clock alone (timeout_match 0) it passed: %+v", r.Findings)
	}
}

// TestBundledAnswerSwap2UnderEveryRule: the arena's own engines pass the
// swap2 check under every rule whose first stones are restricted (outer-open
// keeps Black's first off the centre, pente Black's second off the central
// 5×5): the check asks with stones the rule takes, and the engines answer.
func TestBundledAnswerSwap2UnderEveryRule(t *testing.T) {
	t.Parallel()
	for _, rule := range []string{"outer-open", "pente"} {
		s := testSettings(t, rule)
		s.Procedure = rules.Swap2Procedure
		var ents []arbiter.Entrant
		for _, name := range []string{"greedy", "random"} {
			ents = append(ents, testEntrant(name, "builtin:"+name, clock.Control{Match: 10 * time.Second, Tolerance: time.Second}))
		}
		s.Concurrency = len(ents)
		for _, r := range Entrants(context.Background(), ents, s, nil) {
			if f := finding(t, r, "swap2"); f.Verdict != Pass {
				t.Errorf("%s, %s: swap2: %s: %s", rule, r.Engine, f.Verdict, f.Seen)
			}
		}
	}
}
