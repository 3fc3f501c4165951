package rating

import (
	"fmt"
	"math"
)

// The sequential probability ratio test that stops an author's match as soon
// as the games so far decide between H0: "the difference is Elo0" and H1:
// "the difference is Elo1".
//
// The statistic is the generalized log-likelihood ratio (GSPRT) of Michel Van
// den Bergh, as used by Fishtest and fastchess: the results are modelled by a
// multinomial distribution over the possible outcomes (3 for a game, 5 for a
// pair), with no assumption about draw rates; for each hypothesis we take the
// multinomial of maximum likelihood among those satisfying it, and the LLR is
// the log of the ratio of the two maxima:
//
//	LLR = N · Σ p̂ᵢ · ln(p1ᵢ / p0ᵢ)
//
// where p̂ is the observed frequency of outcome i over N samples and p0, p1
// are the two constrained maximum-likelihood distributions. The constrained
// MLEs are derived in
//   - M. Van den Bergh, "Comments on normalized Elo",
//     https://www.cantate.be/Fishtest/normalized_elo_practical.pdf
//     (section 4.1 for a constraint on the t-value (μ-½)/σ);
//   - M. Van den Bergh, "Multinomial MLE with a given expectation",
//     https://www.cantate.be/Fishtest/support_MLE_multinomial.pdf
//     (proposition 1.1 for a constraint on the expectation μ).
//
// Derivation, written out because the code below is only its last line.
// Maximise Σ p̂ᵢ ln pᵢ subject to Σ pᵢ = 1 and a constraint g(p) = 0.
// Lagrange: p̂ᵢ/pᵢ = λ + θ·∂g/∂pᵢ.
//   - Expectation constraint g = Σ pᵢaᵢ - s: ∂g/∂pᵢ = aᵢ - s =: φᵢ.
//   - t-value constraint g = μ - ref - t·σ: ∂μ/∂pᵢ = aᵢ and
//     ∂σ/∂pᵢ = ((aᵢ-μ)² - σ²)/(2σ) + (a constant absorbed into λ), so
//     φᵢ = aᵢ - ref - t·σ·(1 + ((aᵢ-μ)/σ)²)/2, with μ, σ those of p itself.
//
// Both φ are chosen so that Σ pᵢφᵢ = g(p) = 0 at the solution; multiplying
// the Lagrange condition by pᵢ and summing gives λ = 1, so
//
//	pᵢ = p̂ᵢ / (1 + θ·φᵢ)   with θ the root of   Σ p̂ᵢ·φᵢ/(1 + θ·φᵢ) = 0,
//
// a root that is unique on the interval where every 1+θφᵢ > 0, because the
// left side decreases in θ. For the t-value φ depends on p, so the two steps
// are iterated from the uniform distribution to a fixed point.
//
// The hypotheses in each model:
//   - normalized (default): pairs, scores 0, ¼, ½, ¾, 1, constraint on the
//     pair t-value t = √2·nElo/(800/ln 10) (a pair's mean score has half the
//     variance of a game when games are independent; see stats.go);
//   - logistic: pairs, constraint on the expectation s = ScoreFromElo(elo);
//   - trinomial: single games, scores 0, ½, 1, expectation s =
//     ScoreFromElo(elo) — the model of cutechess-cli and c-gomoku-cli.
//
// Zero counts. A bin nobody has reached yet would force pᵢ = 0 in both MLEs
// and, in a sweep, leave a distribution with no variance for which the
// t-value is undefined. Like Fishtest (LLRcalc.regularize) and fastchess, every
// zero count is replaced by 1e-3 of a sample before computing frequencies.
// That prior is far below one observation, so it does not move the LLR of a
// real match, and it keeps every LLR finite and growing in a sweep, so a sweep
// always ends with a decision.
//
// How fast a sweep decides is fixed by the hypotheses, not by the
// regularization: both H0 and H1 say the engines are close, so a won pair is
// only slightly likelier under H1. With all pairs won, the MLE under a mean
// s puts p(WW) = s (the rest on LL), and under a t-value t, since σ ≤ ½,
// p(WW) = ½ + t/(2√(1+t²)); each won pair adds ln p1(WW)/p0(WW) to the LLR.
// For α = β = 0.05 (bound 2.944) a sweep stops after 147 pairs (294 games)
// for nElo [0, 5], 50 pairs for nElo [0, 15], 207 games for trinomial
// logistic [0, 5], 99 games for [0, 10.5] and 53 for [0, 20] (the table in
// TestSPRTDegenerate). (fastchess's test
// "normalized pentanomial 3" expects 2.94 after 104 won pairs; the bound above
// shows no distribution with t = √2·5/(800/ln 10) has p(WW) above 0.51018, so
// the LLR after 104 pairs cannot exceed 104·ln(0.51018/0.5) = 2.095, which is
// what this code computes.)

// Elo models of an SPRT.
const (
	ModelNormalized = "normalized" // bounds in normalized Elo, over game pairs (the default)
	ModelLogistic   = "logistic"   // bounds in logistic Elo, over game pairs
	ModelTrinomial  = "trinomial"  // bounds in logistic Elo, over single games
	// ModelCGomokuCli is c-gomoku-cli's own test (src/sprt.cpp): logistic
	// Elo over single games, with the asymptotic approximation of the
	// trinomial GSPRT (Van den Bergh, "GSPRT approximation") instead of
	// ModelTrinomial's maximum likelihood, and 0 until two of the three
	// outcomes have occurred, so that `arena gomoku-cli` stops where
	// c-gomoku-cli does.
	ModelCGomokuCli = "c-gomoku-cli"
)

// SPRT is a sequential probability ratio test of H0: the first engine is
// Elo0 stronger, against H1: it is Elo1 stronger. Alpha is the probability of
// accepting H1 when H0 holds, Beta that of accepting H0 when H1 holds. Model
// is one of the Model constants; empty means ModelNormalized.
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
	Model       string
}

// Decision is what an SPRT says about the games so far.
type Decision int

const (
	Continue Decision = iota // play on
	H0                       // accept H0: the difference is Elo0 or less
	H1                       // accept H1: the difference is Elo1 or more
)

func (d Decision) String() string {
	switch d {
	case H0:
		return "H0"
	case H1:
		return "H1"
	}
	return "continue"
}

// Validate reports a test that cannot be run, in the words of the option
// that is wrong.
func (s SPRT) Validate() error {
	switch {
	case !(s.Alpha > 0 && s.Alpha < 1):
		return fmt.Errorf("sprt: alpha=%v must be between 0 and 1", s.Alpha)
	case !(s.Beta > 0 && s.Beta < 1):
		return fmt.Errorf("sprt: beta=%v must be between 0 and 1", s.Beta)
	case s.Alpha+s.Beta >= 1:
		return fmt.Errorf("sprt: alpha+beta=%v must be below 1", s.Alpha+s.Beta)
	case !(s.Elo0 < s.Elo1):
		return fmt.Errorf("sprt: elo0=%v must be below elo1=%v", s.Elo0, s.Elo1)
	}
	switch s.Model {
	case "", ModelNormalized, ModelLogistic, ModelTrinomial, ModelCGomokuCli:
		return nil
	}
	return fmt.Errorf("sprt: model %q: want %s, %s, %s or %s", s.Model, ModelNormalized, ModelLogistic, ModelTrinomial, ModelCGomokuCli)
}

// Bounds are Wald's stopping bounds on the LLR: ln(β/(1-α)) and ln((1-β)/α).
func (s SPRT) Bounds() (lower, upper float64) {
	return math.Log(s.Beta / (1 - s.Alpha)), math.Log((1 - s.Beta) / s.Alpha)
}

// Pentanomial reports whether the model counts game pairs; otherwise it
// counts single games.
func (s SPRT) Pentanomial() bool { return s.Model != ModelTrinomial && s.Model != ModelCGomokuCli }

// LLR is the log-likelihood ratio of H1 against H0 given the match so far,
// from the first engine's point of view. The model reads either games or
// pairs (see Pentanomial) and ignores the other. It is 0 before any result.
func (s SPRT) LLR(games WDL, pairs Pentanomial) float64 {
	switch s.Model {
	case ModelTrinomial:
		return llrExpectation([]int{games.L, games.D, games.W}, ScoreFromElo(s.Elo0), ScoreFromElo(s.Elo1))
	case ModelCGomokuCli:
		return llrCGomokuCli(games, ScoreFromElo(s.Elo0), ScoreFromElo(s.Elo1))
	case ModelLogistic:
		return llrExpectation(pairs[:], ScoreFromElo(s.Elo0), ScoreFromElo(s.Elo1))
	}
	return llrNormalized(pairs[:], s.Elo0, s.Elo1)
}

// Decide compares the LLR with the bounds. The match stops at the first
// decision other than Continue.
func (s SPRT) Decide(games WDL, pairs Pentanomial) Decision {
	llr := s.LLR(games, pairs)
	lower, upper := s.Bounds()
	switch {
	case llr >= upper:
		return H1
	case llr <= lower:
		return H0
	}
	return Continue
}

// regularizedFrequencies turns counts of outcomes 0..k-1 into frequencies,
// with every zero count replaced by 1e-3 (see above). It returns the
// regularized total too, which is the N of the LLR.
func regularizedFrequencies(counts []int) (n float64, freq []float64) {
	freq = make([]float64, len(counts))
	for i, c := range counts {
		freq[i] = float64(c)
		if c == 0 {
			freq[i] = 1e-3
		}
		n += freq[i]
	}
	for i := range freq {
		freq[i] /= n
	}
	return n, freq
}

// outcomeScores are the mean scores per game of the k outcomes, evenly
// spaced from 0 to 1: {0, ½, 1} for games, {0, ¼, ½, ¾, 1} for pairs.
func outcomeScores(k int) []float64 {
	a := make([]float64, k)
	for i := range a {
		a[i] = float64(i) / float64(k-1)
	}
	return a
}

func empty(counts []int) bool {
	for _, c := range counts {
		if c != 0 {
			return false
		}
	}
	return true
}

// llrExpectation is the GSPRT LLR for H0: mean score s0 against H1: s1.
func llrExpectation(counts []int, s0, s1 float64) float64 {
	if empty(counts) {
		return 0
	}
	n, phat := regularizedFrequencies(counts)
	a := outcomeScores(len(counts))
	p0 := mleExpectation(phat, a, s0)
	p1 := mleExpectation(phat, a, s1)
	return n * meanLogRatio(phat, p0, p1)
}

// llrCGomokuCli is c-gomoku-cli's sprt_llr: (s1-s0)(2s-s0-s1) / (2 var/n)
// for the mean score s and per-game variance var, 0 unless two of the three
// outcomes occurred (one alone has no variance).
func llrCGomokuCli(g WDL, s0, s1 float64) float64 {
	nonzero := 0
	for _, c := range []int{g.W, g.D, g.L} {
		if c != 0 {
			nonzero++
		}
	}
	if nonzero < 2 {
		return 0
	}
	n := float64(g.W + g.D + g.L)
	w, l := float64(g.W)/n, float64(g.L)/n
	d := 1 - w - l
	mean := w + d/2
	variance := w + d/4 - mean*mean
	return (s1 - s0) * (2*mean - s0 - s1) / (2 * variance / n)
}

// llrNormalized is the GSPRT LLR for H0: nElo0 against H1: nElo1. With five
// outcomes the counts are pairs and the pair t-value is √2 times the per-game
// one; with three they are games.
func llrNormalized(counts []int, nelo0, nelo1 float64) float64 {
	if empty(counts) {
		return 0
	}
	n, phat := regularizedFrequencies(counts)
	a := outcomeScores(len(counts))
	t0, t1 := nelo0/NEloScale, nelo1/NEloScale
	if len(counts) == 5 {
		t0, t1 = t0*math.Sqrt2, t1*math.Sqrt2
	}
	p0 := mleTValue(phat, a, 0.5, t0)
	p1 := mleTValue(phat, a, 0.5, t1)
	return n * meanLogRatio(phat, p0, p1)
}

func meanLogRatio(phat, p0, p1 []float64) float64 {
	sum := 0.0
	for i := range phat {
		sum += phat[i] * math.Log(p1[i]/p0[i])
	}
	return sum
}

// mleExpectation is the multinomial of maximum likelihood for the observed
// frequencies phat over scores a among those with mean s.
func mleExpectation(phat, a []float64, s float64) []float64 {
	phi := make([]float64, len(a))
	for i := range a {
		phi[i] = a[i] - s
	}
	return tilt(phat, phi, solveSecular(phat, phi))
}

// mleTValue is the multinomial of maximum likelihood for the observed
// frequencies phat over scores a among those with (μ-ref)/σ = t, found by the
// fixed-point iteration of Van den Bergh's section 4.1.
func mleTValue(phat, a []float64, ref, t float64) []float64 {
	k := len(a)
	p := make([]float64, k)
	for i := range p {
		p[i] = 1 / float64(k)
	}
	phi := make([]float64, k)
	for range 100 {
		mu, v := moments(a, p)
		sigma := math.Sqrt(v)
		for i := range a {
			z := (a[i] - mu) / sigma
			phi[i] = a[i] - ref - t*sigma*(1+z*z)/2
		}
		next := tilt(phat, phi, solveSecular(phat, phi))
		change := 0.0
		for i := range p {
			change = max(change, math.Abs(next[i]-p[i]))
		}
		p = next
		if change < 1e-13 {
			break
		}
	}
	return p
}

func tilt(phat, phi []float64, theta float64) []float64 {
	p := make([]float64, len(phat))
	for i := range p {
		p[i] = phat[i] / (1 + theta*phi[i])
	}
	return p
}

// solveSecular finds θ with Σ phat·φ/(1+θφ) = 0 on the interval where all
// 1+θφ > 0: Newton's method, kept inside a shrinking bracket by bisection.
// The function decreases from +∞ to -∞ across the interval, so the root
// exists whenever φ takes both signs; otherwise (a hypothesis outside what
// the outcomes can express) θ = 0 is returned, leaving p = phat.
func solveSecular(phat, phi []float64) float64 {
	lo, hi := math.Inf(-1), math.Inf(1)
	for _, f := range phi {
		switch {
		case f > 0:
			lo = max(lo, -1/f)
		case f < 0:
			hi = min(hi, -1/f)
		}
	}
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return 0
	}
	theta := 0.0
	for range 200 {
		f, df := 0.0, 0.0
		for i := range phi {
			d := 1 + theta*phi[i]
			f += phat[i] * phi[i] / d
			df -= phat[i] * phi[i] * phi[i] / (d * d)
		}
		if f > 0 {
			lo = theta
		} else {
			hi = theta
		}
		next := theta - f/df
		if !(next > lo && next < hi) {
			next = lo + (hi-lo)/2
		}
		if math.Abs(next-theta) <= 1e-15*(1+math.Abs(theta)) || hi-lo <= 1e-15*(1+math.Abs(theta)) {
			return next
		}
		theta = next
	}
	return theta
}
