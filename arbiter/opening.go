package arbiter

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"gomoku-arena/clock"
	"gomoku-arena/engine"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// rifProbeTimeout bounds the wait for an answer to RIFPROBE: an engine that
// ignores unknown commands silently plays from the list after it.
const rifProbeTimeout = 2 * time.Second

// procedure runs one game's opening procedure: it asks the engines, feeds
// their answers to the rules' state machine, charges each answer to the
// clock of the engine that answered, and settles who plays which colour.
//
// Clocks follow the engines, not the colours: each seat's engine has a
// Clock of its own, which goes with it to whichever colour it ends with.
type procedure struct {
	ctx    context.Context
	g      Game
	rec    *record.Record
	seats  [2]*side
	clocks [2]*clock.Clock
}

// runProcedure plays g.Procedure before the game proper. It returns the
// position the game goes on from, and true when the game already ended (an
// engine forfeited during the procedure; rec is finished). On return, sides
// and clocks are indexed by the colours the procedure settled, and rec names
// Black and White accordingly.
func (g Game) runProcedure(ctx context.Context, rec *record.Record, sides *[3]*side, clocks *[3]*clock.Clock, plan *openingPlan) (*rules.Position, bool) {
	o := &procedure{ctx: ctx, g: g, rec: rec,
		seats:  [2]*side{sides[rules.Black], sides[rules.White]},
		clocks: [2]*clock.Clock{clocks[rules.Black], clocks[rules.White]}}
	var (
		pos   *rules.Position
		end   bool
		black = rules.FirstPlayer
	)
	switch {
	case plan.swap2 != nil:
		pos, black, end = o.swap2(plan.swap2)
	case plan.rif != nil:
		pos, black, end = o.rif(plan.rif, plan.rifFallback)
	default:
		return plan.pos, false
	}
	if end {
		return nil, true
	}
	o.settle(black)
	sides[rules.Black], sides[rules.White] = o.seats[black], o.seats[black.Other()]
	clocks[rules.Black], clocks[rules.White] = o.clocks[black], o.clocks[black.Other()]
	for _, s := range o.seats {
		s.known, s.stale = 0, true // the next request is a BOARD with the whole position
	}
	return pos, false
}

// settle gives Black to seat black and White to the other, in the sides and
// in the record.
func (o *procedure) settle(black rules.Seat) {
	o.seats[black].color, o.seats[black.Other()].color = rules.Black, rules.White
	o.rec.Black, o.rec.White = o.seats[black].Engine.Name(), o.seats[black.Other()].Engine.Name()
	o.rec.BlackAbout, o.rec.WhiteAbout = o.seats[black].Engine.Identity().Raw, o.seats[black.Other()].Engine.Identity().Raw
}

func (o *procedure) note(format string, a ...any) {
	if len(o.rec.Messages) < maxMessages {
		o.rec.Messages = append(o.rec.Messages, "arbiter: "+fmt.Sprintf(format, a...))
	}
}

func (o *procedure) name(s rules.Seat) string { return o.seats[s].Engine.Name() }

// ask sends one request to seat s, with its time_left, and charges the
// answer to its clock. A timeout, an exit, a malformed line, an unknown
// command or a late answer ends the game as s's forfeit: ask then reports
// false.
func (o *procedure) ask(s rules.Seat, what string, req func(deadline time.Time) engine.OpeningReply) (engine.OpeningReply, bool) {
	sd, clk := o.seats[s], o.clocks[s]
	o.seats[s.Other()].Engine.Freeze() // when its limits say so, as in the game proper
	sd.Engine.Thaw()
	sd.Engine.QueueInfo(engine.TimeLeft(clk))
	budget := clk.Budget()
	r := req(time.Now().Add(budget))
	o.rec.Messages = note(o.rec.Messages, sd.Engine.Name(), r.Notes)
	switch r.Fault {
	case engine.FaultTimeout:
		sd.Engine.Kill()
		o.lose(s, record.Time, fmt.Sprintf("no answer to %s within %v", what, budget))
		return r, false
	case engine.FaultExit:
		o.lose(s, record.Crash, r.Detail)
		return r, false
	case engine.FaultMalformed:
		o.lose(s, record.Illegal, fmt.Sprintf("malformed answer to %s %q", what, r.Line),
			record.Move{Color: o.seats[s].color, Think: r.Elapsed, Raw: r.Line, Refused: record.RefusedMalformed})
		return r, false
	case engine.FaultUnsupported:
		o.lose(s, record.Refusal, fmt.Sprintf("does not take %s: %s", what, r.Detail))
		return r, false
	}
	if !clk.Charge(r.Elapsed) {
		sd.Engine.Kill()
		o.lose(s, record.Time, fmt.Sprintf("answer to %s after %v, budget %v", what, r.Elapsed.Round(time.Millisecond), budget),
			o.refused(s, r, record.RefusedLate)...)
		return r, false
	}
	if over, detail := sd.Engine.CheckMemory(); over {
		sd.Engine.Kill() // the next game starts a fresh process
		o.lose(s, record.MemoryLimit, detail, o.refused(s, r, record.RefusedMemory)...)
		return r, false
	}
	return r, true
}

// lose ends the game as a forfeit by seat s, keeping the stones it refused.
func (o *procedure) lose(s rules.Seat, end record.Termination, detail string, refused ...record.Move) {
	o.rec.Moves = append(o.rec.Moves, refused...)
	finish(o.ctx, o.rec, o.seats[s.Other()].color, end, detail)
}

// refused is seat s's answer r as refused stones, each marked with why; an
// answer without stones (SWAP) leaves none.
func (o *procedure) refused(s rules.Seat, r engine.OpeningReply, why string) []record.Move {
	var mvs []record.Move
	for i, m := range r.Stones {
		mv := record.Move{Point: m, Color: o.seats[s].color, Refused: why}
		if i == 0 {
			mv.Think = r.Elapsed
		}
		mvs = append(mvs, mv)
	}
	return mvs
}

// reject ends the game because the rules refused seat s's answer. Every
// stone of the answer is kept: when the rules name the stone at fault, the
// stones before it, which the rules played, are moves of the record, that
// stone is refused with the rules' reason and any after it as RefusedWith;
// an answer refused as a whole (a wrong number of stones) is refused stone by
// stone, and an answer without stones as its line.
func (o *procedure) reject(s rules.Seat, what string, r engine.OpeningReply, err error) {
	var pe *rules.ProcedureError
	detail := fmt.Sprintf("%s: %v", what, err)
	why := record.RefusedAnswer
	if errors.As(err, &pe) {
		why = string(pe.Reason)
	}
	if len(r.Stones) == 0 {
		o.lose(s, record.Illegal, detail, record.Move{Color: o.seats[s].color, Think: r.Elapsed, Raw: r.Line, Refused: why})
		return
	}
	if pe == nil || pe.Stone < 1 || pe.Stone > len(r.Stones) {
		o.lose(s, record.Illegal, detail, o.refused(s, r, why)...)
		return
	}
	end := record.Illegal // a renju forbidden stone ends it as in the game proper
	if t, _ := judge(rules.Verdict{Illegal: true, Reason: pe.Reason}, pe.Move); t == record.Forbidden {
		end = record.Forbidden
	}
	first := pe.Stone - 1   // the stone at fault
	if what != "RIFOFFER" { // offers are alternatives, not stones in turn: none is played
		o.placed(s, r.Stones[:first], r.Elapsed)
		if first > 0 {
			r.Elapsed = 0 // charged with the first stone
		}
		r.Stones, first = r.Stones[first:], 0
	}
	mvs := o.refused(s, r, record.RefusedWith)
	mvs[first].Refused = string(pe.Reason)
	o.lose(s, end, detail, mvs...)
}

// placed records stones an engine placed; the answer's think time goes
// with the first.
func (o *procedure) placed(s rules.Seat, stones []rules.Point, think time.Duration) {
	for i, m := range stones {
		mv := record.Move{Point: m, Color: colorOf(len(o.rec.Moves)), Left: o.clocks[s].Left()}
		if i == 0 {
			mv.Think = think
		}
		o.rec.Moves = append(o.rec.Moves, mv)
	}
}

// swap2 runs Swap2: the first seat places three stones, the second swaps or
// plays one or two, and after two the first swaps or plays one.
func (o *procedure) swap2(sw *rules.Swap2) (*rules.Position, rules.Seat, bool) {
	var err error
	o.rec.Moves = o.rec.Moves[:0] // Swap2 starts from the empty board
	for sw.Step() != rules.Swap2Done {
		s := sw.Actor()
		before := append([]rules.Point(nil), sw.Position().Moves...)
		colors := o.seats[s].Swap2Colors
		r, ok := o.ask(s, "SWAP2BOARD", func(d time.Time) engine.OpeningReply {
			return o.seats[s].Engine.Swap2Board(before, colors, d)
		})
		if !ok {
			return nil, 0, true
		}
		switch {
		case sw.Step() == rules.Swap2Place && r.Swap:
			err = &rules.ProcedureError{Reason: rules.SwapNotAllowed, Detail: "the empty board wants three stones"}
		case sw.Step() == rules.Swap2Place:
			err = sw.Place(r.Stones)
		default:
			err = sw.Answer(r.Swap, r.Stones)
		}
		if err != nil {
			o.reject(s, "SWAP2BOARD", r, err)
			return nil, 0, true
		}
		o.placed(s, r.Stones, r.Elapsed)
		if r.Swap {
			o.note("swap2: %s swaps and takes Black after %d stones", o.name(s), len(before))
		}
	}
	o.note("swap2: %s plays Black, %s White", o.name(sw.Black()), o.name(sw.Black().Other()))
	return sw.Position(), sw.Black(), false
}

// rif runs the RIF opening when both engines take part in the extension,
// and otherwise plays from fallback (openingPlan.rifFallback).
func (o *procedure) rif(rif *rules.RIF, fallback *rules.Position) (*rules.Position, rules.Seat, bool) {
	var missing []string
	for s := range o.seats {
		ok, notes := o.seats[s].Engine.RIFProbe(time.Now().Add(rifProbeTimeout))
		o.rec.Messages = note(o.rec.Messages, o.seats[s].Engine.Name(), notes)
		if !ok {
			missing = append(missing, o.seats[s].Engine.Name())
		}
	}
	if len(missing) > 0 {
		o.rec.Moves = o.rec.Moves[:0]
		for _, m := range fallback.Moves {
			o.rec.Moves = append(o.rec.Moves, record.Move{Point: m, Color: colorOf(len(o.rec.Moves)), Opening: true})
		}
		name := "the list"
		if ro, ok := rules.IdentifyRIFOpening(o.g.Size, fallback.Moves); ok {
			name = ro.String()
		}
		o.note("rif: %s does not take part in the RIF extension; the game starts from %s", strings.Join(missing, " and "), name)
		return fallback, rules.FirstPlayer, false
	}

	var err error
	o.rec.Moves = o.rec.Moves[:0]
	stones := func() []rules.Point { return append([]rules.Point(nil), rif.Position().Moves...) }
	for rif.Step() != rules.RIFDone {
		s := rif.Actor()
		e := o.seats[s].Engine
		var (
			r    engine.OpeningReply
			ok   bool
			what string
		)
		before := stones()
		switch step := rif.Step(); step {
		case rules.RIFPlace:
			what = "RIFOPEN"
			if r, ok = o.ask(s, what, e.RIFOpen); !ok {
				return nil, 0, true
			}
			err = rif.Place(r.Stones)
			if r.Swap {
				err = &rules.ProcedureError{Reason: rules.SwapNotAllowed, Detail: "moves 1-3 wanted"}
			}
			if err == nil {
				o.note("rif: %s opens with %v", o.name(s), rif.Opening())
			}
		case rules.RIFSwap:
			what = "RIFSWAP"
			if r, ok = o.ask(s, what, func(d time.Time) engine.OpeningReply { return e.RIFSwap(before, d) }); !ok {
				return nil, 0, true
			}
			switch {
			case r.Swap:
				rif.Swap(true)
				o.settle(rif.Black())
				o.note("rif: %s swaps and takes Black", o.name(s))
			case len(r.Stones) != 1:
				err = &rules.ProcedureError{Reason: rules.WrongStoneCount, Detail: fmt.Sprintf("%d, want SWAP or move 4", len(r.Stones))}
			default:
				rif.Swap(false)
				err = rif.Fourth(r.Stones[0])
			}
		case rules.RIFFourth:
			// After a swap, move 4 is an ordinary move by the new White.
			what = "move 4"
			sd := o.seats[s]
			if r, ok = o.ask(s, what, func(d time.Time) engine.OpeningReply {
				return asOpening(sd.Engine.Board(Stones(rif.Position(), rules.White), d))
			}); !ok {
				return nil, 0, true
			}
			err = rif.Fourth(r.Stones[0])
		case rules.RIFOffer:
			what = "RIFOFFER"
			if r, ok = o.ask(s, what, func(d time.Time) engine.OpeningReply { return e.RIFOffer(before, d) }); !ok {
				return nil, 0, true
			}
			if len(r.Stones) != 2 || r.Swap {
				err = &rules.ProcedureError{Reason: rules.WrongStoneCount, Detail: fmt.Sprintf("%d, want two 5th moves", len(r.Stones))}
			} else {
				err = rif.Offer(r.Stones[0], r.Stones[1])
			}
			if err == nil {
				o.note("rif: %s offers 5th moves %v and %v", o.name(s), r.Stones[0], r.Stones[1])
				continue // the chosen offer is recorded as move 5
			}
		case rules.RIFChoose:
			what = "RIFCHOOSE"
			offers := [2]rules.Point(rif.Offers())
			if r, ok = o.ask(s, what, func(d time.Time) engine.OpeningReply { return e.RIFChoose(before, offers, d) }); !ok {
				return nil, 0, true
			}
			if len(r.Stones) != 1 || r.Swap {
				err = &rules.ProcedureError{Reason: rules.WrongStoneCount, Detail: fmt.Sprintf("%d, want one of the offers", len(r.Stones))}
			} else if err = rif.Choose(r.Stones[0]); err == nil {
				o.note("rif: %s chooses %v", o.name(s), r.Stones[0])
			}
		}
		if err != nil {
			o.reject(s, what, r, err)
			return nil, 0, true
		}
		if !r.Swap {
			o.placed(s, r.Stones, r.Elapsed)
		}
	}
	return rif.Position(), rif.Black(), false
}

// asOpening turns an ordinary move reply into an opening reply of one stone.
func asOpening(r engine.Reply) engine.OpeningReply {
	o := engine.OpeningReply{Line: r.Line, Elapsed: r.Elapsed, Fault: r.Fault, Detail: r.Detail, Notes: r.Notes}
	if r.Fault == "" {
		o.Stones = []rules.Point{r.Move}
	}
	return o
}
