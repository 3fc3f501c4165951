package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"gomoku-arena/internal/brains"
	"gomoku-arena/results/journal"
)

func runStandings(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("standings", "FOLDER",
		"Rebuilds an event's standings, crosstable and game files (SGF, psq) from the journal in its\n"+
			"output folder, and prints the standings.", stdout)
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%w: want one FOLDER, got %d arguments", errUsage, fs.NArg())
	}
	out := fs.Arg(0)
	b, err := os.ReadFile(filepath.Join(out, "event.json"))
	if err != nil {
		return fmt.Errorf("%s is not an event folder: %w", out, err)
	}
	var id identity
	if err := json.Unmarshal(b, &id); err != nil {
		return fmt.Errorf("%s: %w", filepath.Join(out, "event.json"), err)
	}
	done, err := journal.Read(filepath.Join(out, "journal.jsonl"))
	if err != nil {
		return err
	}
	for _, rec := range done {
		if !rec.IsGame() {
			continue
		}
		if err := writeGame(out, rec); err != nil {
			return err
		}
	}
	return writeStandings(stdout, out, id, done)
}

func bundledNames() []string { return brains.Names() }
