package journal

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"gomoku-arena/results/record"
)

// decision is the journal line of the arbiter's decision on game n.
func decision(n int, kind record.DecisionKind, result, id string) string {
	g := fiveGame(n, 2*n%13)
	now := time.Date(2026, 11, 28, 15, 0, 0, 0, time.UTC)
	rec := &record.Record{Event: g.Event, Round: g.Round, Game: n, Rule: g.Rule, Size: g.Size, Black: g.Black, White: g.White,
		End: record.Decided, Start: now, Finish: now, Decision: &record.Decision{Kind: kind, Result: result, Reason: "a reason", ID: id}}
	b, err := json.Marshal(rec)
	if err != nil {
		panic(err)
	}
	return string(b) + "\n"
}

// The journal takes the arbiter's decisions that fit what it holds, and
// refuses, naming the line, those that do not: a correction or void of a
// game it lacks, an adjudication of a finished game, a result no game has,
// a decision journaled twice. A voided game's number is free for its replay.
func TestJournalChecksDecisions(t *testing.T) {
	read := func(lines ...string) error {
		l := NewLines()
		for i, s := range lines {
			if _, err := l.Parse([]byte(s), i+1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := read(line(1), decision(1, record.Correct, "0-1", "a"), decision(1, record.Void, "", "b"), line(1), decision(2, record.Adjudicate, "1/2-1/2", "c")); err != nil {
		t.Fatalf("a correction, a void, its replay and an adjudication: %v", err)
	}
	for _, tc := range []struct {
		name  string
		lines []string
		want  string
	}{
		{"correct a game not journaled", []string{line(1), decision(2, record.Correct, "1-0", "a")}, "no result is journaled"},
		{"adjudicate a finished game", []string{line(1), decision(1, record.Adjudicate, "1-0", "a")}, "has a result"},
		{"an illegal result", []string{line(1), decision(1, record.Correct, "2-0", "a")}, `result "2-0"`},
		{"the same decision twice", []string{line(1), decision(1, record.Correct, "1-0", "a"), decision(1, record.Correct, "0-1", "a")}, "already journaled at line 2"},
		{"a game after its adjudication", []string{decision(1, record.Adjudicate, "1-0", "a"), line(1)}, "already journaled"},
	} {
		if err := read(tc.lines...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
