package bayeselo

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
)

// Result is a game's result as BayesElo stores it: the first mover's
// (PGN's White's) score doubled.
type Result int8

const (
	SecondWins Result = 0 // 0-1
	Draw       Result = 1 // 1/2-1/2
	FirstWins  Result = 2 // 1-0
)

// Game is one rated game: the indices of its players in the name list,
// First the one that moved first (PGN's White; in Gomoku that is Black).
type Game struct {
	First, Second int
	Result        Result
}

// BayesElo's defaults (CBradleyTerry's constructor and CEloRatingCUI's,
// in Rémi Coulom's distribution, version 0057).
const (
	// Advantage is the first mover's advantage in Elo that `mm` assumes
	// when not asked to estimate it.
	Advantage = 32.8
	// DrawElo is the draw parameter `mm` assumes when not asked to
	// estimate it.
	DrawElo = 97.3
	// Prior is the number of virtual draws per player.
	Prior = 2.0

	confidence = 0.95
	resolution = 1001 // points of exactdist's grid
	gridMin    = -1500.0
	gridMax    = 1500.0

	mmEpsilon  = 1e-5 // relative change of γ at which mm stops
	mmMaxSweep = 10000
	// tailCut is how far (in natural log-likelihood) below its peak the
	// exactdist grid is evaluated; beyond it a point weighs less than
	// e⁻³⁰ (10⁻¹³) of the peak: the whole tail moves an interval's end by
	// less than a millionth of an Elo point.
	tailCut = 30
)

// Rating is one line of the list, in BayesElo's units: Elo and Oppo are
// scaled and offset as `ratings` prints them, Plus and Minus are scaled,
// nothing is rounded yet.
type Rating struct {
	Name  string
	Elo   float64
	Plus  float64 // upper end of the 95% interval minus Elo
	Minus float64 // Elo minus the lower end of the interval
	Games int
	// Points is the score: 1 a win, ½ a draw.
	Points float64
	// Oppo is the average rating of the opponents, weighted by games.
	Oppo  float64
	Draws int
}

// Score is the points as a percentage of the games.
func (r Rating) Score() float64 { return 100 * r.Points / float64(r.Games) }

// DrawRate is the draws as a percentage of the games.
func (r Rating) DrawRate() float64 { return 100 * float64(r.Draws) / float64(r.Games) }

// List is a computed rating list.
type List struct {
	// Ratings are sorted best first, as `ratings` lists them.
	Ratings []Rating
	// Sweeps is how many MM iterations ran (BayesElo stops at 10000).
	Sweeps int
	// Scale is the factor from the model's Elo to the listed Elo.
	Scale float64

	m     *model
	order []int // Ratings[k] is player order[k]
}

// Options are the settings of BayesElo's commands that this package takes.
type Options struct {
	// Offset is added to every rating (BayesElo's `offset`; its default 0
	// centres the list on 0).
	Offset float64
	// Advantage and DrawElo are the model's parameters (BayesElo's
	// `advantage` and `drawelo`), held fixed by `mm`. Gomocup's build of
	// BayesElo changes their defaults to 0 and 0.01.
	Advantage, DrawElo float64
}

// DefaultOptions are BayesElo's defaults.
func DefaultOptions() Options { return Options{Advantage: Advantage, DrawElo: DrawElo} }

// Rate computes the rating list of the named players from their games,
// as BayesElo's elo, mm, exactdist and ratings do. Every player must have
// played at least once. BayesElo numbers the players in order of first
// appearance (each game's First, then its Second); giving names in that
// order makes the MM sweeps, and so where they stop, the same.
func Rate(names []string, games []Game, opt Options) (*List, error) {
	for _, v := range []struct {
		name string
		x    float64
	}{{"offset", opt.Offset}, {"advantage", opt.Advantage}, {"drawelo", opt.DrawElo}} {
		if math.IsNaN(v.x) || math.IsInf(v.x, 0) || math.Abs(v.x) > 1e6 {
			return nil, fmt.Errorf("bayeselo: %s %v is not a usable number of Elo points", v.name, v.x)
		}
	}
	if opt.DrawElo <= 0 {
		// The draw probability would be 0, and the prior's virtual draws
		// impossible.
		return nil, fmt.Errorf("bayeselo: drawelo %v: it must be more than 0", opt.DrawElo)
	}
	m, err := newModel(len(names), games, opt.Advantage, opt.DrawElo)
	if err != nil {
		return nil, err
	}
	for i, g := range m.trueGames {
		if g == 0 {
			return nil, fmt.Errorf("bayeselo: %q has no games", names[i])
		}
	}
	m.addPrior(Prior)
	sweeps := m.minorizationMaximization()
	x := math.Pow(10, -opt.DrawElo/400)
	scale := x * 4 / ((1 + x) * (1 + x))

	n := len(names)
	l := &List{Sweeps: sweeps, Scale: scale, m: m, order: make([]int, n), Ratings: make([]Rating, n)}
	for i := range n {
		l.order[i] = i
	}
	slices.SortStableFunc(l.order, func(a, b int) int { return cmp.Compare(m.elo[b], m.elo[a]) })
	var sc scratch
	for k, i := range l.order {
		lower, upper := m.exactInterval(i, &sc)
		r := &l.Ratings[k]
		r.Name = names[i]
		r.Elo = scale*m.elo[i] + opt.Offset
		r.Plus = scale * (upper - m.elo[i])
		r.Minus = scale * (m.elo[i] - lower)
		r.Games = m.trueGames[i]
		r.Points = m.points[i]
		r.Draws = m.draws[i]
		r.Oppo = scale*m.averageOpponent(i) + opt.Offset
	}
	return l, nil
}

// pairing is what one player did against one opponent, in BayesElo's
// CCondensedResult cells: ij as the first mover, ji as the second; w, d, l
// from the first mover's side. The cells are single precision, as there,
// because the prior's fractions are added in single precision.
type pairing struct {
	opp                          int32
	games                        int32 // real games, without the prior
	wij, dij, lij, wji, dji, lji float32
}

// model is BayesElo's CCondensedResults and CBradleyTerry for one list.
type model struct {
	n         int
	start     []int     // player p's pairings are pairs[start[p]:start[p+1]]
	pairs     []pairing // each pair of players appears twice, once from each side
	trueGames []int
	points    []float64
	draws     []int
	elo       []float64 // centred, unscaled

	advantage, drawElo float64
	thetaW, thetaD     float64 // 10^(advantage/400), 10^(drawelo/400)
}

var errNoPlayers = errors.New("bayeselo: no players")

func newModel(n int, games []Game, advantage, drawElo float64) (*model, error) {
	if n == 0 {
		return nil, errNoPlayers
	}
	m := &model{n: n, trueGames: make([]int, n), points: make([]float64, n), draws: make([]int, n), elo: make([]float64, n),
		advantage: advantage, drawElo: drawElo,
		thetaW: math.Pow(10, advantage/400), thetaD: math.Pow(10, drawElo/400)}
	// Count the games per unordered pair, from the side of its lower index.
	type counts struct{ g, wij, dij, lij, wji, dji, lji int32 }
	index := map[uint64]int32{}
	var keys [][2]int32
	var tally []counts
	opponents := make([]int, n)
	for k, g := range games {
		a, b := g.First, g.Second
		switch {
		case a < 0 || a >= n || b < 0 || b >= n:
			return nil, fmt.Errorf("bayeselo: game %d: player index out of range (%d players)", k+1, n)
		case a == b:
			return nil, fmt.Errorf("bayeselo: game %d: a player cannot play itself", k+1)
		case g.Result < SecondWins || g.Result > FirstWins:
			return nil, fmt.Errorf("bayeselo: game %d: result %d is not 0, 1 or 2", k+1, g.Result)
		}
		lo, hi, swapped := a, b, false
		if lo > hi {
			lo, hi, swapped = hi, lo, true
		}
		key := uint64(lo)<<32 | uint64(hi)
		t, ok := index[key]
		if !ok {
			t = int32(len(tally))
			index[key] = t
			keys = append(keys, [2]int32{int32(lo), int32(hi)})
			tally = append(tally, counts{})
			opponents[lo]++
			opponents[hi]++
		}
		c := &tally[t]
		c.g++
		// From lo's side: the ij cells when lo moved first, the ji cells
		// when hi did; w, d, l the first mover's result (BayesElo's result
		// 0, 1, 2 is the first mover's loss, draw, win).
		cell := [3]*int32{&c.lij, &c.dij, &c.wij}
		if swapped {
			cell = [3]*int32{&c.lji, &c.dji, &c.wji}
		}
		*cell[g.Result]++
		m.trueGames[a]++
		m.trueGames[b]++
		switch g.Result {
		case FirstWins:
			m.points[a]++
		case SecondWins:
			m.points[b]++
		default:
			m.points[a] += 0.5
			m.points[b] += 0.5
			m.draws[a]++
			m.draws[b]++
		}
	}
	m.start = make([]int, n+1)
	for p := range n {
		m.start[p+1] = m.start[p] + opponents[p]
	}
	m.pairs = make([]pairing, m.start[n])
	fill := slices.Clone(m.start[:n])
	for t, k := range keys {
		c := tally[t]
		lo, hi := k[0], k[1]
		m.pairs[fill[lo]] = pairing{opp: hi, games: c.g,
			wij: float32(c.wij), dij: float32(c.dij), lij: float32(c.lij),
			wji: float32(c.wji), dji: float32(c.dji), lji: float32(c.lji)}
		fill[lo]++
		// The same games from hi's side: its first-mover cells are lo's
		// second-mover cells.
		m.pairs[fill[hi]] = pairing{opp: lo, games: c.g,
			wij: float32(c.wji), dij: float32(c.dji), lij: float32(c.lji),
			wji: float32(c.wij), dji: float32(c.dij), lji: float32(c.lij)}
		fill[hi]++
	}
	return m, nil
}

// addPrior adds BayesElo's virtual draws (CCondensedResults::AddPrior):
// player i spreads prior/4 draws over the four draw cells of its pairs, in
// proportion to the games of each pair, on both sides of the pair. The
// players are visited from the last, the sums made in single precision,
// exactly as there.
func (m *model) addPrior(prior float32) {
	share := make([]float32, m.n)
	for i := range m.n {
		share[i] = float32(float64(prior) * 0.25 / float64(m.trueGames[i]))
	}
	for p := range m.n {
		for k := m.start[p]; k < m.start[p+1]; k++ {
			c := &m.pairs[k]
			first, second := int(c.opp), p // the higher index adds first
			if p > first {
				first, second = p, int(c.opp)
			}
			for _, who := range [2]int{first, second} {
				add := share[who] * float32(c.games)
				c.dij += add
				c.dji += add
			}
		}
	}
}

// minorizationMaximization is `mm` with its default flags: the advantage
// and drawelo held where they are. It returns the sweeps made.
func (m *model) minorizationMaximization() int {
	thetaW, thetaD := m.thetaW, m.thetaD
	gamma := make([]float64, m.n)
	next := make([]float64, m.n)
	for i := range gamma {
		gamma[i] = 1
	}
	sweeps := 0
	for sweeps < mmMaxSweep {
		sweeps++
		for p := m.n - 1; p >= 0; p-- {
			var a, b float64
			gp := gamma[p]
			for _, c := range m.pairs[m.start[p]:m.start[p+1]] {
				o := int(c.opp)
				og := gamma[o]
				if o > p {
					og = next[o] // already swept
				}
				a += float64(c.wij + c.dij + c.lji + c.dji)
				b += float64(c.dij+c.wij)*thetaW/(thetaW*gp+thetaD*og) +
					float64(c.dij+c.lij)*thetaD*thetaW/(thetaD*thetaW*gp+og) +
					float64(c.dji+c.wji)*thetaD/(thetaW*og+thetaD*gp) +
					float64(c.dji+c.lji)/(thetaD*thetaW*og+gp)
			}
			next[p] = a / b
		}
		gamma, next = next, gamma
		diff := 0.0
		for i := m.n - 1; i >= 0; i-- {
			if d := math.Abs(gamma[i]-next[i]) / (gamma[i] + next[i]); d > diff {
				diff = d
			}
		}
		if diff < mmEpsilon {
			break
		}
	}
	total := 0.0
	for i := m.n - 1; i >= 0; i-- {
		m.elo[i] = math.Log10(gamma[i]) * 400
		total += m.elo[i]
	}
	offset := -total / float64(m.n)
	for i := range m.elo {
		m.elo[i] += offset
	}
	return sweeps
}

// averageOpponent is the games-weighted mean rating of p's opponents.
func (m *model) averageOpponent(p int) float64 {
	total, games := 0.0, 0
	for _, c := range m.pairs[m.start[p]:m.start[p+1]] {
		total += float64(c.games) * m.elo[c.opp]
		games += int(c.games)
	}
	if games == 0 {
		return 0
	}
	return total / float64(games)
}

// gridValue is the rating at point i of exactdist's grid
// (CDiscretization::ValueFromIndex).
func gridValue(i int) float64 {
	return gridMin + (float64(i)+0.5)*(gridMax-gridMin)/resolution
}

// exactInterval is `exactdist` for player p: the ends of the 95% interval
// of its rating's likelihood, its opponents held at their ratings less the
// share that keeps the mean (CBradleyTerry::GetPlayerDist and
// CCDistribution::GetLowerValue/GetUpperValue). sc is scratch space.
func (m *model) exactInterval(p int, sc *scratch) (lower, upper float64) {
	ll := sc.grow(resolution, m.start[p+1]-m.start[p])
	// The log-likelihood is concave in the rating (each game's is), so the
	// points worth summing are one run around the peak: walk out from the
	// point nearest the rating until the likelihood has fallen tailCut below
	// the best seen.
	startAt := int(math.Round((m.elo[p]-gridMin)*resolution/(gridMax-gridMin) - 0.5))
	startAt = min(max(startAt, 0), resolution-1)
	w := m.newWalk(p, startAt, sc)
	best := w.logLikelihood()
	ll[startAt] = best
	hi := startAt
	for hi+1 < resolution {
		w.step(+1)
		hi++
		v := w.logLikelihood()
		ll[hi] = v
		best = max(best, v)
		if v < best-tailCut {
			break
		}
	}
	w = m.newWalk(p, startAt, sc)
	lo := startAt
	for lo > 0 {
		w.step(-1)
		lo--
		v := w.logLikelihood()
		ll[lo] = v
		best = max(best, v)
		if v < best-tailCut {
			break
		}
	}
	// The right walk stopped against the best seen then; if the peak lay
	// left, the points it skipped are lower still. Normalise as
	// CDistribution::LogNormalize does.
	total := 0.0
	for i := hi; i >= lo; i-- {
		ll[i] = math.Exp(ll[i] - best)
		total += ll[i]
	}
	if total > 0 {
		for i := lo; i <= hi; i++ {
			ll[i] /= total
		}
	}
	return boundValue(ll, lo, hi, +1), boundValue(ll, lo, hi, -1)
}

// scratch is exactdist's working memory, reused from player to player.
type scratch struct {
	dist  []float64
	terms []term
}

func (sc *scratch) grow(points, pairs int) []float64 {
	if len(sc.dist) < points {
		sc.dist = make([]float64, points)
	}
	if len(sc.terms) < pairs {
		sc.terms = make([]term, pairs)
	}
	return sc.dist
}

// boundValue is CCDistribution::GetBoundValue: the point where the
// trapezoid sum of the distribution, from the low end (dir = +1) or the
// high end (dir = -1), reaches (1-confidence)/2, interpolated linearly
// between grid points. Points outside [lo, hi] weigh 0.
func boundValue(p []float64, lo, hi, dir int) float64 {
	const threshold = (1 - confidence) / 2
	begin, end := lo, hi+1
	if dir < 0 {
		begin, end = hi, lo-1
	}
	sum, previous := 0.0, 0.0
	for i := begin; i != end; i += dir {
		newSum := sum + (previous+p[i])/2
		if newSum >= threshold {
			value := gridValue(i - dir)
			return value + (gridValue(i)-value)*(threshold-sum)/(newSum-sum)
		}
		sum, previous = newSum, p[i]
	}
	// Not reached within the window: the rest of the grid weighs 0 (and
	// BayesElo returns its far end).
	if dir > 0 {
		return gridValue(resolution - 1)
	}
	return gridValue(0)
}

// walk evaluates CBradleyTerry::LogLikelihood(p) along exactdist's grid,
// p rated x and every other player moved by the opposite amount shared
// out (GetPlayerDist). With t = 10^(Δ/400) for a pair, every probability of
// the model is a ratio of terms linear in t (k₋ = 10^((drawelo-adv)/400),
// k₊ = 10^((drawelo+adv)/400)):
//
//	p moving first:        win t/(t+k₋)     loss 1/(1+k₊t)   draw t(k₋k₊-1)/((t+k₋)(1+k₊t))
//	the opponent first:    win 1/(1+k₋t)    loss t/(t+k₊)    draw t(k₋k₊-1)/((1+k₋t)(t+k₊))
//
// so a pair's log-likelihood is
//
//	u·(wᵢⱼ+dᵢⱼ+dⱼᵢ+lⱼᵢ) + c·(dᵢⱼ+dⱼᵢ) - (wᵢⱼ+dᵢⱼ)·ln(t+k₋) - (dᵢⱼ+lᵢⱼ)·ln(1+k₊t)
//	                         - (wⱼᵢ+dⱼᵢ)·ln(1+k₋t) - (dⱼᵢ+lⱼᵢ)·ln(t+k₊)
//
// with u = ln t and c = ln(k₋k₊-1): four logarithms, where BayesElo takes
// four powers and six logarithms, and the draw's 1-win-loss, which loses
// digits far from the peak, is exact. From one grid point to the next
// every Δ grows by the same amount, so t is multiplied by a constant.
type walk struct {
	terms  []term
	linear float64 // Σ (u·(wᵢⱼ+dᵢⱼ+dⱼᵢ+lⱼᵢ) + c·(dᵢⱼ+dⱼᵢ)) at the current point
	slope  float64 // how much linear grows per grid point
	ratio  float64 // t's factor per grid point
	kMinus float64
	kPlus  float64
}

// term is one pair's share of the log-likelihood: its t and the weights
// of its four logarithms.
type term struct {
	t, a1, b1, a2, b2 float64
}

// newWalk starts a walk for player p at grid point at.
func (m *model) newWalk(p, at int, sc *scratch) walk {
	pairs := m.pairs[m.start[p]:m.start[p+1]]
	w := walk{terms: sc.terms[:len(pairs)]}
	w.kMinus = math.Pow(10, (m.drawElo-m.advantage)/400)
	w.kPlus = math.Pow(10, (m.drawElo+m.advantage)/400)
	c := math.Log(w.kMinus*w.kPlus - 1)
	x := gridValue(at)
	growth, shift := 1.0, 0.0 // dΔ/dx: p moves by x, the others by -x/(n-1)
	if m.n > 1 {
		growth += 1 / float64(m.n-1)
		shift = (x - m.elo[p]) / float64(m.n-1)
	}
	const ln10over400 = math.Ln10 / 400
	uStep := growth * (gridMax - gridMin) / resolution * ln10over400
	w.ratio = math.Exp(uStep)
	for k, pr := range pairs {
		wij, dij, lij := float64(pr.wij), float64(pr.dij), float64(pr.lij)
		wji, dji, lji := float64(pr.wji), float64(pr.dji), float64(pr.lji)
		u := (x - (m.elo[pr.opp] - shift)) * ln10over400
		w.terms[k] = term{t: math.Exp(u), a1: wij + dij, b1: dij + lij, a2: wji + dji, b2: dji + lji}
		w.linear += u*(wij+dij+dji+lji) + c*(dij+dji)
		w.slope += uStep * (wij + dij + dji + lji)
	}
	return w
}

// step moves to the next grid point up (+1) or down (-1).
func (w *walk) step(dir int) {
	f := w.ratio
	if dir < 0 {
		f = 1 / w.ratio
	}
	for k := range w.terms {
		w.terms[k].t *= f
	}
	w.linear += float64(dir) * w.slope
}

// logLikelihood is p's log-likelihood at the current point.
func (w *walk) logLikelihood() float64 {
	result := w.linear
	for _, e := range w.terms {
		result -= e.a1*math.Log(e.t+w.kMinus) + e.b1*math.Log(1+w.kPlus*e.t) +
			e.a2*math.Log(1+w.kMinus*e.t) + e.b2*math.Log(e.t+w.kPlus)
	}
	return result
}
