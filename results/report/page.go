package report

import (
	"bytes"
	"html/template"
	"io"

	"gomoku-arena/internal/term"
)

// Page is an event's results as one printable HTML page, the files-only
// form of its live page: what the event is, the standings and crosstable
// with their legends, every game with links to its records, and the
// entrants. An event folder published as plain files shows it as index.html.
type Page struct {
	Report *Report
	// Title is the event's full title, when the organizer gave one (the
	// report names the event by its short name).
	Title string
	Facts []string // what the event is: rule, time control, format, dates
	// Details are what the organizer's record names: venue, dates, chief
	// arbiter, organizer.
	Details []PageDetail
	// Status says how far the event is: "Provisional: 8 of 21 games ..."
	// until the last game is journaled, then "Final: ...".
	Status      string
	Provisional bool
	Games       []PageGame
	Engines     []PageEngine
}

// PageDetail is one named detail of the event.
type PageDetail struct{ Name, Value string }

// PageGame is a finished game and the base name of its record files
// (games/BASE.sgf and .psq), "" when it has none.
type PageGame struct {
	Round, Number int
	Black, White  string
	Result, End   string
	// Opening is the stones the game began with (the arbiter's, in the
	// notation of renju books: H8), "" for none.
	Opening string
	Moves   int
	// BlackTime and WhiteTime are the time each side used (clock.Human).
	BlackTime, WhiteTime string
	Files                string
}

// PageEngine is an entrant and what its engine said of itself (ABOUT).
type PageEngine struct {
	Name, Program, Version, Author, Country string
}

var page = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Report.Event}} — results</title>
<style>
body { font: 15px/1.4 system-ui, sans-serif; color: #1b1b1b; margin: 0; }
header { padding: 12px 20px; background: #20303c; color: #fff; }
header h1 { margin: 0 0 4px; font-size: 24px; }
main { padding: 8px 20px 24px; }
table { border-collapse: collapse; margin: 4px 0 12px; }
th, td { border: 1px solid #bbb; padding: 3px 8px; text-align: left; }
th { background: #eef1f3; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
dl { display: grid; grid-template-columns: max-content auto; gap: 2px 12px; font-size: 14px; }
dt { font-weight: 600; } dd { margin: 0; }
.note { color: #5d5d5d; font-size: 13px; }
.status { font-weight: 600; }
.provisional { display: inline-block; padding: 2px 8px; background: #ffd24d; color: #1b1b1b; font-weight: 700; }
@media print { header { background: none; color: #1b1b1b; } a { color: inherit; text-decoration: none; } }
</style>
</head>
<body>
<header>
<h1>{{with .Title}}{{.}}{{else}}{{.Report.Event}}{{end}}</h1>
<p>{{range $i, $f := .Facts}}{{if $i}} · {{end}}{{$f}}{{end}}</p>
<p class="status" id="status">{{if .Provisional}}<span class="provisional">PROVISIONAL</span> {{end}}{{.Status}}</p>
</header>
<main>
{{- with .Details}}
<dl class="details">{{range .}}<dt>{{.Name}}</dt><dd>{{.Value}}</dd>{{end}}</dl>
{{- end}}
{{- with $t := .Report.StandingsTable}}
<h2>Standings</h2>
{{template "table" $t}}
{{- end}}
{{- with .Report.StandingsLegend}}
<dl>{{range .Columns}}<dt>{{.Column}}</dt><dd>{{.Meaning}}</dd>{{end}}</dl>
{{- if .Note}}<p class="note">{{.Note}}</p>{{end}}
{{- end}}
{{- with $t := .Report.CrosstableTable}}
<h2>Crosstable</h2>
{{template "table" $t}}
{{- end}}
{{- with .Report.CrosstableLegend}}
<dl>{{range .Columns}}<dt>{{.Column}}</dt><dd>{{.Meaning}}</dd>{{end}}</dl>
{{- end}}
{{- if .Report.PairScores}}
{{- with $t := .Report.PairTable}}
<h2>Pairs</h2>
{{template "table" $t}}
{{- end}}
{{- with .Report.PairLegend}}
<dl>{{range .Columns}}<dt>{{.Column}}</dt><dd>{{.Meaning}}</dd>{{end}}</dl>
{{- end}}
{{- end}}
<h2>Games</h2>
<table>
<thead><tr><th class="num">game</th><th class="num">round</th><th>Black</th><th>White</th><th>result</th><th>termination</th><th>opening</th><th class="num">moves</th><th class="num">Black's time</th><th class="num">White's time</th><th>records</th></tr></thead>
<tbody>
{{- range .Games}}
<tr><td class="num">{{.Number}}</td><td class="num">{{if .Round}}{{.Round}}{{end}}</td><td>{{.Black}}</td><td>{{.White}}</td><td>{{.Result}}</td><td>{{.End}}</td><td>{{.Opening}}</td><td class="num">{{.Moves}}</td><td class="num">{{.BlackTime}}</td><td class="num">{{.WhiteTime}}</td><td>{{if .Files}}<a href="games/{{.Files}}.sgf">SGF</a> <a href="games/{{.Files}}.psq">psq</a>{{end}}</td></tr>
{{- end}}
</tbody>
</table>
<h2>Entrants</h2>
<table>
<thead><tr><th>entrant</th><th>program</th><th>version</th><th>author</th><th>country</th></tr></thead>
<tbody>
{{- range .Engines}}
<tr><td>{{.Name}}</td><td>{{.Program}}</td><td>{{.Version}}</td><td>{{.Author}}</td><td>{{.Country}}</td></tr>
{{- end}}
</tbody>
</table>
<p class="note">Program, version, author and country are what each engine answered to ABOUT. Results are from Black's
side (Black moves first). Records: SGF (FF[4], GM[4]) and psq, as described in the arena's docs/records.md.</p>
</main>
</body>
</html>
{{- define "table"}}<table>
<thead><tr>{{range $i, $h := .Header}}<th{{if $.RightAt $i}} class="num"{{end}}>{{$h}}</th>{{end}}</tr></thead>
<tbody>
{{- range .Rows}}
<tr>{{range $i, $c := .}}<td{{if $.RightAt $i}} class="num"{{end}}>{{$c}}</td>{{end}}</tr>
{{- end}}
</tbody>
</table>{{end}}
`))

// WritePage writes the page. Every name and text in it is escaped: engine
// names and ABOUT answers are text, never markup, and the control
// characters among them (ESC, BEL, a bidirectional override) are written as
// escapes (term.Clean), never as raw bytes.
func WritePage(w io.Writer, p Page) error {
	var b bytes.Buffer
	if err := page.Execute(&b, p); err != nil {
		return err
	}
	_, err := io.WriteString(w, term.CleanLines(b.String()))
	return err
}
