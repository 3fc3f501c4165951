package brains

import (
	"math/rand"
	"testing"
	"time"

	"gomoku-arena/rules"
)

// playGame plays one game from the opening stones between two engines
// (black first) under rule, budget per move, and returns the winner.
func playGame(t testing.TB, rule rules.Rule, size int, opening []rules.Point, black, white engine, budget time.Duration) rules.Color {
	t.Helper()
	p, err := rules.Setup(rule, size, opening)
	if err != nil {
		t.Fatalf("opening %v: %v", opening, err)
	}
	ex := exactFives(rule)
	for {
		eng := black
		if p.ToMove() == rules.White {
			eng = white
		}
		m, ok := choose(eng, rule, p, ex, limits{start: time.Now(), budget: budget})
		if !ok {
			return rules.Empty
		}
		v := rule.Play(p, m)
		if v.Illegal {
			t.Fatalf("%v played %v illegally: %s", p.ToMove(), m, v.Reason)
		}
		if v.Over {
			return v.Winner
		}
	}
}

// randomOpening is n stones scattered in the central 5x5, each opening a
// different game for two deterministic engines.
func randomOpening(rng *rand.Rand, size, n int) []rules.Point {
	c := size / 2
	var ms []rules.Point
	for len(ms) < n {
		m := rules.Point{X: c - 2 + rng.Intn(5), Y: c - 2 + rng.Intn(5)}
		if !containsPoint(ms, m) {
			ms = append(ms, m)
		}
	}
	return ms
}

// match plays each opening twice, colours reversed, and returns a's score
// (win 1, draw 1/2) out of the games played.
func match(t testing.TB, rule rules.Rule, a, b func() engine, openings int, budget time.Duration, seed int64) (float64, int) {
	rng := rand.New(rand.NewSource(seed))
	score, games := 0.0, 0
	for i := 0; i < openings; i++ {
		op := randomOpening(rng, 15, 2+2*rng.Intn(2))
		for _, aBlack := range []bool{true, false} {
			var w rules.Color
			if aBlack {
				w = playGame(t, rule, 15, op, a(), b(), budget)
			} else {
				w = playGame(t, rule, 15, op, b(), a(), budget)
			}
			games++
			switch {
			case w == rules.Empty:
				score += 0.5
			case (w == rules.Black) == aBlack:
				score++
			}
		}
	}
	return score, games
}

func TestSearchBeatsGreedy(t *testing.T) {
	if testing.Short() {
		t.Skip("plays many games")
	}
	free := ruleOf(t, "freestyle")
	search := func() engine { return newSearchEngine() }
	greedy := func() engine { return greedyEngine{} }
	score, games := match(t, free, search, greedy, 20, 50*time.Millisecond, 1)
	t.Logf("search vs greedy, freestyle 15x15, 50ms/move: %.1f / %d", score, games)
	// Measured 36-40 of 40 on an idle machine; the bound leaves room for a
	// loaded one, where 50ms buys fewer nodes.
	if score < 0.7*float64(games) {
		t.Errorf("search scored %.1f of %d against greedy, want at least 70%%", score, games)
	}
}
