// Package rulings owns the request files of an event's folder: the
// arbiter's decisions (decisions.jsonl: a result corrected, a game voided
// or adjudicated, each already in the form of its journal line) and the
// organizer's withdrawal requests (withdrawals.jsonl). It reads them,
// naming the file and line of what it cannot read, and appends to them
// durably; the running event asks it which decisions are due. Withdraw
// checks a withdrawal against the event's schedule and journal before it
// requests it. Checking and journaling a decision is event's (event.Decide):
// it rewrites the TRF report the running Swiss event writes.
package rulings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"gomoku-arena/internal/durable"
	"gomoku-arena/results/record"
)

// DecisionFile is the name of the request file of the arbiter's decisions
// in an event's folder.
const DecisionFile = "decisions.jsonl"

// ReadDecisions reads the request file of the arbiter's decisions at
// path; a missing file has none. A line that is not a decision is an error
// naming it.
func ReadDecisions(path string) ([]*record.Record, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []*record.Record
	for i, l := range bytes.Split(b, []byte("\n")) {
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		rec := new(record.Record)
		if err := json.Unmarshal(l, rec); err != nil || rec.Decision == nil {
			if err == nil {
				err = errors.New("not a decision")
			}
			return nil, fmt.Errorf("%s:%d: %w", path, i+1, err)
		}
		if err := rec.Decision.Check(); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, i+1, err)
		}
		out = append(out, rec)
	}
	return out, nil
}

// AppendDecision adds rec to the request file at path, durably (the file is
// written whole and replaced, as the withdrawal requests are).
func AppendDecision(path string, rec *record.Record) error {
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	line, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	if len(old) > 0 && old[len(old)-1] != '\n' {
		old = append(old, '\n')
	}
	return durable.WriteFile(path, append(append(old, line...), '\n'))
}

// Unjournaled are the decisions among pending whose id no line of done
// carries, in the order they were made.
func Unjournaled(done, pending []*record.Record) []*record.Record {
	have := map[string]bool{}
	for _, r := range done {
		if r.Decision != nil {
			have[r.Decision.ID] = true
		}
	}
	var out []*record.Record
	for _, d := range pending {
		if !have[d.Decision.ID] {
			have[d.Decision.ID] = true
			out = append(out, d)
		}
	}
	return out
}

// Due is the running event's look at the request file
// (schedule.Tournament.Decisions): the decisions all does not hold yet.
// all only grows during a run: each look reads the records added since the
// last, so that a long event's looks cost its new games.
func Due(folder string) func(all []*record.Record) ([]*record.Record, error) {
	have, scanned := map[string]bool{}, 0
	return func(all []*record.Record) ([]*record.Record, error) {
		pending, err := ReadDecisions(filepath.Join(folder, DecisionFile))
		if err != nil || len(pending) == 0 {
			return nil, err
		}
		for ; scanned < len(all); scanned++ {
			if d := all[scanned].Decision; d != nil {
				have[d.ID] = true
			}
		}
		var out []*record.Record
		for _, d := range pending {
			if !have[d.Decision.ID] {
				out = append(out, d)
			}
		}
		return out, nil
	}
}
