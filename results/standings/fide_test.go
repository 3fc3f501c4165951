package standings

import (
	"fmt"
	"testing"

	"gomoku-arena/pairing"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// Tests written from the text of the FIDE Tie-Break Regulations (C.07, the
// text applied from 1 March 2026), each with its expected values worked out
// by hand in the comments.

// playSchedule plays a round robin schedule with winner deciding each game
// from the pair and how often they have met before (0 for the first game):
// it returns the winner, or -1 for a draw.
func playSchedule(rounds [][]pairing.Pairing, winner func(a, b, leg int) int) []GameResult {
	var games []GameResult
	legs := map[[2]int]int{}
	for _, round := range rounds {
		for _, p := range round {
			if p.White == pairing.Bye {
				games = append(games, ByeResult(p.Round, p.Black))
				continue
			}
			key := [2]int{min(p.Black, p.White), max(p.Black, p.White)}
			w := winner(key[0], key[1], legs[key])
			legs[key]++
			switch w {
			case -1:
				games = append(games, Played(p.Round, p.Black, p.White, 0.5, record.FullBoard))
			case p.Black:
				games = append(games, Played(p.Round, p.Black, p.White, 1, record.Five))
			default:
				games = append(games, Played(p.Round, p.Black, p.White, 0, record.Five))
			}
		}
	}
	return games
}

func byEntrant(st []Standing) map[int]Standing {
	m := map[int]Standing{}
	for _, s := range st {
		m[s.Entrant] = s
	}
	return m
}

// A double round robin of five entrants A..E (0..4): ten rounds, each
// entrant rests in two, so the maximum possible score is 8, not 10, and the
// Koya threshold (50% of it) is 4.
//
//	A beats everyone twice                          A 8
//	B-C two draws, B beats D twice, B-E one each    B 1 + 2 + 1 = 4
//	C-D one each, C beats E twice                   C 1 + 1 + 2 = 4
//	D-E one each                                    D 0 + 1 + 1 = 2
//	                                                E 1 + 0 + 1 = 2
//
// Koya: opponents on 4 or more are A, B and C.
//
//	A: B 2 + C 2 = 4;  B: A 0 + C 1 = 1;  C: A 0 + B 1 = 1
//	D: A 0 + B 0 + C 1 = 1;  E: A 0 + B 1 + C 0 = 1
//
// Direct encounter (6.1.2: two games count as their average): B and C drew
// twice, ½ each (not 1); D and E won one each, ½ each. Neither pair is
// separated.
func TestKoyaOddDoubleRoundRobin(t *testing.T) {
	beats := func(a, b, leg int) int {
		switch [2]int{a, b} {
		case [2]int{1, 2}:
			return -1
		case [2]int{1, 3}, [2]int{2, 4}:
			return a
		case [2]int{1, 4}, [2]int{2, 3}, [2]int{3, 4}:
			if leg == 0 {
				return a
			}
			return b
		}
		return a // A (0) beats everyone
	}
	games := playSchedule(pairing.DoubleRoundRobin(5), beats)
	opt := Options{Tiebreaks: []Tiebreak{Koya, DirectEncounter}} // Koya first
	st, err := Standings(5, games, opt)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]struct{ points, koya, de float64 }{
		0: {8, 4, 0}, 1: {4, 1, 0.5}, 2: {4, 1, 0.5}, 3: {2, 1, 0.5}, 4: {2, 1, 0.5},
	}
	for e, s := range byEntrant(st) {
		w := want[e]
		if s.Points != w.points || s.Tiebreaks[0] != w.koya {
			t.Errorf("entrant %d: %g points, Koya %g; want %g, %g", e, s.Points, s.Tiebreaks[0], w.points, w.koya)
		}
		if e != 0 && s.Tiebreaks[1] != w.de {
			t.Errorf("entrant %d: DE %g, want %g (the average of the games)", e, s.Tiebreaks[1], w.de)
		}
	}
	if st[0].Entrant != 0 || st[1].Rank != 2 || st[1].RankTo != 3 || st[3].Rank != 4 || st[3].RankTo != 5 {
		t.Errorf("places: %s", dump(st))
	}
}

// An odd single round robin of nine: each entrant plays 8 games and rests
// one round, so the Koya threshold is 4 points. Entrant i beats every j > i:
// i scores 8 - i, so 0..4 (8, 7, 6, 5, 4 points) qualify. Entrant 4's Koya
// is its points against 0..3 (0), entrant 5's against 0..4 (0), and entrant
// 0's is 4 (it beat 1..4). With the rest round counted as a game (a
// threshold of 4.5) entrant 0 would have 3.
func TestKoyaOddRoundRobinNine(t *testing.T) {
	games := playSchedule(pairing.RoundRobin(9), func(a, b, _ int) int { return a })
	st, err := Standings(9, games, Options{Tiebreaks: []Tiebreak{Koya}})
	if err != nil {
		t.Fatal(err)
	}
	for e, s := range byEntrant(st) {
		want := 0.0
		if e < 4 {
			want = float64(4 - e) // wins against e+1..4
		}
		if s.Points != float64(8-e) || s.Tiebreaks[0] != want {
			t.Errorf("entrant %d: %g points, Koya %g; want %d, %g", e, s.Points, s.Tiebreaks[0], 8-e, want)
		}
	}
}

// A Swiss where two tied entrants' game was a forfeit: 6.1.1, a forfeit is
// not an encounter. 0 wins against 1 by 1's refusal, 2 beats 3; then 2
// beats 0 and 1 beats 3. 0 and 1 tie on 1 point and have not met over the
// board, so direct encounter cannot separate them: they share 2nd-3rd. In a
// round robin (pairings predetermined) the forfeit counts as their game and
// 0 is ahead.
func TestDirectEncounterSwissForfeit(t *testing.T) {
	games := []GameResult{
		Played(1, 0, 1, 1, record.Refusal),
		Played(1, 2, 3, 1, record.Five),
		Played(2, 2, 0, 1, record.Five),
		Played(2, 1, 3, 1, record.Five),
	}
	for _, swiss := range []bool{true, false} {
		st, err := Standings(4, games, Options{Swiss: swiss, ByePoints: 1, Tiebreaks: []Tiebreak{DirectEncounter}})
		if err != nil {
			t.Fatal(err)
		}
		m := byEntrant(st)
		if swiss {
			if m[0].Rank != 2 || m[0].RankTo != 3 || m[1].Rank != 2 || m[0].Tiebreaks[0] != 0 || m[1].Tiebreaks[0] != 0 {
				t.Errorf("swiss: the forfeit counted as an encounter:\n%s", dump(st))
			}
		} else if m[0].Rank != 2 || m[0].RankTo != 2 || m[1].Rank != 3 || m[0].Tiebreaks[0] != 1 {
			t.Errorf("round robin: the forfeit should decide:\n%s", dump(st))
		}
	}
}

// 6.3: X (0), Y (1) and Z (2) tie on 2 points; Y and Z have not met. X beat
// both: 2 points in the group, and no one else can reach 2 whatever the
// missing game gives (Y and Z have 0 and one missing game each, at most 1).
// X is ranked first; Y and Z, who never met, stay tied.
//
//	R1: X beats Y; Z beats 3; 4 draws 5
//	R2: X beats Z; Y beats 4; 3 draws 5
//	R3: 3 beats X; Y beats 5; Z beats 4
//	X 2, Y 2, Z 2, 3 1.5, 5 1, 4 0.5
func TestDirectEncounterNotAllMet(t *testing.T) {
	games := []GameResult{
		Played(1, 0, 1, 1, record.Five), Played(1, 2, 3, 1, record.Five), Played(1, 4, 5, 0.5, record.FullBoard),
		Played(2, 0, 2, 1, record.Five), Played(2, 1, 4, 1, record.Five), Played(2, 3, 5, 0.5, record.FullBoard),
		Played(3, 3, 0, 1, record.Five), Played(3, 1, 5, 1, record.Five), Played(3, 2, 4, 1, record.Five),
	}
	st, err := Standings(6, games, Options{Swiss: true, ByePoints: 1, Rounds: 3, Tiebreaks: []Tiebreak{DirectEncounter}})
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprintf("%d:%d-%d %d:%d-%d %d:%d-%d", st[0].Entrant, st[0].Rank, st[0].RankTo, st[1].Entrant, st[1].Rank, st[1].RankTo, st[2].Entrant, st[2].Rank, st[2].RankTo)
	if want := "0:1-1 1:2-3 2:2-3"; got != want {
		t.Errorf("places %s, want %s\n%s", got, want, dump(st))
	}
}

// A sub-tie left after direct encounter is broken by direct encounter among
// its own members. Single round robin of six, A..F (0..5); the winner of
// each pair:
//
//	A-B A, A-C C, A-D A, B-C B, B-D B, C-D D,
//	A-E A, A-F F, B-E B, B-F F, C-E C, C-F C, D-E D, D-F D, E-F E
//
// Points: A 3, B 3, C 3, D 3, F 2, E 1. Among A..D (all met): A 2 (B, D),
// B 2 (C, D), C 1 (A), D 1 (C). The sub-tie A-B: A beat B; C-D: D beat C.
// Direct encounter alone ranks A, B, D, C.
func TestDirectEncounterSubTie(t *testing.T) {
	win := map[[2]int]int{
		{0, 1}: 0, {0, 2}: 2, {0, 3}: 0, {1, 2}: 1, {1, 3}: 1, {2, 3}: 3,
		{0, 4}: 0, {0, 5}: 5, {1, 4}: 1, {1, 5}: 5, {2, 4}: 2, {2, 5}: 2, {3, 4}: 3, {3, 5}: 3, {4, 5}: 4,
	}
	games := playSchedule(pairing.RoundRobin(6), func(a, b, _ int) int { return win[[2]int{a, b}] })
	st, err := Standings(6, games, Options{Tiebreaks: []Tiebreak{DirectEncounter}})
	if err != nil {
		t.Fatal(err)
	}
	var order []int
	for _, s := range st[:4] {
		order = append(order, s.Entrant)
		if s.Rank != s.RankTo {
			t.Errorf("entrant %d still tied: %s", s.Entrant, dump(st))
		}
	}
	if fmt.Sprint(order) != "[0 1 3 2]" {
		t.Errorf("order %v, want [0 1 3 2]\n%s", order, dump(st))
	}
	m := byEntrant(st)
	if m[0].Tiebreaks[0] != 2 || m[1].Tiebreaks[0] != 2 || m[2].Tiebreaks[0] != 1 || m[3].Tiebreaks[0] != 1 {
		t.Errorf("DE column shows the group's points: %s", dump(st))
	}
}

// The colour tie-breaks reward the second mover, as chess's reward Black:
// in a 1-1 double round robin where each won moving first, SMW is 0 for
// both; a win moving second counts; a forfeit win or a game not played
// over the board counts for neither SMW nor SMG.
func TestSecondMoverTiebreaks(t *testing.T) {
	games := []GameResult{
		Played(1, 0, 1, 1, record.Five),      // 0 wins moving first
		Played(2, 1, 0, 0, record.Five),      // 0 wins moving second
		Played(3, 2, 0, 1, record.Refusal),   // 2 wins by 0's refusal, moving first: no game
		Played(4, 1, 2, 0, record.Refusal),   // 2 wins by 1's refusal moving second: no game
		Played(5, 2, 1, 0.5, record.MoveCap), // 1 draws moving second
	}
	st, err := Standings(3, games, Options{Tiebreaks: []Tiebreak{SecondMoverWins, SecondMoverGames}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int][2]float64{0: {1, 1}, 1: {0, 2}, 2: {0, 0}}
	for e, s := range byEntrant(st) {
		if [2]float64{s.Tiebreaks[0], s.Tiebreaks[1]} != want[e] {
			t.Errorf("entrant %d: SMW, SMG = %v, want %v", e, s.Tiebreaks, want[e])
		}
	}
}

// A double forfeit scores 0-0: both lose by forfeit, neither gets a point,
// and the round is not played for either.
func TestDoubleForfeitScoresNothing(t *testing.T) {
	recs := []*record.Record{
		{Round: 1, Game: 1, Black: "a", White: "b", End: record.DoubleForfeit},
		{Round: 1, Game: 2, Black: "c", White: "d", Winner: rules.Black, End: record.Five},
	}
	games, err := GameResults(recs, map[string]int{"a": 0, "b": 1, "c": 2, "d": 3})
	if err != nil {
		t.Fatal(err)
	}
	if g := games[0]; g.BlackPoints != 0 || g.WhitePoints != 0 || !g.Forfeit {
		t.Fatalf("double forfeit read as %+v", g)
	}
	st, err := Standings(4, games, DefaultOptions(true))
	if err != nil {
		t.Fatal(err)
	}
	for e, s := range byEntrant(st) {
		if e < 2 && (s.Points != 0 || s.ForfeitLosses != 1 || s.Losses != 1) {
			t.Errorf("entrant %d: %+v", e, s)
		}
	}
}
