package event

import (
	"context"
	"slices"
	"testing"

	"gomoku-arena/internal/config"
)

// TestProcessLifetimeKey: the event file's process_lifetime reaches the
// games: with "game" every game starts both engines' processes afresh (its
// GameStarted names both), with the default only an engine's first game
// does.
func TestProcessLifetimeKey(t *testing.T) {
	for _, tc := range []struct {
		lifetime config.Lifetime
		want     []int // processes started for each of the round's three games
	}{
		{config.LifetimeReuse, []int{2, 1, 0}},
		{config.LifetimeGame, []int{2, 2, 2}},
	} {
		cfg := smallEvent(t, "round-robin")
		cfg.ProcessLifetime = tc.lifetime
		ev, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		o := newRecorder()
		if _, err := ev.Run(context.Background(), context.Background(), o); err != nil {
			t.Fatal(err)
		}
		var fresh [][]string
		var n []int
		for _, u := range o.all() {
			if g, ok := u.(GameStarted); ok {
				fresh = append(fresh, g.Fresh)
				n = append(n, len(g.Fresh))
			}
		}
		if !slices.Equal(n, tc.want) {
			t.Errorf("%s: processes started per game %v, want %d of them", tc.lifetime, fresh, tc.want)
		}
	}
}
