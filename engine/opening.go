package engine

import (
	"strconv"
	"strings"
	"time"

	"gomoku-arena/rules"
)

// FaultUnsupported is an opening request's fault when the engine does not
// know the command: it answered UNKNOWN, or ERROR naming an unknown command.
const FaultUnsupported Fault = "unsupported"

// OpeningReply is the outcome of an opening request (SWAP2BOARD and the RIF
// extension): "SWAP", or stones on one line.
type OpeningReply struct {
	Swap    bool
	Stones  []rules.Point // not range-checked: the rules judge them
	Line    string        // the answer line, bounded
	Elapsed time.Duration // from the request fully written to the answer read
	Fault   Fault         // "" when an answer was read
	Detail  string
	Notes   []string // as Reply.Notes
}

// Swap2Board sends SWAP2BOARD with the stones so far (0, 3 or 5, in move
// order, alternating from Black) and waits for the answer: three stones to
// an empty board; "SWAP" or one or two stones to three; "SWAP" or one stone
// to five. With colors set, each stone line carries a third field, 1 for a
// Black stone and 2 for a White one (some engines want it, some do not).
func (e *Engine) Swap2Board(stones []rules.Point, colors bool, deadline time.Time) OpeningReply {
	return e.openingRequest("SWAP2BOARD", stones, colors, deadline)
}

// RIFProbe asks whether the engine takes part in the RIF opening procedure
// (README, "Protocol extensions"): RIFPROBE, answered OK. UNKNOWN or ERROR
// (when it can be the answer: see exchange.refuses), silence until the
// deadline or an exit mean it does not; other lines are noted and the wait
// goes on. The wait is not a move and is charged to no clock.
func (e *Engine) RIFProbe(deadline time.Time) (bool, []string) {
	p := e.current()
	if p == nil {
		return false, nil
	}
	nt := &e.pending
	x := e.exchange(p, e.orDefault(deadline), nt)
	defer x.done()
	if f, _ := x.send([]byte("RIFPROBE\n")); f != "" {
		return false, nil
	}
	for {
		l, f, _ := x.next()
		if f != "" {
			return false, nil
		}
		ln := ParseLine(l.text)
		switch {
		case ln.Kind == LineOK:
			x.answered = true
			return true, nil
		case (ln.Kind == LineUnknown || ln.Kind == LineError) && x.refuses(ln):
			x.note(ln, l)
			return false, nil
		default:
			x.note(ln, l)
		}
	}
}

// RIFOpen asks the tentative Black for moves 1-3: three stones.
func (e *Engine) RIFOpen(deadline time.Time) OpeningReply {
	return e.openingRequest("RIFOPEN", nil, true, deadline)
}

// RIFSwap shows the tentative White moves 1-3 and asks: "SWAP" to take
// Black, or one stone, move 4, to stay White.
func (e *Engine) RIFSwap(stones []rules.Point, deadline time.Time) OpeningReply {
	return e.openingRequest("RIFSWAP", stones, true, deadline)
}

// RIFOffer shows Black moves 1-4 and asks for two 5th moves.
func (e *Engine) RIFOffer(stones []rules.Point, deadline time.Time) OpeningReply {
	return e.openingRequest("RIFOFFER", stones, true, deadline)
}

// RIFChoose shows White moves 1-4 and Black's two offers (on the command
// line) and asks for the chosen one: one stone.
func (e *Engine) RIFChoose(stones []rules.Point, offers [2]rules.Point, deadline time.Time) OpeningReply {
	cmd := "RIFCHOOSE " + offers[0].String() + " " + offers[1].String()
	return e.openingRequest(cmd, stones, true, deadline)
}

// openingRequest writes cmd, the stone block and DONE, and waits for the
// answer line. MESSAGE, DEBUG, unsolicited ERROR lines and stray lines are
// noted and the wait goes on; a line that starts like a stone but does not
// parse is FaultMalformed; UNKNOWN, or ERROR about an unknown command, is
// FaultUnsupported when it can be this command's answer (exchange.refuses:
// after INFO lines, only one that names the command).
func (e *Engine) openingRequest(cmd string, stones []rules.Point, colors bool, deadline time.Time) (r OpeningReply) {
	b := append(e.buf[:0], cmd...)
	b = append(b, '\n')
	for i, s := range stones {
		b = appendPoint(b, s)
		if colors {
			b = append(b, ',', byte('1'+i%2))
		}
		b = append(b, '\n')
	}
	b = append(b, "DONE\n"...)
	e.notes, e.pending = e.pending, notes{}
	defer func() { r.Notes = e.notes.list() }()
	x, sent, f, detail := e.ask(b, deadline, &e.notes)
	if x != nil {
		defer x.done()
	}
	if f != "" {
		r.Fault, r.Detail = f, detail
		return r
	}
	for {
		l, f, detail := x.next()
		if f != "" {
			r.Fault, r.Detail, r.Elapsed = f, detail, time.Since(sent)
			return r
		}
		ln := ParseLine(l.text)
		switch {
		case (ln.Kind == LineUnknown || (ln.Kind == LineError && unknownCommand(ln.Text))) && x.refuses(ln):
			x.note(ln, l)
			r.Elapsed, r.Line = time.Since(sent), clip(l.text, maxNoteLen)
			r.Fault, r.Detail = FaultUnsupported, strconv.Quote(r.Line)
			return r
		case ln.Kind == LineMessage || ln.Kind == LineDebug || ln.Kind == LineError:
			x.note(ln, l)
			continue
		}
		swap, pts, answer, ok := ParseOpeningAnswer(l.text)
		if !answer {
			x.note(ln, l)
			continue
		}
		r.Elapsed, r.Line = time.Since(sent), clip(l.text, maxNoteLen)
		x.answered = true
		if !ok || l.truncated {
			r.Fault, r.Detail = FaultMalformed, strconv.Quote(r.Line)
			return r
		}
		r.Swap, r.Stones = swap, pts
		return r
	}
}

// unknownCommand reports whether an ERROR text says the command is not
// known ("ERROR Unknown command", as some engines answer): ERROR lines about
// other things (an INFO value) are not refusals.
func unknownCommand(text string) bool {
	t := strings.ToLower(text)
	return strings.Contains(t, "command") || strings.Contains(t, "swap2board") || strings.Contains(t, "rif")
}

// ParseOpeningAnswer reads an answer to an opening request: "SWAP" (any
// case), or stones "x,y x,y ..." separated by spaces (commas between the
// stones are tolerated: "7,7, 8,7"). answer reports whether the line is meant
// as an answer (SWAP, or it starts like a stone); ok whether it parses.
// Stones are not range-checked.
func ParseOpeningAnswer(s string) (swap bool, stones []rules.Point, answer, ok bool) {
	s = strings.TrimSpace(strings.TrimPrefix(s, "\ufeff"))
	if strings.EqualFold(s, "SWAP") {
		return true, nil, true, true
	}
	if s == "" || !(s[0] == '-' || (s[0] >= '0' && s[0] <= '9')) {
		return false, nil, false, false
	}
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	if len(fields)%2 != 0 || len(fields) > 2*8 {
		return false, nil, true, false
	}
	for i := 0; i < len(fields); i += 2 {
		x, errx := strconv.Atoi(fields[i])
		y, erry := strconv.Atoi(fields[i+1])
		if errx != nil || erry != nil {
			return false, nil, true, false
		}
		stones = append(stones, rules.Point{X: x, Y: y})
	}
	return false, stones, true, true
}
