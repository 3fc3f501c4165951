package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"

	"gomoku-arena/internal/durable"
	"gomoku-arena/pairing"
	"gomoku-arena/results/record"
	"gomoku-arena/results/report"
	"gomoku-arena/results/standings"
)

func mkdirs(out string) error {
	if err := os.MkdirAll(filepath.Join(out, "games"), 0o755); err != nil {
		return fmt.Errorf("output folder: %w", err)
	}
	return nil
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// gameFile is the base name of a game's files: number, round and players.
func gameFile(rec *record.Record) string {
	base := fmt.Sprintf("%04d", rec.Game)
	if rec.Round > 0 {
		base += fmt.Sprintf("-r%02d", rec.Round)
	}
	return base + "-" + unsafeName.ReplaceAllString(rec.Black, "_") + "-vs-" + unsafeName.ReplaceAllString(rec.White, "_")
}

// writeGame writes a finished game as SGF and psq. These files are derived
// from the journal (arena standings rewrites them), so they are replaced
// whole, never appended.
func writeGame(out string, rec *record.Record) error {
	if err := mkdirs(out); err != nil {
		return err
	}
	base := filepath.Join(out, "games", gameFile(rec))
	for _, w := range []struct {
		ext   string
		write func(io.Writer, *record.Record) error
	}{{".sgf", record.WriteSGF}, {".psq", record.WritePSQ}} {
		var b bytes.Buffer
		if err := w.write(&b, rec); err != nil {
			return fmt.Errorf("game %d: %w", rec.Game, err)
		}
		if err := durable.WriteFile(base+w.ext, b.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

// writeStandings prints the standings and crosstable and writes them to the
// output folder in every table format. They are derived from the journal's
// records alone.
func writeStandings(stdout io.Writer, out string, id identity, done []*record.Record) error {
	swiss := id.Format == string(pairing.SwissFormat)
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
		return err
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
			return err
		}
	}
	if swiss {
		opt.Rounds = id.Rounds
	}
	if rated {
		opt.Ratings = ratings
	}
	if opt.Withdrawn, err = standings.Withdrawals(done, index); err != nil {
		return err
	}
	rep, err := report.NewReport(id.Name, names, games, opt)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout)
	if err := rep.WriteStandings(stdout, report.Text); err != nil {
		return err
	}
	if err := rep.WriteCrosstable(stdout, report.Text); err != nil {
		return err
	}
	for _, f := range []report.TableFormat{report.Markdown, report.CSV, report.JSON, report.HTML} {
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
	fmt.Fprintf(stdout, "standings, crosstable and games written to %s\n", out)
	return nil
}
