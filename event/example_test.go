package event_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"gomoku-arena/event"
	"gomoku-arena/internal/config"
)

// printer is a front end: it prints every finished game and the leader
// after it.
type printer struct{}

func (printer) Observe(u event.Update) {
	switch u := u.(type) {
	case event.GameFinished:
		r := u.Record
		fmt.Printf("game %d: %s vs %s, %s wins by %s\n", r.Game, r.Black, r.White, r.Winner, r.End)
	case event.StandingsUpdated:
		top := u.Report.Standings[0]
		fmt.Printf("  leader: %s with %g\n", u.Report.Names[top.Entrant], top.Points)
	}
}

// An event from a config, run to its end in its own folder, followed by a
// front end.
func ExampleEvent_Run() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "duel.toml")
	cfg, err := config.Parse(path, []byte(`
name = "duel"
rule = "freestyle"
format = "double-round-robin"
[[engine]]
name = "greedy"
command = "builtin:greedy"
[[engine]]
name = "random"
command = "builtin:random"
args = ["seed=1"]
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	cfg.Output = filepath.Join(dir, "out")
	ev, err := event.New(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	if _, err := ev.Run(ctx, ctx, printer{}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// game 1: greedy vs random, black wins by five
	//   leader: greedy with 1
	// game 2: random vs greedy, white wins by five
	//   leader: greedy with 2
}
