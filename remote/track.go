package remote

import (
	"strconv"
	"strings"
	"time"

	"gomoku-arena/engine"
)

// tracker follows the protocol lines relayed between the arbiter and one
// engine, so that a fresh engine process (after a disconnection) can be
// brought to the same point: START with the board size, the INFO lines,
// the position as this engine sees it, and the request it owes an answer
// to.
type tracker struct {
	size  int
	infos []string       // INFO lines in order, the latest per key
	keys  map[string]int // INFO key -> index in infos
	// leftAt is when the latest INFO time_left was relayed: a resync
	// tells the new engine what is left now.
	leftAt time.Time
	stones []string // "x,y,field" in the order the engine learnt them
	block  []string // the block being read (BOARD, SWAP2BOARD, RIF...) until DONE
	want   pending  // the answer the arbiter waits for
	req    []string // the pending request's lines, for a verbatim resend
	// swallow counts START answers the arbiter never asked for (a resync's
	// START, or one answered for an absent engine) still to come.
	swallow int
	// stale: the engine has been restarted since the arbiter last sent a
	// whole position, so the next TURN or BEGIN is sent as BOARD.
	stale bool
}

type pending int

const (
	noAnswer    pending = iota
	startAnswer         // START or RESTART: OK
	moveAnswer          // BEGIN, TURN, BOARD: a move
	otherAnswer         // ABOUT, SWAP2BOARD, RIF...: one line
)

// blockCommands are the commands followed by lines up to DONE.
var blockCommands = map[string]bool{"BOARD": true, "SWAP2BOARD": true, "RIFOPEN": true, "RIFSWAP": true, "RIFOFFER": true, "RIFCHOOSE": true}

// fromArbiter notes a line the arbiter sent and returns what the engine is
// to be sent instead (nil: nothing yet, inside a block), usually the line
// itself. newGame reports a START or RESTART.
func (t *tracker) fromArbiter(line string) (out []string, newGame bool) {
	if t.keys == nil {
		t.keys = map[string]int{}
	}
	if t.block != nil {
		t.block = append(t.block, line)
		if strings.TrimSpace(line) != "DONE" {
			return nil, false
		}
		block := t.block
		t.block = nil
		t.req = block
		if strings.EqualFold(strings.Fields(block[0])[0], "BOARD") {
			t.stones = append([]string(nil), block[1:len(block)-1]...)
			t.want, t.stale = moveAnswer, false
		} else {
			t.want = otherAnswer
		}
		return block, false
	}
	f := strings.Fields(line)
	if len(f) == 0 {
		return []string{line}, false
	}
	cmd := strings.ToUpper(f[0])
	switch {
	case cmd == "START" && len(f) > 1:
		t.size, _ = strconv.Atoi(f[1])
		t.stones, t.want, t.req, t.stale = nil, startAnswer, []string{line}, false
		return []string{line}, true
	case cmd == "RESTART":
		t.stones, t.want, t.req, t.stale = nil, startAnswer, []string{line}, false
		return []string{line}, true
	case cmd == "INFO" && len(f) > 1:
		if f[1] == "time_left" {
			t.leftAt = time.Now()
		}
		if i, ok := t.keys[f[1]]; ok {
			t.infos[i] = line
		} else {
			t.keys[f[1]] = len(t.infos)
			t.infos = append(t.infos, line)
		}
	case cmd == "BEGIN":
		t.stones, t.want, t.req = nil, moveAnswer, []string{line}
		if t.stale {
			return t.board(), false
		}
	case cmd == "TURN" && len(f) > 1:
		t.stones = append(t.stones, f[1]+",2")
		t.want, t.req = moveAnswer, []string{line}
		if t.stale {
			return t.board(), false
		}
	case blockCommands[cmd]:
		t.block = []string{line}
		return nil, false
	case cmd == "ABOUT" || strings.HasPrefix(cmd, "RIF"):
		t.want, t.req = otherAnswer, []string{line}
	}
	return []string{line}, false
}

// board is the tracked position as a BOARD block, which also ends the
// staleness.
func (t *tracker) board() []string {
	out := append([]string{"BOARD"}, t.stones...)
	t.stale = false
	return append(out, "DONE")
}

// fromEngine notes a line the engine wrote and reports whether the arbiter
// is to see it.
func (t *tracker) fromEngine(line string) bool {
	f := strings.Fields(line)
	if len(f) == 0 {
		return true
	}
	switch strings.ToUpper(f[0]) {
	case "MESSAGE", "DEBUG", "SUGGEST":
		return true
	}
	if t.swallow > 0 {
		// The answer to a START the arbiter did not ask for (answers
		// come in the order of the commands).
		t.swallow--
		return false
	}
	switch t.want {
	case startAnswer:
		t.want = noAnswer
	case moveAnswer:
		if x, y, ok := strings.Cut(strings.TrimSpace(line), ","); ok && isNumber(x) && isNumber(y) {
			t.stones = append(t.stones, x+","+y+",1")
		}
		t.want = noAnswer
	case otherAnswer:
		t.want = noAnswer
	}
	return true
}

// answeredForAbsent notes that the arbiter's pending START was answered
// OK for an engine that is away: the resync's START, when it is back, is
// then one the arbiter did not ask for.
func (t *tracker) answeredForAbsent() {
	t.want = noAnswer
}

// resync is what a freshly started engine is sent to stand where the
// previous one stood: START, the INFO lines, and the request it owes an
// answer to, a move request as the whole position.
func (t *tracker) resync() []string {
	if t.size == 0 {
		return nil
	}
	out := []string{"START " + strconv.Itoa(t.size)}
	if t.want != startAnswer {
		t.swallow++
	}
	for _, in := range t.infos {
		out = append(out, t.timeLeftNow(in))
	}
	switch t.want {
	case moveAnswer:
		out = append(out, t.board()...)
	case otherAnswer:
		out = append(out, t.req...)
	default:
		t.stale = len(t.stones) > 0
	}
	return out
}

// timeLeftNow is INFO line in, with time_left reduced by the time since
// it was relayed (the clock ran meanwhile); other lines as they are.
func (t *tracker) timeLeftNow(line string) string {
	in, ok := engine.ParseInfo(line)
	if !ok || in.Key != engine.KeyTimeLeft {
		return line
	}
	return strings.TrimSuffix(engine.TimeLeftLess(in, time.Since(t.leftAt)).Line(), "\n")
}

func isNumber(s string) bool {
	_, err := strconv.Atoi(strings.TrimSpace(s))
	return err == nil
}
