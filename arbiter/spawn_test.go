package arbiter

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"gomoku-arena/clock"
	"gomoku-arena/engine"
	"gomoku-arena/rules"
)

// threadsEngine builds the instant C engine's hostile variant
// (engine/testdata/pbrain_instant.c with -DTHREADS): "SEED IDLE SPIN_US"
// starts IDLE threads that only sleep, and after every move a thread that
// runs SPIN_US µs of CPU.
func threadsEngine(t testing.TB) string {
	t.Helper()
	threadsOnce.Do(func() {
		cc, err := exec.LookPath("cc")
		if err != nil {
			threadsErr = "no C compiler (cc) in $PATH"
			return
		}
		dir, err := os.MkdirTemp("", "pbrain-threads-")
		if err != nil {
			threadsErr = err.Error()
			return
		}
		threadsPath = filepath.Join(dir, "pbrain-threads")
		if out, err := exec.Command(cc, "-O2", "-DTHREADS", "-pthread", "-o", threadsPath, "../engine/testdata/pbrain_instant.c").CombinedOutput(); err != nil {
			threadsErr = fmt.Sprintf("cc -DTHREADS pbrain_instant.c: %v: %s", err, out)
		}
	})
	if threadsErr != "" {
		t.Skip(threadsErr)
	}
	return threadsPath
}

var (
	threadsOnce sync.Once
	threadsPath string
	threadsErr  string
)

// What an engine spawns costs the arbiter nothing per move: an engine with
// thousands of idle threads (20,000 in the long run), or one that starts a
// spinning thread after every answer, costs the arbiter at most twice the
// CPU per move that the same engine without them does, under the limits
// every event has (the memory limit is measured after every move), and its
// games take no longer than the engines' clocks allow. (On main before
// #34, 20,000 idle threads made a 27-move game take 64 s, 19 s of it the
// arbiter's CPU.) Not parallel: the arbiter's CPU is this process's.
func TestWhatAnEngineSpawnsCostsTheArbiterNothing(t *testing.T) {
	path := threadsEngine(t)
	idle := 20000
	if testing.Short() {
		idle = 2000
	}
	free, _ := rules.ByName("freestyle")
	ctl := clock.Control{Match: 10 * time.Second, Tolerance: time.Second}
	start := func(args ...string) *engine.Engine {
		e, err := engine.Start(engine.Spec{Name: "e", Command: path, Args: args, StartTimeout: time.Minute,
			Limits: engine.Limits{Memory: engine.DefaultMaxMemory}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.Close() })
		return e
	}
	opponent := start("7")
	plain := start("1")
	hostile := map[string]*engine.Engine{
		fmt.Sprintf("%d idle threads", idle):       start("1", fmt.Sprint(idle), "0"),
		"a thread spinning 5ms after every answer": start("1", "0", "5000"),
	}
	// games plays n games of e against the opponent and returns the
	// arbiter's CPU per move, median over the games, and the longest game.
	games := func(e *engine.Engine, n int) (perMove []time.Duration, longest time.Duration) {
		for i := range n {
			black, white := &Player{Engine: e, Clock: ctl}, &Player{Engine: opponent, Clock: ctl}
			if i%2 == 1 {
				black, white = white, black
			}
			u0, s0 := cpuSelf()
			t0 := time.Now()
			rec := mustPlay(t, context.Background(), Game{Rule: free, Size: 15}, black, white)
			wall := time.Since(t0)
			u, s := cpuSelf()
			if rec.Detail != "" && rec.End != "five" {
				t.Fatalf("game %d: %s %s", i, rec.End, rec.Detail)
			}
			perMove = append(perMove, (u-u0+s-s0)/time.Duration(len(rec.Moves)))
			longest = max(longest, wall)
		}
		return perMove, longest
	}
	median := func(d []time.Duration) time.Duration {
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		return d[len(d)/2]
	}
	// Every engine is settled on its first commands (engine.probation, a
	// bounded one-time cost): the measure begins after them.
	games(plain, 6)
	for name, e := range hostile {
		games(e, 6)
		var p, h []time.Duration
		var longest time.Duration
		for range 5 { // interleaved: the machine's load moves both alike
			pp, _ := games(plain, 2)
			hh, l := games(e, 2)
			p, h = append(p, pp...), append(h, hh...)
			longest = max(longest, l)
		}
		mp, mh := median(p), median(h)
		t.Logf("%s: arbiter CPU per move %v, plain engine %v (%.2fx); longest game %v", name, mh, mp, float64(mh)/float64(mp), longest)
		if mh > 2*mp {
			t.Errorf("%s: the arbiter spent %v of CPU per move, %.1f times the %v with the plain engine", name, mh, float64(mh)/float64(mp), mp)
		}
		if longest > 2*ctl.Match {
			t.Errorf("%s: a game took %v, more than both clocks together (%v)", name, longest, 2*ctl.Match)
		}
	}
}
