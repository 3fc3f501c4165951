package report

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"

	"gomoku-arena/results/standings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// Table is a titled grid of text cells: the one shape every renderer takes.
type Table struct {
	Title  string
	Header []string
	Rows   [][]string
	Right  []bool // per column: align right (numbers)
	// Legend, when set, explains the columns; every format writes it
	// after the table.
	Legend *Legend
}

// TableFormat names an output form of the tables.
type TableFormat string

const (
	Text     TableFormat = "text" // for a terminal
	Markdown TableFormat = "markdown"
	CSV      TableFormat = "csv"
	JSON     TableFormat = "json"
	HTML     TableFormat = "html"
)

// Ext is the file name extension for the format, with its dot.
func (f TableFormat) Ext() string {
	switch f {
	case Text:
		return ".txt"
	case Markdown:
		return ".md"
	}
	return "." + string(f)
}

// Report is an event's standings and crosstable, ready to render.
type Report struct {
	Event      string
	Names      []string // by entrant index
	Tiebreaks  []standings.Tiebreak
	Swiss      bool // the crosstable goes round by round
	Standings  []standings.Standing
	Crosstable standings.Crosstable
	// PairScores: the pairings are mini-matches (a league's), so the
	// crosstable's cells are pair scores and the pair table is part of
	// the results (PairTable).
	PairScores bool
}

// NewReport computes the standings and crosstable of the n = len(names)
// entrants of an event from its games.
func NewReport(event string, names []string, games []standings.GameResult, opt standings.Options) (*Report, error) {
	st, err := standings.Standings(len(names), games, opt)
	if err != nil {
		return nil, fmt.Errorf("%s: standings: %w", event, err)
	}
	return &Report{
		Event:      event,
		Names:      names,
		Tiebreaks:  opt.Tiebreaks,
		Swiss:      opt.Swiss,
		Standings:  st,
		Crosstable: standings.NewCrosstable(st, games, opt.ByePoints),
	}, nil
}

// StandingsTable lays the standings out: place, engine, points, games,
// wins/draws/losses, wins with Black, forfeit wins and losses, byes (when
// anyone had one) and the tie-breaks.
func (r *Report) StandingsTable() Table {
	byes := false
	for _, s := range r.Standings {
		byes = byes || s.Byes > 0
	}
	t := Table{Title: r.Event + " — standings", Header: []string{"#", "Engine", "Pts", "Games", "W", "D", "L", "BW", "FW", "FL"}}
	if byes {
		t.Header = append(t.Header, "Byes")
	}
	for _, tb := range r.Tiebreaks {
		t.Header = append(t.Header, tb.Abbrev())
	}
	for _, s := range r.Standings {
		row := []string{rankString(s), entrantCell(r.Names, s), formatPoints(s.Points),
			strconv.Itoa(s.Games), strconv.Itoa(s.Wins), strconv.Itoa(s.Draws), strconv.Itoa(s.Losses),
			strconv.Itoa(s.BlackWins), strconv.Itoa(s.ForfeitWins), strconv.Itoa(s.ForfeitLosses)}
		if byes {
			row = append(row, strconv.Itoa(s.Byes))
		}
		t.Rows = append(t.Rows, append(row, tiebreakCells(s, len(r.Tiebreaks))...))
	}
	t.Right = rightFrom(len(t.Header), 2)
	l := r.StandingsLegend()
	t.Legend = &l
	return t
}

// CrosstableTable is the crosstable in the layout of the event's format.
func (r *Report) CrosstableTable() Table {
	title := r.Event + " — crosstable"
	var t Table
	switch {
	case r.Swiss:
		t = swissTable(r.Crosstable, title, r.Names, r.Tiebreaks)
	case r.PairScores:
		t = leagueTable(r.Crosstable, title, r.Names, r.Tiebreaks)
	default:
		t = roundRobinTable(r.Crosstable, title, r.Names, r.Tiebreaks)
	}
	l := r.CrosstableLegend()
	t.Legend = &l
	return t
}

// WriteStandings renders the standings in format f.
func (r *Report) WriteStandings(w io.Writer, f TableFormat) error {
	if f == JSON {
		return writeJSON(w, r.standingsJSON())
	}
	return r.StandingsTable().Write(w, f)
}

// WriteCrosstable renders the crosstable in format f.
func (r *Report) WriteCrosstable(w io.Writer, f TableFormat) error {
	if f == JSON {
		return writeJSON(w, r.crosstableJSON())
	}
	return r.CrosstableTable().Write(w, f)
}

// Write renders the table in format f; JSON, which has its own shape for
// each table, is for Report's methods.
func (t Table) Write(w io.Writer, f TableFormat) error {
	switch f {
	case Text:
		return t.WriteText(w)
	case Markdown:
		return t.WriteMarkdown(w)
	case CSV:
		return t.WriteCSV(w)
	case HTML:
		return t.WriteHTML(w)
	}
	return fmt.Errorf("table %q: no %q rendering", t.Title, f)
}

// WriteText draws the table for a terminal, the title above it.
func (t Table) WriteText(w io.Writer) error {
	if _, err := fmt.Fprintln(w, t.Title); err != nil {
		return err
	}
	align := make([]tw.Align, len(t.Header))
	for i := range align {
		align[i] = tw.AlignLeft
		if i < len(t.Right) && t.Right[i] {
			align[i] = tw.AlignRight
		}
	}
	table := tablewriter.NewTable(w,
		tablewriter.WithRenderer(renderer.NewBlueprint()),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAlignment(tw.AlignCenter),
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: align}),
	)
	table.Header(t.Header)
	if err := table.Bulk(t.Rows); err != nil {
		return err
	}
	if err := table.Render(); err != nil {
		return err
	}
	if t.Legend != nil {
		_, err := io.WriteString(w, t.Legend.text())
		return err
	}
	return nil
}

// WriteMarkdown writes a GitHub-flavoured Markdown table under a heading.
func (t Table) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "## %s\n\n", t.Title)
	line := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			b.WriteString(" " + markdownCell.Replace(c) + " |")
		}
		b.WriteString("\n")
	}
	line(t.Header)
	b.WriteString("|")
	for i := range t.Header {
		if i < len(t.Right) && t.Right[i] {
			b.WriteString(" --: |")
		} else {
			b.WriteString(" --- |")
		}
	}
	b.WriteString("\n")
	for _, r := range t.Rows {
		line(r)
	}
	if l := t.Legend; l != nil {
		b.WriteString("\nColumns:\n\n")
		for _, e := range l.Columns {
			fmt.Fprintf(&b, "- **%s**: %s\n", markdownCell.Replace(e.Column), markdownCell.Replace(e.Meaning))
		}
		if l.Note != "" {
			fmt.Fprintf(&b, "\n%s\n", markdownCell.Replace(l.Note))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// markdownCell keeps engine names literal in a Markdown table: no column
// breaks, no HTML tags, no emphasis.
var markdownCell = strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;", "*", `\*`, "_", `\_`, "`", "\\`", `\`, `\\`)

// WriteCSV writes the header and rows, the title left out. The legend
// follows the rows, as rows of the same width whose first cell is "legend":
// ("legend", COLUMN, meaning), then ("legend", "", note). Every CSV reader
// reads the file as one table; drop the rows that start with "legend" to
// keep the standings alone.
func (t Table) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(t.Header); err != nil {
		return err
	}
	if err := cw.WriteAll(t.Rows); err != nil {
		return err
	}
	if l := t.Legend; l != nil {
		row := func(cells ...string) {
			out := make([]string, max(len(t.Header), len(cells)))
			copy(out, cells)
			cw.Write(out)
		}
		for _, e := range l.Columns {
			row("legend", e.Column, e.Meaning)
		}
		if l.Note != "" {
			row("legend", "", l.Note)
		}
		cw.Flush()
	}
	return cw.Error()
}

var htmlPage = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Title}}</title>
<style>
table { border-collapse: collapse; font-family: sans-serif; }
th, td { border: 1px solid #bbb; padding: 0.2em 0.6em; }
th { background: #eee; }
.num { text-align: right; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
{{template "table" .}}
</body>
</html>
{{- define "table"}}<table>
<thead>
<tr>{{range $i, $h := .Header}}<th{{if $.RightAt $i}} class="num"{{end}}>{{$h}}</th>{{end}}</tr>
</thead>
<tbody>
{{- range .Rows}}
<tr>{{range $i, $c := .}}<td{{if $.RightAt $i}} class="num"{{end}}>{{$c}}</td>{{end}}</tr>
{{- end}}
</tbody>
</table>
{{- with .Legend}}
<dl>
{{- range .Columns}}
<dt>{{.Column}}</dt><dd>{{.Meaning}}</dd>
{{- end}}
</dl>
{{- if .Note}}
<p>{{.Note}}</p>
{{- end}}
{{- end}}
{{- end}}
`))

// WriteHTML writes a standalone HTML page holding the table; engine names
// and every other cell are escaped.
func (t Table) WriteHTML(w io.Writer) error {
	return htmlPage.Execute(w, t)
}

// RightAt reports whether column i is aligned right; for the HTML template.
func (t Table) RightAt(i int) bool { return i < len(t.Right) && t.Right[i] }

// The JSON shapes are file formats, documented in docs/FORMATS.md: change
// a field only with a new TableFormatVersion.
//
// TableFormatVersion is the "format" of standings.json and crosstable.json.
const TableFormatVersion = 1

type standingsJSON struct {
	Format    int                  `json:"format"`
	Event     string               `json:"event"`
	Tiebreaks []standings.Tiebreak `json:"tiebreaks"`
	Standings []standingJSON       `json:"standings"`
	Legend    Legend               `json:"legend"`
}

type standingJSON struct {
	Rank          int                            `json:"rank"`
	RankTo        int                            `json:"rank_to"`
	Entrant       int                            `json:"entrant"`
	Name          string                         `json:"name"`
	Points        float64                        `json:"points"`
	Games         int                            `json:"games"`
	Wins          int                            `json:"wins"`
	Draws         int                            `json:"draws"`
	Losses        int                            `json:"losses"`
	BlackWins     int                            `json:"black_wins"`
	ForfeitWins   int                            `json:"forfeit_wins"`
	ForfeitLosses int                            `json:"forfeit_losses"`
	Byes          int                            `json:"byes"`
	Withdrawn     int                            `json:"withdrawn_from_round,omitempty"`
	Tiebreaks     map[standings.Tiebreak]float64 `json:"tiebreaks"`
}

type crosstableJSON struct {
	Format int       `json:"format"`
	Event  string    `json:"event"`
	Layout string    `json:"layout"` // "round-robin" or "swiss"
	Rows   []rowJSON `json:"rows"`
	Legend Legend    `json:"legend"`
}

type rowJSON struct {
	No      int        `json:"no"`
	Entrant int        `json:"entrant"`
	Name    string     `json:"name"`
	Points  float64    `json:"points"`
	Games   []gameJSON `json:"games"`
}

type gameJSON struct {
	Round      int     `json:"round"`
	Bye        bool    `json:"bye,omitempty"`
	Opponent   *int    `json:"opponent,omitempty"`    // entrant index
	OpponentNo *int    `json:"opponent_no,omitempty"` // row number
	Color      string  `json:"color,omitempty"`       // "black" or "white"
	Points     float64 `json:"points"`
	Unplayed   bool    `json:"unplayed,omitempty"`
}

func (r *Report) standingsJSON() standingsJSON {
	out := standingsJSON{Format: TableFormatVersion, Event: r.Event, Tiebreaks: r.Tiebreaks, Standings: []standingJSON{}, Legend: r.StandingsLegend()}
	if out.Tiebreaks == nil {
		out.Tiebreaks = []standings.Tiebreak{}
	}
	for _, s := range r.Standings {
		tbs := make(map[standings.Tiebreak]float64, len(r.Tiebreaks))
		for i, tb := range r.Tiebreaks {
			tbs[tb] = s.Tiebreaks[i]
		}
		out.Standings = append(out.Standings, standingJSON{
			Rank: s.Rank, RankTo: s.RankTo, Entrant: s.Entrant, Name: nameOf(r.Names, s.Entrant),
			Points: s.Points, Games: s.Games, Wins: s.Wins, Draws: s.Draws, Losses: s.Losses,
			BlackWins: s.BlackWins, ForfeitWins: s.ForfeitWins, ForfeitLosses: s.ForfeitLosses,
			Byes: s.Byes, Withdrawn: s.Withdrawn, Tiebreaks: tbs,
		})
	}
	return out
}

func (r *Report) crosstableJSON() crosstableJSON {
	out := crosstableJSON{Format: TableFormatVersion, Event: r.Event, Layout: "round-robin", Rows: []rowJSON{}, Legend: r.CrosstableLegend()}
	if r.Swiss {
		out.Layout = "swiss"
	}
	no := make(map[int]int, len(r.Crosstable.Rows))
	for i, row := range r.Crosstable.Rows {
		no[row.Standing.Entrant] = i + 1
	}
	for i, row := range r.Crosstable.Rows {
		rj := rowJSON{No: i + 1, Entrant: row.Standing.Entrant, Name: nameOf(r.Names, row.Standing.Entrant), Points: row.Standing.Points, Games: []gameJSON{}}
		for _, g := range row.Games {
			gj := gameJSON{Round: g.Round, Points: g.Points, Unplayed: g.Unplayed}
			if g.Opponent == standings.Bye {
				gj.Bye = true
			} else {
				opp, n := g.Opponent, no[g.Opponent]
				gj.Opponent, gj.OpponentNo = &opp, &n
				gj.Color = "white"
				if g.Black {
					gj.Color = "black"
				}
			}
			rj.Games = append(rj.Games, gj)
		}
		out.Rows = append(out.Rows, rj)
	}
	return out
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// formatPoints writes points the chess way: 2½, ½, 3.
func formatPoints(p float64) string {
	whole, frac := int(p), p-float64(int(p))
	switch {
	case frac == 0:
		return strconv.Itoa(whole)
	case frac == 0.5 && whole == 0:
		return "½"
	case frac == 0.5:
		return strconv.Itoa(whole) + "½"
	}
	return strconv.FormatFloat(p, 'f', -1, 64)
}

func rankString(s standings.Standing) string {
	if s.RankTo != s.Rank {
		return strconv.Itoa(s.Rank) + "-" + strconv.Itoa(s.RankTo)
	}
	return strconv.Itoa(s.Rank)
}

// tiebreakCells are the first n tie-break values of s.
func tiebreakCells(s standings.Standing, n int) []string {
	out := make([]string, n)
	for i, v := range s.Tiebreaks[:n] {
		out[i] = strconv.FormatFloat(v, 'f', -1, 64)
	}
	return out
}

// entrantCell is the entrant's name, marked when it withdrew.
func entrantCell(names []string, s standings.Standing) string {
	if s.Withdrawn > 0 {
		return fmt.Sprintf("%s (withdrawn from round %d)", nameOf(names, s.Entrant), s.Withdrawn)
	}
	return nameOf(names, s.Entrant)
}

func nameOf(names []string, e int) string {
	if e >= 0 && e < len(names) {
		return names[e]
	}
	return "#" + strconv.Itoa(e+1)
}

// rightFrom aligns right the columns from index first on: the numbers and
// results after place and name.
func rightFrom(n, first int) []bool {
	r := make([]bool, n)
	for i := first; i < n; i++ {
		r[i] = true
	}
	return r
}
