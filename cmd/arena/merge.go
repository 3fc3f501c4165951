package main

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"

	"gomoku-arena/event"
	"gomoku-arena/event/batch"
	"gomoku-arena/event/identity"
	"gomoku-arena/event/outfolder"
	"gomoku-arena/event/outputs"
	"gomoku-arena/event/spread"
	"gomoku-arena/internal/term"
)

// runMerge folds the shards of a batch (arena match -shard) into one
// journal and one set of statistics, as one process playing the whole
// batch would have them.
func runMerge(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("merge", "[flags] FOLDER",
		"Folds the shards of a batch (FOLDER/shard-K-of-N, written by arena match -out FOLDER -shard K/N)\n"+
			"into FOLDER/journal.jsonl and FOLDER/event.json, and prints the statistics of the whole batch:\n"+
			"the games counted in the batch's order, as one process playing it one game at a time counts\n"+
			"them (same Elo, LOS, pentanomial counts, rating list and SPRT decision). Shards never started,\n"+
			"games journaled twice or by the wrong shard, and games missing are listed; a batch with games\n"+
			"journaled twice is not merged (exit 1), a batch with games missing is merged and reported\n"+
			"incomplete (exit 1). Samples (-sample) are rebuilt into FOLDER from the merged journal.\n"+
			"The tasks of a spread event (arena run -shard) are folded the same way into the event's own\n"+
			"journal, event.json, game files, standings, crosstable and page (docs/leagues.md).", stdout)
	recordsFlag := fs.String("records", "collection", "game records written into FOLDER: files (SGF and psq per game), collection (one games.sgf) or none")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%w: want one batch folder, got %d arguments", errUsage, fs.NArg())
	}
	records, err := outputs.ParseRecords(*recordsFlag)
	if err != nil {
		return fmt.Errorf("%w: -records: %v", errUsage, err)
	}
	dir := fs.Arg(0)
	if kind, err := spread.Kind(dir); err == nil && kind == identity.KindEvent {
		return mergeSpread(dir, stdout)
	}
	b, err := batch.Read(dir)
	if err != nil {
		return err
	}
	var out bytes.Buffer // names from the folder: cleaned for the terminal
	started := 0
	for _, sh := range b.Shards {
		if sh.Dir != "" {
			started++
		}
	}
	fmt.Fprintf(&out, "batch %s: %d of %d shards, %d games\n", dir, started, b.Count, len(b.Records))
	problems := b.Problems()
	for _, p := range problems {
		fmt.Fprintln(&out, "  "+p)
	}
	// Everything the merge writes is checked before the first file is
	// written (batch.Read replayed the games; the sample settings here).
	s, err := b.Sampling()
	if err != nil {
		fmt.Fprint(stdout, term.CleanLines(out.String()))
		return err
	}
	if err := b.Write(); err != nil {
		fmt.Fprint(stdout, term.CleanLines(out.String()))
		return err
	}
	switch records {
	case outputs.RecordsFiles:
		err = outputs.WriteGameFiles(dir, b.Records)
	case outputs.RecordsCollection:
		err = outputs.WriteCollection(filepath.Join(dir, outputs.CollectionFile), b.Records)
	}
	if err != nil {
		return err
	}
	sampleFile := ""
	if s != nil {
		sampleFile = filepath.Join(dir, filepath.Base(s.File))
		if err := outputs.WriteSamples(sampleFile, s, b.Identity.Match.Seed, b.Records); err != nil {
			return fmt.Errorf("sample: %w", err)
		}
	}
	p := &matchPlan{Match: &event.Match{Plan: b.Match}}
	decision := ""
	if b.Decided > 0 {
		decision = fmt.Sprintf("SPRT: %s accepted after %d games", b.Decision, b.Decided)
	}
	p.summary(&out, b.Encounters, decision)
	if b.Decided > 0 {
		fmt.Fprintf(&out, "%d games played after the decision (shards finishing their games before they read it); %d games of the batch not played\n", b.After, b.Unplayed)
	}
	fmt.Fprintf(&out, "merged into %s\n", filepath.Join(dir, outfolder.JournalFile))
	if sampleFile != "" {
		fmt.Fprintf(&out, "samples written to %s\n", sampleFile)
	}
	fmt.Fprint(stdout, term.CleanLines(out.String()))
	if len(b.Missing) > 0 {
		return fmt.Errorf("incomplete batch: %d games missing", len(b.Missing))
	}
	return nil
}

// mergeSpread folds the tasks of a spread event (arena run -shard) into
// the event's journal and tables, and prints its standings.
func mergeSpread(dir string, stdout io.Writer) error {
	m, err := spread.Merge(dir)
	if err != nil {
		return err
	}
	var out bytes.Buffer // names from the folder: cleaned for the terminal
	fmt.Fprintf(&out, "event %s: %d of %d tasks, %d games\n", dir, m.Started, m.Count, m.Games())
	for _, p := range m.Problems() {
		fmt.Fprintln(&out, "  "+p)
	}
	fmt.Fprint(stdout, term.CleanLines(out.String()))
	rep, err := m.Write()
	if err != nil {
		return err
	}
	if err := printStandings(stdout, rep); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "merged into %s\n", term.Clean(filepath.Join(dir, outfolder.JournalFile)))
	if len(m.Missing) > 0 || m.Unpaired > 0 {
		return fmt.Errorf("incomplete event: %d games missing, %d rounds not paired", len(m.Missing), m.Unpaired)
	}
	return nil
}
