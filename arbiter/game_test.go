package arbiter

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"gomoku-arena/clock"
	"gomoku-arena/engine"
	"gomoku-arena/internal/bundled"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// The test binary doubles as the bundled engines: builtin:NAME starts it
// again as "engine NAME".
func TestMain(m *testing.M) {
	bundled.ServeIfAsked()
	code := m.Run()
	if instantPath != "" {
		os.RemoveAll(filepath.Dir(instantPath)) // the benchmarks' engine build
	}
	os.Exit(code)
}

// startTimeout is the start timeout of the tests' engines: one that no busy
// machine makes an engine miss (a test of the start timeout sets its own).
const startTimeout = 30 * time.Second // also their write timeout: a busy engine reads its INFO late

func start(t *testing.T, name string, args ...string) *engine.Engine {
	t.Helper()
	cmd := "builtin:faulty"
	if !strings.HasPrefix(name, "faulty") {
		cmd = "builtin:" + name
	}
	e, err := engine.Start(engine.Spec{Name: name, Command: cmd, Args: args, StartTimeout: startTimeout, WriteTimeout: startTimeout, CloseGrace: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeAndCheckGone(t, e) })
	return e
}

// closeAndCheckGone ends the engine and checks that no process of its group
// is left.
func closeAndCheckGone(t *testing.T, e *engine.Engine) {
	t.Helper()
	pid := e.Pid()
	e.Close()
	if pid <= 0 {
		return
	}
	if err := syscall.Kill(-pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("%s: process group %d still exists after Close (kill 0: %v)", e.Name(), pid, err)
	}
}

var fast = clock.Control{Match: 20 * time.Second, Tolerance: 200 * time.Millisecond, Hang: 5 * time.Second}

// roomy is a clock no load runs out: for an engine whose fault under test is
// not time but is slow to show (taking memory, flooding), and for the engine
// that only has to answer while its opponent's fault is under test.
var roomy = clock.Control{Match: 5 * time.Minute, Tolerance: time.Second, Hang: 2 * time.Minute}

func player(e *engine.Engine, ctl clock.Control) *Player { return &Player{Engine: e, Clock: ctl} }

// replay checks a record against the rules with the project's one replay:
// every stone the engines played is legal, and the end is the one the rules
// reach.
func replay(t *testing.T, rec *record.Record) {
	t.Helper()
	r, err := rules.ByName(rec.Rule)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := record.Verify(rec, r); err != nil {
		t.Fatalf("game %d (%s): %v", rec.Game, rec.End, err)
	}
}

func TestGamesEndWithTheRightResult(t *testing.T) {
	free, _ := rules.ByName("freestyle")
	outer, _ := rules.ByName("outer-open")
	cases := []struct {
		name        string
		rule        rules.Rule
		black       []string // engine name, then args
		white       []string
		ctl         clock.Control
		opening     []rules.Point
		winner      rules.Color
		end         record.Termination
		detail      string
		startTimout time.Duration
	}{
		{"search beats random", outer, []string{"search"}, []string{"random", "seed=1"}, fast, nil, rules.Black, record.Five, "", 0},
		{"crash", free, []string{"faulty", "crash-at=3"}, []string{"faulty"}, fast, nil, rules.White, record.Crash, "", 0},
		{"exit right after a move", free, []string{"faulty"}, []string{"faulty", "exit-after-move=2"}, fast, nil, rules.Black, record.Crash, "", 0},
		{"hang with a clock", free, []string{"faulty", "hang-at=2"}, []string{"faulty"},
			clock.Control{Turn: 300 * time.Millisecond, Tolerance: 100 * time.Millisecond}, nil, rules.White, record.Time, "", 0},
		{"hang without a clock", free, []string{"faulty"}, []string{"faulty", "deaf-at=1"},
			clock.Control{Hang: 400 * time.Millisecond}, nil, rules.Black, record.Time, "", 0},
		{"late past the tolerance", free, []string{"faulty", "think=400ms"}, []string{"faulty"},
			clock.Control{Turn: 100 * time.Millisecond, Tolerance: 100 * time.Millisecond}, nil, rules.White, record.Time, "", 0},
		{"late inside the tolerance is charged, not lost", free, []string{"faulty", "think=150ms", "crash-at=3"}, []string{"faulty"},
			clock.Control{Turn: 100 * time.Millisecond, Tolerance: 2 * time.Second}, nil, rules.White, record.Crash, "", 0},
		{"occupied point", free, []string{"faulty"}, []string{"faulty", "illegal-at=2"}, fast, nil, rules.Black, record.Illegal, "occupied", 0},
		{"off the board", free, []string{"faulty", "offboard-at=1"}, []string{"faulty"}, fast, nil, rules.White, record.Illegal, "off board at 99,99", 0},
		{"negative coordinate", free, []string{"faulty"}, []string{"faulty", "negative-at=1"}, fast, nil, rules.Black, record.Illegal, "off board at -1,3", 0},
		{"malformed move", free, []string{"faulty", "malformed-at=2"}, []string{"faulty"}, fast, nil, rules.White, record.Illegal, `malformed move "7,"`, 0},
		{"refuses START", free, []string{"faulty"}, []string{"faulty", "refuse-start"}, fast, nil, rules.Black, record.Refusal, "", 0},
		{"silent on START", free, []string{"faulty", "silent-start"}, []string{"faulty"}, fast, nil, rules.White, record.Refusal, "", 10 * time.Second}, // the other engine answers within it, however busy the machine
		{"outer-open strict: centre first stone loses", outer, []string{"faulty"}, []string{"greedy"}, fast, nil, rules.White, record.Illegal, string(rules.OutsideOuterZone), 0},
		{"outer-open arbiter-opens: any engine can play", outer, []string{"greedy"}, []string{"faulty", "crash-at=3"}, fast, []rules.Point{{X: 0, Y: 7}}, rules.Black, record.Crash, "", 0},
		{"garbage, floods and suggestions are not faults", free,
			[]string{"faulty", "garbage", "stderr-flood=3000000", "messages=50", "crash-at=6"},
			[]string{"faulty", "suggest", "long-line=2000000"}, roomy, nil, rules.White, record.Crash, "", 0}, // floods are slow on a busy machine
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := start(t, tc.black[0], tc.black[1:]...)
			w := start(t, tc.white[0], tc.white[1:]...)
			g := Game{Rule: tc.rule, Size: 15, Opening: tc.opening, StartTimeout: tc.startTimout}
			// The clock under test is the loser's: the winner only has to
			// answer, under a clock no load runs out.
			bc, wc := tc.ctl, roomy
			if tc.winner == rules.Black {
				bc, wc = roomy, tc.ctl
			}
			rec := mustPlay(t, context.Background(), g, player(b, bc), player(w, wc))
			if rec.Winner != tc.winner || rec.End != tc.end || !strings.Contains(rec.Detail, tc.detail) {
				t.Fatalf("got %v by %s (%s), want %v by %s (%s)", rec.Winner, rec.End, rec.Detail, tc.winner, tc.end, tc.detail)
			}
			replay(t, rec)
		})
	}
}

// An engine process is reused for the next game with RESTART, and a crashed
// or hung one is started again.
// The record says which programs played: their answers to ABOUT.
func TestRecordNamesThePrograms(t *testing.T) {
	rec := mustPlay(t, context.Background(), Game{Rule: freestyle(t), Size: 15}, player(start(t, "greedy"), fast), player(start(t, "random"), fast))
	if !strings.Contains(rec.BlackAbout, `name="greedy"`) || !strings.Contains(rec.WhiteAbout, `name="random"`) {
		t.Errorf("BlackAbout %q, WhiteAbout %q", rec.BlackAbout, rec.WhiteAbout)
	}
}

func TestNextGameAfterAFault(t *testing.T) {
	free, _ := rules.ByName("freestyle")
	b := start(t, "faulty", "hang-at=1")
	w := start(t, "greedy")
	ctl := clock.Control{Turn: 200 * time.Millisecond, Tolerance: 100 * time.Millisecond}
	g := Game{Rule: free, Size: 15}
	// only the hung engine's clock is under test: greedy's answers, however
	// late on a busy machine, are no fault
	if rec := mustPlay(t, context.Background(), g, player(b, ctl), player(w, fast)); rec.End != record.Time {
		t.Fatalf("first game: %s %s", rec.End, rec.Detail)
	}
	// Same processes, colours exchanged: the hung engine was killed and must
	// be restarted; greedy is reused.
	ctl = fast
	rec := mustPlay(t, context.Background(), g, player(w, ctl), player(b, ctl))
	if rec.End != record.Time || rec.Winner != rules.Black {
		t.Fatalf("second game: %v by %s %s", rec.Winner, rec.End, rec.Detail)
	}
}

// Cancelling a game kills its engines at once and reports it as aborted,
// not as anybody's loss.
func TestAbortedGame(t *testing.T) {
	free, _ := rules.ByName("freestyle")
	b := start(t, "faulty", "deaf-at=1")
	w := start(t, "faulty")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	rec := mustPlay(t, ctx, Game{Rule: free, Size: 15}, player(b, fast), player(w, fast))
	if rec.End != record.Aborted || rec.Winner != rules.Empty {
		t.Fatalf("got %v by %s", rec.Winner, rec.End)
	}
}

// BOARD lists the stones still on the board in the order they were played.
func TestStonesInMoveOrder(t *testing.T) {
	free, _ := rules.ByName("freestyle")
	p, err := rules.Setup(free, 15, []rules.Point{{X: 7, Y: 7}, {X: 8, Y: 8}, {X: 0, Y: 0}})
	if err != nil {
		t.Fatal(err)
	}
	got := Stones(p, rules.White)
	want := []engine.Stone{{Point: rules.Point{X: 7, Y: 7}, Field: 2}, {Point: rules.Point{X: 8, Y: 8}, Field: 1}, {Point: rules.Point{}, Field: 2}}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("stone %d: got %v, want %v", i, got[i], want[i])
		}
	}
}

// A crashing engine's last stderr lines are kept in the record, its
// opponent's are not, and a game decided on the board keeps none.
func TestForfeitKeepsTheLosersLastWords(t *testing.T) {
	free := freestyle(t)
	b := start(t, "faulty", "stderr-flood=100")
	w := start(t, "faulty", "assert-at=3")
	rec := mustPlay(t, context.Background(), Game{Rule: free, Size: 15}, player(b, fast), player(w, fast))
	want := []string{"search: depth 1 nodes 120", "search: depth 2 nodes 2700", "faulty: engine.c:42: brain_turn: Assertion `move 3 < 0' failed."}
	if rec.End != record.Crash || rec.Winner != rules.Black || rec.Detail != "exit status 134" || !slices.Equal(rec.Stderr, want) {
		t.Fatalf("%s by %v (%s), stderr %q; want crash by white (exit status 134), stderr %q", rec.End, rec.Winner.Opponent(), rec.Detail, rec.Stderr, want)
	}
	// Its next process crashes the same way: the record holds that
	// process's words only, not the previous one's too.
	rec = mustPlay(t, context.Background(), Game{Rule: free, Size: 15}, player(w, fast), player(b, fast))
	if rec.End != record.Crash || rec.Winner != rules.White || !slices.Equal(rec.Stderr, want) {
		t.Fatalf("again: %s by %v, stderr %q; want crash by black, stderr %q", rec.End, rec.Winner.Opponent(), rec.Stderr, want)
	}
	rec = mustPlay(t, context.Background(), Game{Rule: free, Size: 15}, player(start(t, "search"), fast), player(b, fast))
	if rec.End != record.Five || rec.Stderr != nil {
		t.Fatalf("%s, stderr %q; want five and no stderr", rec.End, rec.Stderr)
	}
}

// mustPlay plays a game the test knows can be played.
func mustPlay(t testing.TB, ctx context.Context, g Game, black, white *Player) *record.Record {
	t.Helper()
	rec, err := Play(ctx, g, black, white)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// A game that cannot be played is the caller's error, found before either
// engine is asked anything: never a panic, never a forfeit.
func TestPlayRefusesAGameThatCannotBePlayed(t *testing.T) {
	free, renju := freestyle(t), ruleNamed(t, "renju")
	var sent atomic.Int64
	spec := engine.Spec{Name: "e", Command: "builtin:faulty", StartTimeout: startTimeout, WriteTimeout: startTimeout, CloseGrace: 200 * time.Millisecond,
		Transcript: func(_ int, out bool, _ string) {
			if out {
				sent.Add(1)
			}
		}}
	e, err := engine.Start(spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeAndCheckGone(t, e) })
	for _, c := range []struct {
		name string
		g    Game
		want string
	}{
		{"no rule", Game{Size: 15}, "no rule"},
		{"board too small", Game{Rule: free, Size: 3}, "opening: board size 3 out of range"},
		{"opening off the board", Game{Rule: free, Size: 15, Opening: []rules.Point{{X: 7, Y: 15}}}, "opening:"},
		{"opening on one point twice", Game{Rule: free, Size: 15, Opening: []rules.Point{{X: 7, Y: 7}, {X: 7, Y: 7}}}, "opening:"},
		{"unknown procedure", Game{Rule: free, Size: 15, Procedure: rules.Procedure(7)}, "opening procedure Procedure(7): opening procedure Procedure(7) is not one of none, swap2, rif"},
		{"RIF on an even board", Game{Rule: renju, Size: 14, Procedure: rules.RIFProcedure}, "opening procedure rif: the RIF opening needs an odd board"},
		{"swap2 on a board too small", Game{Rule: free, Size: 4, Procedure: rules.Swap2Procedure}, "board size 4 out of range"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec, err := Play(context.Background(), c.g, player(e, fast), player(e, fast))
			if err == nil || rec != nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("record %v, err = %v; want an error containing %q", rec, err, c.want)
			}
		})
	}
	if n := sent.Load(); n != 0 {
		t.Errorf("%d lines were sent to the engine", n)
	}
}
