package rating

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// Rating lists for more than two engines: maximum-likelihood Bradley–Terry
// ratings on the logistic Elo scale, the model Ordo fits (Ordo's default,
// https://github.com/michiguel/Ordo, also treats a draw as half a win and
// half a loss).
//
// Model: player i scores against player j with expectation
// σ(k(rᵢ-rⱼ)), σ(x) = 1/(1+e⁻ˣ), k = ln 10/400, so 400 Elo points are a
// factor 10 in the odds. A draw counts as half a win and half a loss (so the
// "likelihood" is the quasi-likelihood Π σ^s·(1-σ)^(1-s); a Davidson draw
// parameter is not fitted, so the draw rate does not affect the ratings).
// With two players this gives exactly EloFromScore of the score.
//
// The ratings maximise the log-likelihood
//
//	ℓ(r) = Σ over pairs {i,j} of sᵢⱼ·ln σ(k(rᵢ-rⱼ)) + (nᵢⱼ-sᵢⱼ)·ln σ(k(rⱼ-rᵢ))
//
// (nᵢⱼ games, sᵢⱼ points of i). ℓ is concave and depends only on differences,
// so one rating is held fixed while Newton's method solves ∇ℓ = 0, i.e.
// every player's expected points equal its actual points. A finite maximum
// exists exactly when every player has scored at least a draw along some
// chain against every other (the "scored against" graph is strongly
// connected; Zermelo 1929, Ford 1957). Otherwise — a clean sweep is the
// common case — the ratings are infinite; Prior then adds virtual draws
// between every pair of players who met, as BayesElo's prior does, which
// keeps them finite at the cost of a small pull towards equality.
//
// Intervals come from the observed Fisher information (the negated Hessian
// of ℓ, which for this model equals the expected one): its inverse, with the
// fixed player's row and column zero, is the covariance of the ratings
// relative to that player; it is then mapped to the requested anchoring.
// Ordo gets its intervals by simulation instead; both are ~95% normal
// intervals and agree for matches of useful size.

// RatedGame is one game for a rating list: the indices of its two players in
// the name list and the first player's score (1, ½ or 0; which colour each
// had does not matter to the model).
type RatedGame struct {
	First, Second int
	Score         float64
}

// RatingOptions anchor the list and regularize it.
type RatingOptions struct {
	// Anchor names the player whose rating is fixed at AnchorElo; when empty
	// the mean rating is AnchorElo.
	Anchor    string
	AnchorElo float64
	// Prior is the number of virtual draws added between every two players
	// who met, to keep ratings finite after sweeps; 0 is pure maximum
	// likelihood.
	Prior float64
}

// Rating is one line of a rating list.
type Rating struct {
	Name   string
	Elo    float64
	SE     float64 // standard error of Elo relative to the anchor (0 for the anchor)
	Lo, Hi float64 // 95% interval: Elo ∓ Z95·SE
	Games  int
	Points float64
}

// RatingList is the result of RateBradleyTerry. Ratings are in the order of
// the names given; sorting for display is the caller's business.
type RatingList struct {
	Ratings []Rating
	// LOS[i][j] is the likelihood that player i is stronger than player j:
	// Φ((rᵢ-rⱼ)/SE(rᵢ-rⱼ)), with the standard error of the difference from
	// the full covariance. The diagonal is NaN.
	LOS [][]float64
}

// ErrInfiniteRatings reports games from which maximum likelihood gives some
// player an infinite rating.
var ErrInfiniteRatings = errors.New("ratings would be infinite")

// RateBradleyTerry computes the maximum-likelihood Bradley–Terry rating list
// of the named players from their games.
func RateBradleyTerry(names []string, games []RatedGame, opt RatingOptions) (RatingList, error) {
	n := len(names)
	list := RatingList{Ratings: make([]Rating, n), LOS: make([][]float64, n)}
	for i, name := range names {
		list.Ratings[i] = Rating{Name: name}
		list.LOS[i] = make([]float64, n)
	}
	anchor := -1
	if opt.Anchor != "" {
		for i, name := range names {
			if name == opt.Anchor {
				anchor = i
			}
		}
		if anchor < 0 {
			return RatingList{}, fmt.Errorf("rating: anchor %q is not among the players", opt.Anchor)
		}
	}
	if opt.Prior < 0 || math.IsNaN(opt.Prior) {
		return RatingList{}, fmt.Errorf("rating: prior %v must be 0 or more virtual draws", opt.Prior)
	}

	// Aggregate the games into counts and points per ordered pair.
	count := make([][]float64, n)
	points := make([][]float64, n)
	for i := range count {
		count[i] = make([]float64, n)
		points[i] = make([]float64, n)
	}
	for g, game := range games {
		a, b, s := game.First, game.Second, game.Score
		switch {
		case a < 0 || a >= n || b < 0 || b >= n:
			return RatingList{}, fmt.Errorf("rating: game %d: player index out of range (%d players)", g+1, n)
		case a == b:
			return RatingList{}, fmt.Errorf("rating: game %d: %s plays itself", g+1, names[a])
		case !(s >= 0 && s <= 1):
			return RatingList{}, fmt.Errorf("rating: game %d: score %v outside [0, 1]", g+1, s)
		}
		count[a][b]++
		count[b][a]++
		points[a][b] += s
		points[b][a] += 1 - s
		list.Ratings[a].Games++
		list.Ratings[b].Games++
		list.Ratings[a].Points += s
		list.Ratings[b].Points += 1 - s
	}
	if opt.Prior > 0 {
		for i := range n {
			for j := range n {
				if count[i][j] > 0 {
					count[i][j] += opt.Prior
					points[i][j] += opt.Prior / 2
				}
			}
		}
	}
	if n == 0 {
		return list, nil
	}
	if err := checkFinite(names, count, points); err != nil {
		return RatingList{}, err
	}

	r, cov := fitBradleyTerry(count, points)

	// Re-anchor: r' = M·r with M = I - 1·wᵀ, w = e_anchor or (1/n)·1.
	w := make([]float64, n)
	if anchor >= 0 {
		w[anchor] = 1
	} else {
		for i := range w {
			w[i] = 1 / float64(n)
		}
	}
	shift := opt.AnchorElo
	for i := range n {
		shift -= w[i] * r[i]
	}
	// cov' = M·C·Mᵀ: with Cw = C·w and wCw = wᵀ·C·w,
	// cov'ᵢⱼ = Cᵢⱼ - Cwᵢ - Cwⱼ + wCw.
	cw := make([]float64, n)
	wcw := 0.0
	for i := range n {
		for j := range n {
			cw[i] += cov[i][j] * w[j]
		}
		wcw += w[i] * cw[i]
	}
	for i := range n {
		rt := &list.Ratings[i]
		rt.Elo = r[i] + shift
		rt.SE = math.Sqrt(max(cov[i][i]-2*cw[i]+wcw, 0))
		rt.Lo, rt.Hi = rt.Elo-Z95*rt.SE, rt.Elo+Z95*rt.SE
		for j := range n {
			if i == j {
				list.LOS[i][j] = math.NaN()
				continue
			}
			// The difference does not depend on the anchoring.
			v := cov[i][i] + cov[j][j] - 2*cov[i][j]
			list.LOS[i][j] = probPositive(r[i]-r[j], math.Sqrt(max(v, 0)))
		}
	}
	return list, nil
}

// checkFinite reports when the maximum likelihood is not attained at finite
// ratings: when some player cannot be reached from player 0 along "scored
// something against" edges, or cannot reach it (not strongly connected), or
// when the players never met at all (not connected).
func checkFinite(names []string, count, points [][]float64) error {
	n := len(names)
	reach := func(forward bool) []bool {
		seen := make([]bool, n)
		seen[0] = true
		stack := []int{0}
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for j := range n {
				// i→j when i took points from j (forward), or j from i.
				edge := points[i][j] > 0
				if !forward {
					edge = points[j][i] > 0
				}
				if count[i][j] > 0 && edge && !seen[j] {
					seen[j] = true
					stack = append(stack, j)
				}
			}
		}
		return seen
	}
	fw, bw := reach(true), reach(false)
	var out []string
	for i := range n {
		if !fw[i] || !bw[i] {
			out = append(out, names[i])
		}
	}
	if len(out) == 0 {
		return nil
	}
	return fmt.Errorf("rating: %w: %s and %s are not linked by games in which each side scored (a sweep, or no games between the groups); add virtual draws with a prior",
		ErrInfiniteRatings, names[0], strings.Join(out, ", "))
}

// fitBradleyTerry returns the ML ratings with r[0] = 0 and their covariance
// (row and column 0 zero). The caller has checked that the maximum exists.
func fitBradleyTerry(count, points [][]float64) ([]float64, [][]float64) {
	n := len(count)
	k := math.Ln10 / 400
	r := make([]float64, n)
	// Gradient and negated Hessian of ℓ in the free ratings r[1:].
	system := func(r []float64) (grad []float64, info [][]float64, ll float64) {
		grad = make([]float64, n-1)
		info = make([][]float64, n-1)
		for i := range info {
			info[i] = make([]float64, n-1)
		}
		for i := range n {
			for j := i + 1; j < n; j++ {
				if count[i][j] == 0 {
					continue
				}
				x := k * (r[i] - r[j])
				e := 1 / (1 + math.Exp(-x))
				// ln σ(x) and ln σ(-x), stable for large |x|.
				ll += -points[i][j]*softplus(-x) - points[j][i]*softplus(x)
				g := k * (points[i][j] - count[i][j]*e)
				h := k * k * count[i][j] * e * (1 - e)
				if i > 0 {
					grad[i-1] += g
					info[i-1][i-1] += h
				}
				if j > 0 {
					grad[j-1] -= g
					info[j-1][j-1] += h
				}
				if i > 0 && j > 0 {
					info[i-1][j-1] -= h
					info[j-1][i-1] -= h
				}
			}
		}
		return grad, info, ll
	}
	grad, info, ll := system(r)
	for range 200 {
		step := solveSPD(info, grad)
		// Newton with backtracking: ℓ is concave, so a full step is
		// usually best, but far from the optimum it can overshoot.
		size := 1.0
		var next []float64
		var g2 []float64
		var i2 [][]float64
		var ll2 float64
		for range 60 {
			next = append([]float64(nil), r...)
			for i := 1; i < n; i++ {
				next[i] += size * step[i-1]
			}
			g2, i2, ll2 = system(next)
			if ll2 >= ll-1e-12*math.Abs(ll) {
				break
			}
			size /= 2
		}
		change := 0.0
		for i := 1; i < n; i++ {
			change = max(change, math.Abs(next[i]-r[i]))
		}
		r, grad, info, ll = next, g2, i2, ll2
		if change < 1e-10 {
			break
		}
	}
	cov := make([][]float64, n)
	for i := range cov {
		cov[i] = make([]float64, n)
	}
	for c := 1; c < n; c++ {
		e := make([]float64, n-1)
		e[c-1] = 1
		col := solveSPD(info, e)
		for i := 1; i < n; i++ {
			cov[i][c] = col[i-1]
		}
	}
	return r, cov
}

// softplus is ln(1+eˣ) without overflow.
func softplus(x float64) float64 {
	if x > 0 {
		return x + math.Log1p(math.Exp(-x))
	}
	return math.Log1p(math.Exp(x))
}

// solveSPD solves A·x = b for a symmetric positive definite A by Cholesky
// factorization. A is left unchanged.
func solveSPD(a [][]float64, b []float64) []float64 {
	m := len(b)
	l := make([][]float64, m)
	for i := range l {
		l[i] = make([]float64, m)
		for j := 0; j <= i; j++ {
			s := a[i][j]
			for p := range j {
				s -= l[i][p] * l[j][p]
			}
			if i == j {
				l[i][i] = math.Sqrt(max(s, 1e-300))
			} else {
				l[i][j] = s / l[j][j]
			}
		}
	}
	y := make([]float64, m)
	for i := range m {
		s := b[i]
		for p := range i {
			s -= l[i][p] * y[p]
		}
		y[i] = s / l[i][i]
	}
	x := make([]float64, m)
	for i := m - 1; i >= 0; i-- {
		s := y[i]
		for p := i + 1; p < m; p++ {
			s -= l[p][i] * x[p]
		}
		x[i] = s / l[i][i]
	}
	return x
}
