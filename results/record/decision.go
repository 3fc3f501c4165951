package record

import (
	"fmt"
	"strings"

	"gomoku-arena/rules"
)

// The arbiter's decisions. A decision is a journal line of its own (End ==
// Decided, Decision set), appended like a game and never an edit of an
// older line: the line names the game it rules on (Round, Game, Black,
// White), the arbiter's reason and the time it was made (Start and Finish).
// Every reader of a journal sees the games as the decisions leave them
// through one function, Ruled: a corrected result replaces the result the
// board gave, a voided game has no result until its replay is journaled,
// an adjudicated game has the arbiter's result. docs/events.md has the
// rules, docs/FORMATS.md the line.

// Decided is the end of a journal line that is the arbiter's decision on a
// game, not a game: Decision says which.
const Decided Termination = "decision"

// Adjudicated is the end of a game whose result the arbiter gave (a
// corrected result or an adjudication) as a result over the board: the
// game counts as played. Forfeited is the end of a game the arbiter scored
// as a forfeit: a win for one side, not played over the board.
const (
	Adjudicated Termination = "adjudicated"
	Forfeited   Termination = "forfeited"
)

// DecisionKind is what the arbiter decided about a game.
type DecisionKind string

const (
	// Correct replaces the result of a journaled game.
	Correct DecisionKind = "correct"
	// Void cancels a journaled game: it has no result, and the next run of
	// the event plays it again (the replay is a new line with its number).
	Void DecisionKind = "void"
	// Adjudicate gives the result of a game not journaled: one stopped by
	// the organizer, or still in progress (its play is then not counted).
	Adjudicate DecisionKind = "adjudicate"
)

// DecisionKinds are the kinds a decision may have.
var DecisionKinds = []DecisionKind{Correct, Void, Adjudicate}

// Decision is the arbiter's ruling carried by a Decided line.
type Decision struct {
	Kind DecisionKind `json:"kind"`
	// Result is the result given (Results), for Correct and Adjudicate;
	// empty for Void.
	Result string `json:"result,omitempty"`
	// Reason is why, in the arbiter's words: always given.
	Reason string `json:"reason"`
	// Arbiter names who decided, when given.
	Arbiter string `json:"arbiter,omitempty"`
	// ID identifies the organizer's request the line journals, so that a
	// request is journaled once however often it is read.
	ID string `json:"id"`
}

// Results are the results a decision may give, Black's first: a win over
// the board, a draw, a forfeit win ("+-": Black wins, White forfeits) and
// a double forfeit ("--"), as FIDE's tournament reports write them.
var Results = []string{"1-0", "0-1", "1/2-1/2", "+-", "-+", "--"}

// ParseResult reads a decision's result into the winner and the end a
// game given it has.
func ParseResult(s string) (winner rules.Color, end Termination, err error) {
	switch strings.TrimSpace(s) {
	case "1-0":
		return rules.Black, Adjudicated, nil
	case "0-1":
		return rules.White, Adjudicated, nil
	case "1/2-1/2", "½-½":
		return rules.Empty, Adjudicated, nil
	case "+-":
		return rules.Black, Forfeited, nil
	case "-+":
		return rules.White, Forfeited, nil
	case "--":
		return rules.Empty, DoubleForfeit, nil
	}
	return rules.Empty, "", fmt.Errorf("result %q: want one of %s", s, strings.Join(Results, ", "))
}

// Check refuses a decision that is not whole: an unknown kind, a result
// where none belongs or a missing one, no reason, no id.
func (d *Decision) Check() error {
	switch d.Kind {
	case Correct, Adjudicate:
		if _, _, err := ParseResult(d.Result); err != nil {
			return fmt.Errorf("%s: %w", d.Kind, err)
		}
	case Void:
		if d.Result != "" {
			return fmt.Errorf("void: a voided game has no result (got %q)", d.Result)
		}
	default:
		return fmt.Errorf("decision %q: want one of correct, void, adjudicate", d.Kind)
	}
	if strings.TrimSpace(d.Reason) == "" {
		return fmt.Errorf("%s: no reason given", d.Kind)
	}
	if d.ID == "" {
		return fmt.Errorf("%s: no id", d.Kind)
	}
	return nil
}

// Ruled is the records of a journal, in its order, as the arbiter's
// decisions among them leave them: the one reading of decisions that
// standings, pairings, pages, reports and ratings share. Decision lines
// are left out; a game whose result was corrected is a copy with the new
// result (End Adjudicated, Forfeited or DoubleForfeit, Detail naming the
// decision and the result over the board); a voided game is left out
// until a replay of it is journaled; an adjudicated game that has no
// record is one with no moves, where its decision stands. Records are
// shared with recs, never changed.
func Ruled(recs []*Record) []*Record {
	decided := false
	for _, r := range recs {
		if r.End == Decided {
			decided = true
			break
		}
	}
	if !decided {
		return recs
	}
	out := make([]*Record, 0, len(recs))
	at := map[int]int{} // game number -> its record's index in out
	for _, r := range recs {
		if r.End != Decided {
			if r.IsGame() {
				at[r.Game] = len(out)
			}
			out = append(out, r)
			continue
		}
		d := r.Decision
		if d == nil {
			continue
		}
		i, ok := at[r.Game]
		switch d.Kind {
		case Void:
			if ok {
				out[i] = nil
				delete(at, r.Game)
			}
		case Correct, Adjudicate:
			winner, end, err := ParseResult(d.Result)
			if err != nil {
				continue // the journal's check refuses it
			}
			detail := "arbiter's decision: " + d.Reason
			var c Record
			if ok {
				c = *out[i]
				detail += fmt.Sprintf(" (over the board: %s, %s)", c.ResultString(), c.End)
			} else {
				c = Record{Event: r.Event, Round: r.Round, Game: r.Game, Rule: r.Rule, Size: r.Size, Procedure: r.Procedure,
					Black: r.Black, White: r.White, Start: r.Start, Finish: r.Finish}
				detail += " (adjudicated, not finished)"
			}
			c.Winner, c.End, c.Detail = winner, end, detail
			if ok {
				out[i] = &c
			} else {
				at[r.Game] = len(out)
				out = append(out, &c)
			}
		}
	}
	kept := out[:0]
	for _, r := range out {
		if r != nil {
			kept = append(kept, r)
		}
	}
	return kept
}
