package rating

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Simulated matches: the rates at which the SPRT accepts the wrong hypothesis
// when the truth is exactly elo0 (should be about Alpha) or exactly elo1
// (about Beta). Wald's bounds are approximations: overshoot at the stopping
// time pushes the real rates a little below the nominal ones, and the
// plug-in MLEs of the GSPRT push them up early in a match, so the test
// accepts rates between a third of nominal and nominal plus four standard
// errors of the simulation.

// simGames gives per-game win and draw probabilities for independent games
// with mean score s and draw ratio draw.
func simGames(s, draw float64) (win, loss float64) {
	return s - draw/2, 1 - s - draw/2
}

// simPairs is the pentanomial distribution of a pair of independent games.
func simPairs(s, draw float64) [5]float64 {
	w, l := simGames(s, draw)
	g := [3]float64{l, draw, w}
	var p [5]float64
	for i := range 3 {
		for j := range 3 {
			p[i+j] += g[i] * g[j]
		}
	}
	return p
}

// simScoreForNElo finds, by bisection, the per-game mean score whose pair
// distribution has normalized Elo nelo; the result is checked by moments.
func simScoreForNElo(t *testing.T, nelo, draw float64) float64 {
	target := math.Sqrt2 * nelo / NEloScale
	tval := func(s float64) float64 {
		p := simPairs(s, draw)
		mu, v := moments(pentaScores[:], p[:])
		return (mu - 0.5) / math.Sqrt(v)
	}
	lo, hi := draw/2+1e-9, 1-draw/2-1e-9
	for range 200 {
		mid := (lo + hi) / 2
		if tval(mid) < target {
			lo = mid
		} else {
			hi = mid
		}
	}
	if got := tval(lo); math.Abs(got-target) > 1e-9 {
		t.Fatalf("no distribution with nElo %v: t = %v", nelo, got)
	}
	return lo
}

func sample(rng *rand.Rand, p []float64) int {
	u := rng.Float64()
	for i, x := range p {
		if u < x {
			return i
		}
		u -= x
	}
	return len(p) - 1
}

// simMatch plays one match until the SPRT decides, or gives up after
// maxSamples pairs (or games) and reports Continue.
func simMatch(rng *rand.Rand, s SPRT, dist []float64, maxSamples int) (Decision, int) {
	var games WDL
	var pairs Pentanomial
	for n := 1; n <= maxSamples; n++ {
		switch i := sample(rng, dist); {
		case s.Pentanomial():
			pairs[i]++
		case i == 2:
			games.W++
		case i == 1:
			games.D++
		default:
			games.L++
		}
		if d := s.Decide(games, pairs); d != Continue {
			return d, n
		}
	}
	return Continue, maxSamples
}

func TestSPRTSimulatedErrorRates(t *testing.T) {
	matches := 600
	if !testing.Short() {
		matches = 10000
	}
	const draw = 0.3
	tests := []struct {
		name string
		sprt SPRT
		// dist gives the true outcome distribution at a true Elo.
		dist func(elo float64) []float64
	}{
		{"normalized", SPRT{Elo0: 0, Elo1: 40, Alpha: 0.05, Beta: 0.1},
			func(elo float64) []float64 { p := simPairs(simScoreForNElo(t, elo, draw), draw); return p[:] }},
		{"logistic", SPRT{Elo0: 0, Elo1: 40, Alpha: 0.05, Beta: 0.1, Model: ModelLogistic},
			func(elo float64) []float64 { p := simPairs(ScoreFromElo(elo), draw); return p[:] }},
		{"trinomial", SPRT{Elo0: -10, Elo1: 30, Alpha: 0.05, Beta: 0.1, Model: ModelTrinomial},
			func(elo float64) []float64 {
				w, l := simGames(ScoreFromElo(elo), draw)
				return []float64{l, draw, w}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(6, uint64(len(tc.name))))
			for _, h := range []struct {
				elo     float64
				wrong   Decision
				nominal float64
			}{{tc.sprt.Elo0, H1, tc.sprt.Alpha}, {tc.sprt.Elo1, H0, tc.sprt.Beta}} {
				dist := tc.dist(h.elo)
				wrong, undecided, samples := 0, 0, 0
				for range matches {
					d, n := simMatch(rng, tc.sprt, dist, 100_000)
					samples += n
					switch d {
					case h.wrong:
						wrong++
					case Continue:
						undecided++
					}
				}
				rate := float64(wrong) / float64(matches)
				se := math.Sqrt(h.nominal * (1 - h.nominal) / float64(matches))
				t.Logf("true elo %v: wrong %d/%d = %.4f (nominal %.2f ± %.4f), mean length %.0f",
					h.elo, wrong, matches, rate, h.nominal, se, float64(samples)/float64(matches))
				if undecided > 0 {
					t.Errorf("%d matches undecided", undecided)
				}
				if rate > h.nominal+4*se || rate < h.nominal/3 {
					t.Errorf("error rate %.4f too far from %.2f", rate, h.nominal)
				}
			}
		})
	}
}
