package rating

import (
	"errors"
	"math"
	"testing"
)

// games builds a game list: wins, draws and losses of a against b.
func games(a, b, w, d, l int) []RatedGame {
	var g []RatedGame
	for range w {
		g = append(g, RatedGame{a, b, 1})
	}
	for range d {
		g = append(g, RatedGame{b, a, 0.5})
	}
	for range l {
		g = append(g, RatedGame{b, a, 1})
	}
	return g
}

func TestRatingTwoPlayers(t *testing.T) {
	// 30 wins, 20 draws, 10 losses: score 2/3, Elo difference
	// 400·log10(2) ≈ 120.41, split evenly around the mean.
	list, err := RateBradleyTerry([]string{"a", "b"}, games(0, 1, 30, 20, 10), RatingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a, b := list.Ratings[0], list.Ratings[1]
	diff := 400 * math.Log10(2)
	if math.Abs(a.Elo-b.Elo-diff) > 1e-9 || math.Abs(a.Elo+b.Elo) > 1e-9 {
		t.Errorf("ratings %v %v, want ±%v", a.Elo, b.Elo, diff/2)
	}
	if math.Abs(EloFromScore(WDL{W: 30, D: 20, L: 10}.Stats().Score)-diff) > 1e-9 {
		t.Error("two-player formula disagrees")
	}
	// Fisher information of the difference: n·s·(1-s)·k², k = ln10/400.
	k := math.Ln10 / 400
	seDiff := 1 / (k * math.Sqrt(60*(2.0/3)*(1.0/3)))
	if math.Abs(a.SE-seDiff/2) > 1e-9 || math.Abs(b.SE-seDiff/2) > 1e-9 {
		t.Errorf("SE %v %v, want %v each", a.SE, b.SE, seDiff/2)
	}
	if want := probPositive(diff, seDiff); math.Abs(list.LOS[0][1]-want) > 1e-12 || math.Abs(list.LOS[1][0]-(1-want)) > 1e-12 {
		t.Errorf("LOS %v, want %v", list.LOS, want)
	}
	if !math.IsNaN(list.LOS[0][0]) {
		t.Error("LOS diagonal should be NaN")
	}
	if a.Games != 60 || a.Points != 40 || b.Points != 20 {
		t.Errorf("games/points %+v %+v", a, b)
	}
	if math.Abs(a.Hi-a.Elo-Z95*a.SE) > 1e-12 {
		t.Error("interval")
	}
}

func TestRatingCycleIsEqual(t *testing.T) {
	// a beats b, b beats c, c beats a, twice each: every player has 2 of 4.
	var g []RatedGame
	for range 2 {
		g = append(g, RatedGame{0, 1, 1}, RatedGame{2, 1, 0}, RatedGame{2, 0, 1})
	}
	list, err := RateBradleyTerry([]string{"a", "b", "c"}, g, RatingOptions{AnchorElo: 1500})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range list.Ratings {
		if math.Abs(r.Elo-1500) > 1e-9 {
			t.Errorf("%s: %v, want 1500", r.Name, r.Elo)
		}
	}
	if math.Abs(list.LOS[0][1]-0.5) > 1e-12 {
		t.Errorf("LOS %v", list.LOS[0][1])
	}
}

func TestRatingAnchorAndScoreEquations(t *testing.T) {
	names := []string{"a", "b", "c", "d"}
	var g []RatedGame
	g = append(g, games(0, 1, 7, 5, 3)...)
	g = append(g, games(1, 2, 6, 2, 4)...)
	g = append(g, games(2, 3, 9, 1, 2)...)
	g = append(g, games(0, 3, 4, 4, 1)...)
	g = append(g, games(3, 1, 1, 1, 3)...)
	mean, err := RateBradleyTerry(names, g, RatingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	anchored, err := RateBradleyTerry(names, g, RatingOptions{Anchor: "c", AnchorElo: 2000})
	if err != nil {
		t.Fatal(err)
	}
	// The maximum-likelihood equations: every player's expected points
	// equal its actual points.
	expected := make([]float64, len(names))
	for _, x := range g {
		e := ScoreFromElo(mean.Ratings[x.First].Elo - mean.Ratings[x.Second].Elo)
		expected[x.First] += e
		expected[x.Second] += 1 - e
	}
	sum := 0.0
	for i, r := range mean.Ratings {
		if math.Abs(expected[i]-r.Points) > 1e-8 {
			t.Errorf("%s: expected points %v, actual %v", r.Name, expected[i], r.Points)
		}
		sum += r.Elo
	}
	if math.Abs(sum) > 1e-9 {
		t.Errorf("mean %v, want 0", sum/4)
	}
	if anchored.Ratings[2].Elo != 2000 || anchored.Ratings[2].SE != 0 {
		t.Errorf("anchor: %+v", anchored.Ratings[2])
	}
	for i := range names {
		d1 := mean.Ratings[i].Elo - mean.Ratings[2].Elo
		d2 := anchored.Ratings[i].Elo - 2000
		if math.Abs(d1-d2) > 1e-8 {
			t.Errorf("%s: differences change with the anchor: %v vs %v", names[i], d1, d2)
		}
		for j := range names {
			if i != j && math.Abs(mean.LOS[i][j]-anchored.LOS[i][j]) > 1e-9 {
				t.Errorf("LOS[%d][%d] changes with the anchor", i, j)
			}
			if i != j && math.Abs(mean.LOS[i][j]+mean.LOS[j][i]-1) > 1e-12 {
				t.Errorf("LOS[%d][%d] + LOS[%d][%d] != 1", i, j, j, i)
			}
		}
	}
	// An anchor interval relative to itself is a point; others grow.
	if anchored.Ratings[0].SE <= mean.Ratings[0].SE {
		t.Errorf("SE relative to one player (%v) should exceed SE relative to the mean (%v)",
			anchored.Ratings[0].SE, mean.Ratings[0].SE)
	}
}

func TestRatingInfinite(t *testing.T) {
	names := []string{"strong", "weak", "mid"}
	g := append(games(0, 1, 10, 0, 0), games(2, 1, 3, 2, 3)...)
	g = append(g, games(0, 2, 5, 0, 0)...)
	_, err := RateBradleyTerry(names, g, RatingOptions{})
	if !errors.Is(err, ErrInfiniteRatings) {
		t.Fatalf("sweep: err = %v", err)
	}
	list, err := RateBradleyTerry(names, g, RatingOptions{Prior: 2})
	if err != nil {
		t.Fatal(err)
	}
	r := list.Ratings
	if !(r[0].Elo > r[2].Elo && r[2].Elo > r[1].Elo) || math.IsInf(r[0].Elo, 0) {
		t.Errorf("with a prior: %+v", r)
	}
	if r[0].Points != 15 || r[0].Games != 15 {
		t.Errorf("virtual draws leaked into the counts: %+v", r[0])
	}
	// Two groups that never met.
	_, err = RateBradleyTerry([]string{"a", "b", "c", "d"}, append(games(0, 1, 1, 1, 1), games(2, 3, 1, 1, 1)...), RatingOptions{Prior: 1})
	if !errors.Is(err, ErrInfiniteRatings) {
		t.Errorf("disconnected: err = %v", err)
	}
}

func TestRatingErrors(t *testing.T) {
	for name, tc := range map[string]struct {
		g   []RatedGame
		opt RatingOptions
	}{
		"index":  {[]RatedGame{{0, 2, 1}}, RatingOptions{}},
		"self":   {[]RatedGame{{1, 1, 1}}, RatingOptions{}},
		"score":  {[]RatedGame{{0, 1, 2}}, RatingOptions{}},
		"anchor": {games(0, 1, 1, 1, 1), RatingOptions{Anchor: "z"}},
		"prior":  {games(0, 1, 1, 1, 1), RatingOptions{Prior: -1}},
	} {
		if _, err := RateBradleyTerry([]string{"a", "b"}, tc.g, tc.opt); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if list, err := RateBradleyTerry([]string{"solo"}, nil, RatingOptions{AnchorElo: 100}); err != nil || list.Ratings[0].Elo != 100 {
		t.Errorf("one player: %v %v", list, err)
	}
	if list, err := RateBradleyTerry(nil, nil, RatingOptions{}); err != nil || len(list.Ratings) != 0 {
		t.Errorf("no players: %v %v", list, err)
	}
}
