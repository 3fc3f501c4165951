package report

import (
	"fmt"
	"strings"

	"gomoku-arena/results/standings"
)

// Entry explains one column of a table.
type Entry struct {
	Column  string `json:"column"`
	Meaning string `json:"meaning"`
}

// Legend explains every column of a table and names the tie-break
// regulations the table follows; every format writes it after the table.
type Legend struct {
	Columns []Entry `json:"columns"`
	Note    string  `json:"note,omitempty"`
}

// tiebreakMeaning is the legend of each tie-break column.
var tiebreakMeaning = map[standings.Tiebreak]string{
	standings.SonnebornBerger:          "Sonneborn-Berger: the sum of the opponents' points, all of them for a win, half for a draw",
	standings.DirectEncounter:          "direct encounter: points scored against the others tied on points (two games between the same two count as their average; in a Swiss a game not played over the board is no encounter); ranks them as C.07 Art. 6 says, sub-ties and missing games included",
	standings.MostWins:                 "wins: rounds scored as a win, with or without a game (forfeit wins and byes worth a win count)",
	standings.Koya:                     "Koya: points scored against the opponents who finished with at least 50% of the maximum possible score (a win in every game; a round robin's rest round is no game)",
	standings.Buchholz:                 "Buchholz: the sum of the opponents' points (in a Swiss, an unplayed round, a withdrawn entrant's later rounds included, counts as a game against a dummy opponent, and an opponent's rounds after its withdrawal count as draws, C.07 Art. 16)",
	standings.BuchholzCut1:             "Buchholz Cut-1: Buchholz without the least value (a forfeit loss's or an absence's round is cut first)",
	standings.MedianBuchholz:           "Median Buchholz: Buchholz without the least and the greatest value",
	standings.AverageRatingOfOpponents: "average rating of the opponents met over the board (byes and forfeits left out), rounded",
	standings.SecondMoverGames:         "games played over the board moving second (Gomoku White): FIDE's games with Black, BPG",
	standings.SecondMoverWins:          "games won over the board moving second (Gomoku White): FIDE's wins with Black, BWG",
}

func tiebreakEntries(tbs []standings.Tiebreak) []Entry {
	var out []Entry
	for _, tb := range tbs {
		out = append(out, Entry{tb.Abbrev(), tiebreakMeaning[tb]})
	}
	return out
}

// StandingsLegend explains the columns StandingsTable writes.
func (r *Report) StandingsLegend() Legend {
	l := Legend{Columns: []Entry{
		{"#", "place; a range (2-3) is a place shared by entrants tied on points and every tie-break"},
		{"Engine", "the entrant; \"(withdrawn from round N)\" when it left the event and was not paired from round N on"},
		{"Pts", "points: a win 1, a draw ½, a loss 0 (a double forfeit, where neither engine started, is 0 for both); a bye scores the event's bye points"},
		{"Games", "rounds with an opponent, played or forfeited"},
		{"W", "wins among Games (forfeit wins included)"},
		{"D", "draws among Games"},
		{"L", "losses among Games (forfeit losses included)"},
		{"BW", "wins over the board moving first (Gomoku Black); shown, never a tie-break (FIDE's colour tie-breaks reward the second mover)"},
		{"FW", "forfeit wins: games the opponent lost by a fault (time, illegal move, crash, refusal, memory)"},
		{"FL", "forfeit losses: games lost by a fault, the double forfeits included"},
	}}
	for _, s := range r.Standings {
		if s.Byes > 0 {
			l.Columns = append(l.Columns, Entry{"Byes", "rounds sat out without an opponent"})
			break
		}
	}
	l.Columns = append(l.Columns, tiebreakEntries(r.Tiebreaks)...)
	l.Note = "Tie-breaks: " + standings.Edition + "."
	return l
}

// CrosstableLegend explains the columns CrosstableTable writes.
func (r *Report) CrosstableLegend() Legend {
	result := "b moved first (Gomoku Black), w second; the result is 1, ½ or 0 for a game played over the board and +, = or - for one that was not (a forfeit; - on both sides is a double forfeit)"
	l := Legend{Columns: []Entry{
		{"#", "place, as in the standings"},
		{"Engine", "the entrant"},
	}}
	if r.Swiss {
		l.Columns = append(l.Columns,
			Entry{"R1, R2, ...", "each round: the opponent's row number (#), the colour and the result, as in 12b½: " + result + "; \"bye\" and its result for a round without opponent"})
	} else {
		l.Columns = append(l.Columns,
			Entry{"1, 2, ...", "the games against the entrant of that row, in round order, each a colour and a result, as in b1 w½: " + result + "; × on the diagonal"})
	}
	l.Columns = append(l.Columns, Entry{"Pts", "points, as in the standings"})
	l.Columns = append(l.Columns, tiebreakEntries(r.Tiebreaks)...)
	l.Note = "Tie-breaks: " + standings.Edition + "."
	return l
}

// text is the legend as plain lines: "COLUMN  meaning", then the note.
func (l Legend) text() string {
	var b strings.Builder
	b.WriteString("Columns:\n")
	width := 0
	for _, e := range l.Columns {
		width = max(width, len([]rune(e.Column)))
	}
	for _, e := range l.Columns {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, e.Column, e.Meaning)
	}
	if l.Note != "" {
		b.WriteString(l.Note + "\n")
	}
	return b.String()
}
