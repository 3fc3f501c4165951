package event

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gomoku-arena/event/identity"
	"gomoku-arena/event/outfolder"
	"gomoku-arena/event/outputs"
	"gomoku-arena/event/rulings"
	"gomoku-arena/event/tables"
	"gomoku-arena/event/verify"
	"gomoku-arena/pairing"
	"gomoku-arena/results/journal"
	"gomoku-arena/results/record"
)

// The arbiter's decisions (arena correct): a result corrected, a game
// voided (played again by the next run), a game not finished adjudicated.
// Like the organizer's withdrawal requests, a decision is first written
// durably to a request file of the event's folder, one line each, already
// in the form its journal line takes (record.Decided); then it is
// journaled, once (by its id): by arena correct itself when no run holds
// the folder, else by the running event after its next game ends or
// before it pairs its next round (a game adjudicated while it is played
// is stopped within a second: schedule.Tournament.Requested, and its end
// journals the decision). Only the journal counts: standings,
// pages, TRF and ratings read the decisions from there (record.Ruled).

// Ruling is what the arbiter decides about one game of an event.
type Ruling struct {
	Kind    record.DecisionKind
	Game    int
	Result  string // for Correct and Adjudicate: one of record.Results
	Reason  string
	Arbiter string
}

// Decided says what became of a ruling: its journal line, and whether it
// is journaled already (no run held the folder) or waits for the running
// event to journal it.
type Decided struct {
	Line      *record.Record
	Journaled bool
}

// Decide records the arbiter's ruling on a game of the event in folder:
// checked against the event's schedule and journal (the game exists, the
// result is legal, a correction or void names a finished game and an
// adjudication one that is not), written durably to the request file,
// and journaled now when no run holds the folder (then the game files,
// standings and page are rewritten as arena standings would write them).
func Decide(folder string, r Ruling) (*Decided, error) {
	id, err := identity.Read(filepath.Join(folder, identity.File))
	if err != nil {
		return nil, fmt.Errorf("%s is not an event folder: %w", folder, err)
	}
	if id.Kind != identity.KindEvent {
		return nil, fmt.Errorf("%s holds %s: the arbiter's decisions are for events", folder, identity.KindName[id.Kind])
	}
	release, err := rulings.Hold(folder) // another arena's decision is read, or waits for this one
	if err != nil {
		return nil, err
	}
	defer release()
	done, err := journal.Read(filepath.Join(folder, outfolder.JournalFile))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	pending, err := rulings.ReadDecisions(filepath.Join(folder, rulings.DecisionFile))
	if err != nil {
		return nil, err
	}
	all := append(done, rulings.Unjournaled(done, pending)...)
	line, err := decisionLine(id, all, r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", folder, err)
	}
	if err := rulings.AppendDecision(filepath.Join(folder, rulings.DecisionFile), line); err != nil {
		return nil, err
	}
	lock, err := outfolder.Lock(folder)
	if err != nil {
		return &Decided{Line: line}, nil // the running event journals it
	}
	defer outfolder.Unlock(lock)
	if err := journalDecisions(folder, id); err != nil {
		return nil, err
	}
	return &Decided{Line: line, Journaled: true}, nil
}

// decisionLine is the journal line of a ruling, checked to follow the
// records all (the journal, and the decisions waiting to be journaled).
func decisionLine(id *identity.Identity, all []*record.Record, r Ruling) (*record.Record, error) {
	t, err := verify.Tournament(id)
	if err != nil {
		return nil, err
	}
	c, err := t.CheckSchedule()
	if err != nil {
		return nil, err
	}
	if err := c.Add(all...); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	round, black, white, ok := c.Laid(r.Game)
	if !ok {
		return nil, fmt.Errorf("game %d: the event has no such game yet", r.Game)
	}
	key := make([]byte, 8)
	rand.Read(key)
	now := time.Now().UTC().Truncate(time.Millisecond)
	line := &record.Record{Event: id.Name, Round: round, Game: r.Game, Rule: id.Rule, Size: id.Size, Black: black, White: white,
		End: record.Decided, Start: now, Finish: now,
		Decision: &record.Decision{Kind: r.Kind, Result: strings.TrimSpace(r.Result), Reason: strings.TrimSpace(r.Reason),
			Arbiter: strings.TrimSpace(r.Arbiter), ID: hex.EncodeToString(key)}}
	if p := id.OpeningProcedure; p != "" && p != "none" {
		line.Procedure = p
	}
	if err := line.Decision.Check(); err != nil {
		return nil, fmt.Errorf("game %d: %w", r.Game, err)
	}
	// The line as the journal will read it, checked as it will be.
	b, err := json.Marshal(line)
	if err != nil {
		return nil, err
	}
	held := new(record.Record)
	if err := json.Unmarshal(b, held); err != nil {
		return nil, err
	}
	lines := journal.NewLines()
	for i, rec := range all {
		raw, _ := json.Marshal(rec)
		if _, err := lines.Parse(raw, i+1); err != nil {
			return nil, fmt.Errorf("journal line %d: %w", i+1, err)
		}
	}
	if _, err := lines.Parse(b, len(all)+1); err != nil {
		return nil, fmt.Errorf("game %d: %w", r.Game, err)
	}
	if err := c.Add(held); err != nil {
		return nil, fmt.Errorf("game %d: %w", r.Game, err)
	}
	return held, nil
}

// journalDecisions journals the decisions of the request file that the
// journal of the event in folder lacks, each checked to follow it, and
// rewrites the game files, standings and page; the caller holds the
// folder's lock.
func journalDecisions(folder string, id *identity.Identity) error {
	j, done, err := journal.Open(filepath.Join(folder, outfolder.JournalFile))
	if err != nil {
		return err
	}
	defer j.Close()
	pending, err := rulings.ReadDecisions(filepath.Join(folder, rulings.DecisionFile))
	if err != nil {
		return err
	}
	for _, d := range rulings.Unjournaled(done, pending) {
		if err := verify.Journal(id, append(append([]*record.Record(nil), done...), d)); err != nil {
			return fmt.Errorf("decision %s on game %d: %w", d.Decision.ID, d.Game, err)
		}
		if err := j.Append(d); err != nil {
			return err
		}
		done = append(done, d)
	}
	if err := outputs.RestoreGames(folder, id.Heading(), done); err != nil {
		return err
	}
	if id.Pairing == string(pairing.SwissFormat) { // event.trf reads the decisions too
		t, err := verify.Tournament(id)
		if err != nil {
			return err
		}
		c, err := t.CheckSchedule()
		if err != nil {
			return err
		}
		if err := c.Add(done...); err != nil {
			return err
		}
		last := c.Complete() // the report holds complete rounds, as a run writes it
		var ratings []int
		for _, e := range id.Engines {
			ratings = append(ratings, e.Rating)
		}
		if last > 0 {
			if err := writeTRFOf(folder, id.Name, id.Details, ratings, t, last, done); err != nil {
				return err
			}
		}
	}
	_, err = tables.Write(folder, id, done)
	return err
}
