package main

import (
	"fmt"
	"io"
	"path/filepath"

	"gomoku-arena/event/identity"
	"gomoku-arena/event/tables"
	"gomoku-arena/internal/brains"
	"gomoku-arena/internal/term"
)

func runStandings(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("standings", "FOLDER",
		"Rebuilds an event's standings, crosstable and game files (SGF, psq) from the journal in its\n"+
			"output folder, and prints the standings. Every journal line is replayed through its rule first:\n"+
			"a line whose result its moves contradict, or a game journaled twice, is an error naming the line.", stdout)
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%w: want one FOLDER, got %d arguments", errUsage, fs.NArg())
	}
	rep, err := tables.Rebuild(fs.Arg(0))
	if err != nil {
		return err
	}
	if id, err := identity.Read(filepath.Join(fs.Arg(0), identity.File)); err == nil {
		for _, u := range id.Unchecked() {
			fmt.Fprintln(stderr, "arena standings: note: "+u)
		}
	}
	if err := printStandings(stdout, rep); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "standings, crosstable and games written to %s\n", term.Clean(fs.Arg(0)))
	return nil
}

func bundledNames() []string { return brains.Names() }
