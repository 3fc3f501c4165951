package schedule

import (
	"context"

	"gomoku-arena/results/record"
)

// A Schedule is what an event or a match plays, as a Tournament or a Match
// lays it out. The event that runs it knows its journal, its folder and its
// observers, never which games come next: it gives the schedule the
// journal's records (Resume) and lets it play on (Run). fastchess keeps
// the same line between its match and its scheduler.
type Schedule interface {
	// Resume takes records of an interrupted run, in journal order, after
	// those given before. It refuses a record the schedule does not give
	// (naming it), and once it has, Run plays nothing: a journal whose
	// colours were exchanged would move a win to the other entrant.
	Resume(done []*record.Record) error
	// Run plays the games the records given to Resume do not hold,
	// through the schedule's Director. finished is called with each game
	// as it ends (and each bye or withdrawal the schedule decides), one at
	// a time, before either entrant plays again: an error from it stops the
	// run. Cancelling drain stops new games from starting; cancelling abort
	// also stops the games in progress.
	Run(drain, abort context.Context, finished func(*record.Record) error) error
}

var (
	_ Schedule = (*Tournament)(nil)
	_ Schedule = (*Match)(nil)
)
