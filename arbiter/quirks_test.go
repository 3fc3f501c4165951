package arbiter

import (
	"context"
	"strings"
	"testing"
	"time"

	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// A game is never lost because RESTART was not answered OK, in turn and
// board mode, whatever came before: here the opponent crashes at its first
// move, so every second game follows one in which the engine never moved
// (its INFO lines unanswered, which once made a bare UNKNOWN look like an
// answer to them, and the wait for OK a forfeit).
func TestRestartNotOKNeverCostsAGame(t *testing.T) {
	t.Parallel()
	free := freestyle(t)
	for _, reply := range []string{"unknown", "error", "silent", "exit"} {
		for _, board := range []bool{false, true} {
			name := reply + map[bool]string{false: "/turn", true: "/board"}[board]
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				quirky := start(t, "faulty", "restart="+reply)
				crasher := start(t, "faulty", "crash-at=1")
				q, c := player(quirky, fast), player(crasher, fast)
				q.BoardMode, c.BoardMode = board, board
				// The start timeout also bounds the wait for RESTART's
				// answer: the silent engine costs it every game, the others
				// get one no busy machine makes a process miss.
				g := Game{Rule: free, Size: 15, StartTimeout: startTimeout}
				if reply == "silent" {
					g.StartTimeout = 5 * time.Second
				}
				for i := range 4 {
					black, white, qColor := q, c, rules.Black
					if i%2 == 1 {
						black, white, qColor = c, q, rules.White
					}
					rec := mustPlay(t, context.Background(), g, black, white)
					if rec.Winner != qColor || rec.End != record.Crash {
						t.Fatalf("game %d: %v won by %s (%s); want the engine answering RESTART %s to win by its opponent's crash",
							i+1, rec.Winner, rec.End, rec.Detail, reply)
					}
					for _, m := range rec.Messages {
						if strings.Contains(m, "refus") {
							t.Errorf("game %d: %s", i+1, m)
						}
					}
				}
			})
		}
	}
}
