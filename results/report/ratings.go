package report

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"strconv"
	"strings"

	"gomoku-arena/results/bayeselo"
)

// A rating list (`arena rate`) in every table format. The text form is
// BayesElo's own `ratings` layout, and every form rounds as BayesElo's
// ratings command does: Elo, interval, score, average opponent and draws to
// whole numbers, half away from zero.

// RatingsFormatVersion is the "format" of the JSON rating list.
const RatingsFormatVersion = 1

// RatingsTable lays the list out as BayesElo's ratings command does.
func RatingsTable(l *bayeselo.List) Table {
	t := Table{Title: "Rating list (BayesElo)",
		Header: []string{"Rank", "Name", "Elo", "+", "-", "games", "score", "oppo.", "draws"},
		Right:  []bool{true, false, true, true, true, true, true, true, true}}
	for k, r := range l.Ratings {
		t.Rows = append(t.Rows, []string{strconv.Itoa(k + 1), r.Name, roundString(r.Elo),
			roundString(r.Plus), roundString(r.Minus), strconv.Itoa(r.Games),
			roundString(r.Score()) + "%", roundString(r.Oppo), roundString(r.DrawRate()) + "%"})
	}
	t.Legend = &Legend{Columns: []Entry{
		{"Elo", "rating, BayesElo's default model and scale"},
		{"+ / -", "from Elo to the ends of the 95% interval (exactdist)"},
		{"score", "points per game, a draw half a point"},
		{"oppo.", "average rating of the opponents, weighted by games"},
		{"draws", "share of the games drawn"},
	}}
	return t
}

// LOSTable is BayesElo's likelihood of superiority: the row's player is
// stronger than the column's with this probability, in percent, truncated
// as BayesElo prints it.
func LOSTable(l *bayeselo.List, los [][]float64) Table {
	t := Table{Title: "Likelihood of superiority (%)", Header: []string{""}}
	for _, r := range l.Ratings {
		t.Header = append(t.Header, r.Name)
	}
	for a, r := range l.Ratings {
		row := []string{r.Name}
		for b := range l.Ratings {
			cell := ""
			if a != b {
				cell = strconv.Itoa(int(los[a][b] * 100))
			}
			row = append(row, cell)
		}
		t.Rows = append(t.Rows, row)
	}
	t.Right = rightFrom(len(t.Header), 1)
	return t
}

// WriteRatings renders the list, and the LOS table when los is not nil, in
// format f.
func WriteRatings(w io.Writer, l *bayeselo.List, los [][]float64, f TableFormat) error {
	switch f {
	case Text:
		if err := writeRatingsText(w, l); err != nil {
			return err
		}
		if los != nil {
			return writeLOSText(w, l, los)
		}
		return nil
	case JSON:
		return writeJSON(w, ratingsJSONOf(l, los))
	case CSV:
		// One CSV file holds one table: the LOS goes to a second call.
		if los != nil {
			return LOSTable(l, los).WriteCSV(w)
		}
		return RatingsTable(l).WriteCSV(w)
	case HTML:
		return ratingsPage.Execute(w, ratingsPageData{Ratings: RatingsTable(l), LOS: losTablePtr(l, los)})
	}
	if err := RatingsTable(l).Write(w, f); err != nil {
		return err
	}
	if los != nil {
		fmt.Fprintln(w)
		return LOSTable(l, los).Write(w, f)
	}
	return nil
}

func losTablePtr(l *bayeselo.List, los [][]float64) *Table {
	if los == nil {
		return nil
	}
	t := LOSTable(l, los)
	return &t
}

// roundString rounds half away from zero, as BayesElo's RoundDouble.
func roundString(x float64) string {
	return strconv.Itoa(int(math.Round(x)))
}

// writeRatingsText is BayesElo's `ratings` table, byte for byte as its
// version 0057 prints it (names padded in bytes, as its setw does, and a
// space at each line's end):
//
//	Rank Name   Elo    +    - games score oppo. draws
//	   1 alpha  120  167  148     8   75%     5   50%
func writeRatingsText(w io.Writer, l *bayeselo.List) error {
	width := 4
	for _, r := range l.Ratings {
		width = max(width, len(r.Name))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Rank %-*s %5s %4s %4s %5s %5s %5s %5s \n", width, "Name", "Elo", "+", "-", "games", "score", "oppo.", "draws")
	for k, r := range l.Ratings {
		fmt.Fprintf(&b, "%4d %-*s %5s %4s %4s %5d %4s%% %5s %4s%% \n", k+1, width, r.Name,
			roundString(r.Elo), roundString(r.Plus), roundString(r.Minus), r.Games,
			roundString(r.Score()), roundString(r.Oppo), roundString(r.DrawRate()))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeLOSText is BayesElo's `los` matrix, byte for byte: a column per
// player headed by the first two bytes of its name, percent truncated.
func writeLOSText(w io.Writer, l *bayeselo.List, los [][]float64) error {
	width := 0
	for _, r := range l.Ratings {
		width = max(width, len(r.Name))
	}
	var b strings.Builder
	b.WriteString(strings.Repeat(" ", width) + " ")
	for _, r := range l.Ratings {
		fmt.Fprintf(&b, "%3s", r.Name[:min(2, len(r.Name))])
	}
	b.WriteString("\n")
	for a, r := range l.Ratings {
		fmt.Fprintf(&b, "%-*s ", width, r.Name)
		for c := range l.Ratings {
			if a == c {
				b.WriteString("   ")
			} else {
				fmt.Fprintf(&b, "%3d", int(los[a][c]*100))
			}
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// ratingsJSON is the JSON rating list, a file format (docs/rating.md):
// numbers unrounded, score and draws in percent.
type ratingsJSON struct {
	Format  int          `json:"format"`
	Ratings []ratingJSON `json:"ratings"`
	// LOS[a][b]: the probability that ratings[a] is stronger than
	// ratings[b]; only when asked for.
	LOS [][]float64 `json:"los,omitempty"`
}

type ratingJSON struct {
	Name   string  `json:"name"`
	Elo    float64 `json:"elo"`
	Plus   float64 `json:"plus"`
	Minus  float64 `json:"minus"`
	Games  int     `json:"games"`
	Score  float64 `json:"score"`
	Points float64 `json:"points"`
	Oppo   float64 `json:"oppo"`
	Draws  float64 `json:"draws"`
}

func ratingsJSONOf(l *bayeselo.List, los [][]float64) ratingsJSON {
	out := ratingsJSON{Format: RatingsFormatVersion, Ratings: []ratingJSON{}, LOS: los}
	round := func(x float64) float64 { return math.Round(x*100) / 100 }
	for _, r := range l.Ratings {
		out.Ratings = append(out.Ratings, ratingJSON{Name: r.Name, Elo: round(r.Elo), Plus: round(r.Plus),
			Minus: round(r.Minus), Games: r.Games, Score: round(r.Score()), Points: r.Points,
			Oppo: round(r.Oppo), Draws: round(r.DrawRate())})
	}
	return out
}

type ratingsPageData struct {
	Ratings Table
	LOS     *Table
}

// ratingsPage is the HTML list: the rating table, and the LOS table under
// it when asked for; every cell is escaped.
var ratingsPage = template.Must(template.Must(htmlPage.Clone()).New("ratings").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Ratings.Title}}</title>
<style>
table { border-collapse: collapse; font-family: sans-serif; margin-bottom: 1.5em; }
th, td { border: 1px solid #bbb; padding: 0.2em 0.6em; }
th { background: #eee; }
.num { text-align: right; }
</style>
</head>
<body>
{{- template "titled" .Ratings}}
{{- with .LOS}}{{template "titled" .}}{{end}}
{{- define "titled"}}
<h2>{{.Title}}</h2>
{{template "table" .}}{{end}}
</body>
</html>
`))
