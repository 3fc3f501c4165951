package event

import (
	"slices"
	"sync"
	"time"

	"gomoku-arena/event/identity"
	"gomoku-arena/event/tables"
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
