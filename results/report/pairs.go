package report

import (
	"cmp"
	"io"
	"slices"
	"strconv"

	"gomoku-arena/results/standings"
)

// PairScore is what two entrants scored against each other: the score of a
// mini-match (a league's pairing of several games), or of every game the
// two played. A is the entrant seeded first. A double forfeit is a loss
// for both, as in the standings, so A's losses and B's wins can differ.
type PairScore struct {
	A, B  PairSide
	Games int
}

// PairSide is one entrant's side of a pair's score.
type PairSide struct {
	Entrant             int
	Wins, Draws, Losses int
	Points              float64
}

// Pairs are the scores of every two entrants who met, in seeding order
// (A's, then B's), computed from the crosstable: the games the standings
// count, scored as they score them.
func (r *Report) Pairs() []PairScore {
	type key struct{ a, b int }
	at := map[key]int{}
	var out []PairScore
	for _, row := range r.Crosstable.Rows {
		me := row.Standing.Entrant
		for _, g := range row.Games {
			if g.Opponent == standings.Bye {
				continue
			}
			k := key{min(me, g.Opponent), max(me, g.Opponent)}
			i, ok := at[k]
			if !ok {
				i = len(out)
				at[k] = i
				out = append(out, PairScore{A: PairSide{Entrant: k.a}, B: PairSide{Entrant: k.b}})
			}
			side := &out[i].A
			if me == k.b {
				side = &out[i].B
				out[i].Games++ // counted once, from B's row
			}
			side.add(g.Points)
		}
	}
	slices.SortFunc(out, func(x, y PairScore) int { return cmp.Or(x.A.Entrant-y.A.Entrant, x.B.Entrant-y.B.Entrant) })
	return out
}

func (s *PairSide) add(points float64) {
	s.Points += points
	switch points {
	case 1:
		s.Wins++
	case 0:
		s.Losses++
	default:
		s.Draws++
	}
}

// wdl is a side's record as leagues publish it: W-D-L.
func (s PairSide) wdl() string {
	return strconv.Itoa(s.Wins) + "-" + strconv.Itoa(s.Draws) + "-" + strconv.Itoa(s.Losses)
}

// PairTable lays out the pair scores: the two entrants, the games, each
// side's wins, draws and losses, and the score in points.
func (r *Report) PairTable() Table {
	t := Table{Title: r.Event + " — pairs", Header: []string{"Engine A", "Engine B", "Games", "A W-D-L", "B W-D-L", "Score"}}
	for _, p := range r.Pairs() {
		t.Rows = append(t.Rows, []string{nameOf(r.Names, p.A.Entrant), nameOf(r.Names, p.B.Entrant), strconv.Itoa(p.Games),
			p.A.wdl(), p.B.wdl(), formatPoints(p.A.Points) + " : " + formatPoints(p.B.Points)})
	}
	t.Right = rightFrom(len(t.Header), 2)
	l := r.PairLegend()
	t.Legend = &l
	return t
}

// PairLegend explains the columns PairTable writes.
func (r *Report) PairLegend() Legend {
	return Legend{Columns: []Entry{
		{"Engine A", "the entrant seeded first of the two"},
		{"Engine B", "its opponent"},
		{"Games", "games the two played against each other (a mini-match: each opening with both colours)"},
		{"A W-D-L", "A's wins, draws and losses against B (forfeits included, as in the standings)"},
		{"B W-D-L", "B's wins, draws and losses against A; a double forfeit is a loss for both"},
		{"Score", "A's points : B's points, a win 1, a draw ½, a loss 0"},
	}}
}

// WritePairs renders the pair scores in format f.
func (r *Report) WritePairs(w io.Writer, f TableFormat) error {
	if f == JSON {
		return writeJSON(w, r.pairsJSON())
	}
	return r.PairTable().Write(w, f)
}

type pairsJSON struct {
	Format int        `json:"format"`
	Event  string     `json:"event"`
	Pairs  []pairJSON `json:"pairs"`
	Legend Legend     `json:"legend"`
}

type pairJSON struct {
	Games int          `json:"games"`
	A     pairSideJSON `json:"a"`
	B     pairSideJSON `json:"b"`
}

type pairSideJSON struct {
	Entrant int     `json:"entrant"`
	Name    string  `json:"name"`
	Wins    int     `json:"wins"`
	Draws   int     `json:"draws"`
	Losses  int     `json:"losses"`
	Points  float64 `json:"points"`
}

func (r *Report) pairsJSON() pairsJSON {
	out := pairsJSON{Format: TableFormatVersion, Event: r.Event, Pairs: []pairJSON{}, Legend: r.PairLegend()}
	side := func(s PairSide) pairSideJSON {
		return pairSideJSON{Entrant: s.Entrant, Name: nameOf(r.Names, s.Entrant), Wins: s.Wins, Draws: s.Draws, Losses: s.Losses, Points: s.Points}
	}
	for _, p := range r.Pairs() {
		out.Pairs = append(out.Pairs, pairJSON{Games: p.Games, A: side(p.A), B: side(p.B)})
	}
	return out
}
