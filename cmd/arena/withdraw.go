package main

import (
	"fmt"
	"io"

	"gomoku-arena/event/rulings"
)

func runWithdraw(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("withdraw", "FOLDER NAME",
		"Withdraws (or, with a reason that says so, disqualifies) the engine NAME from the event in FOLDER,\n"+
			"as its organizer: the request is written durably to FOLDER/"+rulings.WithdrawalFile+", and the event\n"+
			"(running, or the next `arena run` of it) withdraws NAME. In a Swiss it happens before the next\n"+
			"round is paired: NAME gets no more pairings and no more byes, keeps its points, and is shown\n"+
			"withdrawn in the standings and in event.trf. In a round robin (or gauntlet) it happens at once:\n"+
			"NAME's games without a result are never played, and FIDE's rule (Handbook C.06, V.4) scores\n"+
			"them: with less than half of its games completed, no result of NAME counts for anyone; with\n"+
			"half or more, its results stand and its unplayed games are forfeits won by the opponents.\n"+
			"Events also withdraw a Swiss entrant on their own after withdraw_after games in a row it\n"+
			"failed to start (see configs/reference.toml). A request no round could take is refused and\n"+
			"nothing is written: the event has reached its last round (a Swiss) or NAME has no game left,\n"+
			"NAME is already withdrawn, or its withdrawal is already requested. See docs/events.md.", stdout)
	reason := fs.String("reason", "", "why, as the standings and the journal should say")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return fmt.Errorf("%w: want FOLDER and NAME, got %d arguments", errUsage, fs.NArg())
	}
	name, err := rulings.Withdraw(fs.Arg(0), fs.Arg(1), *reason)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s will be withdrawn from %q (a Swiss: before the next round the event pairs)\n", fs.Arg(1), name)
	return nil
}
