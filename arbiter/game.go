// Package arbiter plays games: it combines two engines, a rule and a clock,
// checks every move, adjudicates wins, draws and forfeits, and returns the
// game's record. An engine's failure (a crash, a hang, an illegal move, a
// refusal) is a game result, never a Go error.
//
// Its Director plays a list of fixtures, several at once, and owns the
// engine processes between games. Which games an event plays, and in what
// order, is the schedule package's concern.
//
// The arbiter talks to the engine on move only: nothing is sent to an engine
// between its move request and its answer.
package arbiter

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"gomoku-arena/clock"
	"gomoku-arena/engine"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// Player is one side of a game: a running engine and how to talk to it.
type Player struct {
	Engine *engine.Engine
	// BoardMode sends the whole position (BOARD) before every move instead
	// of the opponent's last move (TURN).
	BoardMode bool
	// Infos are extra INFO lines for this engine (options, limits).
	Infos []engine.Info
	Clock clock.Control
	// Swap2Colors adds a colour field (1 Black, 2 White) to the stone
	// lines of SWAP2BOARD.
	Swap2Colors bool
}

// Game says what to play.
type Game struct {
	Event   string
	Round   int
	Number  int
	Rule    rules.Rule
	Size    int
	Opening []rules.Point // stones the arbiter places before the engines move
	// Procedure is the opening procedure; with one, black is its first
	// player (opening.go).
	Procedure rules.Procedure
	// MoveCap adjudicates a draw after this many stones (0 = none).
	MoveCap int
	// StartTimeout bounds the START/RESTART handshake (0: the engine's
	// own, engine.Spec.StartWithin).
	StartTimeout time.Duration
	// Moved, if set, hears of every stone an engine played, from the
	// game's goroutine, before the next request: it must return quickly.
	Moved func(Progress)
	// Forbidden asks that each Progress carry the forbidden points of the
	// side to move next, for a display that draws them. Finding them scans
	// the board (about 0.2 ms a position, BenchmarkRenjuForbiddenPoints),
	// so only a display asks.
	Forbidden bool
}

// Progress is a stone an engine just played in a running game, for displays,
// or (Opening) the stones placed before the first request.
type Progress struct {
	// Opening: no engine has moved yet; Before are the stones the opening
	// (and the opening procedure) placed, reported before the first request
	// so that a display shows them while the first mover thinks. Move is
	// then empty.
	Opening bool
	Move    record.Move
	// Before are the stones placed since the previous report, in order:
	// the opening's and the opening procedure's before the first move.
	Before []record.Move
	Stones int      // on the board's record so far, this one included
	Notes  []string // the engine's lines that came with the move (MESSAGE, ...)
	// Black and White are the clocks after the move; Timed is false when
	// the mover's clock has no limit (they then mean nothing).
	Black, White time.Duration
	Timed        bool
	// Forbidden are the points where the side to move next may not play
	// (Black's, under renju), when the Game asks for them; none once the
	// game is over.
	Forbidden []rules.Point
}

// maxMessages bounds the engine lines kept in one record, maxMessageBytes
// their bytes together: a record stays far below the journal's line cap
// (journal.MaxLine) whatever an engine writes.
const (
	maxMessages     = 2000
	maxMessageBytes = 1 << 20
)

// side is one player during a game.
type side struct {
	*Player
	color rules.Color
	// known is how many moves of the game the engine has been told about;
	// stale is set when stones vanished (captures) so TURN cannot describe
	// the change.
	known int
	stale bool
	// board and seen are kept from one BOARD request to the next.
	board []engine.Stone
	seen  []bool
}

// Play plays one game to its end and returns its record. It returns early,
// with End = record.Aborted, when ctx is cancelled; the engines are then
// killed. An engine's failure is in the record; the error is for a game that
// cannot be played at all (no rule, a size out of range, an opening off the
// board or against the rule, an unknown opening procedure or one the board
// does not fit): a caller's mistake, reported before either engine is asked
// anything.
func Play(ctx context.Context, g Game, black, white *Player) (*record.Record, error) {
	plan, err := g.plan()
	if err != nil {
		return nil, fmt.Errorf("arbiter: game %d: %w", g.Number, err)
	}
	return play(ctx, g, plan, black, white), nil
}

// openingPlan is how a game opens, prepared (and so checked) before play.
type openingPlan struct {
	pos   *rules.Position // the position after the arbiter's opening stones
	swap2 *rules.Swap2    // Swap2Procedure's state
	rif   *rules.RIF      // RIFProcedure's state
	// rifFallback is where a RIFProcedure game starts when an engine does
	// not take part in the extension: the list opening, or without one a
	// canonical opening chosen by the game number (games 2k-1 and 2k share
	// it).
	rifFallback *rules.Position
}

func (g Game) plan() (*openingPlan, error) {
	if g.Rule == nil {
		return nil, errors.New("no rule")
	}
	pos, err := rules.Setup(g.Rule, g.Size, g.Opening)
	if err != nil {
		return nil, fmt.Errorf("opening: %w", err)
	}
	plan := &openingPlan{pos: pos}
	switch g.Procedure {
	case rules.NoProcedure:
	case rules.Swap2Procedure:
		plan.swap2, err = rules.NewSwap2(g.Rule, g.Size)
	case rules.RIFProcedure:
		if plan.rif, err = rules.NewRIF(g.Rule, g.Size); err != nil {
			break
		}
		plan.rifFallback = pos
		if len(g.Opening) == 0 {
			ro := rules.RIFOpenings[((max(g.Number, 1)-1)/2)%len(rules.RIFOpenings)]
			if plan.rifFallback, err = rules.Setup(g.Rule, g.Size, ro.Stones(g.Size)); err != nil {
				err = fmt.Errorf("canonical opening %v: %w", ro, err)
			}
		}
	default:
		err = g.Procedure.Check(g.Rule, g.Size) // names the procedures there are
	}
	if err != nil {
		return nil, fmt.Errorf("opening procedure %v: %w", g.Procedure, err)
	}
	return plan, nil
}

// play plays a game whose plan is made.
func play(ctx context.Context, g Game, plan *openingPlan, black, white *Player) *record.Record {
	rec := &record.Record{
		Event: g.Event, Round: g.Round, Game: g.Number, Rule: g.Rule.Name(), Size: g.Size,
		Black: black.Engine.Name(), White: white.Engine.Name(), Start: time.Now(),
	}
	defer func() { rec.Finish = time.Now() }()
	if g.Procedure != rules.NoProcedure {
		rec.Procedure = g.Procedure.String()
	}

	stop := context.AfterFunc(ctx, func() { black.Engine.Kill(); white.Engine.Kill() })
	defer stop()
	defer func() { black.Engine.Thaw(); white.Engine.Thaw() }() // frozen engines must hear END or RESTART

	sides := [3]*side{rules.Black: {Player: black, color: rules.Black}, rules.White: {Player: white, color: rules.White}}
	defer keepLastWords(rec, [2]*side{sides[rules.Black], sides[rules.White]})
	pos := plan.pos
	for _, m := range pos.Moves {
		rec.Moves = append(rec.Moves, record.Move{Point: m, Color: colorOf(len(rec.Moves)), Opening: true})
	}
	markOpening(rec, g.Rule)

	// Both engines are asked to start, whatever the first answers: when
	// neither starts, neither has won (a double forfeit, 0-0).
	var failed [3]record.Termination
	var details [3]string
	for _, c := range []rules.Color{rules.Black, rules.White} {
		failed[c], details[c] = g.start(sides[c])
	}
	switch {
	case failed[rules.Black] != "" && failed[rules.White] != "":
		return finish(ctx, rec, rules.Empty, record.DoubleForfeit,
			fmt.Sprintf("black %s: %s; white %s: %s", failed[rules.Black], details[rules.Black], failed[rules.White], details[rules.White]))
	case failed[rules.Black] != "":
		return finish(ctx, rec, rules.White, failed[rules.Black], details[rules.Black])
	case failed[rules.White] != "":
		return finish(ctx, rec, rules.Black, failed[rules.White], details[rules.White])
	}
	rec.BlackAbout, rec.WhiteAbout = black.Engine.Identity().Raw, white.Engine.Identity().Raw

	clocks := [3]*clock.Clock{rules.Black: clock.New(black.Clock), rules.White: clock.New(white.Clock)}
	var over bool
	reported := 0 // stones Moved has told of, those before them included
	pos, over = g.runProcedure(ctx, rec, &sides, &clocks, plan)
	if g.Procedure != rules.NoProcedure {
		markOpening(rec, g.Rule) // the stones the engines placed, and any they had refused
	}
	if over {
		return rec
	}
	if g.Moved != nil && len(rec.Moves) > 0 {
		g.Moved(Progress{Opening: true, Before: slices.Clone(rec.Moves), Stones: len(rec.Moves),
			Black: clocks[rules.Black].Left(), White: clocks[rules.White].Left(),
			Timed: sides[pos.ToMove()].Clock.Timed(), Forbidden: g.forbidden(pos)})
		reported = len(rec.Moves)
	}
	for {
		c := pos.ToMove()
		s := sides[c]
		clk := clocks[c]
		sides[c.Opponent()].Engine.Freeze() // when its limits say so: no thinking on the opponent's time
		s.Engine.Thaw()                     // before the request is written, so the clock never sees the freeze
		reply := g.request(s, pos, clk)
		rec.Messages = note(rec.Messages, s.Engine.Name(), reply.Notes)
		switch reply.Fault {
		case engine.FaultTimeout:
			s.Engine.Kill() // it may still be thinking; the next game restarts it
			return finish(ctx, rec, c.Opponent(), record.Time, "no move within "+clock.Human(clk.Budget()))
		case engine.FaultExit:
			return finish(ctx, rec, c.Opponent(), exitEnd(s.Engine, reply.Detail), reply.Detail)
		case engine.FaultMalformed:
			rec.Moves = append(rec.Moves, record.Move{Color: c, Think: reply.Elapsed, Raw: reply.Line, Refused: record.RefusedMalformed})
			return finish(ctx, rec, c.Opponent(), record.Illegal, fmt.Sprintf("malformed move %q", reply.Line))
		}
		budget := clk.Budget()
		onTime := clk.Charge(reply.Elapsed)
		mv := record.Move{Point: reply.Move, Color: c, Think: reply.Elapsed, Left: clk.Left()}
		if !onTime {
			s.Engine.Kill()
			mv.Refused = record.RefusedLate
			rec.Moves = append(rec.Moves, mv)
			return finish(ctx, rec, c.Opponent(), record.Time, fmt.Sprintf("move after %v, budget %v", reply.Elapsed.Round(time.Millisecond), budget))
		}
		if over, detail := s.Engine.CheckMemory(); over {
			s.Engine.Kill() // the next game starts a fresh process
			mv.Refused = record.RefusedMemory
			rec.Moves = append(rec.Moves, mv)
			return finish(ctx, rec, c.Opponent(), record.MemoryLimit, detail)
		}
		v := g.Rule.Play(pos, reply.Move)
		mv.Captured = v.Captured // the rule's own: captures are computed once, here
		if v.Illegal {
			mv.Refused = string(v.Reason) // the rule did not place it
		}
		rec.Moves = append(rec.Moves, mv)
		s.known = len(pos.Moves)
		if g.Moved != nil {
			p := Progress{Move: mv, Before: slices.Clone(rec.Moves[reported : len(rec.Moves)-1]), Stones: len(rec.Moves),
				Notes: reply.Notes, Black: clocks[rules.Black].Left(), White: clocks[rules.White].Left(),
				Timed: s.Clock.Timed()}
			if !v.Over {
				p.Forbidden = g.forbidden(pos)
			}
			g.Moved(p)
			reported = len(rec.Moves)
		}
		if len(v.Captured) > 0 {
			// Stones vanished: TURN cannot say so, and an engine that does not
			// capture itself would keep them. Both get the whole position.
			sides[rules.Black].stale, sides[rules.White].stale = true, true
		}
		if v.Over {
			end, detail := judge(v, reply.Move)
			return finish(ctx, rec, v.Winner, end, detail)
		}
		if g.MoveCap > 0 && len(pos.Moves) >= g.MoveCap {
			return finish(ctx, rec, rules.Empty, record.MoveCap, fmt.Sprintf("%d stones", len(pos.Moves)))
		}
	}
}

// markOpening marks the captures of the stones placed before the engines'
// first move (an opening list's, an opening procedure's): those stones were
// judged by rules.Setup or by the procedure's state machine, which keep no
// record, so they are replayed once, here. Every later stone takes its
// captures from the rule's verdict when it is played.
func markOpening(rec *record.Record, rule rules.Rule) {
	if err := record.MarkCaptures(rec, rule); err != nil {
		rec.Messages = append(rec.Messages, "arbiter: the opening does not replay: "+err.Error())
	}
}

// forbidden is what Progress.Forbidden says of pos: the forbidden points of
// the side to move, when the game asks for them and its rule has any.
func (g Game) forbidden(pos *rules.Position) []rules.Point {
	if !g.Forbidden || pos.ToMove() != rules.Black {
		return nil
	}
	if _, ok := g.Rule.(interface {
		Forbidden(*rules.Board, rules.Point) rules.Reason
	}); !ok {
		return nil
	}
	var out []rules.Point
	for _, f := range rules.ForbiddenPoints(pos) {
		out = append(out, f.Point)
	}
	return out
}

// exitEnd is how an engine's exit ends a game: a crash, unless it is a
// remote entrant's relay saying that its entrant forfeits by disconnection
// (package remote: exit status 86 after that line on stderr).
func exitEnd(e *engine.Engine, detail string) record.Termination {
	if words := e.Stderr(); detail == "exit status 86" && len(words) > 0 && strings.HasPrefix(words[len(words)-1], "arena engine relay: disconnect: ") {
		return record.Disconnect
	}
	return record.Crash
}

// lastWords is how many of its last stderr lines the record of a game an
// engine forfeited keeps.
const lastWords = 20

// keepLastWords puts into rec the last stderr lines of the engine that lost
// it by a forfeit (crash, time, illegal move, refusal, memory): what it said
// before it died or went wrong is often the only clue to why. It finds the
// loser by colour, which an opening procedure may have changed.
func keepLastWords(rec *record.Record, sides [2]*side) {
	if !rec.End.Forfeit() || rec.Winner == rules.Empty {
		return
	}
	for _, s := range sides {
		if s.color == rec.Winner.Opponent() {
			lines := s.Engine.Stderr()
			rec.Stderr = lines[max(0, len(lines)-lastWords):]
		}
	}
}

// start begins a new game on one engine; a failure is that side's forfeit.
func (g Game) start(s *side) (record.Termination, string) {
	var deadline time.Time // zero: the engine's own start timeout bounds it
	if g.StartTimeout > 0 {
		deadline = time.Now().Add(g.StartTimeout)
	}
	var folder string
	if dir, err := filepath.Abs(s.Engine.Dir()); err == nil && s.Engine.Dir() != "" {
		folder = dir
	}
	err := s.Engine.NewGame(g.Size, engine.GameInfos(s.Clock, g.Rule, folder, s.Infos), deadline)
	if err == nil {
		return "", ""
	}
	var refusal *engine.Refusal
	if errors.As(err, &refusal) {
		return record.Refusal, err.Error()
	}
	var fault *engine.FaultError
	if errors.As(err, &fault) && fault.Fault == engine.FaultTimeout {
		s.Engine.Kill()
		return record.Refusal, err.Error()
	}
	return record.Crash, err.Error()
}

// request asks side s for its move, choosing BEGIN, TURN or BOARD by what
// the engine already knows.
func (g Game) request(s *side, pos *rules.Position, clk *clock.Clock) engine.Reply {
	s.Engine.QueueInfo(engine.TimeLeft(clk))
	deadline := time.Now().Add(clk.Budget())
	n := len(pos.Moves)
	switch {
	case n == 0:
		return s.Engine.Begin(deadline)
	case !s.BoardMode && !s.stale && s.known == n-1:
		return s.Engine.Turn(pos.Moves[n-1], deadline)
	}
	s.stale = false
	s.board = appendStones(s.board[:0], &s.seen, pos, s.color)
	return s.Engine.Board(s.board, deadline)
}

// Stones lists the stones on the board in the order they were played, from
// the point of view of own (field 1 own, 2 opponent), as BOARD sends them.
// A point played again after a capture counts by its last stone.
func Stones(pos *rules.Position, own rules.Color) []engine.Stone {
	var seen []bool
	return appendStones(make([]engine.Stone, 0, len(pos.Moves)), &seen, pos, own)
}

// appendStones appends Stones(pos, own) to dst, with *seen as scratch.
func appendStones(dst []engine.Stone, seen *[]bool, pos *rules.Position, own rules.Color) []engine.Stone {
	size := pos.Board.Size()
	if cap(*seen) < size*size {
		*seen = make([]bool, size*size)
	}
	*seen = (*seen)[:size*size]
	clear(*seen)
	start := len(dst)
	for i := len(pos.Moves) - 1; i >= 0; i-- {
		m := pos.Moves[i]
		k := m.Y*size + m.X
		if (*seen)[k] {
			continue // replayed on after a capture: the later stone counts
		}
		(*seen)[k] = true
		c := colorOf(i)
		if pos.Board.At(m) != c {
			continue // captured
		}
		f := 2
		if c == own {
			f = 1
		}
		dst = append(dst, engine.Stone{Point: m, Field: f})
	}
	slices.Reverse(dst[start:])
	return dst
}

func colorOf(i int) rules.Color {
	if i%2 == 0 {
		return rules.Black
	}
	return rules.White
}

// judge maps a rule's verdict to a termination.
func judge(v rules.Verdict, m rules.Point) (record.Termination, string) {
	switch {
	case v.Reason == rules.Forbidden33 || v.Reason == rules.Forbidden44 || v.Reason == rules.ForbiddenOverline:
		return record.Forbidden, fmt.Sprintf("%s at %v", v.Reason, m)
	case v.Illegal:
		return record.Illegal, fmt.Sprintf("%s at %v", v.Reason, m)
	case v.Reason == rules.CaptureWin:
		return record.CaptureWin, ""
	case v.Reason == rules.FullBoard:
		return record.FullBoard, ""
	}
	return record.Five, ""
}

func finish(ctx context.Context, rec *record.Record, winner rules.Color, end record.Termination, detail string) *record.Record {
	if ctx.Err() != nil {
		// The engines died because the game was aborted, not by their fault.
		rec.Winner, rec.End, rec.Detail = rules.Empty, record.Aborted, "stopped by the arbiter"
		return rec
	}
	rec.Winner, rec.End, rec.Detail = winner, end, detail
	return rec
}

func note(msgs []string, name string, notes []string) []string {
	size := 0
	for _, m := range msgs {
		size += len(m)
	}
	for _, n := range notes {
		m := name + ": " + n
		if len(msgs) >= maxMessages || size+len(m) > maxMessageBytes {
			break
		}
		msgs, size = append(msgs, m), size+len(m)
	}
	return msgs
}
