package bayeselo

import (
	"fmt"
	"math"
)

// MaxLOSPlayers bounds the likelihood-of-superiority table: it inverts a
// dense matrix of one row per player (n³/3 steps, n² numbers), which for
// thousands of players costs seconds and hundreds of megabytes.
const MaxLOSPlayers = 1000

// LOS is BayesElo's likelihood of superiority (`los`): LOS[a][b] is the
// probability that the player listed at a (in Ratings' order) is stronger
// than the one at b, from the ratings' covariance (the inverse of the
// negated Hessian of the log-likelihood, prior included). The diagonal is 0,
// as BayesElo leaves it.
func (l *List) LOS() ([][]float64, error) {
	m := l.m
	if m.n > MaxLOSPlayers {
		return nil, fmt.Errorf("bayeselo: a likelihood-of-superiority table of %d players is too large (at most %d)", m.n, MaxLOSPlayers)
	}
	if a, b, ok := m.unconnected(); ok {
		return nil, fmt.Errorf("bayeselo: no game connects %s and %s, even through others: their ratings cannot be compared, so there is no likelihood of superiority", l.nameOf(a), l.nameOf(b))
	}
	g := m.covariance()
	los := make([][]float64, m.n)
	for a, i := range l.order {
		los[a] = make([]float64, m.n)
		for b, j := range l.order {
			if a == b {
				continue
			}
			// The difference's variance; the centring of the ratings
			// cancels out of it.
			sigma2 := g.at(i, i) + g.at(j, j) - g.at(i, j) - g.at(j, i)
			x := (m.elo[j] - m.elo[i]) / math.Sqrt(2*sigma2)
			los[a][b] = math.Erfc(x) / 2
		}
	}
	return los, nil
}

// nameOf is the name of player i.
func (l *List) nameOf(i int) string {
	for k, j := range l.order {
		if j == i {
			return fmt.Sprintf("%q", l.Ratings[k].Name)
		}
	}
	return fmt.Sprint(i)
}

// unconnected finds two players that no chain of games connects; the
// Hessian is then singular (BayesElo's LU divides by zero there).
func (m *model) unconnected() (a, b int, ok bool) {
	seen := make([]bool, m.n)
	stack := []int{0}
	seen[0] = true
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, c := range m.pairs[m.start[p]:m.start[p+1]] {
			if !seen[c.opp] {
				seen[c.opp] = true
				stack = append(stack, int(c.opp))
			}
		}
	}
	for i, s := range seen {
		if !s {
			return 0, i, true
		}
	}
	return 0, 0, false
}

// square is a dense symmetric matrix whose last row and column are zero:
// the covariance with the last player's rating held fixed.
type square struct {
	n int // rows stored: players - 1
	v []float64
}

func (s square) at(i, j int) float64 {
	if i == s.n || j == s.n {
		return 0
	}
	return s.v[i*s.n+j]
}

// covariance is the inverse of the negated Hessian of the log-likelihood in
// the ratings of all players but the last (CBradleyTerry::ComputeCovariance
// before its centring, which the LOS does not need), by Cholesky.
func (m *model) covariance() square {
	n := m.n - 1
	h := make([]float64, n*n)
	thetaW, thetaD := m.thetaW, m.thetaD
	gamma := make([]float64, m.n)
	for i, e := range m.elo {
		gamma[i] = math.Pow(10, e/400)
	}
	x2 := (math.Ln10 / 400) * (math.Ln10 / 400)
	for p := range n {
		gp := gamma[p]
		diag := 0.0
		for _, c := range m.pairs[m.start[p]:m.start[p+1]] {
			og := gamma[c.opp]
			d1 := thetaW*gp + thetaD*og
			d2 := thetaD*thetaW*gp + og
			d3 := thetaW*og + thetaD*gp
			d4 := thetaD*thetaW*og + gp
			v := float64(c.wij+c.dij)/(d1*d1) + float64(c.lij+c.dij)/(d2*d2) +
				float64(c.wji+c.dji)/(d3*d3) + float64(c.lji+c.dji)/(d4*d4)
			v *= gp * og * thetaD * thetaW * x2
			diag += v
			if int(c.opp) != n {
				h[p*n+int(c.opp)] = -v
			}
		}
		h[p*n+p] = diag
	}
	// Cholesky: h = L·Lᵀ, L in the lower triangle.
	for j := range n {
		s := h[j*n+j]
		for k := range j {
			s -= h[j*n+k] * h[j*n+k]
		}
		d := math.Sqrt(s)
		h[j*n+j] = d
		for i := j + 1; i < n; i++ {
			s := h[i*n+j]
			for k := range j {
				s -= h[i*n+k] * h[j*n+k]
			}
			h[i*n+j] = s / d
		}
	}
	// Invert: solve L·Lᵀ·x = eᵢ column by column.
	inv := make([]float64, n*n)
	col := make([]float64, n)
	for c := range n {
		for i := range n {
			s := 0.0
			if i == c {
				s = 1
			}
			for k := range i {
				s -= h[i*n+k] * col[k]
			}
			col[i] = s / h[i*n+i]
		}
		for i := n - 1; i >= 0; i-- {
			s := col[i]
			for k := i + 1; k < n; k++ {
				s -= h[k*n+i] * col[k]
			}
			col[i] = s / h[i*n+i]
		}
		for i := range n {
			inv[i*n+c] = col[i]
		}
	}
	return square{n: n, v: inv}
}
