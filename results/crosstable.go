package results

import (
	"slices"
	"strconv"
	"strings"
)

// Crosstable is every entrant's games, one row per entrant in standings
// order. Row numbers (1-based positions) name opponents in the Swiss layout,
// as in chess crosstables.
type Crosstable struct {
	Rows []CrossRow
}

// CrossRow is one entrant's line: its standing and its games in round order.
type CrossRow struct {
	Standing Standing
	Games    []CrossGame
}

// CrossGame is one round of a row's entrant, seen from that entrant.
type CrossGame struct {
	Round    int
	Opponent int // entrant index; Bye for a bye
	Black    bool
	Points   float64 // the row entrant's points
	Unplayed bool    // a bye or a refused game (GameResult.Unplayed)
}

// NewCrosstable lays out the games behind standings (as returned by
// Standings for the same games and options).
func NewCrosstable(st []Standing, games []GameResult, byePoints float64) Crosstable {
	rowOf := make(map[int]int, len(st))
	rows := make([]CrossRow, len(st))
	for i, s := range st {
		rowOf[s.Entrant] = i
		rows[i].Standing = s
	}
	add := func(e int, g CrossGame) {
		if i, ok := rowOf[e]; ok {
			rows[i].Games = append(rows[i].Games, g)
		}
	}
	for _, g := range games {
		if g.White == Bye {
			add(g.Black, CrossGame{Round: g.Round, Opponent: Bye, Points: byePoints, Unplayed: true})
			continue
		}
		add(g.Black, CrossGame{Round: g.Round, Opponent: g.White, Black: true, Points: g.Score, Unplayed: g.Unplayed()})
		add(g.White, CrossGame{Round: g.Round, Opponent: g.Black, Points: 1 - g.Score, Unplayed: g.Unplayed()})
	}
	for i := range rows {
		slices.SortStableFunc(rows[i].Games, func(a, b CrossGame) int { return a.Round - b.Round })
	}
	return Crosstable{Rows: rows}
}

// mark is a result as crosstables write it: 1, ½, 0 for games on the board,
// +, =, - for unplayed ones.
func (g CrossGame) mark() string {
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

func (g CrossGame) colour() string {
	if g.Black {
		return "b"
	}
	return "w"
}

// RoundRobinTable is the entrant × entrant grid of a round robin: the cell
// of row r and column c lists r's games against c in round order, each as
// its colour and result ("b1 w½"); the diagonal is "×".
func (c Crosstable) RoundRobinTable(title string, names []string, tiebreaks []Tiebreak) Table {
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
			if g.Opponent == Bye {
				byes++
				continue
			}
			j := colOf[g.Opponent]
			cells[j] = append(cells[j], g.colour()+g.mark())
		}
		row := []string{rankString(r.Standing), nameOf(names, r.Standing.Entrant)}
		for _, cell := range cells {
			row = append(row, strings.Join(cell, " "))
		}
		row = append(row, formatPoints(r.Standing.Points))
		t.Rows = append(t.Rows, append(row, tiebreakCells(r.Standing, len(tiebreaks))...))
	}
	t.Right = rightFrom(len(t.Header), 2)
	return t
}

// SwissTable is the round-by-round table of a Swiss: each round's cell is
// the opponent's row number, the colour and the result ("12b½"), or "bye"
// and its result ("bye+").
func (c Crosstable) SwissTable(title string, names []string, tiebreaks []Tiebreak) Table {
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
		row := []string{rankString(r.Standing), nameOf(names, r.Standing.Entrant)}
		cells := make([]string, rounds)
		for _, g := range r.Games {
			if g.Opponent == Bye {
				cells[g.Round-1] = "bye" + g.mark()
				continue
			}
			cells[g.Round-1] = strconv.Itoa(rowOf[g.Opponent]) + g.colour() + g.mark()
		}
		row = append(row, cells...)
		row = append(row, formatPoints(r.Standing.Points))
		t.Rows = append(t.Rows, append(row, tiebreakCells(r.Standing, len(tiebreaks))...))
	}
	t.Right = rightFrom(len(t.Header), 2)
	return t
}
