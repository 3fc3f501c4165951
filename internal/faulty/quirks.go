package faulty

import (
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Quirks of real engines, each staged on its own so that a test can show the
// arbiter takes it without blaming the engine for what is the arbiter's:
//
//	restart=REPLY      answer RESTART with REPLY instead of OK: "unknown" (a
//	                   bare UNKNOWN, as blupig does), "error" (a bare ERROR),
//	                   "silent" (no answer at all), "exit" (exit at once)
//	linger=DURATION    after every move, go on running for DURATION of CPU
//	                   time before taking a command; a line read meanwhile
//	                   loses its first word and the rest is read as the next
//	                   command, as Rapfi drops a command while its "thinking"
//	                   flag is still set ("INFO time_left 1234" becomes the
//	                   command TIME_LEFT: "ERROR Unknown command: TIME_LEFT")
//	search-on=DURATION after every move, keep searching for DURATION of CPU
//	                   time; a command read meanwhile (END aside) is refused
//	                   with "BAD COMMAND <line> IN SEARCH MODE" and dropped
//	silent-about       never answer ABOUT (an old engine)
//	swap2-colors       want SWAP2BOARD stone lines as x,y,c, as Rapfi does: a
//	                   line without the colour is refused ("ERROR Color is not
//	                   a valid value") and the stone ignored, so that the
//	                   answer is to a board with fewer stones
//
// CPU time, not wall time: an engine frozen right after its move (SIGSTOP)
// is still busy when it is thawed, as a real one would be.
type quirks struct {
	restart     string
	silentAbout bool
	swap2Colors bool
	linger      time.Duration
	searchOn    time.Duration
	busy        *atomic.Int64 // ns of CPU time still to run since the last move (linger, search-on)
}

// set takes one argument if it is a quirk; handled reports whether it was.
func (q *quirks) set(key, val string) (handled bool, err error) {
	switch key {
	case "restart":
		switch val {
		case "unknown", "error", "silent", "exit":
			q.restart = val
			return true, nil
		}
		return true, fmt.Errorf("restart: want unknown, error, silent or exit, got %q", val)
	case "silent-about":
		q.silentAbout = true
		return true, nil
	case "swap2-colors":
		q.swap2Colors = true
		if val != "" {
			b, err := strconv.ParseBool(val)
			q.swap2Colors = b
			if err != nil {
				return true, fmt.Errorf("swap2-colors: want true or false, got %q", val)
			}
		}
		return true, nil
	case "linger", "search-on":
		d, err := time.ParseDuration(val)
		if err != nil || d < 0 {
			return true, fmt.Errorf("%s: want a duration like 50ms, got %q", key, val)
		}
		if key == "linger" {
			q.linger = d
		} else {
			q.searchOn = d
		}
		q.busy = new(atomic.Int64)
		return true, nil
	}
	return false, nil
}

// restartReply answers RESTART the quirky way; false: answer it normally.
// exit reports that the engine is to exit now.
func (b *brain) restartReply() (quirky, exit bool) {
	switch b.o.q.restart {
	case "unknown":
		b.say("UNKNOWN")
	case "error":
		b.say("ERROR")
	case "silent":
	case "exit":
		b.out.Flush()
		return true, true
	default:
		return false, false
	}
	return true, false
}

// swap2Stone takes one stone line of SWAP2BOARD (its comma-separated
// fields); false: the stone is ignored.
func (b *brain) swap2Stone(f []string) bool {
	if b.o.q.swap2Colors && len(f) != 3 {
		b.say("ERROR Color is not a valid value, must be one of [1, 2, 3].")
		return false
	}
	return true
}

// afterMove starts the work an engine goes on with after its move line.
func (b *brain) afterMove() {
	d := max(b.o.q.linger, b.o.q.searchOn)
	if d <= 0 {
		return
	}
	b.o.q.busy.Store(int64(d))
	running := make(chan struct{})
	go func() {
		close(running)
		for b.o.q.busy.Load() > 0 {
			t0 := time.Now()
			for time.Since(t0) < 100*time.Microsecond {
			}
			// A slice that took far longer was stopped midway: count
			// only what it would have run.
			b.o.q.busy.Add(-int64(min(time.Since(t0), time.Millisecond)))
		}
	}()
	<-running // on a thread of its own before the move goes out, as a search thread is
}

// quirkLine is what the engine makes of a line it read: the line to serve,
// or ok false to drop it.
func (b *brain) quirkLine(line string) (string, bool) {
	if b.o.q.busy == nil || b.o.q.busy.Load() <= 0 {
		return line, true
	}
	word, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
	if strings.EqualFold(word, "END") {
		return line, true
	}
	if b.o.q.searchOn > 0 {
		b.say("BAD COMMAND " + strings.TrimSpace(line) + " IN SEARCH MODE")
		return "", false
	}
	// linger: the first word is taken and dropped while busy; the rest,
	// read once the flag is clear, is a command of its own.
	for b.o.q.busy.Load() > 0 {
		time.Sleep(100 * time.Microsecond)
	}
	if rest == "" {
		return "", false
	}
	return rest, true
}
