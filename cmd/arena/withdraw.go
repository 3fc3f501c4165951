package main

import (
	"fmt"
	"io"

	"gomoku-arena/event"
)

func runWithdraw(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("withdraw", "FOLDER NAME",
		"Withdraws the engine NAME from the Swiss event in FOLDER, as its organizer: the request is\n"+
			"written durably to FOLDER/"+event.WithdrawalFile+", and the event (running, or the next\n"+
			"`arena run` of it) withdraws NAME before the next round it pairs. A withdrawn entrant gets\n"+
			"no more pairings and no more byes, keeps its points, and is shown withdrawn in the standings\n"+
			"and in event.trf. Events also withdraw an entrant on their own after withdraw_after games in\n"+
			"a row it failed to start (see configs/reference.toml). Round robins keep their schedule.\n"+
			"A request no round could take is refused and nothing is written: the event has reached its\n"+
			"last round, NAME is already withdrawn, or its withdrawal is already requested.", stdout)
	reason := fs.String("reason", "", "why, as the standings and the journal should say")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return fmt.Errorf("%w: want FOLDER and NAME, got %d arguments", errUsage, fs.NArg())
	}
	name, err := event.Withdraw(fs.Arg(0), fs.Arg(1), *reason)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s will be withdrawn from %q before the next round the event pairs\n", fs.Arg(1), name)
	return nil
}
