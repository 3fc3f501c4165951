package schedule

import (
	"os"
	"testing"
	"time"

	"gomoku-arena/arbiter"
	"gomoku-arena/clock"
	"gomoku-arena/engine"
	"gomoku-arena/internal/bundled"
	"gomoku-arena/rules"
)

// The test binary doubles as the bundled engines: builtin:NAME starts it
// again as "engine NAME".
func TestMain(m *testing.M) {
	bundled.ServeIfAsked()
	os.Exit(m.Run())
}

// director is a director of n builtin:faulty entrants named a, b, c... that
// think 5 ms a move, for schedules played through real engine processes.
func director(t *testing.T, n int, instances bool) *arbiter.Director {
	free, _ := rules.ByName("freestyle")
	d := &arbiter.Director{Event: "t", Rule: free, Size: 15, Concurrency: 4, Instances: instances}
	for i := 0; i < n; i++ {
		d.Entrants = append(d.Entrants, arbiter.Entrant{
			Spec:  engine.Spec{Name: string(rune('a' + i)), Command: "builtin:faulty", Args: []string{"think=5ms"}, Dir: t.TempDir()},
			Clock: clock.Control{Match: 30 * time.Second, Tolerance: time.Second},
		})
	}
	t.Cleanup(d.Close)
	return d
}
