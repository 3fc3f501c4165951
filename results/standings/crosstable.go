package standings

import (
	"slices"
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
	Unplayed bool    // not played over the board (GameResult.Unplayed)
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
		add(g.Black, CrossGame{Round: g.Round, Opponent: g.White, Black: true, Points: g.BlackPoints, Unplayed: g.Unplayed()})
		add(g.White, CrossGame{Round: g.Round, Opponent: g.Black, Points: g.WhitePoints, Unplayed: g.Unplayed()})
	}
	for i := range rows {
		slices.SortStableFunc(rows[i].Games, func(a, b CrossGame) int { return a.Round - b.Round })
	}
	return Crosstable{Rows: rows}
}
