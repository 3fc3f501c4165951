package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"gomoku-arena/event"
	"gomoku-arena/event/rulings"
	"gomoku-arena/results/record"
)

func runDecide(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("decide", "FOLDER correct|void|adjudicate GAME [RESULT] -reason TEXT",
		"Records the arbiter's decision on game GAME of the event in FOLDER, finished or running:\n"+
			"  correct GAME RESULT     the game's result becomes RESULT (its moves stay in the record)\n"+
			"  void GAME               the game is cancelled; the next `arena run` plays it again\n"+
			"  adjudicate GAME RESULT  a game not finished (stopped, or in progress) gets RESULT\n"+
			"RESULT is Black's first: "+strings.Join(record.Results, ", ")+" (+- Black wins by forfeit,\n"+
			"-- a double forfeit; write `--` before a result that starts with -). Each decision is a\n"+
			"line of the journal of its own, with the reason and the time, never an edit of an old line:\n"+
			"standings, the page, event.trf and ratings follow it. It is written durably to\n"+
			"FOLDER/"+rulings.DecisionFile+" first, and journaled at once when no run holds the folder, else\n"+
			"by the running event after its next game or before it pairs its next round; a game being\n"+
			"played that is adjudicated stops within a second. A Swiss round already paired is not\n"+
			"paired again: the decision counts from the next pairing.\n"+
			"See docs/events.md (The arbiter's decisions).", stdout)
	reason := fs.String("reason", "", "why, in the arbiter's words (required)")
	arbiter := fs.String("arbiter", "", "who decides, as the record should name them")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() < 3 {
		return fmt.Errorf("%w: want FOLDER, a decision and GAME, got %d arguments", errUsage, fs.NArg())
	}
	kind := record.DecisionKind(fs.Arg(1))
	want := 4
	switch kind {
	case record.Void:
		want = 3
	case record.Correct, record.Adjudicate:
	default:
		return fmt.Errorf("%w: decision %q: want correct, void or adjudicate", errUsage, fs.Arg(1))
	}
	if fs.NArg() != want {
		return fmt.Errorf("%w: %s wants %d arguments (FOLDER %s GAME%s), got %d", errUsage, kind, want, kind,
			map[bool]string{true: " RESULT"}[want == 4], fs.NArg())
	}
	game, err := strconv.Atoi(fs.Arg(2))
	if err != nil || game < 1 {
		return fmt.Errorf("%w: GAME %q: want a game number (1 or more)", errUsage, fs.Arg(2))
	}
	if strings.TrimSpace(*reason) == "" {
		return fmt.Errorf("%w: -reason: every decision names its reason", errUsage)
	}
	r := event.Ruling{Kind: kind, Game: game, Reason: *reason, Arbiter: *arbiter}
	if want == 4 {
		r.Result = fs.Arg(3)
	}
	d, err := event.Decide(fs.Arg(0), r)
	if err != nil {
		return err
	}
	l := d.Line
	what := map[record.DecisionKind]string{record.Correct: "result corrected to " + l.Decision.Result,
		record.Void: "voided: the next `arena run` plays it again", record.Adjudicate: "adjudicated " + l.Decision.Result}[kind]
	fmt.Fprintf(stdout, "round %d game %d (%s vs %s): %s (decision %s)\n", l.Round, l.Game, l.Black, l.White, what, l.Decision.ID)
	if d.Journaled {
		fmt.Fprintln(stdout, "journaled; standings and page rewritten")
	} else {
		if kind == record.Adjudicate {
			fmt.Fprintln(stdout, "the event is running: it stops the game if it is being played, and journals the decision")
		} else {
			fmt.Fprintln(stdout, "the event is running: it journals the decision after its next game ends")
		}
	}
	return nil
}
