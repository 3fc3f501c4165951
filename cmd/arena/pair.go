package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"gomoku-arena/pairing"
)

// exitNoPairing is the exit code of `arena pair` when no legal pairing
// exists, so scripts comparing pairing engines can tell it from bad input.
const exitNoPairing = 3

type noPairing struct{ error }

func (noPairing) ExitCode() int { return exitNoPairing }

func runPair(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("pair", "FILE.trf|FILE.json",
		"Reads a TRF-16 report of the rounds played so far and prints the next round's Swiss pairings\n"+
			"(FIDE Dutch system) in the plain form pairing engines use: the number of pairs, then one line\n"+
			"per pair with the starting number of the player who moves first, then the other; a bye as\n"+
			"the player followed by 0. In TRF (a chess format) the first mover is White; in Gomoku it is\n"+
			"Black. Exit code 3 when no legal pairing exists. A file ending in .json is read in the JSON\n"+
			"event form instead (any number of players; TRF-16 holds at most 9,999): see the README.", stdout)
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%w: want one TRF file, got %d arguments", errUsage, fs.NArg())
	}
	f, err := os.Open(fs.Arg(0))
	if err != nil {
		return err
	}
	defer f.Close()
	pair := pairing.PairTRF
	if strings.HasSuffix(strings.ToLower(fs.Arg(0)), ".json") {
		pair = pairing.PairJSON
	}
	if err := pair(f, stdout); err != nil {
		if errors.Is(err, pairing.ErrNoLegalPairing) {
			return noPairing{fmt.Errorf("%s: %w", fs.Arg(0), err)}
		}
		return fmt.Errorf("%s: %w", fs.Arg(0), err)
	}
	return nil
}
