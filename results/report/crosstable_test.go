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
		{Round: 1, Black: 0, White: 1, Score: 1},
		{Round: 2, Black: 2, White: 0, Score: 0.5},
		{Round: 3, Black: 1, White: 2, Score: 1},
		{Round: 4, Black: 1, White: 0, Score: 1},
		{Round: 5, Black: 0, White: 2, Score: 0.5},
		{Round: 6, Black: 2, White: 1, Score: 0, End: record.Refusal},
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
		{Round: 1, Black: 0, White: 1, Score: 1, End: record.Five},
		{Round: 1, Black: 2, White: 3, Score: 0.5, End: record.FullBoard},
		ByeResult(1, 4),
		{Round: 2, Black: 4, White: 0, Score: 1, End: record.Five},
		{Round: 2, Black: 1, White: 2, Score: 1, End: record.Refusal},
		ByeResult(2, 3),
		{Round: 3, Black: 3, White: 0, Score: 0, End: record.Five},
		{Round: 3, Black: 4, White: 2, Score: 0.5, End: record.MoveCap},
		ByeResult(3, 1),
	}
}

// rr4 is the event of standings' TestStandingsRoundRobinByHand.
func rr4() []GameResult {
	return []GameResult{
		{Round: 1, Black: 0, White: 2, Score: 1, End: record.Five},
		{Round: 1, Black: 1, White: 3, Score: 1, End: record.Five},
		{Round: 2, Black: 1, White: 0, Score: 1, End: record.Five},
		{Round: 2, Black: 2, White: 3, Score: 0.5, End: record.FullBoard},
		{Round: 3, Black: 3, White: 0, Score: 0.5, End: record.MoveCap},
		{Round: 3, Black: 2, White: 1, Score: 1, End: record.Time},
	}
}
