package arbiter

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"gomoku-arena/clock"
	"gomoku-arena/engine"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// cpuSelf is the CPU time this process (the arbiter, not its engines) has
// used so far, in user space and in the kernel (system calls: mostly the
// pipe writes and reads, and waking the engine).
func cpuSelf() (user, sys time.Duration) {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())
}

// benchGames plays games between two instant engines and reports the
// arbiter's own CPU per move (user space: the arbiter's logic and the Go
// runtime; system: its side of the pipe round trip) beside the wall time
// per move, which is the round trip and the engines.
func benchGames(b *testing.B, boardMode bool, black, white []string) {
	free, _ := rules.ByName("freestyle")
	start := func(args []string) *engine.Engine {
		e, err := engine.Start(engine.Spec{Name: args[0], Command: "builtin:" + args[0], Args: args[1:]})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { e.Close() })
		return e
	}
	eb, ew := start(black), start(white)
	ctl := clock.Control{Match: time.Minute, Tolerance: time.Second}
	g := Game{Rule: free, Size: 15}
	moves := 0
	b.ResetTimer()
	user0, sys0 := cpuSelf()
	wall0 := time.Now()
	for i := 0; i < b.N; i++ {
		rec := mustPlay(b, context.Background(), g, &Player{Engine: eb, Clock: ctl, BoardMode: boardMode}, &Player{Engine: ew, Clock: ctl, BoardMode: boardMode})
		moves += len(rec.Moves)
	}
	wall := time.Since(wall0)
	user, sys := cpuSelf()
	b.ReportMetric(float64((user-user0).Nanoseconds())/float64(moves), "user-ns/move")
	b.ReportMetric(float64((sys-sys0).Nanoseconds())/float64(moves), "sys-ns/move")
	b.ReportMetric(float64(wall.Nanoseconds())/float64(moves), "wall-ns/move")
	b.ReportMetric(float64(moves)/float64(b.N), "moves/game")
}

// The faulty engine without faults answers at once: these measure the
// arbiter and the pipes, not an engine's thinking.
func BenchmarkMoveTurnMode(b *testing.B) {
	benchGames(b, false, []string{"faulty"}, []string{"faulty"})
}
func BenchmarkMoveBoardMode(b *testing.B) {
	benchGames(b, true, []string{"faulty"}, []string{"faulty"})
}

// Games per second for random against random over a whole match.
func BenchmarkRandomVsRandomGame(b *testing.B) {
	benchGames(b, false, []string{"random", "seed=1"}, []string{"random", "seed=2"})
}

// instantEngine builds the bench kit's instant C engine
// (engine/testdata/pbrain_instant.c) with cc, once per test binary.
func instantEngine(b *testing.B) string {
	b.Helper()
	instantOnce.Do(func() {
		cc, err := exec.LookPath("cc")
		if err != nil {
			instantErr = "no C compiler (cc) in $PATH"
			return
		}
		dir, err := os.MkdirTemp("", "pbrain-instant-")
		if err != nil {
			instantErr = err.Error()
			return
		}
		instantPath = filepath.Join(dir, "pbrain-instant")
		if out, err := exec.Command(cc, "-O2", "-o", instantPath, "../engine/testdata/pbrain_instant.c").CombinedOutput(); err != nil {
			instantErr = fmt.Sprintf("cc pbrain_instant.c: %v: %s", err, out)
		}
	})
	if instantErr != "" {
		b.Skip(instantErr)
	}
	return instantPath
}

var (
	instantOnce sync.Once
	instantPath string
	instantErr  string
)

// BenchmarkInstantGames plays b.N games between two copies of the bench
// kit's instant engine (a C program that answers every move at once), as a
// runner does for self-play or bullet tests: the time per move is the
// arbiter's own cost plus one pipe round trip. concurrency=2, 4 and 16 play
// several games at once, each at its own table with its own pair of engines
// (16: eight tables to a processor on two, where Go's hand-offs between
// locked table threads show): the games are played by a Director, as every
// front end plays them.
func BenchmarkInstantGames(b *testing.B) {
	for _, mode := range []string{"turn", "board"} {
		for _, conc := range []int{1, 2, 4, 16} {
			b.Run(fmt.Sprintf("mode=%s/concurrency=%d", mode, conc), func(b *testing.B) {
				benchInstant(b, mode == "board", conc)
			})
		}
	}
}

func benchInstant(b *testing.B, boardMode bool, conc int) {
	path := instantEngine(b)
	free, _ := rules.ByName("freestyle")
	ctl := clock.Control{Match: time.Minute, Tolerance: time.Second}
	d := &Director{Event: "bench", Rule: free, Size: 15, Concurrency: conc, Instances: true}
	for j := range 2 {
		d.Entrants = append(d.Entrants, Entrant{Spec: engine.Spec{Name: fmt.Sprint("instant", j), Command: path, Args: []string{fmt.Sprint(j + 1)}},
			Clock: ctl, BoardMode: boardMode})
	}
	b.Cleanup(d.Close)
	fixtures := make([]Fixture, b.N)
	for i := range fixtures {
		fixtures[i] = Fixture{Number: i + 1, Black: i % 2, White: 1 - i%2}
	}
	var moves int
	d.Finished = func(rec *record.Record) error {
		if rec.End != record.Five && rec.End != record.FullBoard {
			b.Errorf("game %d: %s %s", rec.Game, rec.End, rec.Detail)
		}
		moves += len(rec.Moves)
		return nil
	}
	// The engines are started before the clock does: a table starts its
	// processes at its first game.
	if err := d.Play(context.Background(), context.Background(), fixtures[:min(conc, len(fixtures))]); err != nil {
		b.Fatal(err)
	}
	moves = 0
	b.ReportAllocs()
	b.ResetTimer()
	user0, sys0 := cpuSelf()
	wall0 := time.Now()
	if err := d.Play(context.Background(), context.Background(), fixtures); err != nil {
		b.Fatal(err)
	}
	wall := time.Since(wall0)
	user, sys := cpuSelf()
	n := float64(moves)
	b.ReportMetric(float64(wall.Nanoseconds())/1e3/n, "µs/move")
	b.ReportMetric(float64(b.N)/wall.Seconds(), "games/s")
	b.ReportMetric(float64((user-user0).Nanoseconds())/1e3/n, "user-µs/move")
	b.ReportMetric(float64((sys-sys0).Nanoseconds())/1e3/n, "sys-µs/move")
}
