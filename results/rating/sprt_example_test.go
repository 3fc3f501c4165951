package rating_test

import (
	"fmt"

	"gomoku-arena/results/rating"
)

// A match stops at the first decision. After 90 pairs the new engine is
// ahead (4 WW, 16 WD, 60 level, 8 LD, 2 LL) but the test has not decided.
func ExampleSPRT_Decide() {
	test := rating.SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	if err := test.Validate(); err != nil {
		panic(err)
	}
	var games rating.WDL
	pairs := rating.Pentanomial{rating.PairLL: 2, rating.PairLD: 8, rating.PairDD: 60, rating.PairWD: 16, rating.PairWW: 4}
	lower, upper := test.Bounds()
	fmt.Printf("LLR %.2f in (%.2f, %.2f): %v\n", test.LLR(games, pairs), lower, upper, test.Decide(games, pairs))
	m := pairs.Stats()
	fmt.Printf("Elo %.1f ± %.1f, nElo %.1f ± %.1f, LOS %.1f%%\n", m.Elo, m.EloError(), m.NElo, m.NEloError(), 100*m.LOS)
	// Output:
	// LLR 0.59 in (-2.94, 2.94): continue
	// Elo 23.2 ± 25.9, nElo 45.6 ± 50.8, LOS 96.1%
}
