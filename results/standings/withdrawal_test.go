package standings

import (
	"reflect"
	"testing"

	"gomoku-arena/results/record"
)

// A withdrawn entrant's rounds after its withdrawal are absences (C.07 Art.
// 16): voluntary unplayed rounds against a dummy in its own Buchholz, and
// draws in the score its opponents read.
func TestWithdrawnEntrantsAbsences(t *testing.T) {
	// Five rounds (a draw in every round: 2.5). Entrant 3 refuses round 1
	// against 0, has a bye in round 2, and is withdrawn from round 3; the
	// others play on to round 5.
	games := []GameResult{
		Played(1, 3, 0, 0, record.Refusal),
		Played(1, 1, 2, 1, record.Five),
		ByeResult(2, 3),
		Played(2, 0, 1, 0.5, record.FullBoard),
		Played(3, 0, 2, 1, record.Five),
		Played(4, 1, 2, 0.5, record.FullBoard),
		Played(5, 0, 1, 0, record.Five),
	}
	// Points: 0: 1+½+1+0 = 2.5; 1: 1+½+½+1 = 3; 2: ½; 3: the bye, 1.
	// 3's adjusted score: 1 + ½ × 3 absences = 2.5.
	// 3's Buchholz: forfeit loss min(1, 2.5) = 1 (voluntary), bye min(1,
	// 2.5) = 1, three absences min(1, 2.5) = 1 each (voluntary): BH 5;
	// Cut-1 cuts a voluntary 1: 4; Median-1 then the greatest, 1: 3.
	// 0's Buchholz: forfeit win min(2.5, 2.5) = 2.5, 1 → 3, 2 → ½, 1 → 3:
	// BH 9, Cut-1 8.5 (no voluntary round: the ½), Median-1 5.5.
	// Sonneborn-Berger of 0: 2.5 + ½×3 + ½ + 0 = 4.5; of 3: 0 + 1 + 0 = 1.
	opt := Options{ByePoints: 1, Swiss: true, Rounds: 5, Withdrawn: map[int]int{3: 3},
		Tiebreaks: []Tiebreak{Buchholz, BuchholzCut1, MedianBuchholz, SonnebornBerger}}
	got, err := Standings(4, games, opt)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int][]float64{0: {9, 8.5, 5.5, 4.5}, 3: {5, 4, 3, 1}}
	for _, s := range got {
		if w, ok := want[s.Entrant]; ok && !reflect.DeepEqual(s.Tiebreaks, w) {
			t.Errorf("entrant %d: BH, BH-C1, BH-M1, SB = %v, want %v", s.Entrant, s.Tiebreaks, w)
		}
	}
	// Standings after round 3 only: one absence so far.
	got, err = Standings(4, games[:5], opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range got {
		if s.Entrant == 3 && !reflect.DeepEqual(s.Tiebreaks[:2], []float64{3, 2}) {
			t.Errorf("after round 3: entrant 3: BH, BH-C1 = %v, want [3 2]", s.Tiebreaks[:2])
		}
	}
	// A game after the withdrawal is a broken journal, not a standing.
	if _, err := Standings(4, append(games, Played(5, 3, 2, 1, record.Five)), opt); err == nil {
		t.Error("a game after the withdrawal was accepted")
	}
}
