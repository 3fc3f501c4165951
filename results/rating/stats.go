package rating

import (
	"math"
)

// Match statistics for two engines: score, logistic Elo with a 95% interval,
// normalized Elo, likelihood of superiority and draw ratio, from plain game
// counts (trinomial) or from game pairs (pentanomial).
//
// The formulas are the standard ones used by engine-match runners; the
// definitions follow
//   - Michel Van den Bergh, "Comments on normalized Elo"
//     (https://www.cantate.be/Fishtest/normalized_elo_practical.pdf): nElo is
//     the score's distance from ½ in units of the per-game standard deviation,
//     scaled by 800/ln 10 so that it matches logistic Elo near 0 when there
//     are no draws;
//   - Fishtest's stat_util.get_elo and fastchess's elo_wdl / elo_pentanomial
//     (reference outputs in stats_test.go): the interval is the Elo of the
//     normal-approximation 95% interval of the mean score.

// Z95 is the two-sided 95% quantile of the standard normal distribution.
const Z95 = 1.959963984540054

// NEloScale is 800/ln 10 ≈ 347.4: the slope of logistic Elo at score ½ is
// 1600/ln 10 per unit of score, and a game without draws at score ½ has a
// standard deviation of ½, so nElo = t·800/ln 10 equals logistic Elo for
// small differences between engines that never draw.
var NEloScale = 800 / math.Ln10

// WDL counts single games from the first engine's point of view.
type WDL struct{ W, D, L int }

// Games is the number of games counted.
func (r WDL) Games() int { return r.W + r.D + r.L }

// Add counts one game by the first engine's score (1, ½ or 0).
func (r *WDL) Add(score float64) {
	switch score {
	case 1:
		r.W++
	case 0:
		r.L++
	default:
		r.D++
	}
}

// Pentanomial counts game pairs (the same opening played twice with colours
// swapped) by the first engine's points in the pair: index 0 is LL (0
// points), 1 is LD (½), 2 is DD or WL (1), 3 is WD (1½) and 4 is WW (2). The
// order of the two games inside a pair does not matter. Index i is therefore
// the pair's score in half points, and i/4 its mean score per game.
type Pentanomial [5]int

// Names of the pentanomial bins.
const (
	PairLL = iota // lost both
	PairLD        // lost one, drew one
	PairDD        // drew both, or won one and lost one
	PairWD        // won one, drew one
	PairWW        // won both
)

// Add counts one pair by the first engine's scores (1, ½ or 0) in its two
// games.
func (p *Pentanomial) Add(first, second float64) {
	p[pairBin(first, second)]++
}

func pairBin(first, second float64) int {
	half := int(math.Round(2*first)) + int(math.Round(2*second))
	return min(max(half, 0), 4)
}

// Pairs is the number of pairs counted.
func (p Pentanomial) Pairs() int {
	n := 0
	for _, c := range p {
		n += c
	}
	return n
}

// MatchStats summarises a match between two engines from the first engine's
// point of view. Intervals are 95% and symmetric in score; in Elo they are
// not symmetric, and they reach ±Inf when the score interval touches 0 or 1
// (a sweep). EloError and NEloError give the half-width in the "±" form that
// cutechess-cli, fastchess and Fishtest print.
type MatchStats struct {
	Games int // games counted (2 per pair for pentanomial counts)
	Pairs int // pairs counted; 0 for trinomial counts

	Score   float64 // mean score per game, in [0, 1]
	ScoreSE float64 // standard error of Score

	Elo, EloLo, EloHi    float64 // logistic Elo difference and its 95% interval
	NElo, NEloLo, NEloHi float64 // normalized Elo and its 95% interval

	// LOS is the likelihood of superiority: the probability, under a normal
	// approximation with a flat prior, that the first engine is the stronger.
	LOS float64
	// DrawRatio is draws per game for trinomial counts; for pentanomial
	// counts it is the share of pairs that ended level (DD or WL), as
	// fastchess reports it.
	DrawRatio float64
}

// EloError is the half-width of the Elo interval: (EloHi-EloLo)/2.
func (m MatchStats) EloError() float64 { return (m.EloHi - m.EloLo) / 2 }

// NEloError is the half-width of the nElo interval.
func (m MatchStats) NEloError() float64 { return (m.NEloHi - m.NEloLo) / 2 }

// EloFromScore is the logistic Elo difference that gives a mean score s:
// -400·log10(1/s - 1). It is ±Inf at s = 1 and s = 0.
func EloFromScore(s float64) float64 {
	switch {
	case s >= 1:
		return math.Inf(1)
	case s <= 0:
		return math.Inf(-1)
	}
	return -400 * math.Log10(1/s-1)
}

// ScoreFromElo is the expected score of a player rated elo above its
// opponent in the logistic model: 1/(1+10^(-elo/400)).
func ScoreFromElo(elo float64) float64 {
	return 1 / (1 + math.Pow(10, -elo/400))
}

// LOSFromScore is Φ((score-½)/se): the normal-approximation probability that
// the true score exceeds ½. With se = 0 it is 1, ½ or 0.
func LOSFromScore(score, se float64) float64 { return probPositive(score-0.5, se) }

// probPositive is Φ(d/se), the probability that a normal variable with mean d
// and standard deviation se is positive; with se = 0 it is 1, ½ or 0.
func probPositive(d, se float64) float64 {
	if se == 0 {
		switch {
		case d > 0:
			return 1
		case d < 0:
			return 0
		}
		return 0.5
	}
	return 0.5 * math.Erfc(-d/(se*math.Sqrt2))
}

// Stats summarises trinomial counts.
func (r WDL) Stats() MatchStats {
	n := r.Games()
	m := MatchStats{Games: n}
	if n == 0 {
		return emptyStats(m)
	}
	p := []float64{float64(r.L) / float64(n), float64(r.D) / float64(n), float64(r.W) / float64(n)}
	mu, variance := moments([]float64{0, 0.5, 1}, p)
	m.DrawRatio = p[1]
	// A game's standard deviation is sqrt(variance); nElo uses it directly.
	fill(&m, mu, variance, float64(n), math.Sqrt(variance))
	return m
}

// Stats summarises pentanomial counts. The score's standard error comes from
// the spread of pair scores, which is what makes the pentanomial interval
// narrower than the trinomial one when openings are unbalanced: the two games
// of a pair are correlated and the pair, not the game, is the independent
// sample.
func (p Pentanomial) Stats() MatchStats {
	n := p.Pairs()
	m := MatchStats{Games: 2 * n, Pairs: n}
	if n == 0 {
		return emptyStats(m)
	}
	f := make([]float64, 5)
	for i, c := range p {
		f[i] = float64(c) / float64(n)
	}
	mu, variance := moments(pentaScores[:], f)
	m.DrawRatio = f[PairDD]
	// The per-game standard deviation of independent games would be √2
	// times that of a pair's mean score; Van den Bergh defines pentanomial
	// nElo with that per-game deviation.
	fill(&m, mu, variance, float64(n), math.Sqrt(2*variance))
	return m
}

// pentaScores are the pairs' mean scores per game, by bin.
var pentaScores = [5]float64{0, 0.25, 0.5, 0.75, 1}

// fill completes m from the mean score mu of n independent samples with
// variance v, and the per-game standard deviation sigma used by nElo.
func fill(m *MatchStats, mu, v, n, sigma float64) {
	m.Score = mu
	m.ScoreSE = math.Sqrt(v / n)
	lo, hi := mu-Z95*m.ScoreSE, mu+Z95*m.ScoreSE
	m.Elo, m.EloLo, m.EloHi = EloFromScore(mu), EloFromScore(lo), EloFromScore(hi)
	m.LOS = LOSFromScore(mu, m.ScoreSE)
	if sigma == 0 {
		// Every game (or pair) had the same result: no spread to measure.
		inf := math.Inf(1)
		switch {
		case mu > 0.5:
			m.NElo, m.NEloLo, m.NEloHi = inf, inf, inf
		case mu < 0.5:
			m.NElo, m.NEloLo, m.NEloHi = -inf, -inf, -inf
		}
		return
	}
	nelo := func(s float64) float64 { return (s - 0.5) / sigma * NEloScale }
	m.NElo, m.NEloLo, m.NEloHi = nelo(mu), nelo(lo), nelo(hi)
}

func emptyStats(m MatchStats) MatchStats {
	m.Score, m.LOS = 0.5, 0.5
	inf := math.Inf(1)
	m.EloLo, m.EloHi, m.NEloLo, m.NEloHi = -inf, inf, -inf, inf
	return m
}

// moments returns the mean and variance of the distribution putting
// probability p[i] on value a[i].
func moments(a, p []float64) (mu, variance float64) {
	for i := range a {
		mu += p[i] * a[i]
	}
	for i := range a {
		d := a[i] - mu
		variance += p[i] * d * d
	}
	return mu, variance
}
