package check

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"gomoku-arena/clock"
	"gomoku-arena/engine"
	"gomoku-arena/rules"
)

// The probes put the engine in chosen positions and exchanges, each in a
// process of its own, under the settings given: the INFO lines an event's
// game sends, its clock's among them (an engine that cannot take INFO
// timeout_match 0 is never told it under a clock with a match time). They
// test the protocol, not the engine's time management, which the games
// test: a probe waits for a move at most the clock's budget for one
// (probeBudget), and a move that does not come only warns.
const (
	// probeWaitCap bounds the wait for one probe move under a long clock
	// or none: the probes do not judge time.
	probeWaitCap = 30 * time.Second
	infoWait     = 400 * time.Millisecond
	endGrace     = engine.DefaultCloseGrace
	endWait      = 4 * time.Second // after the grace, how long an exit still counts as one
)

// open starts a process of the engine, its output taped.
func (c *checker) open() (*engine.Engine, error) {
	spec := c.ent.Spec
	spec.Transcript = c.tape.line
	if spec.Limits.Memory == 0 {
		spec.Limits.Memory = c.limit // as an event holds it: arena match does not
	}
	spec.StartTimeout = c.startTimeout()
	return engine.Start(spec)
}

// start starts a process of the engine for a check that plays in it from
// the first line; a program that does not start fails the start check.
func (c *checker) start() (*engine.Engine, bool) {
	e, err := c.open()
	if err != nil {
		c.add("start", Fail, "cannot start the program: "+err.Error(), "fix the command or its folder")
		return nil, false
	}
	return e, true
}

// probeInfos are the INFO lines of a probe game: those an event's game
// sends, under the entrant's own clock.
func (c *checker) probeInfos(e *engine.Engine) []engine.Info {
	return c.gameInfos(e, c.ent.Clock)
}

// probeBudget is how long a probe waits for a move before the tolerance
// and the slack: what the entrant's clock gives one move (its per-move
// limit, or the whole match time), at most probeWaitCap.
func (c *checker) probeBudget() time.Duration {
	ctl := c.ent.Clock
	budget := ctl.Turn
	if budget <= 0 || ctl.Match > 0 && ctl.Match < budget {
		budget = ctl.Match
	}
	if budget <= 0 || budget > probeWaitCap {
		budget = probeWaitCap
	}
	return budget
}

// gameInfos are the INFO lines the arbiter sends at the start of a game
// (arbiter.Game.start): the clock's, the rule's, the folder, the entrant's.
func (c *checker) gameInfos(e *engine.Engine, ctl clock.Control) []engine.Info {
	dir, err := filepath.Abs(e.Dir())
	if err != nil {
		dir = ""
	}
	return engine.GameInfos(ctl, c.s.Rule, dir, c.ent.Infos)
}

// newGame starts a probe game; an error is reported under check.
func (c *checker) newGame(e *engine.Engine, check string) bool {
	err := e.NewGame(c.s.Size, c.probeInfos(e), time.Now().Add(c.startTimeout()))
	if err != nil {
		c.add(check, Fail, "could not start a game: "+err.Error(), "see the start check")
		return false
	}
	return true
}

// probeGame starts a process of the engine and a probe game in it; a game
// that cannot start is reported under check (a process that cannot, by the
// start check). The caller closes the engine.
func (c *checker) probeGame(check string) (*engine.Engine, bool) {
	e, err := c.open()
	if err != nil {
		return nil, false
	}
	if !c.newGame(e, check) {
		e.Close()
		return nil, false
	}
	return e, true
}

// startTimeout is the engine's start timeout: its spec's, or the
// settings', or the engine's default (engine.Spec.StartWithin).
func (c *checker) startTimeout() time.Duration {
	return startTimeout(c.ent, c.s)
}

// moveDeadline is the wait for a probe's move. The first move of a process
// may also take the start timeout: engines size and clear their hash then,
// which a loaded machine makes slow, and the probes do not judge time.
func (c *checker) moveDeadline(e *engine.Engine) time.Time {
	wait := c.probeBudget() + c.ent.Clock.ToleranceOrDefault() + c.s.ProbeSlack
	if pid := e.Pid(); !c.warm[pid] {
		c.warm[pid] = true
		wait += c.startTimeout()
	}
	return time.Now().Add(wait)
}

// noMove begins the words of a probe move that did not come in time.
const noMove = "no move within "

// severity is the verdict for what legal found wrong: a move that did not
// come in time only warns (the games judge an engine's time, under the
// event's clock; a probe's move was asked under its own), anything else
// fails.
func severity(why string) Verdict {
	if strings.HasPrefix(why, noMove) {
		return Warn
	}
	return Fail
}

// probePos is the position of a probe game, as the check knows it.
type probePos struct {
	size   int
	budget time.Duration       // probeBudget, for the words
	slack  time.Duration       // Settings.ProbeSlack, for the words
	stones map[rules.Point]int // 1 the engine's, 2 the opponent's
}

func (c *checker) newPos() *probePos {
	return &probePos{size: c.s.Size, budget: c.probeBudget(), slack: c.s.ProbeSlack, stones: map[rules.Point]int{}}
}

// legal says what is wrong with the engine's reply in pos, "" if nothing.
func (p *probePos) legal(r engine.Reply) string {
	switch {
	case r.Fault == engine.FaultTimeout:
		return noMove + ms(p.budget) + " and the tolerance, and " + ms(p.slack) + " more"
	case r.Fault != "":
		return fmt.Sprintf("%s %s", r.Fault, r.Detail)
	case r.Move.X < 0 || r.Move.Y < 0 || r.Move.X >= p.size || r.Move.Y >= p.size:
		return fmt.Sprintf("off-board move %q", r.Line)
	case p.stones[r.Move] != 0:
		return fmt.Sprintf("a move on an occupied point %v", r.Move)
	}
	return ""
}

// timeLeft tells the engine, before a probe's move, the time a game's
// first move has under the entrant's clock.
func (c *checker) timeLeft(e *engine.Engine) {
	e.QueueInfo(engine.TimeLeft(clock.New(c.ent.Clock)))
}

func (c *checker) turn(e *engine.Engine, p *probePos, opp rules.Point) (engine.Reply, string) {
	p.stones[opp] = 2
	c.timeLeft(e)
	r := e.Turn(opp, c.moveDeadline(e))
	why := p.legal(r)
	if why == "" {
		p.stones[r.Move] = 1
	}
	return r, why
}

// boardMove asks for a move by BOARD in the position of stones (Field 1
// the engine's, 2 the opponent's) and says what is wrong with it, "" if
// nothing.
func (c *checker) boardMove(e *engine.Engine, stones []engine.Stone) (engine.Reply, string) {
	p := c.newPos()
	for _, s := range stones {
		p.stones[s.Point] = s.Field
	}
	c.timeLeft(e)
	r := e.Board(stones, c.moveDeadline(e))
	return r, p.legal(r)
}

// startTurnRestart checks start, about, turn and restart in one process, as
// an event's games use it: START, moves, RESTART, moves.
func (c *checker) startTurnRestart() {
	e, ok := c.start()
	if !ok {
		return
	}
	defer e.Close()
	m := c.tape.mark()
	op := "START " + strconv.Itoa(c.s.Size)
	err := e.NewGame(c.s.Size, c.probeInfos(e), time.Now().Add(c.startTimeout()))
	var refusal *engine.Refusal
	var fault *engine.FaultError
	switch {
	case errors.As(err, &refusal):
		c.add("start", Fail, fmt.Sprintf("answers %s with %q: it refuses the size, and forfeits every game", op, refusal.Message),
			fmt.Sprintf("play it at a size it accepts (size), or leave it out of a %dx%d event", c.s.Size, c.s.Size))
		return
	case errors.As(err, &fault) && fault.Fault == engine.FaultTimeout:
		c.add("start", Fail, fmt.Sprintf("no answer to %s within %v", op, c.startTimeout()), "raise start_timeout if it is only slow to start")
		return
	case err != nil:
		c.add("start", Fail, err.Error(), "")
		return
	}
	_, took, _ := c.tape.answerTo(m, op)
	if took > c.startTimeout()/2 {
		c.add("start", Warn, fmt.Sprintf("answers %s after %s, over half the start timeout", op, ms(took)), "raise start_timeout")
	} else {
		c.add("start", Pass, fmt.Sprintf("answers %s with OK in %s", op, ms(took)), "")
	}
	c.about(e, m)

	// turn: two moves on an open board.
	p := c.newPos()
	mid := rules.Point{X: c.s.Size / 2, Y: c.s.Size / 2}
	r1, why := c.turn(e, p, mid)
	if why == "" {
		_, why = c.turn(e, p, rules.Point{X: mid.X + 1, Y: mid.Y - 1})
	}
	if why != "" {
		c.add("turn", severity(why), "TURN: "+why, "")
		return
	}
	c.add("turn", Pass, "answers TURN with legal moves", "")

	// restart after a game it played: the arena's RESTART, and a board
	// cleared by it (a move on its own former stone is answered).
	m = c.tape.mark()
	if err := e.NewGame(c.s.Size, c.probeInfos(e), time.Now().Add(c.startTimeout())); err != nil {
		c.add("restart", Fail, "the arena could not start the next game: "+err.Error(), "")
		return
	}
	answer, _, ok := c.tape.answerTo(m, "RESTART")
	restarted := ok && engine.ParseLine(answer).Kind == engine.LineOK
	cleared := ""
	if restarted {
		_, cleared = c.turn(e, c.newPos(), r1.Move)
	}
	// Again after a game in which it never moved (its opponent crashed at
	// once): RESTART then follows the INFO lines directly.
	again := e.NewGame(c.s.Size, c.probeInfos(e), time.Now().Add(c.startTimeout()))
	seen := "answers RESTART with OK"
	if !restarted {
		seen = "no answer to RESTART"
		if ok {
			seen = fmt.Sprintf("answers RESTART with %q", answer)
		}
	}
	switch {
	case again != nil:
		c.add("restart", Fail, seen+"; after a game in which it never moved, the next game could not start: "+again.Error(),
			"answer RESTART with OK (the author); an arena that starts such an engine afresh needs nothing (docs/check.md)")
		return
	case cleared != "":
		c.add("restart", Fail, seen+", but a move on the point its own stone held in the game before: "+cleared+": the board was not cleared",
			"the author: clear the board on RESTART, or answer it UNKNOWN (the arena then starts a new process)")
	case !restarted:
		c.add("restart", Warn, seen+": the arena starts a new process for every game instead (its start-up is on no clock)", "none needed; the author may answer RESTART with OK")
	default:
		c.add("restart", Pass, seen+" and clears the board", "")
	}
	// A second START (the arena never sends one, other managers do).
	p = c.newPos()
	own, why := c.turn(e, p, mid)
	if why != "" {
		c.add("turn", severity(why), "TURN after RESTART: "+why, "")
		return
	}
	lines, f, _ := e.Probe(op+"\n", time.Now().Add(c.startTimeout()), answered)
	switch {
	case f != "":
		c.add("start", Warn, fmt.Sprintf("a second %s in one process: %s (the arena never sends one)", op, f), "")
	case engine.ParseLine(lines[len(lines)-1]).Kind != engine.LineOK:
		c.add("start", Warn, fmt.Sprintf("a second %s in one process is answered %q (the arena never sends one)", op, lines[len(lines)-1]), "")
	default:
		if _, why := c.turn(e, c.newPos(), own.Move); why != "" {
			c.add("start", Warn, "after a second START, a move on its own former stone: "+why+": the board was not cleared (the arena never sends a second START)", "")
		}
	}
}

// answered is true for a line that answers a command (OK, ERROR, UNKNOWN).
func answered(l engine.Line) bool {
	return l.Kind == engine.LineOK || l.Kind == engine.LineError || l.Kind == engine.LineUnknown
}

// about judges the answer to the ABOUT the arena asks after the first START.
func (c *checker) about(e *engine.Engine, m int) {
	id := e.Identity()
	switch {
	case id.Raw != "" && id.Fields["name"] != "":
		c.add("about", Pass, "ABOUT: "+id.Raw, "")
	case id.Raw != "":
		c.add("about", Pass, fmt.Sprintf("ABOUT is answered in free text %q (kept as it is)", id.Raw), "")
	default:
		text, _, ok := c.tape.answerTo(m, "ABOUT")
		seen := "no answer to ABOUT within half a second of START"
		if ok {
			seen = fmt.Sprintf("ABOUT is answered %q", text)
		}
		c.add("about", Warn, seen+": the records will not name its program and version", "the author: answer ABOUT with name=\"...\", version=\"...\"")
	}
}

// info sends each INFO line of an event's game on its own, and notes the
// ones the engine complains about; then it must still play.
func (c *checker) info() {
	e, err := c.open()
	if err != nil {
		return
	}
	defer e.Close()
	if err := e.NewGame(c.s.Size, nil, time.Now().Add(c.startTimeout())); err != nil {
		return // the start check says why
	}
	infos := c.gameInfos(e, c.ent.Clock)
	infos = append(infos, engine.TimeLeft(clock.New(c.ent.Clock)))
	// An INFO line wants no answer: any line it provokes within infoWait
	// is its answer, and the telling one (ERROR, UNKNOWN, "don't know") is
	// reported.
	var refused []string
	for _, in := range infos {
		lines, f, detail := e.Probe(in.Line(), time.Now().Add(infoWait), func(l engine.Line) bool {
			return l.Kind == engine.LineError || l.Kind == engine.LineUnknown
		})
		if f == engine.FaultExit {
			c.add("info", Fail, fmt.Sprintf("exits on INFO %s %s (%s)", in.Key, in.Value, detail), "leave the key out for this engine (its info settings)")
			return
		}
		if answer := telling(lines); answer != "" {
			refused = append(refused, fmt.Sprintf("INFO %s %s: %q", in.Key, in.Value, answer))
			if in.Key == "rule" || in.Key == "rule_name" {
				c.add("rule", Warn, fmt.Sprintf("answers INFO %s %s with %q: it may not know the rule", in.Key, in.Value, answer), "")
			}
			if in.Key == engine.KeyRuleName {
				// An extension it refuses: the event checked sends it no more
				// (the entrant's set, shared with the event's director).
				c.ent.Spec.Refused.Refuse(in.Key)
			}
		}
	}
	if _, why := c.turn(e, c.newPos(), rules.Point{X: c.s.Size / 2, Y: c.s.Size / 2}); why != "" {
		c.add("info", severity(why), "after the INFO lines, TURN: "+why, "")
		return
	}
	if len(refused) > 0 {
		c.add("info", Warn, "refuses or does not understand "+strings.Join(refused, ", ")+"; it plays on, and the arena does not take such a line for an answer",
			"none needed; the limits it ignores are still enforced (a key it misreads: see the time and memory checks)")
		return
	}
	c.add("info", Pass, fmt.Sprintf("takes the %d INFO lines of a game silently", len(infos)), "")
}

// telling is the line of an answer to INFO that says it was refused or
// not understood, "" when none does.
func telling(lines []string) string {
	for _, l := range lines {
		ln := engine.ParseLine(l)
		low := strings.ToLower(l)
		if ln.Kind == engine.LineError || ln.Kind == engine.LineUnknown || strings.Contains(low, "unknown") ||
			strings.Contains(low, "know what") || strings.Contains(low, "not support") || strings.Contains(low, "ignor") {
			return l
		}
	}
	return ""
}

// board asks for moves by BOARD with the opponent's stone last and with its
// own last (as after captures): some engines answer only the first.
func (c *checker) board() {
	e, ok := c.probeGame("board")
	if !ok {
		return
	}
	defer e.Close()
	m := c.s.Size / 2
	st := func(dx, dy, field int) engine.Stone {
		return engine.Stone{Point: rules.Point{X: m + dx, Y: m + dy}, Field: field}
	}
	cases := []struct {
		what   string
		stones []engine.Stone
	}{
		{"the opponent's stone last", []engine.Stone{st(0, 0, 2), st(1, 1, 1), st(-1, 1, 2)}},
		{"its own stone last (as after captures)", []engine.Stone{st(0, 0, 1), st(1, 1, 2), st(1, -1, 2), st(-1, -1, 1)}},
	}
	clean := true
	for i, k := range cases {
		if i > 0 && !c.newGame(e, "board") {
			return
		}
		r, why := c.boardMove(e, k.stones)
		if why == "" {
			continue
		}
		v, remedy := Warn, "the arena lists stones in move order, so its own stone comes last only after captures: no forfeit under this rule"
		switch {
		case i == 0:
			v, remedy = severity(why), ""
		case captures(c.s.Rule):
			v, remedy = Fail, "leave it out of events of this rule"
		}
		c.add("board", v, fmt.Sprintf("BOARD with %s: %s", k.what, why), remedy)
		clean = false
		if r.Fault != "" {
			e.Kill()
			if i+1 < len(cases) {
				if e, ok = c.probeGame("board"); !ok {
					return
				}
				defer e.Close()
			}
		}
	}
	if clean {
		c.add("board", Pass, "answers BOARD with either side's stone last", "")
	}
}

// captures reports whether stones can vanish under r.
func captures(r rules.Rule) bool { return strings.Contains(r.Name(), "pente") }

// rule puts the engine where the rule matters: Black's first stone under
// outer-open, a forbidden overline for Black under renju.
func (c *checker) rule() {
	switch c.s.Rule.Name() {
	case "outer-open":
		if c.s.ArbiterOpens {
			c.add("rule", Pass, "the arbiter places Black's first stone (arbiter-opens): an engine need not know outer-open", "")
			return
		}
		e, ok := c.probeGame("rule")
		if !ok {
			return
		}
		defer e.Close()
		c.timeLeft(e)
		r := e.Begin(c.moveDeadline(e))
		if why := c.newPos().legal(r); why != "" {
			c.add("rule", severity(why), "BEGIN: "+why, "")
			return
		}
		if !rules.InOuterZone(c.s.Size, r.Move) {
			c.add("rule", Fail, fmt.Sprintf("as Black on the empty board it plays %v, inside the zone outer-open forbids: it forfeits every game as Black", r.Move),
				`opening_policy = "arbiter-opens" (the arbiter places Black's first stone)`)
			return
		}
		c.add("rule", Pass, fmt.Sprintf("as Black on the empty board it plays %v, in the outer zone", r.Move), "")
	case "renju":
		e, ok := c.probeGame("rule")
		if !ok {
			return
		}
		defer e.Close()
		// Black (the engine) has X X X . X X on row m: the gap makes six, an
		// overline, forbidden to Black; White's stones are far away.
		m := c.s.Size / 2
		var stones []engine.Stone
		blacks := []int{m - 3, m - 2, m - 1, m + 1, m + 2}
		for i, x := range blacks {
			stones = append(stones, engine.Stone{Point: rules.Point{X: x, Y: m}, Field: 1},
				engine.Stone{Point: rules.Point{X: 2 * i, Y: 0}, Field: 2})
		}
		r, why := c.boardMove(e, stones)
		if why != "" {
			c.add("rule", severity(why), "BOARD: "+why, "")
			return
		}
		if gap := (rules.Point{X: m, Y: m}); r.Move == gap {
			c.add("rule", Fail, fmt.Sprintf("as Black it plays the overline at %v, forbidden under renju: it does not play renju", gap), "leave it out of renju events")
			return
		}
		c.add("rule", Pass, "as Black it does not play a forbidden overline", "")
	default:
		c.add("rule", Pass, "rule "+c.s.Rule.Name()+": judged by the games' moves", "")
	}
}

// end sends ABOUT before START (the arena never does; noted), plays one
// move, then END: the process must exit within the grace the arena gives
// and leave no process behind.
func (c *checker) end() {
	e, err := c.open()
	if err != nil {
		return
	}
	defer e.Close()
	lines, f, _ := e.Probe("ABOUT\n", time.Now().Add(time.Second), func(l engine.Line) bool {
		return l.Kind != engine.LineMessage && l.Kind != engine.LineDebug
	})
	switch {
	case f == engine.FaultExit:
		c.add("about", Pass, "exits on ABOUT before START (the arena asks ABOUT only after START)", "")
		e.Kill()
		e.Close()
		if e, err = c.open(); err != nil {
			return
		}
		defer e.Close()
	case f == "" && answered(engine.ParseLine(lines[len(lines)-1])):
		c.add("about", Pass, fmt.Sprintf("before START, ABOUT is answered %q (the arena asks ABOUT only after START)", lines[len(lines)-1]), "")
	}
	if !c.newGame(e, "end") {
		return
	}
	if _, why := c.turn(e, c.newPos(), rules.Point{X: c.s.Size / 2, Y: c.s.Size / 2}); why != "" {
		return // the turn check says so
	}
	t0 := time.Now()
	_, f, _ = e.Probe("END\n", t0.Add(endGrace), nil)
	exited := f == engine.FaultExit || e.Exited(time.Now().Add(endWait))
	took := time.Since(t0)
	lingering := 0
	if exited {
		time.Sleep(100 * time.Millisecond) // its helpers' own exits
		lingering = e.Lingering()
	}
	switch {
	case !exited:
		c.add("end", Warn, fmt.Sprintf("still running %v after END: the arena kills it after %v (no game is lost)", endGrace+endWait, endGrace),
			"the author: exit on END")
	case took > endGrace:
		c.add("end", Warn, fmt.Sprintf("exits %s after END, past the %v the arena waits before it kills it", ms(took), endGrace), "")
	case lingering > 0:
		c.add("end", Warn, fmt.Sprintf("exits on END but leaves %d processes of its group running (the arena kills them)", lingering), "the author: end its helpers on END")
	default:
		c.add("end", Pass, fmt.Sprintf("exits %s after END, leaving no process", ms(took)), "")
	}
}
