// Package tables owns an event's published results, each a function of
// event.json and the journal: the standings and crosstable (computed by
// StandingsOf, written in every TableFormat), and the printable page
// (index.html). Standings reads them from a folder without writing;
// Rebuild rewrites the game files, tables and page of a folder it locks.
// When a running event rewrites them is event's (its publisher).
package tables

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gomoku-arena/clock"
	"gomoku-arena/engine"
	"gomoku-arena/event/identity"
	"gomoku-arena/event/outfolder"
	"gomoku-arena/event/outputs"
	"gomoku-arena/event/verify"
	"gomoku-arena/internal/durable"
	"gomoku-arena/pairing"
	"gomoku-arena/results/journal"
	"gomoku-arena/results/record"
	"gomoku-arena/results/report"
	"gomoku-arena/results/standings"
	"gomoku-arena/rules"
)

// Standings computes the standings of the event in folder from its
// event.json and journal alone, writing nothing. The journal is checked
// against the event's schedule first (verify.Journal).
func Standings(folder string) (*report.Report, []*record.Record, error) {
	id, err := identity.Read(filepath.Join(folder, identity.File))
	if err != nil {
		return nil, nil, fmt.Errorf("%s is not an event folder: %w", folder, err)
	}
	if id.Kind != identity.KindEvent {
		return nil, nil, fmt.Errorf("%s holds %s, which has no standings", folder, identity.KindName[id.Kind])
	}
	path := filepath.Join(folder, outfolder.JournalFile)
	done, err := journal.Read(path)
	if err != nil {
		return nil, nil, err
	}
	if err := verify.Journal(id, done); err != nil {
		return nil, nil, fmt.Errorf("journal %s: %w", path, err)
	}
	rep, err := standingsReport(id, done)
	return rep, done, err
}

// Rebuild rewrites the game files, standings, crosstable and page
// (index.html) of the event in folder from its journal, and returns the standings. It owns the folder
// while it writes: a folder whose event is running is refused (its files
// are rewritten after every game anyway).
func Rebuild(folder string) (*report.Report, error) {
	if _, err := os.Stat(filepath.Join(folder, identity.File)); err != nil {
		return nil, fmt.Errorf("%s is not an event folder: %w", folder, err)
	}
	lock, err := outfolder.Lock(folder)
	if err != nil {
		return nil, err
	}
	defer outfolder.Unlock(lock)
	_, done, err := Standings(folder)
	if err != nil {
		return nil, err
	}
	id, err := identity.Read(filepath.Join(folder, identity.File))
	if err != nil {
		return nil, err
	}
	for _, rec := range record.Ruled(done) {
		if !rec.IsGame() {
			continue
		}
		if err := outputs.WriteGame(folder, id.Heading(), rec); err != nil {
			return nil, err
		}
	}
	return Write(folder, id, done) // the tables and the page, as a run writes them
}

// StandingsOf is the standings and crosstable of an event's records,
// already checked (verify.Journal, or a verify.Check fed every one of them).
func StandingsOf(id *identity.Identity, done []*record.Record) (*report.Report, error) {
	return standingsReport(id, done)
}

// standingsReport is the standings and crosstable of the records.
func standingsReport(id *identity.Identity, done []*record.Record) (*report.Report, error) {
	swiss := id.Pairing == string(pairing.SwissFormat)
	var names []string
	index := map[string]int{}
	var ratings []float64
	rated := false
	for i, e := range id.Engines {
		names = append(names, e.Name)
		index[e.Name] = i
		ratings = append(ratings, float64(e.Rating))
		rated = rated || e.Rating > 0
	}
	games, err := standings.GameResults(done, index)
	if err != nil {
		return nil, err
	}
	opt := standings.DefaultOptions(swiss)
	if !swiss {
		opt.ByePoints = 0 // a round robin's bye is a rest, the same for everyone
	}
	if id.ByePoints != nil {
		opt.ByePoints = *id.ByePoints
	}
	if len(id.Tiebreaks) > 0 {
		if opt.Tiebreaks, err = standings.ParseTiebreaks(id.Tiebreaks); err != nil {
			return nil, err
		}
	}
	if swiss {
		opt.Rounds = id.Rounds
	}
	if rated {
		opt.Ratings = ratings
	}
	if opt.Withdrawn, err = standings.Withdrawals(done, index); err != nil {
		return nil, err
	}
	if !swiss && len(opt.Withdrawn) > 0 {
		// FIDE's rule for a round robin's withdrawal (schedule/withdraw.go).
		t, err := verify.Tournament(id)
		if err != nil {
			return nil, err
		}
		if games, err = t.WithdrawnResults(games, opt.Withdrawn); err != nil {
			return nil, err
		}
	}
	rep, err := report.NewReport(id.Name, names, games, opt)
	if err != nil {
		return nil, err
	}
	rep.PairScores = id.OpeningsPerPairing > 0
	return rep, nil
}

// TableFormats are the formats the standings and crosstable files are
// written in: standings.md, crosstable.csv, ...
var TableFormats = []report.TableFormat{report.Markdown, report.CSV, report.JSON, report.HTML}

// Write computes the standings of the records and writes them.
func Write(out string, id *identity.Identity, done []*record.Record) (*report.Report, error) {
	rep, err := standingsReport(id, done)
	if err != nil {
		return nil, err
	}
	if err := writeTables(out, rep); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := report.WritePage(&b, page(id, rep, done)); err != nil {
		return nil, err
	}
	return rep, durable.Replace(filepath.Join(out, PageFile), b.Bytes())
}

// PageFile is the event's results as one printable page, beside the tables:
// an event folder published as plain files opens at it.
const PageFile = "index.html"

// page is what the printable page shows of the event: what it is, the
// organizer's details, how far it is (provisional, "N of M games", until
// the last game is journaled), every game with its opening, moves and the
// time each side used, and the entrants. Every time is in the event's one
// time zone (details.time_zone, UTC by default), named. The page is a
// function of event.json and the journal: arena standings writes it anew.
func page(id *identity.Identity, rep *report.Report, done []*record.Record) report.Page {
	p := report.Page{Report: rep, Facts: []string{fmt.Sprintf("%s on %d×%d", id.Rule, id.Size, id.Size)}}
	if len(id.Engines) > 0 {
		p.Facts = append(p.Facts, id.Engines[0].Clock.String())
	}
	format := id.Pairing
	if id.Pairing == string(pairing.SwissFormat) {
		format += fmt.Sprintf(", %d rounds", id.Rounds)
	}
	if n := id.OpeningsPerPairing; n > 0 {
		format += fmt.Sprintf(", mini-matches of %d games (%d openings, each with both colours)", 2*n, n)
	}
	p.Facts = append(p.Facts, format)
	if id.OpeningProcedure != "" && id.OpeningProcedure != "none" {
		p.Facts = append(p.Facts, "opening: "+id.OpeningProcedure)
	}
	loc := id.Details.Location()
	if d := id.Details; d != nil {
		p.Title = d.Title
		if p.Title != "" && p.Title != id.Name {
			p.Details = append(p.Details, report.PageDetail{Name: "Event", Value: id.Name})
		}
		dates := d.StartDate
		if d.EndDate != "" && d.EndDate != d.StartDate {
			dates = strings.TrimPrefix(dates+" to "+d.EndDate, " to ")
		}
		for _, f := range []report.PageDetail{{Name: "Venue", Value: d.Venue}, {Name: "Federation", Value: d.Federation},
			{Name: "Dates", Value: dates}, {Name: "Chief arbiter", Value: d.ChiefArbiter}, {Name: "Organizer", Value: d.Organizer}} {
			if f.Value != "" {
				p.Details = append(p.Details, f)
			}
		}
	}
	about := map[string]string{}
	var first, last time.Time
	for _, rec := range record.Ruled(done) {
		if !rec.IsGame() {
			continue
		}
		if first.IsZero() || rec.Start.Before(first) {
			first = rec.Start
		}
		if rec.Finish.After(last) {
			last = rec.Finish
		}
		about[rec.Black], about[rec.White] = cmp.Or(rec.BlackAbout, about[rec.Black]), cmp.Or(rec.WhiteAbout, about[rec.White])
		res := map[float64]string{1: "1-0", 0: "0-1", 0.5: "1/2-1/2"}[rec.Score()]
		switch {
		case rec.End == record.DoubleForfeit:
			res = "0-0"
		case rec.End == record.Forfeited:
			res = map[rules.Color]string{rules.Black: "+-", rules.White: "-+"}[rec.Winner]
		}
		end := string(rec.End)
		if rec.Detail != "" {
			end += ": " + rec.Detail
		}
		g := report.PageGame{Round: rec.Round, Number: rec.Game, Black: rec.Black, White: rec.White,
			Result: res, End: end, Files: outputs.GameFile(rec)}
		var opening []string
		var used [3]time.Duration // by colour
		for _, m := range rec.Moves {
			switch {
			case m.Opening:
				opening = append(opening, rules.Renju.Format(m.Point, rec.Size))
			case m.Refused == "":
				g.Moves++
			}
			if m.Color == rules.Black || m.Color == rules.White {
				used[m.Color] += m.Think
			}
		}
		g.Opening = strings.Join(opening, " ")
		if len(rec.Moves) > 0 {
			g.BlackTime, g.WhiteTime = clock.Human(used[rules.Black]), clock.Human(used[rules.White])
		}
		p.Games = append(p.Games, g)
	}
	zone := func(t time.Time) string { return t.In(loc).Format("2006-01-02 15:04") }
	total, n := verify.PlannedGames(id, done), Played(done)
	switch {
	case n < total:
		p.Provisional = true
		p.Status = fmt.Sprintf("%d of %d games played", n, total)
		if !last.IsZero() {
			p.Status += fmt.Sprintf(", as of %s %s", zone(last), loc)
		}
		p.Status += "; results may still change"
	case !first.IsZero():
		p.Status = fmt.Sprintf("Final: %d of %d games played, %s to %s %s", n, total, zone(first), zone(last), loc)
	}
	if !first.IsZero() {
		p.Facts = append(p.Facts, fmt.Sprintf("played %s to %s %s", zone(first), zone(last), loc))
	}
	for _, e := range id.Engines {
		a := engine.ParseAbout(about[e.Name])
		p.Engines = append(p.Engines, report.PageEngine{Name: e.Name, Program: a.Name, Version: a.Version, Author: a.Author, Country: a.Country})
	}
	return p
}

// writeTables writes the standings and crosstable in every table format,
// and the pair scores of a league (pairs.md, ...), each file replaced
// whole, so a reader during a run sees the table before a game or after
// it, never a mix.
func writeTables(out string, rep *report.Report) error {
	type table struct {
		name  string
		write func(io.Writer, report.TableFormat) error
	}
	tables := []table{{"standings", rep.WriteStandings}, {"crosstable", rep.WriteCrosstable}}
	if rep.PairScores {
		tables = append(tables, table{"pairs", rep.WritePairs})
	}
	for _, f := range TableFormats {
		for _, t := range tables {
			var b bytes.Buffer
			if err := t.write(&b, f); err != nil {
				return err
			}
			if err := durable.Replace(filepath.Join(out, t.name+f.Ext()), b.Bytes()); err != nil {
				return err
			}
		}
	}
	return nil
}

// Played counts the games among records (byes are records too), as the
// arbiter's decisions leave them (a voided game is not played).
func Played(recs []*record.Record) int {
	n := 0
	for _, r := range record.Ruled(recs) {
		if r.IsGame() {
			n++
		}
	}
	return n
}
