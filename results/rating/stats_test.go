package rating

import (
	"math"
	"testing"
)

// Reference outputs of fastchess's elo_test.cpp (Disservin/fastchess,
// app/tests/elo_test.cpp), printed there to two decimals. Its Stats
// constructors take (wins, losses, draws) and (LL, LD, WL, DD, WD, WW); WL and
// DD share our middle bin.
func TestStatsReferenceFastchess(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name          string
		stats         MatchStats
		nelo, neloErr float64
		elo, eloErr   float64
		losPercent    float64
	}{
		{name: "wdl 76-123-89", stats: WDL{W: 76, D: 123, L: 89}.Stats(),
			nelo: -20.76, neloErr: 40.13, elo: nan, eloErr: nan, losPercent: 15.53},
		{name: "wdl 136-111-96", stats: WDL{W: 136, D: 111, L: 96}.Stats(),
			nelo: 49.77, neloErr: 36.77, elo: 40.70, eloErr: 30.43, losPercent: 99.60},
		{name: "wdl 34-0-356", stats: WDL{W: 34, D: 0, L: 356}.Stats(),
			nelo: -508.44, neloErr: 34.48, elo: nan, eloErr: nan, losPercent: nan},
		{name: "penta 1", stats: Pentanomial{34, 54, 31 + 32, 64, 75}.Stats(),
			nelo: 57.94, neloErr: 28.28, elo: 55.58, eloErr: 27.65, losPercent: 100.00},
		{name: "penta 2", stats: Pentanomial{332, 433, 457 + 41, 333, 334}.Stats(),
			nelo: -9.17, neloErr: 10.96, elo: -8.64, eloErr: 10.33, losPercent: 5.05},
		{name: "penta 3", stats: Pentanomial{7895, 8757, 5485 + 200, 568, 9999}.Stats(),
			nelo: -19.01, neloErr: 2.65, elo: -21.04, eloErr: 2.95, losPercent: nan},
	}
	const tol = 0.0051 // the references are rounded to two decimals
	near := func(t *testing.T, what string, got, want float64) {
		t.Helper()
		if !math.IsNaN(want) && math.Abs(got-want) > tol {
			t.Errorf("%s = %.4f, want %.2f", what, got, want)
		}
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := tc.stats
			near(t, "nElo", m.NElo, tc.nelo)
			near(t, "nElo error", m.NEloError(), tc.neloErr)
			near(t, "Elo", m.Elo, tc.elo)
			near(t, "Elo error", m.EloError(), tc.eloErr)
			near(t, "LOS %", 100*m.LOS, tc.losPercent)
		})
	}
}

// Hand-computed cases: the formulas on numbers small enough to check on paper.
func TestStatsByHand(t *testing.T) {
	t.Run("even match", func(t *testing.T) {
		m := WDL{W: 10, D: 20, L: 10}.Stats()
		if m.Score != 0.5 || m.Elo != 0 || m.LOS != 0.5 || m.DrawRatio != 0.5 || m.NElo != 0 {
			t.Errorf("got %+v", m)
		}
		// Variance per game: ¼·(½)² + ¼·(½)² = 1/8; SE = sqrt(1/8/40) = 1/√320.
		if se := 1 / math.Sqrt(320); math.Abs(m.ScoreSE-se) > 1e-15 {
			t.Errorf("ScoreSE = %v, want %v", m.ScoreSE, se)
		}
		if math.Abs(m.EloLo+m.EloHi) > 1e-9 {
			t.Errorf("interval not symmetric at score ½: %v %v", m.EloLo, m.EloHi)
		}
	})
	t.Run("three quarters", func(t *testing.T) {
		// Score ¾ is 400·log10(3) ≈ 190.85 Elo.
		m := WDL{W: 3, L: 1}.Stats()
		if want := 400 * math.Log10(3); math.Abs(m.Elo-want) > 1e-12 {
			t.Errorf("Elo = %v, want %v", m.Elo, want)
		}
	})
	t.Run("sweep", func(t *testing.T) {
		m := WDL{W: 100}.Stats()
		if !math.IsInf(m.Elo, 1) || m.LOS != 1 || !math.IsInf(m.NElo, 1) {
			t.Errorf("got %+v", m)
		}
	})
	t.Run("empty", func(t *testing.T) {
		m := Pentanomial{}.Stats()
		if m.Score != 0.5 || m.LOS != 0.5 || !math.IsInf(m.EloHi, 1) {
			t.Errorf("got %+v", m)
		}
	})
	t.Run("pairs", func(t *testing.T) {
		// One WW and one LL pair: mean ½, pair-score variance ¼, per-game
		// sigma √(2·¼) = 1/√2.
		m := Pentanomial{PairLL: 1, PairWW: 1}.Stats()
		if m.Games != 4 || m.Pairs != 2 || m.Score != 0.5 || m.ScoreSE != math.Sqrt(0.25/2) {
			t.Errorf("got %+v", m)
		}
	})
}

func TestEloScoreRoundTrip(t *testing.T) {
	for _, elo := range []float64{-800, -191, -1, 0, 0.5, 35, 400, 1200} {
		if got := EloFromScore(ScoreFromElo(elo)); math.Abs(got-elo) > 1e-9 {
			t.Errorf("EloFromScore(ScoreFromElo(%v)) = %v", elo, got)
		}
	}
	if ScoreFromElo(400) != 10.0/11 {
		t.Errorf("ScoreFromElo(400) = %v, want 10/11", ScoreFromElo(400))
	}
}

func TestPentanomialAdd(t *testing.T) {
	var p Pentanomial
	p.Add(1, 0)
	p.Add(0.5, 0.5)
	p.Add(0, 0.5)
	p.Add(1, 1)
	p.Add(0.5, 1)
	want := Pentanomial{PairLL: 0, PairLD: 1, PairDD: 2, PairWD: 1, PairWW: 1}
	if p != want {
		t.Errorf("got %v, want %v", p, want)
	}
	var r WDL
	for _, s := range []float64{1, 0.5, 0, 1} {
		r.Add(s)
	}
	if r != (WDL{W: 2, D: 1, L: 1}) {
		t.Errorf("got %+v", r)
	}
}
