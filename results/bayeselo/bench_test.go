package bayeselo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// league draws games between players of random strength from BayesElo's
// own model with its default parameters: each game between two players
// chosen at random, or, with opponents > 0, among a fixed few opponents
// each.
func league(seed uint64, players, games, opponents int, spread float64) ([]string, []Game) {
	rnd := rand.New(rand.NewPCG(seed, 7))
	elo := make([]float64, players)
	names := make([]string, players)
	for i := range elo {
		elo[i] = rnd.NormFloat64() * spread
		names[i] = fmt.Sprintf("engine-%05d", i)
	}
	var opp [][]int
	if opponents > 0 {
		opp = make([][]int, players)
		for i := range opp {
			for len(opp[i]) < opponents {
				if j := rnd.IntN(players); j != i {
					opp[i] = append(opp[i], j)
				}
			}
		}
	}
	f := func(x float64) float64 { return 1 / (1 + math.Pow(10, -x/400)) }
	out := make([]Game, 0, games)
	for len(out) < games {
		a := rnd.IntN(players)
		var b int
		if opp != nil {
			b = opp[a][rnd.IntN(opponents)]
			if rnd.IntN(2) == 0 {
				a, b = b, a
			}
		} else if b = rnd.IntN(players); a == b {
			continue
		}
		d := elo[a] - elo[b]
		w, l := f(d+Advantage-DrawElo), f(-d-Advantage-DrawElo)
		r := Draw
		switch u := rnd.Float64(); {
		case u < w:
			r = FirstWins
		case u < w+l:
			r = SecondWins
		}
		out = append(out, Game{First: a, Second: b, Result: r})
	}
	return firstAppearance(names, out)
}

// firstAppearance renumbers the players in order of first appearance, as
// BayesElo numbers them when it reads a PGN file.
func firstAppearance(names []string, games []Game) ([]string, []Game) {
	index := make([]int, len(names))
	for i := range index {
		index[i] = -1
	}
	var order []string
	at := func(p int) int {
		if index[p] < 0 {
			index[p] = len(order)
			order = append(order, names[p])
		}
		return index[p]
	}
	for k, g := range games {
		games[k].First = at(g.First)
		games[k].Second = at(g.Second)
	}
	return order, games
}

// BenchmarkRate is `arena rate`'s computation (elo, mm, exactdist) on
// leagues up to thousands of engines and a million games.
func BenchmarkRate(b *testing.B) {
	for _, c := range []struct {
		players, games, opponents int
	}{
		{40, 24 * 40 * 39 / 2, 0}, // a Gomocup league: 24 games a pair
		{500, 100_000, 0},
		{2000, 1_000_000, 0},
		{5000, 1_000_000, 40},
	} {
		names, games := league(1, c.players, c.games, c.opponents, 200)
		b.Run(fmt.Sprintf("players=%d/games=%d/opponents=%d", c.players, c.games, c.opponents), func(b *testing.B) {
			for b.Loop() {
				if _, err := Rate(names, games, DefaultOptions()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
