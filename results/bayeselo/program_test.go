package bayeselo_test

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gomoku-arena/results/bayeselo"
	"gomoku-arena/results/rating"
)

// TestAgainstBayesEloProgram runs a BayesElo program, built from its
// public source, on made leagues and holds every engine's list line to
// ours: Elo within 1 after centring, the interval's ends within 2, games,
// score and draws equal, average opponent within 1. It needs the program:
// BAYESELO=/path/to/bayeselo (with Rémi Coulom's defaults, advantage 32.8
// and drawelo 97.3).
func TestAgainstBayesEloProgram(t *testing.T) {
	program := os.Getenv("BAYESELO")
	if program == "" {
		t.Skip("set BAYESELO to a bayeselo program built from its public source to compare with it")
	}
	if testing.Short() {
		t.Skip("BayesElo takes minutes on the larger leagues; not in -short")
	}
	for _, c := range []struct {
		seed                              uint64
		players, games, opponents, spread int
	}{
		{1, 2, 10, 0, 100}, {2, 8, 300, 0, 600}, {3, 40, 4000, 0, 200}, {4, 120, 12000, 3, 300}, {5, 300, 60000, 0, 250},
	} {
		t.Run(fmt.Sprintf("%d players, %d games", c.players, c.games), func(t *testing.T) {
			names, games := bayeselo.League(c.seed, c.players, c.games, c.opponents, float64(c.spread))
			dir := t.TempDir()
			pgn := filepath.Join(dir, "league.pgn")
			var b bytes.Buffer
			for _, g := range games {
				rating.WriteRatingPGN(&b, names[g.First], names[g.Second], float64(g.Result)/2)
			}
			os.WriteFile(pgn, b.Bytes(), 0o644)
			cmd := exec.Command(program)
			cmd.Dir = dir
			cmd.Stdin = strings.NewReader("readpgn league.pgn\nelo\nmm\nexactdist\nratings\nx\nx\n")
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s: %v", program, err)
			}
			theirs := parseRatings(t, string(out))
			list, err := bayeselo.Rate(names, games, bayeselo.DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			if len(theirs) != len(list.Ratings) {
				t.Fatalf("BayesElo lists %d engines, we %d", len(theirs), len(list.Ratings))
			}
			var ourMean, theirMean float64
			for _, r := range list.Ratings {
				ourMean += r.Elo / float64(len(list.Ratings))
				theirMean += theirs[r.Name][0] / float64(len(list.Ratings))
			}
			for _, r := range list.Ratings {
				th := theirs[r.Name]
				if math.Abs((r.Elo-ourMean)-(th[0]-theirMean)) > 1 || math.Abs(r.Plus-th[1]) > 2 || math.Abs(r.Minus-th[2]) > 2 ||
					float64(r.Games) != th[3] || math.Round(r.Score()) != th[4] || math.Abs(r.Oppo-th[5]) > 1 || math.Round(r.DrawRate()) != th[6] {
					t.Errorf("%s: ours %+v, BayesElo's %v", r.Name, r, th)
				}
			}
		})
	}
}

// parseRatings reads BayesElo's ratings table: name → Elo, +, -, games,
// score %, oppo., draws %.
func parseRatings(t *testing.T, out string) map[string][7]float64 {
	t.Helper()
	lines := strings.Split(out, "\n")
	got := map[string][7]float64{}
	on := false
	for _, l := range lines {
		l = strings.TrimLeft(l, ">") // prompts
		if i := strings.Index(l, "Rank Name"); i >= 0 {
			on = true
			continue
		}
		f := strings.Fields(l)
		if !on || len(f) != 9 {
			if on && len(got) > 0 {
				break
			}
			continue
		}
		var v [7]float64
		for k, s := range f[2:] {
			x, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
			if err != nil {
				t.Fatalf("BayesElo line %q: %v", l, err)
			}
			v[k] = x
		}
		got[f[1]] = v
	}
	return got
}
