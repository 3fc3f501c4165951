package bayeselo_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"gomoku-arena/results/bayeselo"
	"gomoku-arena/results/record"
	"gomoku-arena/results/report"
)

// readPGN reads a PGN file the way BayesElo's readpgn does: players
// numbered in order of first appearance, White first; games without a
// result skipped.
func readPGN(t testing.TB, path string) ([]string, []bayeselo.Game) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var names []string
	index := map[string]int{}
	player := func(name string) int {
		i, ok := index[name]
		if !ok {
			i = len(names)
			index[name] = i
			names = append(names, name)
		}
		return i
	}
	var games []bayeselo.Game
	err = record.ReadPGN(f, path, func(g record.PGNGame) error {
		r := map[string]bayeselo.Result{"1-0": bayeselo.FirstWins, "1/2-1/2": bayeselo.Draw, "0-1": bayeselo.SecondWins}
		if res, ok := r[g.Result]; ok {
			a := player(g.White)
			games = append(games, bayeselo.Game{First: a, Second: player(g.Black), Result: res})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return names, games
}

// The fixture's expected text is BayesElo's own output (version 0057 built
// from its public source, with the dump of the commands in
// testdata/README.md): the `ratings` table and the `los` matrix. Ours must
// be the same, byte for byte: every Elo, interval, score, average opponent
// and draw rate rounded to the same whole number.
func TestMatchesBayesEloOutput(t *testing.T) {
	gomocup := bayeselo.Options{Offset: 1600, Advantage: 0, DrawElo: 0.01}
	for _, c := range []struct {
		name, want string
		opt        bayeselo.Options
	}{
		{"defaults", "league.bayeselo.txt", bayeselo.DefaultOptions()},
		{"gomocup build, offset 1600", "league.gomocup.txt", gomocup},
	} {
		t.Run(c.name, func(t *testing.T) {
			names, games := readPGN(t, filepath.Join("testdata", "league.pgn"))
			list, err := bayeselo.Rate(names, games, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			los, err := list.LOS()
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := report.WriteRatings(&got, list, los, report.Text); err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join("testdata", c.want))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("differs from BayesElo's output\n--- ours\n%s--- BayesElo\n%s", got.String(), want)
			}
		})
	}
}
