package report

import (
	"strconv"
	"strings"

	"gomoku-arena/results/standings"
)

// mark is a result as crosstables write it: 1, ½, 0 for games on the board,
// +, =, - for unplayed ones.
func mark(g standings.CrossGame) string {
	switch {
	case g.Unplayed && g.Points == 1:
		return "+"
	case g.Unplayed && g.Points == 0:
		return "-"
	case g.Unplayed:
		return "="
	}
	return formatPoints(g.Points)
}

func colour(g standings.CrossGame) string {
	if g.Black {
		return "b"
	}
	return "w"
}

// roundRobinTable is the entrant × entrant grid of a round robin: the cell
// of row r and column c lists r's games against c in round order, each as
// its colour and result ("b1 w½"); the diagonal is "×".
func roundRobinTable(c standings.Crosstable, title string, names []string, tiebreaks []standings.Tiebreak) Table {
	t := Table{Title: title, Header: []string{"#", "Engine"}}
	colOf := make(map[int]int, len(c.Rows))
	for i, r := range c.Rows {
		colOf[r.Standing.Entrant] = i
		t.Header = append(t.Header, strconv.Itoa(i+1))
	}
	t.Header = append(t.Header, "Pts")
	for _, tb := range tiebreaks {
		t.Header = append(t.Header, tb.Abbrev())
	}
	for i, r := range c.Rows {
		cells := make([][]string, len(c.Rows))
		cells[i] = []string{"×"}
		byes := 0
		for _, g := range r.Games {
			if g.Opponent == standings.Bye {
				byes++
				continue
			}
			j := colOf[g.Opponent]
			cells[j] = append(cells[j], colour(g)+mark(g))
		}
		row := []string{rankString(r.Standing), entrantCell(names, r.Standing)}
		for _, cell := range cells {
			row = append(row, strings.Join(cell, " "))
		}
		row = append(row, formatPoints(r.Standing.Points))
		t.Rows = append(t.Rows, append(row, tiebreakCells(r.Standing, len(tiebreaks))...))
	}
	t.Right = rightFrom(len(t.Header), 2)
	return t
}

// swissTable is the round-by-round table of a Swiss: each round's cell is
// the opponent's row number, the colour and the result ("12b½"), or "bye"
// and its result ("bye+").
func swissTable(c standings.Crosstable, title string, names []string, tiebreaks []standings.Tiebreak) Table {
	rounds := 0
	rowOf := make(map[int]int, len(c.Rows))
	for i, r := range c.Rows {
		rowOf[r.Standing.Entrant] = i + 1
		for _, g := range r.Games {
			rounds = max(rounds, g.Round)
		}
	}
	t := Table{Title: title, Header: []string{"#", "Engine"}}
	for r := 1; r <= rounds; r++ {
		t.Header = append(t.Header, "R"+strconv.Itoa(r))
	}
	t.Header = append(t.Header, "Pts")
	for _, tb := range tiebreaks {
		t.Header = append(t.Header, tb.Abbrev())
	}
	for _, r := range c.Rows {
		row := []string{rankString(r.Standing), entrantCell(names, r.Standing)}
		cells := make([]string, rounds)
		for _, g := range r.Games {
			if g.Opponent == standings.Bye {
				cells[g.Round-1] = "bye" + mark(g)
				continue
			}
			cells[g.Round-1] = strconv.Itoa(rowOf[g.Opponent]) + colour(g) + mark(g)
		}
		row = append(row, cells...)
		row = append(row, formatPoints(r.Standing.Points))
		t.Rows = append(t.Rows, append(row, tiebreakCells(r.Standing, len(tiebreaks))...))
	}
	t.Right = rightFrom(len(t.Header), 2)
	return t
}
