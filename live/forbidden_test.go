package live_test

import (
	"context"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"gomoku-arena/arbiter"
	"gomoku-arena/clock"
	"gomoku-arena/engine"
	"gomoku-arena/event"
	"gomoku-arena/live"
	"gomoku-arena/rules"
	"gomoku-arena/schedule"
)

// moves records the forbidden points every move update of an event carries.
type moves struct {
	mu        sync.Mutex
	forbidden [][]rules.Point // per update, when Black is to move
	updates   int
}

func (m *moves) Observe(u event.Update) {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch u := u.(type) {
	case event.OpeningPlaced:
		m.updates++
		if len(u.Stones)%2 == 0 {
			m.forbidden = append(m.forbidden, u.Forbidden)
		}
	case event.MovePlayed:
		m.updates++
		if u.Stones%2 == 0 {
			m.forbidden = append(m.forbidden, u.Forbidden)
		}
	}
}

// A renju match from an opening that leaves Black a double three: with a
// live page among its observers, the event's move updates carry the
// arbiter's forbidden points (9,7 after the opening); without one they carry
// none, and the arbiter does not look for them.
func TestRenjuMovesCarryForbiddenPointsForAPage(t *testing.T) {
	renju, _ := rules.ByName("renju")
	opening := rules.Opening{Stones: []rules.Point{{X: 7, Y: 7}, {X: 0, Y: 0}, {X: 8, Y: 7}, {X: 0, Y: 14},
		{X: 9, Y: 8}, {X: 14, Y: 0}, {X: 9, Y: 9}, {X: 14, Y: 14}}}
	for _, page := range []bool{true, false} {
		m := event.NewMatch("forbidden", renju, 15)
		ctl := clock.Control{Match: time.Minute, Tolerance: time.Second}
		m.Out, m.Plan.Games, m.Plan.Suite = filepath.Join(t.TempDir(), "m"), 2, schedule.Suite{Openings: []rules.Opening{opening}}
		m.Plan.Director.Entrants = []arbiter.Entrant{{Spec: engine.Spec{Name: "r1", Command: "builtin:random", Args: []string{"seed=1"}}, Clock: ctl},
			{Spec: engine.Spec{Name: "r2", Command: "builtin:random", Args: []string{"seed=2"}}, Clock: ctl}}
		rec := &moves{}
		obs := event.Observers{rec}
		if page {
			h := live.NewHub()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go h.Run(ctx)
			obs = append(obs, h)
		}
		if err := m.Run(context.Background(), context.Background(), obs); err != nil {
			t.Fatal(err)
		}
		if rec.updates == 0 || len(rec.forbidden) == 0 {
			t.Fatalf("page %v: %d move updates, %d with Black to move", page, rec.updates, len(rec.forbidden))
		}
		first := rec.forbidden[0]
		has := slices.Contains(first, rules.Point{X: 9, Y: 7})
		if page != has {
			t.Errorf("page %v: after the opening, forbidden points %v", page, first)
		}
		if !page {
			for _, f := range rec.forbidden {
				if f != nil {
					t.Fatalf("no page, yet forbidden points %v", f)
				}
			}
		}
	}
}
