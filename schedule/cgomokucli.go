package schedule

import "fmt"

// c-gomoku-cli's conventions (github.com/dhbloo/c-gomoku-cli, src/jobs.cpp,
// openings.cpp, game.cpp, position.cpp, util.cpp), for `arena gomoku-cli`
// to play the same games as that tool from the same command line. Where the
// arena's own conventions differ they stay the arena's default: a match
// folder written with them must resume with them.

// Style is whose conventions a match's schedule follows where the arena
// and c-gomoku-cli differ.
type Style uint8

const (
	// StyleArena: game k of every encounter takes the suite's k-th deal (all
	// encounters play the same openings), colours alternate over the
	// encounter's games, and the first entrant is Black in its first game.
	StyleArena Style = iota
	// StyleCGomokuCli: the n-th game of the whole match takes the n-th deal
	// (c-gomoku-cli's job index); colours alternate within each encounter's
	// games of a round, starting again every round; and the first entrant
	// moves first after the opening, so after an opening with an odd number
	// of stones (White to move) it plays White. Random orders use
	// c-gomoku-cli's generator and shuffle (CGomokuCliShuffle) and -transform
	// its sequence of symmetries (CGomokuCliSymmetry).
	StyleCGomokuCli
)

func (s Style) String() string {
	switch s {
	case StyleArena:
		return "arena"
	case StyleCGomokuCli:
		return "c-gomoku-cli"
	}
	return fmt.Sprintf("Style(%d)", s)
}

// splitMix64 is c-gomoku-cli's prng() (util.cpp): SplitMix64, advancing
// state.
func splitMix64(state *uint64) uint64 {
	*state += 0x9E3779B97F4A7C15
	z := *state
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// CGomokuCliShuffle is the order c-gomoku-cli plays an opening list of n
// lines in under "-openings order=random srand=seed" (openings.cpp): a
// Fisher–Yates shuffle from the last line down, drawing j = prng() mod (i+1)
// from SplitMix64 seeded with srand. order[p] is the line (from 0) played
// p-th in every pass.
func CGomokuCliShuffle(n int, seed uint64) []int {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j := int(splitMix64(&seed) % uint64(i+1))
		order[i], order[j] = order[j], order[i]
	}
	return order
}

// cgomokuSymmetry maps c-gomoku-cli's TransformType (position.h: identity,
// rotate 90, 180, 270, flip x, flip y, flip xy, flip yx) to the symmetry
// index of rules.Transform that moves stones the same way.
var cgomokuSymmetry = [8]int{0, 3, 2, 1, 6, 4, 7, 5}

// CGomokuCliSymmetry is the rules.Transform index of the symmetry that
// c-gomoku-cli's -transform applies in pass p through the opening list
// (game.cpp: TransformType(p mod 8)).
func CGomokuCliSymmetry(pass int) int { return cgomokuSymmetry[pass%len(cgomokuSymmetry)] }
