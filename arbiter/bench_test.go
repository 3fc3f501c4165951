package arbiter

import (
	"context"
	"syscall"
	"testing"
	"time"

	"gomoku-arena/clock"
	"gomoku-arena/engine"
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
