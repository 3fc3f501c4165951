package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"gomoku-arena/arbiter"
	"gomoku-arena/pairing"
)

func runWithdraw(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("withdraw", "FOLDER NAME",
		"Withdraws the engine NAME from the Swiss event in FOLDER, as its organizer: the request is\n"+
			"written durably to FOLDER/"+arbiter.WithdrawalFile+", and the event (running, or the next\n"+
			"`arena run` of it) withdraws NAME before the next round it pairs. A withdrawn entrant gets\n"+
			"no more pairings and no more byes, keeps its points, and is shown withdrawn in the standings\n"+
			"and in event.trf. Events also withdraw an entrant on their own after withdraw_after games in\n"+
			"a row it failed to start (see configs/reference.toml). Round robins keep their schedule.", stdout)
	reason := fs.String("reason", "", "why, as the standings and the journal should say")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return fmt.Errorf("%w: want FOLDER and NAME, got %d arguments", errUsage, fs.NArg())
	}
	out, name := fs.Arg(0), fs.Arg(1)
	b, err := os.ReadFile(filepath.Join(out, "event.json"))
	if err != nil {
		return fmt.Errorf("%s is not an event folder: %w", out, err)
	}
	var id identity
	if err := json.Unmarshal(b, &id); err != nil {
		return fmt.Errorf("%s: %w", filepath.Join(out, "event.json"), err)
	}
	if id.Format != string(pairing.SwissFormat) {
		return fmt.Errorf("%s is a %s event: withdrawals apply to Swiss events, whose rounds are paired as they come", out, id.Format)
	}
	found := false
	for _, e := range id.Engines {
		found = found || e.Name == name
	}
	if !found {
		return fmt.Errorf("%s: no engine %q in the event", out, name)
	}
	if err := arbiter.RequestWithdrawal(filepath.Join(out, arbiter.WithdrawalFile), name, *reason); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s will be withdrawn from %q before the next round the event pairs\n", name, id.Name)
	return nil
}
