package report

import (
	"reflect"
	"testing"

	"gomoku-arena/results/record"
	. "gomoku-arena/results/standings"
)

// A pair's score counts each side's wins, draws and losses as the
// standings do: a forfeit is a win and a loss, a double forfeit a loss for
// both; the league's crosstable shows the row's score against the column.
func TestPairScores(t *testing.T) {
	games := []GameResult{
		Played(1, 0, 1, 1, ""),
		Played(2, 1, 0, 0.5, ""),
		Played(3, 0, 1, 0, record.Crash),
		Played(4, 1, 0, 0, record.DoubleForfeit),
		Played(5, 2, 0, 0, ""), // 0 beats 2 with White
	}
	games[3].WhitePoints = 0 // a double forfeit: nothing for either
	opt := DefaultOptions(false)
	rep, err := NewReport("league", []string{"a", "b", "c"}, games, opt)
	if err != nil {
		t.Fatal(err)
	}
	rep.PairScores = true
	want := []PairScore{
		{A: PairSide{Entrant: 0, Wins: 1, Draws: 1, Losses: 2, Points: 1.5}, B: PairSide{Entrant: 1, Wins: 1, Draws: 1, Losses: 2, Points: 1.5}, Games: 4},
		{A: PairSide{Entrant: 0, Wins: 1, Points: 1}, B: PairSide{Entrant: 2, Losses: 1}, Games: 1},
	}
	if got := rep.Pairs(); !reflect.DeepEqual(got, want) {
		t.Errorf("pairs\n%+v\nwant\n%+v", got, want)
	}
	rows := rep.PairTable().Rows
	if len(rows) != 2 || !reflect.DeepEqual(rows[0], []string{"a", "b", "4", "1-1-2", "1-1-2", "1½ : 1½"}) {
		t.Errorf("pair table rows %q", rows)
	}
	ct := rep.CrosstableTable().Rows
	// a first (2½), then b (1½), then c (0).
	if ct[0][1] != "a" || ct[0][3] != "1½ 1-1-2" || ct[0][4] != "1 1-0-0" || ct[2][2] != "0 0-0-1" {
		t.Errorf("league crosstable rows %q", ct)
	}
}
