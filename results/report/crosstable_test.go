package report

import (
	"reflect"
	"testing"

	"gomoku-arena/results/record"
	. "gomoku-arena/results/standings"
)

func TestCrosstableDoubleRoundRobinCells(t *testing.T) {
	// 0 and 1 meet twice: 0 wins with Black, then loses with White; 2 draws
	// both with 0 and loses twice to 1 (round 4 by refusal).
	games := []GameResult{
		Played(1, 0, 1, 1, ""),
		Played(2, 2, 0, 0.5, ""),
		Played(3, 1, 2, 1, ""),
		Played(4, 1, 0, 1, ""),
		Played(5, 0, 2, 0.5, ""),
		Played(6, 2, 1, 0, record.Refusal),
	}
	opt := DefaultOptions(false)
	st, err := Standings(3, games, opt)
	if err != nil {
		t.Fatal(err)
	}
	tab := roundRobinTable(NewCrosstable(st, games, opt.ByePoints), "t", []string{"a", "b", "c"}, nil)
	want := [][]string{
		{"1", "b", "×", "w0 b1", "b1 w+", "3"},
		{"2", "a", "b1 w0", "×", "w½ b½", "2"},
		{"3", "c", "w0 b-", "b½ w½", "×", "1"},
	}
	if !reflect.DeepEqual(tab.Rows, want) {
		t.Errorf("rows\n%q\nwant\n%q", tab.Rows, want)
	}
}

func TestCrosstableSwissCells(t *testing.T) {
	opt := DefaultOptions(true)
	st, err := Standings(5, swiss5(), opt)
	if err != nil {
		t.Fatal(err)
	}
	tab := swissTable(NewCrosstable(st, swiss5(), opt.ByePoints), "t", nil, nil)
	// Rows in standings order: 4, 0, 1, 3, 2 (see TestStandingsSwissByHand).
	want := [][]string{
		{"1", "#5", "bye+", "2b1", "5b½", "2½"},
		{"2", "#1", "3b1", "1w0", "4w1", "2"},
		{"3", "#2", "2w0", "5b+", "bye+", "2"},
		{"4", "#4", "5w½", "bye+", "2b0", "1½"},
		{"5", "#3", "4b½", "3w-", "1w½", "1"},
	}
	if !reflect.DeepEqual(tab.Rows, want) {
		t.Errorf("rows\n%q\nwant\n%q", tab.Rows, want)
	}
}

// The events below are those of the standings tests, by hand.

// swiss5 is the event of standings' TestStandingsSwissByHand.
func swiss5() []GameResult {
	return []GameResult{
		Played(1, 0, 1, 1, record.Five),
		Played(1, 2, 3, 0.5, record.FullBoard),
		ByeResult(1, 4),
		Played(2, 4, 0, 1, record.Five),
		Played(2, 1, 2, 1, record.Refusal),
		ByeResult(2, 3),
		Played(3, 3, 0, 0, record.Five),
		Played(3, 4, 2, 0.5, record.MoveCap),
		ByeResult(3, 1),
	}
}

// rr4 is the event of standings' TestStandingsRoundRobinByHand.
func rr4() []GameResult {
	return []GameResult{
		Played(1, 0, 2, 1, record.Five),
		Played(1, 1, 3, 1, record.Five),
		Played(2, 1, 0, 1, record.Five),
		Played(2, 2, 3, 0.5, record.FullBoard),
		Played(3, 3, 0, 0.5, record.MoveCap),
		Played(3, 2, 1, 1, record.Time),
	}
}
