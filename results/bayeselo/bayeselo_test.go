package bayeselo

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// fullGridInterval is exactdist as BayesElo's C++ does it, point for point:
// all 1001 grid points, each probability from its powers of ten, the draw
// as 1 - win - loss, then CDistribution::LogNormalize and
// CCDistribution::GetBoundValue over the whole grid. The brute force that
// exactInterval's shortcuts must reproduce.
func fullGridInterval(m *model, p int) (lower, upper float64) {
	prob := func(x float64) float64 { return 1 / (1 + math.Pow(10, x/400)) }
	win := func(d float64) float64 { return prob(-d - m.advantage + m.drawElo) }
	loss := func(d float64) float64 { return prob(d + m.advantage + m.drawElo) }
	ll := make([]float64, resolution)
	for i := range ll {
		x := gridValue(i)
		shift := (x - m.elo[p]) / float64(m.n-1)
		sum := 0.0
		for _, c := range m.pairs[m.start[p]:m.start[p+1]] {
			d := x - (m.elo[c.opp] - shift)
			add := func(n float32, pr float64) {
				if n != 0 {
					sum += float64(n) * math.Log(pr)
				}
			}
			add(c.wij, win(d))
			add(c.dij, 1-win(d)-loss(d))
			add(c.lij, loss(d))
			add(c.wji, win(-d))
			add(c.dji, 1-win(-d)-loss(-d))
			add(c.lji, loss(-d))
		}
		ll[i] = sum
	}
	best := slices.Max(ll)
	total := 0.0
	for i := range ll {
		ll[i] = math.Exp(ll[i] - best)
		total += ll[i]
	}
	for i := range ll {
		ll[i] /= total
	}
	return boundValue(ll, 0, resolution-1, +1), boundValue(ll, 0, resolution-1, -1)
}

// rated runs Rate's steps and keeps the model for inspection.
func rated(t *testing.T, names []string, games []Game, opt Options) (*List, *model) {
	t.Helper()
	l, err := Rate(names, games, opt)
	if err != nil {
		t.Fatal(err)
	}
	return l, l.m
}

// leagues are the shapes a rating list meets: dense and sparse, sweeps,
// two groups joined by one game, strengths far apart.
func leagues() map[string]struct {
	names []string
	games []Game
} {
	out := map[string]struct {
		names []string
		games []Game
	}{}
	add := func(name string, names []string, games []Game) {
		out[name] = struct {
			names []string
			games []Game
		}{names, games}
	}
	n, g := league(1, 12, 600, 0, 200)
	add("dense", n, g)
	n, g = league(2, 60, 1500, 3, 300)
	add("sparse", n, g)
	n, g = league(3, 8, 300, 0, 900)
	add("far apart", n, g)
	n, g = league(4, 10, 400, 0, 150)
	// Player 0 wins every game it plays, and a newcomer loses its only one.
	for k := range g {
		switch {
		case g[k].First == 0:
			g[k].Result = FirstWins
		case g[k].Second == 0:
			g[k].Result = SecondWins
		}
	}
	n = append(n, "newcomer")
	g = append(g, Game{First: len(n) - 1, Second: 3, Result: SecondWins})
	add("sweeps", n, g)
	// Two round robins joined by a single draw.
	var split []Game
	for a := range 10 {
		for b := range 10 {
			if a != b && a/5 == b/5 {
				split = append(split, Game{First: a, Second: b, Result: Result((a + 2*b) % 3)})
			}
		}
	}
	n, apart := firstAppearance([]string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}, slices.Clone(split))
	add("disconnected", n, apart)
	split = append(split, Game{First: 0, Second: 9, Result: Draw})
	n, split = firstAppearance([]string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}, split)
	add("two groups", n, split)
	return out
}

// exactdist's shortcuts (a window around the peak, the likelihood in four
// logarithms, t stepped by a constant factor) give BayesElo's full-grid
// intervals.
func TestExactIntervalIsTheFullGrid(t *testing.T) {
	for name, lg := range leagues() {
		t.Run(name, func(t *testing.T) {
			for _, opt := range []Options{DefaultOptions(), {Advantage: 0, DrawElo: 0.01}} {
				_, m := rated(t, lg.names, lg.games, opt)
				var sc scratch
				for p := range m.n {
					lo, hi := m.exactInterval(p, &sc)
					wantLo, wantHi := fullGridInterval(m, p)
					if math.Abs(lo-wantLo) > 1e-6 || math.Abs(hi-wantHi) > 1e-6 {
						t.Errorf("%+v: player %d: interval [%.9f, %.9f], full grid [%.9f, %.9f]", opt, p, lo, hi, wantLo, wantHi)
					}
				}
			}
		})
	}
}

// The ratings are where MM stops: each player's actual result (prior
// included) equals its expectation under the model, to MM's tolerance.
func TestRatingsAreTheMaximum(t *testing.T) {
	for name, lg := range leagues() {
		t.Run(name, func(t *testing.T) {
			l, m := rated(t, lg.names, lg.games, DefaultOptions())
			if l.Sweeps >= mmMaxSweep {
				t.Skipf("MM stopped at its cap of %d sweeps", mmMaxSweep)
			}
			gamma := make([]float64, m.n)
			for i, e := range m.elo {
				gamma[i] = math.Pow(10, e/400)
			}
			mean := 0.0
			for p := range m.n {
				// The MM update A/B is γ itself at the fixed point.
				var a, b float64
				for _, c := range m.pairs[m.start[p]:m.start[p+1]] {
					og := gamma[c.opp]
					a += float64(c.wij + c.dij + c.lji + c.dji)
					b += float64(c.dij+c.wij)*m.thetaW/(m.thetaW*gamma[p]+m.thetaD*og) +
						float64(c.dij+c.lij)*m.thetaD*m.thetaW/(m.thetaD*m.thetaW*gamma[p]+og) +
						float64(c.dji+c.wji)*m.thetaD/(m.thetaW*og+m.thetaD*gamma[p]) +
						float64(c.dji+c.lji)/(m.thetaD*m.thetaW*og+gamma[p])
				}
				if r := a / b / gamma[p]; math.Abs(r-1) > 1e-3 {
					t.Errorf("player %d: MM would still move γ by a factor %v", p, r)
				}
				mean += m.elo[p] / float64(m.n)
			}
			if math.Abs(mean) > 1e-9 {
				t.Errorf("ratings are not centred: mean %v", mean)
			}
		})
	}
}

// The columns are counts of the games themselves, the offset moves Elo and
// the average opponent only, and the scale is BayesElo's.
func TestColumns(t *testing.T) {
	names, games := league(5, 9, 500, 0, 200)
	l, _ := rated(t, names, games, DefaultOptions())
	moved, _ := rated(t, names, games, Options{Offset: 1600, Advantage: Advantage, DrawElo: DrawElo})
	x := math.Pow(10, -DrawElo/400)
	if want := 4 * x / ((1 + x) * (1 + x)); l.Scale != want {
		t.Errorf("scale %v, want %v", l.Scale, want)
	}
	byName := map[string]Rating{}
	for k, r := range l.Ratings {
		byName[r.Name] = r
		m := moved.Ratings[k]
		if m.Name != r.Name || math.Abs(m.Elo-r.Elo-1600) > 1e-9 || math.Abs(m.Oppo-r.Oppo-1600) > 1e-9 || m.Plus != r.Plus || m.Minus != r.Minus {
			t.Errorf("offset 1600 changed more than Elo and oppo: %+v vs %+v", m, r)
		}
		if k > 0 && r.Elo > l.Ratings[k-1].Elo {
			t.Errorf("not sorted best first at %d", k)
		}
	}
	for i, name := range names {
		var played, draws int
		var points, oppo float64
		for _, g := range gamesOf(games, i) {
			played++
			opp := g.First
			if opp == i {
				opp = g.Second
			}
			oppo += byName[names[opp]].Elo
			switch {
			case g.Result == Draw:
				draws++
				points += 0.5
			case (g.Result == FirstWins) == (g.First == i):
				points++
			}
		}
		r := byName[name]
		if r.Games != played || r.Draws != draws || r.Points != points || math.Abs(r.Oppo-oppo/float64(played)) > 1e-9 {
			t.Errorf("%s: games %d draws %d points %v oppo %v, want %d %d %v %v", name, r.Games, r.Draws, r.Points, r.Oppo, played, draws, points, oppo/float64(played))
		}
	}
}

// gamesOf are the games player i played.
func gamesOf(games []Game, i int) []Game {
	var out []Game
	for _, g := range games {
		if g.First == i || g.Second == i {
			out = append(out, g)
		}
	}
	return out
}

// Numbering the players differently changes only the order of MM's
// sweeps, and so where it stops: by far less than the rounding of the list.
func TestNumberingDoesNotMatter(t *testing.T) {
	for name, lg := range leagues() {
		t.Run(name, func(t *testing.T) {
			l, _ := rated(t, lg.names, lg.games, DefaultOptions())
			n := len(lg.names)
			rev := make([]string, n)
			for i, s := range lg.names {
				rev[n-1-i] = s
			}
			games := slices.Clone(lg.games)
			for k := range games {
				games[k].First, games[k].Second = n-1-games[k].First, n-1-games[k].Second
			}
			r, _ := rated(t, rev, games, DefaultOptions())
			want := map[string]Rating{}
			for _, x := range l.Ratings {
				want[x.Name] = x
			}
			for _, x := range r.Ratings {
				w := want[x.Name]
				if math.Abs(x.Elo-w.Elo) > 0.05 || math.Abs(x.Plus-w.Plus) > 0.05 || math.Abs(x.Minus-w.Minus) > 0.05 {
					t.Errorf("%s: %+v renumbered, %+v before", x.Name, x, w)
				}
			}
		})
	}
}

// Two players with mirrored results are rated alike; the one that scored
// more is rated higher, and the intervals mirror each other.
func TestTwoPlayers(t *testing.T) {
	even := []Game{{0, 1, FirstWins}, {1, 0, FirstWins}, {0, 1, Draw}, {1, 0, Draw}}
	l, _ := rated(t, []string{"a", "b"}, even, DefaultOptions())
	if math.Abs(l.Ratings[0].Elo) > 1e-6 || math.Abs(l.Ratings[1].Elo) > 1e-6 {
		t.Errorf("mirrored results: %+v", l.Ratings)
	}
	won := append(slices.Clone(even), Game{0, 1, FirstWins}, Game{1, 0, SecondWins})
	l, _ = rated(t, []string{"a", "b"}, won, DefaultOptions())
	a, b := l.Ratings[0], l.Ratings[1]
	if a.Name != "a" || a.Elo <= 0 || math.Abs(a.Elo+b.Elo) > 1e-6 || math.Abs(a.Plus-b.Minus) > 1e-6 || math.Abs(a.Minus-b.Plus) > 1e-6 {
		t.Errorf("a scored 4 of 6: %+v, %+v", a, b)
	}
}

// LOS: the two directions of a pair add up to one, and the better rated
// player is the likelier stronger one.
func TestLOS(t *testing.T) {
	for name, lg := range leagues() {
		t.Run(name, func(t *testing.T) {
			l, _ := rated(t, lg.names, lg.games, DefaultOptions())
			los, err := l.LOS()
			if name == "disconnected" {
				if err == nil || !strings.Contains(err.Error(), "no game connects") {
					t.Fatalf("LOS across groups that never met: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for a := range los {
				for b := range los {
					if a == b {
						if los[a][b] != 0 {
							t.Errorf("diagonal %v", los[a][b])
						}
						continue
					}
					if math.Abs(los[a][b]+los[b][a]-1) > 1e-9 || math.IsNaN(los[a][b]) {
						t.Errorf("LOS %d>%d = %v and %d>%d = %v", a, b, los[a][b], b, a, los[b][a])
					}
					if a < b && l.Ratings[a].Elo > l.Ratings[b].Elo && los[a][b] < 0.5 {
						t.Errorf("%s rated above %s but LOS %v", l.Ratings[a].Name, l.Ratings[b].Name, los[a][b])
					}
				}
			}
		})
	}
}

// Every number is finite, whatever the shape of the league.
func TestFinite(t *testing.T) {
	for name, lg := range leagues() {
		l, _ := rated(t, lg.names, lg.games, DefaultOptions())
		for _, r := range l.Ratings {
			for _, v := range []float64{r.Elo, r.Plus, r.Minus, r.Oppo} {
				if math.IsNaN(v) || math.IsInf(v, 0) || r.Plus < 0 || r.Minus < 0 {
					t.Errorf("%s: %+v", name, r)
				}
			}
		}
	}
}

func TestRefuses(t *testing.T) {
	two := []string{"a", "b"}
	for _, c := range []struct {
		name  string
		names []string
		games []Game
		opt   Options
		want  string
	}{
		{"no players", nil, nil, DefaultOptions(), "no players"},
		{"self", two, []Game{{0, 0, Draw}}, DefaultOptions(), "cannot play itself"},
		{"index", two, []Game{{0, 2, Draw}}, DefaultOptions(), "out of range"},
		{"result", two, []Game{{0, 1, 3}}, DefaultOptions(), "result 3"},
		{"idle player", []string{"a", "b", "c"}, []Game{{0, 1, Draw}}, DefaultOptions(), `"c" has no games`},
		{"drawelo 0", two, []Game{{0, 1, Draw}}, Options{}, "drawelo 0"},
		{"offset NaN", two, []Game{{0, 1, Draw}}, Options{Offset: math.NaN(), DrawElo: 1}, "offset"},
		{"advantage huge", two, []Game{{0, 1, Draw}}, Options{Advantage: 1e300, DrawElo: 1}, "advantage"},
	} {
		_, err := Rate(c.names, c.games, c.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
}
