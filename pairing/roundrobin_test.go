package pairing

import (
	"errors"
	"reflect"
	"testing"
)

// checkRoundRobin verifies the invariants of a round robin of n entrants
// played cycles times: everyone plays (or has the bye) exactly once a round,
// each pair meets exactly cycles times, byes only for odd n and spread
// evenly, and colours as balanced as the format allows.
func checkRoundRobin(t *testing.T, n, cycles int, rounds [][]Pairing) {
	t.Helper()
	m := n + n%2
	if want := cycles * (m - 1); len(rounds) != want {
		t.Fatalf("n=%d: %d rounds, want %d", n, len(rounds), want)
	}
	type pair struct{ a, b int }
	met := map[pair]int{}
	blackAgainst := map[pair]int{} // a had Black against b
	black := make([]int, n)
	byes := make([]int, n)
	for ri, round := range rounds {
		seen := make([]bool, n)
		for _, p := range round {
			if p.Round != ri+1 {
				t.Fatalf("n=%d: pairing %+v in round %d", n, p, ri+1)
			}
			for _, e := range []int{p.Black, p.White} {
				if e == Bye {
					continue
				}
				if e < 0 || e >= n {
					t.Fatalf("n=%d: entrant %d out of range in %+v", n, e, p)
				}
				if seen[e] {
					t.Fatalf("n=%d round %d: entrant %d twice", n, ri+1, e)
				}
				seen[e] = true
			}
			if p.White == Bye {
				if n%2 == 0 {
					t.Fatalf("n=%d: bye with an even count: %+v", n, p)
				}
				byes[p.Black]++
				continue
			}
			a, b := min(p.Black, p.White), max(p.Black, p.White)
			met[pair{a, b}]++
			blackAgainst[pair{p.Black, p.White}]++
			black[p.Black]++
		}
		for e, ok := range seen {
			if !ok {
				t.Fatalf("n=%d round %d: entrant %d does not play", n, ri+1, e)
			}
		}
	}
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			if met[pair{a, b}] != cycles {
				t.Errorf("n=%d: %d and %d meet %d times, want %d", n, a, b, met[pair{a, b}], cycles)
			}
			if cycles == 2 && (blackAgainst[pair{a, b}] != 1 || blackAgainst[pair{b, a}] != 1) {
				t.Errorf("n=%d: %d and %d do not have one Black each", n, a, b)
			}
		}
	}
	for e := 0; e < n; e++ {
		if want := cycles * (n % 2); byes[e] != want {
			t.Errorf("n=%d: entrant %d has %d byes, want %d", n, e, byes[e], want)
		}
		lo, hi := cycles*(n-1)/2, cycles*n/2 // ⌊c(n−1)/2⌋ and ⌈c(n−1)/2⌉
		if black[e] < lo || black[e] > hi {
			t.Errorf("n=%d: entrant %d has Black %d times, want %d..%d", n, e, black[e], lo, hi)
		}
	}
}

func countGames(rounds [][]Pairing) (games, byes int) {
	for _, r := range rounds {
		for _, p := range r {
			if p.White == Bye {
				byes++
			} else {
				games++
			}
		}
	}
	return games, byes
}

func TestRoundRobinBergerTableSix(t *testing.T) {
	// FIDE C.05 Annex 1, six players, White (our Black) named first:
	// 1: 1-6 2-5 3-4 | 2: 6-4 5-3 1-2 | 3: 2-6 3-1 4-5 | 4: 6-5 1-4 2-3 | 5: 3-6 4-2 5-1
	fide := [][][2]int{
		{{1, 6}, {2, 5}, {3, 4}},
		{{6, 4}, {5, 3}, {1, 2}},
		{{2, 6}, {3, 1}, {4, 5}},
		{{6, 5}, {1, 4}, {2, 3}},
		{{3, 6}, {4, 2}, {5, 1}},
	}
	got := RoundRobin(6)
	for r, boards := range fide {
		var want []Pairing
		for _, b := range boards {
			want = append(want, Pairing{Round: r + 1, Black: b[0] - 1, White: b[1] - 1})
		}
		if !reflect.DeepEqual(got[r], want) {
			t.Errorf("round %d: got %v, want %v", r+1, got[r], want)
		}
	}
}

func TestRoundRobinOddHasByes(t *testing.T) {
	// Five entrants are Berger's six players with player 6 a dummy: the
	// boards against it become byes, listed last.
	got := RoundRobin(5)
	want := [][]Pairing{
		{{1, 1, 4}, {1, 2, 3}, {1, 0, Bye}},
		{{2, 4, 2}, {2, 0, 1}, {2, 3, Bye}},
		{{3, 2, 0}, {3, 3, 4}, {3, 1, Bye}},
		{{4, 0, 3}, {4, 1, 2}, {4, 4, Bye}},
		{{5, 3, 1}, {5, 4, 0}, {5, 2, Bye}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}

func TestFormatsByEntrantCount(t *testing.T) {
	tests := []struct {
		name     string
		entrants int
		format   Format
		rounds   int
		games    int
		byes     int
	}{
		{"two play each other twice", 2, DoubleRoundRobinFormat, 2, 2, 0},
		{"six: double round robin", 6, DoubleRoundRobinFormat, 10, 30, 0},
		{"seven: single round robin with a bye a round", 7, RoundRobinFormat, 7, 21, 7},
		{"twelve: single round robin", 12, RoundRobinFormat, 11, 66, 0},
		{"thirteen: swiss", 13, SwissFormat, 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Resolve(FormatAuto, tt.entrants)
			if f != tt.format {
				t.Fatalf("Resolve(auto, %d) = %q, want %q", tt.entrants, f, tt.format)
			}
			rounds, err := Schedule(FormatAuto, tt.entrants)
			if f == SwissFormat {
				if !errors.Is(err, ErrPairedByRound) {
					t.Fatalf("Schedule(swiss): err = %v, want ErrPairedByRound", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			games, byes := countGames(rounds)
			if len(rounds) != tt.rounds || games != tt.games || byes != tt.byes {
				t.Errorf("%d rounds, %d games, %d byes; want %d, %d, %d", len(rounds), games, byes, tt.rounds, tt.games, tt.byes)
			}
			cycles := 1
			if f == DoubleRoundRobinFormat {
				cycles = 2
			}
			checkRoundRobin(t, tt.entrants, cycles, rounds)
		})
	}
}

func TestDoubleRoundRobinSixColours(t *testing.T) {
	black := make([]int, 6)
	white := make([]int, 6)
	for _, r := range DoubleRoundRobin(6) {
		for _, p := range r {
			black[p.Black]++
			white[p.White]++
		}
	}
	for e := range 6 {
		if black[e] != 5 || white[e] != 5 {
			t.Errorf("entrant %d: %d Black, %d White; want 5 and 5", e, black[e], white[e])
		}
	}
}

func TestRoundRobinProperties(t *testing.T) {
	for n := 2; n <= 40; n++ {
		checkRoundRobin(t, n, 1, RoundRobin(n))
		checkRoundRobin(t, n, 2, DoubleRoundRobin(n))
		if !reflect.DeepEqual(RoundRobin(n), RoundRobin(n)) {
			t.Fatalf("n=%d: not deterministic", n)
		}
	}
}

func TestRoundRobinTooFew(t *testing.T) {
	for _, n := range []int{-1, 0, 1} {
		if r := RoundRobin(n); r != nil {
			t.Errorf("RoundRobin(%d) = %v, want nil", n, r)
		}
		if r := Gauntlet(n); r != nil {
			t.Errorf("Gauntlet(%d) = %v, want nil", n, r)
		}
	}
}

func TestGauntlet(t *testing.T) {
	got := Gauntlet(4)
	want := [][]Pairing{{{1, 0, 1}}, {{2, 2, 0}}, {{3, 0, 3}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Gauntlet(4) = %v, want %v", got, want)
	}
	for n := 2; n <= 20; n++ {
		for games := 1; games <= 4; games++ {
			rounds := GauntletGames(n, games)
			if len(rounds) != (n-1)*games {
				t.Fatalf("n=%d games=%d: %d rounds", n, games, len(rounds))
			}
			zeroBlack := 0
			perOpp := make([]int, n)
			oppBlack := make([]int, n)
			for i, r := range rounds {
				if len(r) != 1 || r[0].Round != i+1 {
					t.Fatalf("n=%d games=%d: round %d = %v", n, games, i+1, r)
				}
				p := r[0]
				switch {
				case p.Black == 0:
					zeroBlack++
					perOpp[p.White]++
				case p.White == 0:
					perOpp[p.Black]++
					oppBlack[p.Black]++
				default:
					t.Fatalf("entrant 0 not in %v", p)
				}
			}
			if total := (n - 1) * games; zeroBlack != (total+1)/2 {
				t.Errorf("n=%d games=%d: entrant 0 has Black %d of %d", n, games, zeroBlack, total)
			}
			for opp := 1; opp < n; opp++ {
				if perOpp[opp] != games || oppBlack[opp] < games/2 || oppBlack[opp] > (games+1)/2 {
					t.Errorf("n=%d games=%d: opponent %d plays %d, Black %d", n, games, opp, perOpp[opp], oppBlack[opp])
				}
			}
		}
	}
}
