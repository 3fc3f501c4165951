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
	return grid(c, title, names, tiebreaks, gameMarks)
}

// gameMarks are games as a round robin's cell lists them: "b1 w½".
func gameMarks(games []standings.CrossGame) string {
	marks := make([]string, len(games))
	for i, g := range games {
		marks[i] = colour(g) + mark(g)
	}
	return strings.Join(marks, " ")
}

// leagueTable is the grid of a league whose pairings are mini-matches: a
// cell is the row entrant's score against the column's, its points then
// its wins, draws and losses ("15½ 10-11-3"), too many games to list.
func leagueTable(c standings.Crosstable, title string, names []string, tiebreaks []standings.Tiebreak) Table {
	return grid(c, title, names, tiebreaks, func(games []standings.CrossGame) string {
		if len(games) == 0 {
			return ""
		}
		var s PairSide
		for _, g := range games {
			s.add(g.Points)
		}
		return formatPoints(s.Points) + " " + s.wdl()
	})
}

// grid lays out an entrant × entrant crosstable, each cell written by cell
// from the row entrant's games against the column's, in round order.
func grid(c standings.Crosstable, title string, names []string, tiebreaks []standings.Tiebreak, cell func([]standings.CrossGame) string) Table {
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
		games := make([][]standings.CrossGame, len(c.Rows))
		for _, g := range r.Games {
			if g.Opponent != standings.Bye {
				games[colOf[g.Opponent]] = append(games[colOf[g.Opponent]], g)
			}
		}
		row := []string{rankString(r.Standing), entrantCell(names, r.Standing)}
		for j, gs := range games {
			if j == i {
				row = append(row, "×")
				continue
			}
			row = append(row, cell(gs))
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
