package check

import (
	"context"
	"fmt"
	"strings"
	"time"

	"gomoku-arena/arbiter"
	"gomoku-arena/clock"
	"gomoku-arena/engine"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
	"gomoku-arena/schedule"
)

// gameRecord is a check game and the colour the engine played.
type gameRecord struct {
	rec   *record.Record
	color rules.Color
}

// games plays the check games against the opponent under the entrant's
// own clock, limits and settings, as an event's games are played: one
// process for all of them (RESTART between games), colours alternating.
// Its memory is measured after every stone, as the arbiter does.
func (c *checker) games() {
	me, ok := c.start()
	if !ok {
		return
	}
	defer me.Close()
	oppSpec := c.s.Opponent
	oppSpec.Limits = engine.Limits{}
	opp, err := engine.Start(oppSpec)
	if err != nil {
		c.add("turn", Warn, "no check games: the opponent does not start: "+err.Error(), "")
		return
	}
	defer opp.Close()
	mine := &arbiter.Player{Engine: me, BoardMode: c.ent.BoardMode, Infos: c.ent.Infos, Clock: c.ent.Clock, Swap2Colors: c.ent.Swap2Colors}
	theirs := &arbiter.Player{Engine: opp, Clock: c.ent.Clock}
	var openings []rules.Opening
	if c.s.Procedure == rules.NoProcedure {
		openings = schedule.DefaultOpenings(c.s.Rule, c.s.Size, c.s.ArbiterOpens)
	}
	ctx, cancel := context.WithTimeout(c.ctx, c.s.GameTime)
	defer cancel()
	for i := 0; i < c.s.Games && ctx.Err() == nil; i++ {
		g := arbiter.Game{Event: "check", Number: i + 1, Rule: c.s.Rule, Size: c.s.Size, Procedure: c.s.Procedure,
			MoveCap: c.s.MoveCap, StartTimeout: c.startTimeout()}
		if len(openings) > 0 {
			g.Opening = openings[(i/2)%len(openings)].Stones
		}
		g.Moved = func(arbiter.Progress) {
			if n, _ := me.Memory(); n > c.peak {
				c.peak = n
			}
		}
		black, white := mine, theirs
		if i%2 == 1 {
			black, white = theirs, mine
		}
		rec, err := arbiter.Play(ctx, g, black, white)
		if err != nil {
			c.add("rule", Warn, "no check game: "+err.Error(), "")
			return
		}
		color := rules.Black
		if rec.White == me.Name() && rec.Black != me.Name() {
			color = rules.White
		}
		// A game cut at GameTime still shows its moves' times and memory.
		c.records = append(c.records, gameRecord{rec, color})
		if rec.End == record.Aborted {
			c.cut = c.ctx.Err() == nil
			return
		}
		c.judgeGame(rec, color)
	}
}

// judgeGame files a game the engine forfeited under the check that
// explains it.
func (c *checker) judgeGame(rec *record.Record, color rules.Color) {
	if !rec.End.Forfeit() || rec.Winner == color || (rec.Winner == rules.Empty && rec.End != record.DoubleForfeit) {
		return
	}
	seen := fmt.Sprintf("lost check game %d (%s) by %s: %s", rec.Game, color, rec.End, rec.Detail)
	if len(rec.Stderr) > 0 {
		seen += fmt.Sprintf(" (its stderr: %q)", rec.Stderr[len(rec.Stderr)-1])
	}
	switch {
	case rec.End == record.Time:
		c.add("time", Fail, seen, "") // the time check adds why
	case rec.End == record.MemoryLimit:
		c.add("memory", Fail, seen, c.memoryRemedy())
	case rec.End == record.Forbidden:
		c.add("rule", Fail, seen, "leave it out of renju events")
	case rec.End == record.Illegal && strings.Contains(rec.Detail, string(rules.OutsideOuterZone)):
		c.add("rule", Fail, seen, `opening_policy = "arbiter-opens" (the arbiter places Black's first stone)`)
	case strings.Contains(rec.Detail, "SWAP2BOARD"):
		c.add("swap2", Fail, seen, "")
	case rec.End == record.Illegal && strings.Contains(rec.Detail, "malformed"):
		c.add("output", Fail, seen, "")
	case rec.End == record.Illegal && c.ent.BoardMode:
		c.add("board", Fail, seen, "")
	case rec.End == record.Illegal:
		c.add("turn", Fail, seen, "")
	case rec.End == record.Refusal && strings.Contains(rec.Detail, "RESTART"):
		c.add("restart", Fail, seen, "")
	case rec.End == record.Refusal:
		c.add("start", Fail, seen, "")
	default:
		c.add("turn", Fail, seen, "")
	}
}

// timeFinding reads the games' think times against the clock: the largest
// share of its remaining time spent on one move, the overshoot of a
// per-move limit, moves late past the tolerance.
func (c *checker) timeFinding() {
	ctl := c.ent.Clock
	var maxShare float64
	var shareThink, shareLeft, longest, overshoot time.Duration
	moves := 0
	lostFirst := false // on time, on its first move of a game
	for _, g := range c.records {
		if g.rec.End == record.Time && g.rec.Winner == g.color.Opponent() && ownMoves(g) == 0 {
			lostFirst = true
		}
		left := ctl.Match
		for _, m := range g.rec.Moves {
			if m.Color != g.color || m.Opening {
				continue
			}
			moves++
			longest = max(longest, m.Think)
			if ctl.Match > 0 && left > 0 {
				if s := float64(m.Think) / float64(left); s > maxShare {
					maxShare, shareThink, shareLeft = s, m.Think, left
				}
			}
			if ctl.Turn > 0 {
				overshoot = max(overshoot, m.Think-ctl.Turn)
			}
			left = m.Left
		}
	}
	lost := len(c.findings["time"]) > 0 // judgeGame: it lost a game on time
	tol := ctl.Tolerance
	if tol <= 0 {
		tol = time.Second
	}
	share := fmt.Sprintf("the largest share of its remaining time on one move: %.0f%% (%s of %s)", 100*maxShare, ms(shareThink), ms(shareLeft))
	switch {
	case ctl.Turn > 0 && (overshoot > tol/2 || lost):
		// Thinking past a per-move limit: as an engine that reads
		// timeout_turn and adds its own margin does.
		seen := fmt.Sprintf("it thinks up to %s past the %v per-move limit, more than half the %v tolerance: a loaded machine makes that a loss on time", ms(overshoot), ctl.Turn, tol)
		if lost {
			seen = fmt.Sprintf("it lost on time under the %v per-move limit (%v tolerance)", ctl.Turn, tol)
			if overshoot > 0 {
				seen += fmt.Sprintf("; other moves took up to %s past the limit", ms(overshoot))
			}
		}
		c.add("time", Fail, seen, fmt.Sprintf("tell it less than the limit: info timeout_turn = \"%d\" for this engine", max(100*time.Millisecond, min(ctl.Turn/2, ctl.Turn-overshoot-200*time.Millisecond)).Milliseconds()))
	case ctl.Match > 0 && (maxShare >= 0.9 || lostFirst):
		// With no per-move limit the arena tells it timeout_turn = the
		// match time; an engine that reads only timeout_turn spends it all.
		seen := share
		if moves == 0 {
			seen = "it lost on time on its first move"
		}
		remedy := "give it more time, or tell it less: info timeout_turn for this engine"
		if ctl.Turn == 0 {
			remedy = fmt.Sprintf("it seems to budget its move by INFO timeout_turn alone, which is the whole match time (%v) without a per-move limit: "+
				"tell it a per-move budget (info timeout_turn = \"%d\" for this engine) or give it a per-move limit (clock turn)", ctl.Match, MoveBudget(ctl, c.s.Size).Milliseconds())
		}
		c.add("time", Fail, seen+": it spends (nearly) all its time on one move", remedy)
	case lost:
		seen := share
		if moves == 0 {
			seen = "no move of its was on time"
		}
		c.add("time", Fail, seen, "give it more time, or tell it less: info timeout_turn for this engine")
	case moves == 0:
		c.add("time", Warn, "no move of its was timed in the check games", "")
	case ctl.Turn > 0 && overshoot > 0:
		c.add("time", Warn, fmt.Sprintf("it thinks up to %s past the %v per-move limit (within the tolerance)", ms(overshoot), ctl.Turn),
			fmt.Sprintf("tell it less than the limit: info timeout_turn = \"%d\" for this engine", max(100*time.Millisecond, ctl.Turn-overshoot-200*time.Millisecond).Milliseconds()))
	case maxShare >= 0.5:
		c.add("time", Warn, share+": more than half of what it had, on one move", "")
	default:
		seen := fmt.Sprintf("%d moves, the longest %s", moves, ms(longest))
		if ctl.Match > 0 {
			seen += "; " + share
		}
		if c.cut {
			seen += fmt.Sprintf(" (the games were cut at %v)", c.s.GameTime)
		}
		c.add("time", Pass, seen, "")
	}
}

// memoryFinding compares the peak measured during the games with the
// limit.
func (c *checker) memoryFinding() {
	mib := func(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
	seen := fmt.Sprintf("peak %s in the games, limit %s", mib(c.peak), mib(c.limit))
	remedy := c.memoryRemedy()
	switch {
	case len(c.findings["memory"]) > 0: // it forfeited: the record says how much
	case c.peak > c.limit:
		c.add("memory", Fail, seen, remedy)
	case c.peak == 0:
		c.add("memory", Warn, "not measured: no check game was played", "")
	case c.peak*10 > c.limit*9:
		c.add("memory", Warn, seen+": within 10% of the limit", remedy)
	default:
		c.add("memory", Pass, seen, "")
	}
}

// Flooding thresholds: lines or bytes an engine writes in answer to one
// command.
const (
	floodLines = 200
	floodBytes = 256 << 10
	// debugPerMove DEBUG lines a move, on average, is chatter: MESSAGE
	// lines (depth, evaluation, line) are what engines are expected to
	// say before a move, DEBUG lines are for their authors.
	debugPerMove = 3
)

// outputFinding reads the tape: stray lines while a move is awaited, and
// floods.
func (c *checker) outputFinding() {
	var cmd string
	burst, bytes, maxBurst, maxBytes, stray, debug, moves := 0, 0, 0, 0, 0, 0, 0
	var example string
	for _, l := range c.tape.since(0) {
		if l.sent {
			word, _, _ := strings.Cut(strings.TrimSpace(l.text), " ")
			if word != "" && word != "DONE" && (word[0] < '0' || word[0] > '9') && word != "-" {
				cmd = strings.ToUpper(word)
			}
			burst, bytes = 0, 0
			continue
		}
		burst++
		bytes += len(l.text) + 1
		maxBurst, maxBytes = max(maxBurst, burst), max(maxBytes, bytes)
		if cmd != "BEGIN" && cmd != "TURN" && cmd != "BOARD" && cmd != "INFO" {
			continue
		}
		ln := engine.ParseLine(l.text)
		switch ln.Kind {
		case engine.LineDebug:
			debug++
		case engine.LineMove:
			moves++
		}
		if ln.Kind == engine.LineOther && strings.TrimSpace(l.text) != "" {
			stray++
			if example == "" {
				example = l.text
			}
		}
	}
	c.tape.mu.Lock()
	more := c.tape.more
	c.tape.mu.Unlock()
	switch {
	case maxBurst > floodLines || maxBytes > floodBytes || more > 0:
		c.add("output", Warn, fmt.Sprintf("floods its output: up to %d lines (%d KiB) in answer to one command; the arena reads them all, keeps 64 notes a move, and counts reading them in its think time", maxBurst, maxBytes>>10),
			"the author: fewer MESSAGE/DEBUG lines")
	}
	if moves > 0 && debug >= debugPerMove*moves {
		c.add("output", Warn, fmt.Sprintf("chatters: %d DEBUG lines for %d moves, while moves are awaited; the records keep them (at most 2000 lines a game)", debug, moves),
			"the author: DEBUG lines only when asked")
	}
	if stray > 0 {
		c.add("output", Warn, fmt.Sprintf("%d stray lines while a move was awaited, e.g. %q: logged as protocol warnings, never taken for a move", stray, example), "")
	}
	c.add("output", Pass, "no stray, malformed or flooding lines", "")
}

// ownMoves counts the moves the engine played in a game (refused ones too).
func ownMoves(g gameRecord) int {
	n := 0
	for _, m := range g.rec.Moves {
		if m.Color == g.color && !m.Opening {
			n++
		}
	}
	return n
}

func (c *checker) memoryRemedy() string {
	return fmt.Sprintf("tell it less than the limit: info max_memory = \"%d\" for this engine (70%% of the limit), or raise max_memory", c.limit*7/10)
}

// MoveBudget is the per-move time to tell an engine that spends whatever
// timeout_turn says, so that it keeps within ctl in a long game on a
// board of size: the match time shared over a side's moves when a quarter
// of the board is filled (56 on 15x15), plus the increment; at least 100
// ms. Under a minute on 15x15 that is 1,071 ms: a twentieth of the match
// time (3,000 ms), as was advised before, still lost games on time at
// 2,000 ms a move.
func MoveBudget(ctl clock.Control, size int) time.Duration {
	moves := max(size*size/4, 1)
	return max(100*time.Millisecond, ctl.Match/time.Duration(moves)+ctl.Increment)
}
