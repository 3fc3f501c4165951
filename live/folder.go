package live

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"gomoku-arena/event"
	"gomoku-arena/event/identity"
	"gomoku-arena/event/outfolder"
	"gomoku-arena/event/tables"
	"gomoku-arena/event/verify"
	"gomoku-arena/results/journal"
	"gomoku-arena/results/record"
	"gomoku-arena/schedule"
)

// Follow feeds h from the files of the event or match in folder until ctx
// ends: what the folder holds now, then every game the journal gains
// (another process may be running the event), looked at every poll. The
// journal is followed by a journal.Tail, so each look reads only the lines
// added since the last. Games in progress are not in the files; only the
// running arena's own page (`-serve`) shows their boards.
func Follow(ctx context.Context, folder string, h *Hub, poll time.Duration) error {
	id, err := identity.Read(filepath.Join(folder, identity.File))
	if err != nil {
		return fmt.Errorf("%s is not an event folder: %w", folder, err)
	}
	if _, err := verify.NewCheck(id); err != nil {
		return fmt.Errorf("%s: %w", folder, err)
	}
	if id.Kind == identity.KindMatch {
		if _, err := verify.Tally(id); err != nil {
			return err
		}
	}
	h.fromFiles.Store(true)
	f := &follower{h: h, id: id, tail: journal.NewTail(filepath.Join(folder, outfolder.JournalFile))}
	tick := time.NewTicker(poll)
	defer tick.Stop()
	for {
		f.look()
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
}

// follower is what Follow knows of the journal it follows.
type follower struct {
	h     *Hub
	id    *identity.Identity
	tail  *journal.Tail
	began bool
	total int             // games planned, as the page was last told
	check *verify.Check   // the schedule's check of the journal so far
	tally *schedule.Match // a match's encounters, counted so far
	said  string          // the last error told, not told again
}

// look reads what the journal gained and shows it.
func (f *follower) look() {
	fresh, reset, err := f.tail.Read() // fresh holds what was read before an error too
	switch {
	case reset:
		f.start(f.tail.Records())
	case len(fresh) > 0:
		f.add(fresh)
	}
	if !f.began { // no journal yet: the event has not finished a game
		f.h.Observe(event.Began{Name: f.id.Name, Identity: f.id, Total: verify.PlannedGames(f.id, nil)})
		f.began, f.total = true, verify.PlannedGames(f.id, nil)
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) && err.Error() != f.said {
		f.h.Observe(event.Notice{Text: err.Error()})
	}
	if err != nil {
		f.said = err.Error()
	}
}

// start shows the journal's records from the beginning: at the first look,
// and again when the journal was replaced.
func (f *follower) start(recs []*record.Record) {
	f.check, _ = verify.NewCheck(f.id) // Follow has checked that it can be made
	f.tally = nil
	if f.id.Kind == identity.KindMatch {
		f.tally, _ = verify.Tally(f.id)
	}
	f.total = verify.PlannedGames(f.id, recs)
	if err := f.check.Add(recs...); err != nil {
		// Nothing the schedule does not give is shown.
		f.h.Observe(event.Began{Name: f.id.Name, Identity: f.id, Total: f.total})
		f.h.Observe(event.Notice{Text: fmt.Sprintf("%s: %v", f.tail.Path(), err)})
		f.began = true
		return
	}
	finished := 0
	for _, rec := range recs {
		if rec.IsGame() {
			finished++
		}
	}
	f.h.Observe(event.Began{Name: f.id.Name, Identity: f.id, Total: f.total, Finished: finished, Done: recs})
	f.began = true
	if f.tally != nil {
		f.tally.Replay(recs) // the page counted them from Done; the tally goes on from there
	}
	f.standings(recs)
}

// add shows fresh games of the journal.
func (f *follower) add(fresh []*record.Record) {
	if err := f.check.Add(fresh...); err != nil {
		f.h.Observe(event.Notice{Text: fmt.Sprintf("%s: %v", f.tail.Path(), err)})
		return
	}
	all := f.tail.Records()
	if now := verify.PlannedGames(f.id, all); now != f.total {
		f.total = now
		f.h.Observe(event.Replanned{Total: f.total})
	}
	for _, rec := range fresh {
		if !rec.IsGame() {
			continue
		}
		f.h.Observe(event.GameFinished{Record: rec})
		if f.tally != nil {
			games, err := f.tally.Replay([]*record.Record{rec})
			if err != nil {
				f.h.Observe(event.Notice{Text: err.Error()})
			}
			for _, g := range games {
				f.h.Observe(event.MatchGameCounted{MatchGame: g})
			}
		}
	}
	f.standings(all)
}

// standings shows an event's standings of all its games (recs).
func (f *follower) standings(recs []*record.Record) {
	if f.id.Kind != identity.KindEvent {
		return
	}
	if rep, err := tables.StandingsOf(f.id, recs); err == nil {
		f.h.Observe(event.StandingsUpdated{Report: rep})
	} else {
		f.h.Observe(event.Notice{Text: err.Error()})
	}
}
