package event

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"gomoku-arena/arbiter"
	"gomoku-arena/internal/durable"
	"gomoku-arena/pairing"
	"gomoku-arena/results/journal"
	"gomoku-arena/results/record"
	"gomoku-arena/results/report"
	"gomoku-arena/results/standings"
)

// Standings computes the standings of the event in folder from its
// event.json and journal alone, writing nothing.
func Standings(folder string) (*report.Report, []*record.Record, error) {
	id, err := ReadIdentity(filepath.Join(folder, IdentityFile))
	if err != nil {
		return nil, nil, fmt.Errorf("%s is not an event folder: %w", folder, err)
	}
	if id.Kind != KindEvent {
		return nil, nil, fmt.Errorf("%s holds %s, which has no standings", folder, kindName[id.Kind])
	}
	done, err := journal.Read(filepath.Join(folder, JournalFile))
	if err != nil {
		return nil, nil, err
	}
	rep, err := standingsReport(id, done)
	return rep, done, err
}

// Rebuild rewrites the game files, standings and crosstable of the event in
// folder from its journal, and returns the standings. It owns the folder
// while it writes: a folder whose event is running is refused (its files
// are rewritten after every game anyway).
func Rebuild(folder string) (*report.Report, error) {
	if _, err := os.Stat(filepath.Join(folder, IdentityFile)); err != nil {
		return nil, fmt.Errorf("%s is not an event folder: %w", folder, err)
	}
	lock, err := lockFolder(folder)
	if err != nil {
		return nil, err
	}
	defer unlock(lock)
	rep, done, err := Standings(folder)
	if err != nil {
		return nil, err
	}
	for _, rec := range done {
		if !rec.IsGame() {
			continue
		}
		if err := writeGame(folder, rec); err != nil {
			return nil, err
		}
	}
	return rep, writeTables(folder, rep)
}

// standingsReport is the standings and crosstable of the records.
func standingsReport(id *Identity, done []*record.Record) (*report.Report, error) {
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
	return report.NewReport(id.Name, names, games, opt)
}

// TableFormats are the formats the standings and crosstable files are
// written in: standings.md, crosstable.csv, ...
var TableFormats = []report.TableFormat{report.Markdown, report.CSV, report.JSON, report.HTML}

// writeStandings computes the standings of the records and writes them.
func writeStandings(out string, id *Identity, done []*record.Record) (*report.Report, error) {
	rep, err := standingsReport(id, done)
	if err != nil {
		return nil, err
	}
	return rep, writeTables(out, rep)
}

// writeTables writes the standings and crosstable in every table format,
// each file replaced whole, so a reader during a run sees the table before a
// game or after it, never a mix.
func writeTables(out string, rep *report.Report) error {
	for _, f := range TableFormats {
		for _, t := range []struct {
			name  string
			write func(io.Writer, report.TableFormat) error
		}{{"standings", rep.WriteStandings}, {"crosstable", rep.WriteCrosstable}} {
			var b bytes.Buffer
			if err := t.write(&b, f); err != nil {
				return err
			}
			if err := durable.WriteFile(filepath.Join(out, t.name+f.Ext()), b.Bytes()); err != nil {
				return err
			}
		}
	}
	return nil
}

// Withdraw asks the Swiss event in folder, as its organizer, to withdraw the
// engine called name before the next round it pairs (running or not): the
// request is written durably beside the journal. It returns the event's
// name.
func Withdraw(folder, name, reason string) (string, error) {
	id, err := ReadIdentity(filepath.Join(folder, IdentityFile))
	if err != nil {
		return "", fmt.Errorf("%s is not an event folder: %w", folder, err)
	}
	if id.Kind != KindEvent || id.Pairing != string(pairing.SwissFormat) {
		return "", fmt.Errorf("%s holds %s paired as %q: withdrawals apply to Swiss events, whose rounds are paired as they come",
			folder, kindName[id.Kind], id.Pairing)
	}
	if !slices.ContainsFunc(id.Engines, func(e Entrant) bool { return e.Name == name }) {
		return "", fmt.Errorf("%s: no engine %q in the event", folder, name)
	}
	return id.Name, arbiter.RequestWithdrawal(filepath.Join(folder, arbiter.WithdrawalFile), name, reason)
}
