package live

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"gomoku-arena/arbiter"

	"gomoku-arena/event"
	"gomoku-arena/results/journal"
	"gomoku-arena/results/record"
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
	var tally *arbiter.Match
	if id.Kind == event.KindMatch {
		if tally, err = event.Tally(id); err != nil {
			return err
		}
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
				if now := event.PlannedGames(id, recs); now != total {
					total = now
					h.Observe(event.Replanned{Total: total})
				}
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
					if rep, _, err := event.Standings(folder); err == nil {
						h.Observe(event.StandingsUpdated{Report: rep})
					} else {
						h.Observe(event.Notice{Text: err.Error()})
					}
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
