package live

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"gomoku-arena/event"
	"gomoku-arena/results/journal"
	"gomoku-arena/results/record"
	"gomoku-arena/schedule"
)

// Follow feeds h from the files of the event or match in folder until ctx
// ends: what the folder holds now, then every game the journal gains
// (another process may be running the event), looked at every poll. Games in
// progress are not in the files; only the running arena's own page
// (`-serve`) shows their boards.
func Follow(ctx context.Context, folder string, h *Hub, poll time.Duration) error {
	id, err := event.ReadIdentity(filepath.Join(folder, event.IdentityFile))
	if err != nil {
		return fmt.Errorf("%s is not an event folder: %w", folder, err)
	}
	var tally *schedule.Match
	if id.Kind == event.KindMatch {
		if tally, err = event.Tally(id); err != nil {
			return err
		}
	}
	check, err := event.NewJournalCheck(id)
	if err != nil {
		return fmt.Errorf("%s: %w", folder, err)
	}
	h.fromFiles.Store(true)
	path := filepath.Join(folder, event.JournalFile)
	// The games planned, from what the journal holds now: a Swiss that
	// withdrew an entrant plays fewer games in its later rounds.
	recs, _ := journal.Read(path) // an unreadable journal is reported below
	total := event.PlannedGames(id, recs)
	h.Observe(event.Began{Name: id.Name, Identity: id, Total: total})
	seen, size := 0, int64(-1)
	tick := time.NewTicker(poll)
	defer tick.Stop()
	for {
		if fi, err := os.Stat(path); err == nil && fi.Size() != size {
			size = fi.Size()
			recs, err := journal.Read(path)
			if err != nil {
				h.Observe(event.Notice{Text: err.Error()})
			} else if len(recs) > seen {
				fresh := recs[seen:]
				seen = len(recs)
				if err := check.Add(fresh...); err != nil {
					// Nothing the schedule does not give is shown.
					h.Observe(event.Notice{Text: fmt.Sprintf("%s: %v", path, err)})
				} else {
					if now := event.PlannedGames(id, recs); now != total {
						total = now
						h.Observe(event.Replanned{Total: total})
					}
					follow(h, id, tally, recs, fresh)
				}
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
}

// follow shows the fresh games of a checked journal, and the standings of
// all of them (recs).
func follow(h *Hub, id *event.Identity, tally *schedule.Match, recs, fresh []*record.Record) {
	for _, rec := range fresh {
		if !rec.IsGame() {
			continue
		}
		h.Observe(event.GameFinished{Record: rec})
		if tally != nil {
			games, err := tally.Replay([]*record.Record{rec})
			if err != nil {
				h.Observe(event.Notice{Text: err.Error()})
			}
			for _, g := range games {
				h.Observe(event.MatchGameCounted{MatchGame: g})
			}
		}
	}
	if id.Kind == event.KindEvent {
		if rep, err := event.StandingsOf(id, recs); err == nil {
			h.Observe(event.StandingsUpdated{Report: rep})
		} else {
			h.Observe(event.Notice{Text: err.Error()})
		}
	}
}
