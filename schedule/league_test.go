package schedule

import (
	"fmt"
	"testing"

	"gomoku-arena/arbiter"
	"gomoku-arena/pairing"
	"gomoku-arena/rules"
)

// A league of mini-matches lays out, for every pair, 2N games in a row of
// rounds: the same N openings for every pair, chosen by the seed from the
// longer list, each once with each colour; no entrant in two games of a
// round; one Pairing number per mini-match.
func TestLeagueFixtures(t *testing.T) {
	var list [][]rules.Point
	for i := range 16 {
		list = append(list, []rules.Point{{X: 10, Y: 10}, {X: i % 8, Y: i / 8}})
	}
	for _, c := range []struct {
		format   pairing.Format
		n, pairs int
	}{{pairing.RoundRobinFormat, 10, 45}, {pairing.RoundRobinFormat, 5, 10}, {pairing.GauntletFormat, 6, 5}} {
		t.Run(fmt.Sprintf("%s of %d", c.format, c.n), func(t *testing.T) {
			tour := &Tournament{Director: &arbiter.Director{Entrants: make([]arbiter.Entrant, c.n)}, Format: c.format, Openings: list, Seed: 7, OpeningsPerPairing: 12}
			fs, err := tour.Fixtures()
			if err != nil {
				t.Fatal(err)
			}
			if len(fs) != 24*c.pairs {
				t.Fatalf("%d games, want 24 for each of %d pairs", len(fs), c.pairs)
			}
			chosen := map[string]bool{}
			type pair struct{ a, b int }
			games := map[pair]map[string]int{} // opening and who moved first: games
			units := map[pair]map[int]bool{}
			busy := map[[2]int]bool{} // round, entrant
			for i, f := range fs {
				if f.Number != i+1 {
					t.Fatalf("game %d numbered %d", i+1, f.Number)
				}
				for _, e := range []int{f.Black, f.White} {
					if busy[[2]int{f.Round, e}] {
						t.Errorf("round %d: entrant %d in two games", f.Round, e)
					}
					busy[[2]int{f.Round, e}] = true
				}
				k := pair{min(f.Black, f.White), max(f.Black, f.White)}
				if games[k] == nil {
					games[k], units[k] = map[string]int{}, map[int]bool{}
				}
				o := fmt.Sprint(f.Opening)
				chosen[o] = true
				games[k][fmt.Sprintf("%s black %d", o, f.Black)]++
				units[k][f.Pairing] = true
				if f.Game != (f.Round-1)%24 || fmt.Sprint(tour.matchOpenings()[f.Game/2]) != o {
					t.Errorf("game %d: place %d in its mini-match, round %d, opening %s", f.Number, f.Game, f.Round, o)
				}
			}
			if len(chosen) != 12 {
				t.Errorf("%d openings played, want the same 12 for every pair", len(chosen))
			}
			for k, g := range games {
				if len(g) != 24 || len(units[k]) != 1 {
					t.Errorf("pair %v: %d distinct (opening, first mover) games, %d pairings: want 24 in one", k, len(g), len(units[k]))
				}
				for what, n := range g {
					if n != 1 {
						t.Errorf("pair %v: %s played %d times", k, what, n)
					}
				}
			}
		})
	}
}

// The seed chooses which openings a league plays; the same seed chooses the
// same, and a list of exactly N is played whole.
func TestLeagueOpeningsBySeed(t *testing.T) {
	var list [][]rules.Point
	for i := range 20 {
		list = append(list, []rules.Point{{X: i, Y: 0}})
	}
	pick := func(seed uint64, n int) string {
		tour := &Tournament{Openings: list[:n], Seed: seed, OpeningsPerPairing: 12}
		return fmt.Sprint(tour.matchOpenings())
	}
	if first, again := pick(1, 20), pick(1, 20); first != again {
		t.Error("one seed chose two sets")
	}
	if pick(1, 20) == pick(2, 20) {
		t.Error("seeds 1 and 2 chose the same 12 of 20 (possible, but not for these seeds)")
	}
	if pick(1, 12) != fmt.Sprint(list[:12]) {
		t.Errorf("a list of 12 played as %s", pick(1, 12))
	}
}
