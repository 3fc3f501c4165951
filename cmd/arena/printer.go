package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"gomoku-arena/clock"
	"gomoku-arena/event"
	"gomoku-arena/internal/term"
	"gomoku-arena/results/record"
)

// A printer shows a running event in one of two styles: plain (one line per
// finished game and the front end's own lines, for people and scripts
// alike) or terminal (the same lines, and below them a status line with the
// count, an estimate of the time left, and each running game with its stone
// count and both clocks). It hears the event as an event.Observer.
type printer interface {
	event.Observer
	println(line string) // a front end's own line, above any status line
	// noticeTo prints a line to w (stderr), above any status line: the
	// status line is cleared first, so the line starts a line of its own.
	noticeTo(w io.Writer, line string)
	close() // the event is over: clear the status line
}

// newPrinter is the terminal style on a terminal, else the plain one;
// quiet leaves out the line per game, and so the status line. describe
// names a running game on the status line.
func newPrinter(w io.Writer, quiet bool, describe func(event.GameStarted) string) printer {
	if !quiet && isTerminal(w) {
		return &terminal{plain: plain{w: w}, describe: describe, now: time.Now, running: map[gameKey]*inPlay{}}
	}
	return &plain{w: w, quiet: quiet}
}

// isTerminal: w is a terminal (a tty answers TCGETS; /dev/null, another
// character device, does not).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}

// plain prints a line per finished game unless quiet.
type plain struct {
	mu    sync.Mutex
	w     io.Writer
	quiet bool
}

func (p *plain) Observe(u event.Update) {
	if g, ok := u.(event.GameFinished); ok && !p.quiet {
		p.println(gameLine(g.Record))
	}
}

// println prints a line; names and engine answers in it are cleaned for
// the terminal.
func (p *plain) println(line string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintln(p.w, term.Clean(line))
}

func (p *plain) noticeTo(w io.Writer, line string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintln(w, term.Clean(line))
}

func (p *plain) close() {}

// gameLine is the one line printed for a finished game. Its fields are
// separated by two spaces and never contain two spaces themselves. A game
// lost by a forfeit ends with the loser's last non-blank stderr line, when
// it wrote one.
func gameLine(rec *record.Record) string {
	detail := string(rec.End)
	if rec.Detail != "" {
		detail += ": " + strings.Join(strings.Fields(rec.Detail), " ")
	}
	round := ""
	if rec.Round > 0 {
		round = fmt.Sprintf("round %d  ", rec.Round)
	}
	line := fmt.Sprintf("game %d  %s%s vs %s  %s  %s  %d moves  %s", rec.Game, round, rec.Black, rec.White,
		scoreText(rec), detail, len(rec.Moves), clock.Human(rec.Finish.Sub(rec.Start)))
	// The forfeiting engine's last stderr line, last: it often says why.
	for i := len(rec.Stderr) - 1; i >= 0; i-- {
		if words := strings.Fields(rec.Stderr[i]); len(words) > 0 {
			return line + "  stderr: " + strings.Join(words, " ")
		}
	}
	return line
}

// scoreText is the result from Black's side: "1-0", "0-1" or "1/2-1/2";
// "0-0" for a double forfeit.
func scoreText(rec *record.Record) string {
	if rec.End == record.DoubleForfeit {
		return "0-0"
	}
	switch rec.Score() {
	case 1:
		return "1-0"
	case 0:
		return "0-1"
	}
	return "1/2-1/2"
}

// terminal prints the plain lines with a live status line below them.
// gameKey is a game in play: its round and its number.
type gameKey struct{ round, number int }

type terminal struct {
	plain
	describe func(event.GameStarted) string
	now      func() time.Time // the wall clock, for the estimate of the time left
	total    int
	// capped: total is only the most games there can be (an SPRT stops the
	// match when it decides), so no time left is estimated from it.
	capped  bool
	before  int // games finished before this run
	done    int
	start   time.Time
	drawn   time.Time // last status line, to redraw at most a few times a second
	running map[gameKey]*inPlay
}

// inPlay is what the status line shows of a running game.
type inPlay struct {
	names        string
	stones       int
	black, white time.Duration
}

func (t *terminal) Observe(u event.Update) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch u := u.(type) {
	case event.Began:
		t.total, t.start, t.capped, t.before = u.Total-u.Finished, t.now(), u.Capped, u.Finished
	case event.Replanned:
		t.total = u.Total - t.before
	case event.GameStarted:
		t.running[gameKey{u.Round, u.Number}] = &inPlay{names: t.describe(u)}
		t.status()
	case event.MovePlayed:
		g := t.running[gameKey{u.Round, u.Number}]
		if g == nil {
			return
		}
		g.stones, g.black, g.white = u.Stones, u.Black, u.White
		if t.now().Sub(t.drawn) > 200*time.Millisecond {
			t.status()
		}
	case event.DecisionJournaled: // an adjudicated game in play is stopped
		if u.Line.Decision != nil && u.Line.Decision.Kind == record.Adjudicate {
			delete(t.running, gameKey{u.Line.Round, u.Line.Game})
			t.status()
		}
	case event.GameFinished:
		delete(t.running, gameKey{u.Record.Round, u.Record.Game})
		t.done++
		t.clearStatus()
		fmt.Fprintln(t.w, term.Clean(gameLine(u.Record)))
		t.status()
	}
}

func (t *terminal) println(line string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.clearStatus()
	fmt.Fprintln(t.w, term.Clean(line))
	t.status()
}

func (t *terminal) noticeTo(w io.Writer, line string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.clearStatus()
	fmt.Fprintln(w, term.Clean(line))
	t.status()
}

func (t *terminal) close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.clearStatus()
}

func (t *terminal) status() {
	t.drawn = t.now()
	var run []string
	for _, g := range t.running {
		s := g.names
		if g.stones > 0 {
			s += fmt.Sprintf(" (%d stones, %s/%s)", g.stones, clockText(g.black), clockText(g.white))
		}
		run = append(run, s)
	}
	sort.Strings(run)
	count := fmt.Sprintf("%d/%d finished", t.done, t.total)
	switch {
	case t.capped:
		count = fmt.Sprintf("%d finished (SPRT, at most %d)", t.done, t.total)
	case t.done > 0 && t.total > t.done:
		left := t.now().Sub(t.start) / time.Duration(t.done) * time.Duration(t.total-t.done)
		count += "  ETA " + clock.Human(left.Round(time.Second))
	}
	line := term.Clean(fmt.Sprintf("%s  running: %s", count, strings.Join(run, ", ")))
	if r := []rune(line); len(r) > 200 {
		line = string(r[:197]) + "..."
	}
	fmt.Fprint(t.w, "\r\x1b[K"+line)
}

func (t *terminal) clearStatus() { fmt.Fprint(t.w, "\r\x1b[K") }

// clockText is a clock reading as m:ss.
func clockText(d time.Duration) string {
	d = d.Round(time.Second)
	return fmt.Sprintf("%d:%02d", int(d.Minutes()), int(d.Seconds())%60)
}
