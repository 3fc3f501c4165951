package event

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"gomoku-arena/event/identity"
	"gomoku-arena/event/outfolder"
	"gomoku-arena/event/rulings"
	"gomoku-arena/event/tables"
	"gomoku-arena/event/verify"
	"gomoku-arena/pairing"
	"gomoku-arena/results/journal"
	"gomoku-arena/results/record"
	"gomoku-arena/results/report"
)

// A rewrite of the standings, crosstable and page grows with the event: a
// few milliseconds for a round robin, 33 ms at 500 entrants, 0.66 s at
// 10,000 (most of it the HTML; BenchmarkLiveFilesSwiss). In an event of more than
// rewriteFrom entrants, the next rewrite waits until rewriteSpacing times
// as long as the last one took has passed, so that publishing results
// takes at most a twentieth of a big event's time; smaller events, whose
// every game is watched, rewrite after every game whatever the machine's
// load. Variables for tests.
var (
	rewriteFrom    = 500
	rewriteSpacing = 20
)

// publisher rewrites the standings files as games end, after every game
// unless the event is big (see rewriteFrom): then the games that end
// while the next waits are taken in together, by the next game's rewrite
// or by a timer when no game ends sooner. The journal, not these files,
// is what a game's result waits for.
type publisher struct {
	out     string
	id      *identity.Identity
	updated func(*report.Report) // after each rewrite

	mu    sync.Mutex
	done  []*record.Record
	stale bool      // games finished since the last rewrite
	after time.Time // no rewrite before
	timer *time.Timer
	err   error // a timed rewrite's failure, for the next add or close
	shut  bool
}

// add counts a finished game (or bye) and rewrites the files now, or when
// the wait since the last rewrite is over.
func (p *publisher) add(rec *record.Record) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done = append(p.done, rec)
	p.stale = true
	if p.err != nil {
		return p.err
	}
	if wait := time.Until(p.after); wait > 0 {
		if p.timer == nil {
			p.timer = time.AfterFunc(wait, p.timed)
		}
		return nil
	}
	return p.rewrite()
}

func (p *publisher) timed() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.timer = nil
	if p.stale && !p.shut && p.err == nil {
		p.err = p.rewrite()
	}
}

// rewrite writes the files of every game so far; p.mu is held.
func (p *publisher) rewrite() error {
	start := time.Now()
	rep, err := tables.Write(p.out, p.id, p.done)
	if err != nil {
		return err
	}
	p.stale, p.after = false, time.Time{}
	if len(p.id.Engines) > rewriteFrom {
		p.after = time.Now().Add(time.Duration(rewriteSpacing) * time.Since(start))
	}
	p.updated(rep)
	return nil
}

// records are the records so far, in a slice of the caller's own.
func (p *publisher) records() []*record.Record {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.done)
}

// played is the number of games finished.
func (p *publisher) played() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return tables.Played(p.done)
}

// close writes the files of every game, whether or not a rewrite is due,
// and stops the timer: the report is the final standings.
func (p *publisher) close() (*report.Report, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.shut = true
	if p.timer != nil {
		p.timer.Stop()
		p.timer = nil
	}
	rep, err := tables.Write(p.out, p.id, p.done)
	if p.err != nil {
		err = p.err
	}
	return rep, err
}

// Withdraw asks the Swiss event in folder, as its organizer, to withdraw the
// engine called name before the next round it pairs (running or not): the
// request is written durably beside the journal. It returns the event's
// name.
func Withdraw(folder, name, reason string) (string, error) {
	id, err := identity.Read(filepath.Join(folder, identity.File))
	if err != nil {
		return "", fmt.Errorf("%s is not an event folder: %w", folder, err)
	}
	if id.Kind != identity.KindEvent {
		return "", fmt.Errorf("%s holds %s: withdrawals apply to events", folder, identity.KindName[id.Kind])
	}
	if !slices.ContainsFunc(id.Engines, func(e identity.Entrant) bool { return e.Name == name }) {
		return "", fmt.Errorf("%s: no engine %q in the event", folder, name)
	}
	if err := withdrawable(folder, id, name); err != nil {
		return "", err
	}
	return id.Name, rulings.RequestWithdrawal(filepath.Join(folder, rulings.WithdrawalFile), name, reason)
}

// withdrawable refuses a request that could take effect in no round: the
// event has begun its last round (a withdrawal takes effect before the next
// round is paired, and there is none), the entrant is already withdrawn, or
// a request for it is already waiting.
func withdrawable(folder string, id *identity.Identity, name string) error {
	path := filepath.Join(folder, outfolder.JournalFile)
	done, err := journal.Read(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if err := verify.Journal(id, done); err != nil { // a request is written only beside a journal believed
		return fmt.Errorf("journal %s: %w", path, err)
	}
	last := 0
	for _, rec := range done {
		if rec.End == record.Withdrawn && rec.Black == name {
			return fmt.Errorf("%s: %s was already withdrawn from round %d (%s)", folder, name, rec.Round, rec.Detail)
		}
		if rec.End != record.Withdrawn {
			last = max(last, rec.Round)
		}
	}
	if id.Pairing != string(pairing.SwissFormat) {
		t, err := verify.Tournament(id)
		if err != nil {
			return err
		}
		from, err := t.WithdrawnFrom(name, done)
		if err != nil {
			return err
		}
		if from == 0 {
			return fmt.Errorf("%s: %s has no game left to play: there is nothing to withdraw it from", folder, name)
		}
	} else if last >= id.Rounds {
		return fmt.Errorf("%s: the event has reached its last round (round %d of %d): there is no round left to withdraw %s from",
			folder, last, id.Rounds, name)
	}
	requests, err := rulings.ReadWithdrawalRequests(filepath.Join(folder, rulings.WithdrawalFile))
	if err != nil {
		return err
	}
	for _, q := range requests {
		if q.Engine == name {
			return fmt.Errorf("%s: the withdrawal of %s was already requested (%s); it takes effect before the next round is paired",
				folder, name, q.Time.Format("2006-01-02 15:04:05 MST"))
		}
	}
	return nil
}
