package arbiter

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"gomoku-arena/engine"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// TestIdleEngineIsFrozen plays a game against an engine that ponders all
// the time, while its opponent thinks 60ms a move: frozen, it ponders only
// while on move; free, also on its opponent's time.
func TestIdleEngineIsFrozen(t *testing.T) {
	// pondered is how long the pondering engine (black) ran, by its own
	// count, and idle how long its opponent thought: the time it could ponder.
	pondered := func(freeze bool) (ms int, idle time.Duration) {
		spec := engine.Spec{Name: "ponder", Command: "builtin:faulty", Args: []string{"ponder"},
			StartTimeout: startTimeout, WriteTimeout: startTimeout, CloseGrace: 200 * time.Millisecond, Limits: engine.Limits{FreezeIdle: freeze}}
		e, err := engine.Start(spec)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { closeAndCheckGone(t, e) })
		opp := start(t, "faulty-slow", "think=60ms")
		rec := mustPlay(t, context.Background(), Game{Rule: freestyle(t), Size: 15}, player(e, fast), player(opp, fast))
		for _, m := range rec.Messages {
			if n, ok := strings.CutPrefix(m, "ponder: MESSAGE pondered "); ok {
				v, _ := strconv.Atoi(strings.TrimSuffix(n, "ms"))
				ms += v
			}
		}
		for _, m := range rec.Moves {
			if m.Color == rules.White {
				idle += m.Think
			}
		}
		if rec.End.Forfeit() {
			t.Fatalf("freeze=%v: %s %s", freeze, rec.End, rec.Detail)
		}
		return ms, idle
	}
	free, idle := pondered(false)
	frozen, _ := pondered(true)
	t.Logf("pondered %dms free, %dms frozen; the opponent thought %v", free, frozen, idle.Round(time.Millisecond))
	// A machine too busy to let the free engine ponder through half of
	// its opponent's thinking cannot show what the freeze takes away.
	if time.Duration(free)*time.Millisecond < idle/2 {
		t.Skipf("the engine pondered %dms of %v even free: machine too busy to tell", free, idle.Round(time.Millisecond))
	}
	if frozen*4 > free {
		t.Errorf("a frozen engine pondered %dms, a free one %dms", frozen, free)
	}
}

// TestMemoryHogForfeits: an engine over its memory limit after a move loses.
func TestMemoryHogForfeits(t *testing.T) {
	e := startHog(t)
	rec := mustPlay(t, context.Background(), Game{Rule: freestyle(t), Size: 15}, player(start(t, "greedy"), fast), player(e, roomy))
	if rec.End != record.MemoryLimit || rec.Winner != rules.Black || !rec.End.Forfeit() {
		t.Fatalf("%s %q, winner %v", rec.End, rec.Detail, rec.Winner)
	}
	replay(t, rec)
}

// TestMemoryHogForfeitsInTheOpening: the limit holds for the answers of an
// opening procedure too, not only for moves.
func TestMemoryHogForfeitsInTheOpening(t *testing.T) {
	e := startHog(t)
	g := Game{Rule: freestyle(t), Size: 15, Procedure: rules.Swap2Procedure}
	rec := mustPlay(t, context.Background(), g, player(e, roomy), player(start(t, "greedy"), fast))
	if rec.End != record.MemoryLimit || rec.WinnerName() != "greedy" || len(rec.Moves) != 3 {
		t.Fatalf("%s %q, winner %q, %d moves; want hog to lose by memory at its Swap2 answer", rec.End, rec.Detail, rec.WinnerName(), len(rec.Moves))
	}
	for _, m := range rec.Moves { // the answer's stones are kept, refused
		if m.Refused != record.RefusedMemory {
			t.Errorf("stone %v refused %q, want %q", m.Point, m.Refused, record.RefusedMemory)
		}
	}
	replay(t, rec)
}

// startHog starts a faulty engine that takes 100 MB at its first answer,
// limited to 50 MiB. It plays under roomy: taking the memory is slow on a
// busy machine, and what is tested is the limit, not the clock.
func startHog(t *testing.T) *engine.Engine {
	spec := engine.Spec{Name: "hog", Command: "builtin:faulty", Args: []string{"hog=100000000"},
		StartTimeout: startTimeout, WriteTimeout: startTimeout, CloseGrace: 200 * time.Millisecond, Limits: engine.Limits{Memory: 50 << 20}}
	e, err := engine.Start(spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeAndCheckGone(t, e) })
	return e
}

func freestyle(t *testing.T) rules.Rule {
	r, err := rules.ByName("freestyle")
	if err != nil {
		t.Fatal(err)
	}
	return r
}
