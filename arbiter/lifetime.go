package arbiter

import (
	"gomoku-arena/engine"
	"gomoku-arena/internal/mode"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// Lifetime is how long an engine process lives, and so what an engine may
// carry from one game to the next (its hash table, what it learnt).
type Lifetime uint8

const (
	// LifetimeReuse keeps one process per entrant (per instance, with Instances)
	// from game to game while it has games to play, and sends RESTART
	// between games (a new process where the engine does not answer OK).
	// What the engine keeps over RESTART is its own affair: Rapfi keeps
	// its hash table. The arena's default (docs/matches.md says why).
	LifetimeReuse Lifetime = iota
	// LifetimePair is c-gomoku-cli's: each table has two seats, the pair's first
	// engine (the lower entrant) and its second, and a seat starts a fresh
	// process when its entrant changes, or after its engine crashed or
	// never answered; START opens every game, also on a process that
	// played the one before, which keeps whatever the engine keeps.
	LifetimePair
	// LifetimeGame starts a fresh process for every game and ends it after: no
	// state survives a game, at the cost of a process start per game per
	// side.
	LifetimeGame
)

// lifetimes are the names, for logs and tests: the setting's words are
// internal/config's (process_lifetime), mapped to these by event.
var lifetimes = []string{LifetimeReuse: "reuse", LifetimePair: "pair", LifetimeGame: "game"}

func (l Lifetime) String() string { return mode.Name("Lifetime", lifetimes, l) }

// seat is one of a table's two places under LifetimePair: the entrant it last
// started a process for, and that process while idle.
type seat struct {
	entrant int
	e       *engine.Engine
}

// seatOf is the seat of entrant i in fixture f: 0 for the pair's first
// engine (the lower entrant), 1 for its second.
func seatOf(f Fixture, i int) int {
	if i == max(f.Black, f.White) && f.Black != f.White {
		return 1
	}
	return 0
}

// lostByFault says whether the side of colour c lost rec in a way after
// which c-gomoku-cli starts its engine afresh: a crash (or any exit), or a
// move that never came (it kills the engine); not an illegal move, nor a
// move that came too late, which leave the process as it was.
func lostByFault(rec *record.Record, c rules.Color) bool {
	if rec == nil || !rec.End.Forfeit() || rec.End == record.Illegal {
		return false
	}
	if rec.End != record.DoubleForfeit && rec.Winner != c.Opponent() {
		return false
	}
	if rec.End == record.Time && len(rec.Moves) > 0 && rec.Moves[len(rec.Moves)-1].Refused == record.RefusedLate {
		return false
	}
	return true
}
