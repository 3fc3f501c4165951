package pairing

import (
	"fmt"
	"strings"
	"testing"
)

// Worked examples derived by hand from the C.04.3 text. Pairing numbers in
// the comments are IDs plus one; "first" is the first mover (Gomoku Black,
// chess White).
func TestDutchWorkedExamples(t *testing.T) {
	six := make([]SwissPlayer, 6)
	for i := range six {
		six[i].ID = i
	}
	nine := make([]SwissPlayer, 9)
	for i := range nine {
		nine[i].ID = i
	}
	tests := []struct {
		name    string
		players []SwissPlayer
		history []Game
		round   int
		want    []Pairing
	}{
		{
			// Round 1 of 6: S1 = {1,2,3}, S2 = {4,5,6}; 1 (odd) first,
			// 2 (even) second, 3 (odd) first.
			name: "first round", players: six, round: 1,
			want: []Pairing{{1, 0, 3}, {1, 4, 1}, {1, 2, 5}},
		},
		{
			// Floaters. After round 1 (1 beat 4, 2 beat 5 as second
			// mover, 3-6 drawn): 1 and 2 on 1, 3 and 6 on 0.5, 4 and 5
			// on 0.
			// Bracket 1: {1,2}. 1 played first (mild: second), 2 played
			// second (mild: first): 2 first against 1.
			// Bracket 0.5: {3,6} have met (absolute criterion), so both
			// float down (C6 cannot do better).
			// Bracket 0: MDPs 3, 6 and residents 4, 5. C6: two pairs,
			// both MDPs paired (C7), i.e. 3-4/6-5 or 3-5/6-4. C12: 3
			// wants second, 6 first, 4 first, 5 second: 3-4 and 6-5
			// grant all four; 3-5 and 6-4 deny two. So 4 first against
			// 3, 6 first against 5; 3 and 6 get downfloats, 4 and 5
			// upfloats.
			name: "moved-down players and colours", players: six, round: 2,
			history: []Game{
				Decided(1, 0, 3, 1), Decided(1, 4, 1, 0), Decided(1, 2, 5, 0.5),
			},
			want: []Pairing{{2, 1, 0}, {2, 3, 2}, {2, 5, 4}},
		},
		{
			// Absolute preferences and the stronger-preference rule.
			//   R1: 1 first v 3, 1 wins; 4 first v 2, 2 wins.
			//   R2: 3 first v 2, 2 wins; 4 first v 1, drawn.
			// Scores 2: 2, 1: 1.5, 4: 0.5, 3: 0. Colours played:
			//   1 f,s (cd 0, last second: mild first)
			//   2 s,s (same colour twice: absolute first)
			//   3 s,f (mild second)
			//   4 f,f (absolute second)
			// Every scoregroup has one player. 2 floats down into {1}:
			// 2 has met 3 and 4, so 2-1; then 4 floats into {3}: 4-3.
			// Colours (rule 2, the stronger preference): 2 (absolute
			// first) beats 1 (mild first), so 2 first; 4 (absolute
			// second) beats 3 (mild second), so 3 first.
			name: "absolute beats mild", players: six[:4], round: 3,
			history: []Game{
				Decided(1, 0, 2, 1), Decided(1, 3, 1, 0),
				Decided(2, 2, 1, 0), Decided(2, 3, 0, 0.5),
			},
			want: []Pairing{{3, 1, 0}, {3, 2, 3}},
		},
		{
			// Transpositions before exchanges (C.04.3: every
			// transposition of S2 is tried before the first exchange).
			// Round 1 of 9 (IDs): 0 beat 4 and 2 beat 6 as first
			// movers, 1 beat 5 and 7 beat 3 as second movers, 8 had the
			// bye. Scoregroup 1: pairing numbers 1, 2, 3, 8, 9 (IDs 0, 1,
			// 2, 7, 8), homogeneous, P = 2: S1 = {1, 2}, S2 = {3, 8, 9}.
			// Preferences: 1, 3, 8 second; 2 first; 9 none. C12 grants
			// all four preferences only with 2 against one of 1, 3, 8 and
			// 9 against another, the third floating; the floats, scores
			// and colours are then equal, so the generation order
			// decides. Without exchanges S1 = {1, 2}: 1's lowest
			// opponent granting C12 is 9 (1-3 and 1-8 both want
			// second), then 2's is 3, and 8 floats: 9 first v 1, 2 first
			// v 3. The pairing 1-2, 3-9 (floater 8) is equal on every
			// criterion but needs S1 = {1, 3}, an exchange; the old
			// weights (ranks and S1[i]-v-S2[i] distances) chose it.
			// Scoregroup 0: MDP 8 (second) and residents 4, 5, 6, 7
			// (IDs 3-6; first, first, second, first), one bye. 8 met 4,
			// so its lowest possible opponent is 5 (5 first). The
			// remainder {4, 6, 7}, P = 1: 4 against 6 grants both
			// preferences (4 first), 7 gets the bye.
			name: "transpositions before exchanges", players: nine, round: 2,
			history: []Game{
				Decided(1, 0, 4, 1), Decided(1, 5, 1, 0), Decided(1, 2, 6, 1),
				Decided(1, 7, 3, 1), AllocatedBye(1, 8),
			},
			want: []Pairing{{2, 8, 0}, {2, 1, 2}, {2, 4, 7}, {2, 3, 5}, {2, 6, Bye}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := PairSwiss(tc.players, tc.history, tc.round, SwissOptions{Rounds: 5})
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestBigBracketKeepsEveryCriterion pairs one homogeneous bracket of 1001
// players, wide enough that a 120-bit weight had to drop its lowest fields.
// Round 1 paired i against i+501 (0-based), all drawn; 1001 withdrew. So in
// round 2 everyone has half a point: players 0..500 moved first (mild
// preference: second), 501..1000 moved second (mild: first). 1001 players
// need a bye. Giving it to a second-preferring player leaves 500 of each
// preference and every preference granted (C12, high in the weight); giving
// it to anyone else denies one. Among the second-preferring players the
// lowest ranked, 500 (pairing number 501), gets it (the bye-rank field, low
// in the weight). Both must act.
func TestBigBracketKeepsEveryCriterion(t *testing.T) {
	players := make([]SwissPlayer, 1002)
	for i := range players {
		players[i].ID = i
	}
	players[1001].Withdrawn = true
	var h []Game
	for i := range 501 {
		h = append(h, Decided(1, i, i+501, 0.5))
	}
	got, err := PairSwiss(players, h, 2, SwissOptions{Rounds: 9})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 501 {
		t.Fatalf("%d pairings, want 500 pairs and a bye", len(got))
	}
	for _, p := range got {
		if p.White == Bye {
			if p.Black != 500 {
				t.Errorf("bye to %d, want 500", p.Black)
			}
			continue
		}
		if p.Black < 501 || p.White > 500 {
			t.Errorf("%v: a colour preference denied", p)
		}
	}
}

// A round whose bracket would hold more pairs than the memory bounds allow
// is refused with an error naming the bracket and the count, not paired
// until memory runs out: the bit sets of the pairs (every bracket), and the
// whole graph where a matching stores it (a small graph, or one the sparse
// matcher cannot certify).
func TestBracketBeyondMemoryBoundIsRefused(t *testing.T) {
	for _, c := range []struct {
		name  string
		bound *int
		what  string
	}{
		{"pair sets", &maxBracketPairs, "pairs of players"},
		{"whole graph", &maxBracketEdges, "possible pairs to match whole"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newSim(t, 120, 5, 4)
			s.pairAndPlay(1)
			old := *c.bound
			*c.bound = 500
			defer func() { *c.bound = old }()
			_, err := PairSwiss(s.players, s.history, 2, s.opt)
			if err == nil || !strings.Contains(err.Error(), "round 2: a bracket of") || !strings.Contains(err.Error(), c.what+", more than the 500 this pairing holds in memory") {
				t.Fatalf("got %v, want the memory bound's error on %s", err, c.what)
			}
			*c.bound = old
			if _, err := PairSwiss(s.players, s.history, 2, s.opt); err != nil {
				t.Fatalf("within the bound: %v", err)
			}
		})
	}
}

// A later matching of a bracket (the generation order's trials, the tight
// graph, the exchange keys) that would have to be stored whole is refused
// too, after a first matching the sparse matcher certified: here the sparse
// matcher stops finding certificates once it has found the first one.
func TestLaterMatchingBeyondMemoryBoundIsRefused(t *testing.T) {
	s := newSim(t, 120, 5, 4)
	s.pairAndPlay(1)
	old := []int{sparseFrom, sparseDensity, sparseRetries, maxBracketEdges}
	defer func() {
		sparseFrom, sparseDensity, sparseRetries, maxBracketEdges = old[0], old[1], old[2], old[3]
		sparseSolved = nil
	}()
	// Brackets of 60 (1,770 pairs) go through the sparse matcher.
	sparseFrom, sparseDensity, maxBracketEdges = 16, 2, 500
	first := 0
	sparseSolved = func(int, []matchEdge, bool, []int) {
		first++
		sparseRetries = 0
	}
	_, err := PairSwiss(s.players, s.history, 2, s.opt)
	if first != 1 || err == nil || !strings.Contains(err.Error(), "round 2: a bracket of") || !strings.Contains(err.Error(), "pairs left to match whole, more than the 500 this pairing holds in memory") {
		t.Fatalf("got %v after %d certified matchings, want the memory bound's error on a later matching after 1", err, first)
	}
	sparseRetries, sparseSolved = old[2], nil
	if _, err := PairSwiss(s.players, s.history, 2, s.opt); err != nil {
		t.Fatalf("with certificates: %v", err)
	}
}
