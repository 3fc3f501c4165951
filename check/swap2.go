package check

import (
	"fmt"
	"strings"
	"time"

	"gomoku-arena/engine"
	"gomoku-arena/rules"
)

// swap2 asks SWAP2BOARD on the empty board (three stones wanted) and with
// three stones in each stone format, x,y and x,y,c (SWAP, or one or two
// stones wanted), each in a process of its own: it finds engines that do
// not answer, and the format an engine reads.
func (c *checker) swap2() {
	m := c.s.Size / 2
	// Three stones the rule takes, as a game would reach them: at the
	// centre; Black's first in the outer zone (outer-open); Black's second
	// off the central 5×5 (pente's tournament rule).
	three := []rules.Point{{X: m, Y: m}, {X: m + 1, Y: m}, {X: m, Y: m + 1}}
	for _, cand := range [][]rules.Point{three, {{X: 1, Y: m}, {X: 2, Y: m}, {X: 1, Y: m + 1}}, {{X: m, Y: m}, {X: m + 1, Y: m}, {X: m + 3, Y: m}}} {
		if _, err := rules.Setup(c.s.Rule, c.s.Size, cand); err == nil {
			three = cand
			break
		}
	}
	empty := c.swap2Ask(nil, false)
	plain := c.swap2Ask(three, false)
	colors := c.swap2Ask(three, true)
	used := c.s.Procedure == rules.Swap2Procedure
	setting := map[bool]string{false: "swap2_colors = false", true: "swap2_colors = true"}
	switch {
	case empty != "" || (plain != "" && colors != ""):
		seen := "SWAP2BOARD on the empty board: " + empty
		if empty == "" {
			seen = fmt.Sprintf("SWAP2BOARD with three stones: as x,y lines %s; as x,y,c lines %s", plain, colors)
		}
		if used {
			c.add("swap2", Fail, seen+": it forfeits the games it must open", `leave it out of Swap2 events, or opening_procedure = "none"`)
		} else {
			c.add("swap2", Warn, seen+": it would forfeit under opening_procedure = \"swap2\" (not used by these settings)", "")
		}
	case plain == "" && colors == "":
		c.add("swap2", Pass, "answers SWAP2BOARD, with stones as x,y lines or as x,y,c lines", "")
	default:
		reads := plain == "" // the format it reads: x,y (false) or x,y,c (true)
		want := !reads
		seen := fmt.Sprintf("answers SWAP2BOARD only with stones as x,y lines (as x,y,c: %s)", colors)
		if want {
			seen = fmt.Sprintf("answers SWAP2BOARD only with stones as x,y,c lines (as x,y: %s)", plain)
		}
		switch {
		case used && c.ent.Swap2Colors != want:
			c.add("swap2", Fail, seen+"; it is set to the other format", setting[want]+" for this engine")
		case used:
			c.add("swap2", Pass, seen+"; it is set so", "")
		default:
			c.add("swap2", Pass, seen+" (not used by these settings)", "under opening_procedure = \"swap2\": "+setting[want]+" for this engine")
		}
	}
}

// swap2Ask asks one SWAP2BOARD in a fresh process and says what is wrong
// with the answer, "" when nothing is.
func (c *checker) swap2Ask(stones []rules.Point, colors bool) string {
	e, err := c.open()
	if err != nil {
		return err.Error()
	}
	defer e.Close()
	if err := e.NewGame(c.s.Size, c.probeInfos(e), time.Now().Add(c.startTimeout())); err != nil {
		return "no game: " + err.Error()
	}
	c.timeLeft(e)
	r := e.Swap2Board(stones, colors, c.moveDeadline(e))
	switch {
	case r.Fault == engine.FaultTimeout:
		why := "no answer within " + ms(c.probeBudget()) + " and the tolerance, and " + ms(c.s.ProbeSlack) + " more"
		for _, n := range r.Notes {
			if strings.HasPrefix(n, "ERROR") || strings.HasPrefix(n, "UNKNOWN") {
				why = fmt.Sprintf("%q, then %s", n, why)
			}
		}
		return why
	case r.Fault != "":
		return fmt.Sprintf("%s %s", r.Fault, r.Detail)
	}
	p := c.newPos()
	for _, s := range stones {
		p.stones[s] = 2
	}
	want := "three stones"
	ok := len(r.Stones) == 3 && !r.Swap
	if len(stones) > 0 {
		want = "SWAP, or one or two stones"
		ok = r.Swap || len(r.Stones) == 1 || len(r.Stones) == 2
	}
	for _, s := range r.Stones {
		if why := p.legal(engine.Reply{Move: s, Line: r.Line}); why != "" {
			return fmt.Sprintf("answered %q: %s", r.Line, why)
		}
		p.stones[s] = 1
	}
	if !ok {
		return fmt.Sprintf("answered %q, not %s", r.Line, want)
	}
	if len(stones) == 0 && c.outerOpen() && !rules.InOuterZone(c.s.Size, r.Stones[0]) {
		return fmt.Sprintf("answered %q: Black's first stone is inside the zone outer-open forbids", r.Line)
	}
	return ""
}

func (c *checker) outerOpen() bool { return c.s.Rule.Name() == "outer-open" }
