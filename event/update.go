package event

import (
	"sync"
	"time"

	"gomoku-arena/arbiter"
	"gomoku-arena/event/identity"
	"gomoku-arena/results/record"
	"gomoku-arena/results/report"
	"gomoku-arena/rules"
	"gomoku-arena/schedule"
)

// An Observer follows an event as it runs: the arena command prints what it
// hears, and a live page, a gateway or a shard runner can forward it. The
// event calls Observe from one goroutine at a time, in the order things
// happen; Observe must return quickly (a slow subscriber buffers), because
// games wait for it.
type Observer interface {
	Observe(Update)
}

// A BoardObserver is an Observer that draws the boards of running games (a
// live page): for it, OpeningPlaced and MovePlayed carry the forbidden
// points of the side to move. Finding them costs the arbiter a scan of the
// board after every move, so it is done only when an observer draws boards.
type BoardObserver interface {
	Observer
	DrawsBoards() bool
}

// drawsBoards reports whether o, or one of the observers it passes updates
// to, draws boards.
func drawsBoards(o Observer) bool {
	b, ok := o.(BoardObserver)
	return ok && b.DrawsBoards()
}

// A GamesObserver is an Observer that follows games, not their stones (a
// front end that prints a line per game, as c-gomoku-cli does): with no
// observer that takes them, OpeningPlaced and MovePlayed are not made at
// all, which spares every move an update, its allocation and the stream's
// lock, where several tables would meet.
type GamesObserver interface {
	Observer
	SkipsMoves() bool
}

// skipsMoves reports whether o, and every observer it passes updates to,
// skips the stones.
func skipsMoves(o Observer) bool {
	g, ok := o.(GamesObserver)
	return ok && g.SkipsMoves()
}

// An Update is one thing that happened: Began, GameStarted, OpeningPlaced,
// MovePlayed, GameFinished, StandingsUpdated, MatchGameCounted, Replanned,
// Notice or DecisionJournaled. Observers ignore the kinds they do not need; more kinds may be
// added.
type Update interface{ update() }

// Began: the folder is claimed and play is about to start.
type Began struct {
	Name     string
	Identity *identity.Identity // what event.json says of it
	Total    int                // games in the event when known in advance, else an estimate
	// Capped: Total is only the most games there can be (an SPRT stops
	// the match when it decides).
	Capped   bool
	Finished int // games already in the journal (a continued event)
	// Done are the journal's records when the run began (games, byes and
	// withdrawals), oldest first: a continued event's page lists them.
	Done []*record.Record
	// Seed, when not 0, is the seed this run chose for a random opening
	// order or transform; a person needs it to replay the match.
	Seed uint64
}

// GameStarted: a game began.
type GameStarted struct {
	Round, Number int // Round 0 outside rounds (an authors' match)
	Black, White  string
	Table         int // the table playing it, from 1 (arbiter.Fixture.Table)
	// Fresh names the engines whose processes the table starts for this
	// game, the pair's first engine first (arbiter.Fixture.Fresh).
	Fresh []string
}

// OpeningPlaced: the stones of a game's opening (and of its opening
// procedure) are on the board, before the first engine is asked to move.
// Black and White are the clocks when Timed. Each stone carries what it
// captured; Forbidden are the points where the side to move may not play
// (renju), for a BoardObserver.
type OpeningPlaced struct {
	Round, Number int
	Stones        []record.Move
	Black, White  time.Duration
	Timed         bool
	Forbidden     []rules.Point
}

// Replanned: the number of games the event will have changed (an entrant
// was withdrawn from a Swiss, so later rounds have fewer games).
type Replanned struct {
	Total int
}

// MovePlayed: an engine played a stone in a running game. Move is the
// stone, Before the stones placed since the last MovePlayed of the game (the
// opening's, before the first); Stones counts the record's stones so far;
// Black and White are the time left on each side's clock when Timed; Notes
// are the engine's lines that came with the move (MESSAGE: depth,
// evaluation, principal variation). Each stone carries what it captured
// (record.Move.Captured, the rule's verdict); Forbidden are the points where
// the side to move next may not play (renju), for a BoardObserver, none
// once the game is over.
type MovePlayed struct {
	Round, Number int
	Stones        int
	Move          record.Move
	Before        []record.Move
	Notes         []string
	Black, White  time.Duration
	Timed         bool
	Forbidden     []rules.Point
}

// GameFinished: a game ended and is journaled.
type GameFinished struct {
	Record *record.Record
}

// StandingsUpdated: the event's standings changed, and the standings and
// crosstable files in the folder already say so.
type StandingsUpdated struct {
	Report *report.Report
}

// MatchGameCounted: an authors' match counted a finished game in its
// encounter's tally (after GameFinished).
type MatchGameCounted struct {
	schedule.MatchGame
}

// Notice: something a person running the event should know.
type Notice struct {
	Text string
}

func (Began) update()             {}
func (GameStarted) update()       {}
func (OpeningPlaced) update()     {}
func (Replanned) update()         {}
func (MovePlayed) update()        {}
func (GameFinished) update()      {}
func (StandingsUpdated) update()  {}
func (MatchGameCounted) update()  {}
func (Notice) update()            {}
func (DecisionJournaled) update() {}

// stream delivers updates to an observer, one at a time.
type stream struct {
	mu  sync.Mutex
	obs Observer
}

func (s *stream) send(u Update) {
	if s.obs == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.obs.Observe(u)
}

// watch points the director's hooks at the stream.
func (s *stream) watch(d *arbiter.Director) {
	names := func(i int) string { return d.Entrants[i].Spec.Name }
	d.Forbidden = drawsBoards(s.obs)
	d.Started = func(f arbiter.Fixture) {
		var fresh []string
		for _, i := range f.Fresh {
			fresh = append(fresh, names(i))
		}
		s.send(GameStarted{Round: f.Round, Number: f.Number, Black: names(f.Black), White: names(f.White), Table: f.Table, Fresh: fresh})
	}
	if skipsMoves(s.obs) {
		d.Moved = nil
		return
	}
	d.Moved = func(f arbiter.Fixture, p arbiter.Progress) {
		if p.Opening {
			s.send(OpeningPlaced{Round: f.Round, Number: f.Number, Stones: p.Before, Black: p.Black, White: p.White, Timed: p.Timed,
				Forbidden: p.Forbidden})
			return
		}
		s.send(MovePlayed{Round: f.Round, Number: f.Number, Stones: p.Stones, Move: p.Move, Before: p.Before,
			Notes: p.Notes, Black: p.Black, White: p.White, Timed: p.Timed, Forbidden: p.Forbidden})
	}
}

// Observers passes every update to each observer in turn: a front end's
// printer and a live page follow one event together.
type Observers []Observer

func (os Observers) Observe(u Update) {
	for _, o := range os {
		o.Observe(u)
	}
}

// SkipsMoves reports whether every observer skips the stones.
func (os Observers) SkipsMoves() bool {
	for _, o := range os {
		if !skipsMoves(o) {
			return false
		}
	}
	return true
}

// DrawsBoards reports whether one of the observers draws boards.
func (os Observers) DrawsBoards() bool {
	for _, o := range os {
		if drawsBoards(o) {
			return true
		}
	}
	return false
}

// DecisionJournaled: the arbiter's decision on a game is journaled (Line, a
// record.Decided line); Game is the game as the decision leaves it
// (record.Ruled), nil when it was voided (its replay is a game to come).
type DecisionJournaled struct {
	Line *record.Record
	Game *record.Record
}
