package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"gomoku-arena/arbiter"
	"gomoku-arena/results/record"
)

// progress reports an event as it runs: one plain line per finished game
// (for people and scripts alike), and on a terminal a status line below them
// with the count, an estimate of the time left, and each running game with
// its stone count and both clocks.
type progress struct {
	mu      sync.Mutex
	w       io.Writer
	quiet   bool
	tty     bool
	total   int
	done    int
	start   time.Time
	drawn   time.Time // last status line, to redraw at most a few times a second
	running map[arbiter.Key]*live
	names   func(arbiter.Fixture) string
}

// live is what the status line shows of a running game.
type live struct {
	names        string
	stones       int
	black, white time.Duration
}

func newProgress(w io.Writer, quiet bool, total int) *progress {
	return &progress{w: w, quiet: quiet, tty: isTerminal(w), total: total, start: time.Now(), running: map[arbiter.Key]*live{}}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func (p *progress) started(f arbiter.Fixture) {
	p.mu.Lock()
	defer p.mu.Unlock()
	desc := fmt.Sprintf("#%d", f.Number)
	if p.names != nil {
		desc = p.names(f)
	}
	p.running[arbiter.Key{Round: f.Round, Number: f.Number}] = &live{names: desc}
	p.status()
}

// moved is called from a game's goroutine after each stone.
func (p *progress) moved(f arbiter.Fixture, stones int, black, white time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	g := p.running[arbiter.Key{Round: f.Round, Number: f.Number}]
	if g == nil {
		return
	}
	g.stones, g.black, g.white = stones, black, white
	if time.Since(p.drawn) > 200*time.Millisecond {
		p.status()
	}
}

func (p *progress) finished(rec *record.Record) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.running, arbiter.KeyOf(rec))
	p.done++
	if p.quiet {
		return
	}
	p.clearStatus()
	fmt.Fprintln(p.w, gameLine(rec))
	p.status()
}

// gameLine is the one line printed for a finished game. Its fields are
// separated by two spaces and never contain two spaces themselves.
func gameLine(rec *record.Record) string {
	detail := string(rec.End)
	if rec.Detail != "" {
		detail += ": " + strings.Join(strings.Fields(rec.Detail), " ")
	}
	round := ""
	if rec.Round > 0 {
		round = fmt.Sprintf("round %d  ", rec.Round)
	}
	return fmt.Sprintf("game %d  %s%s vs %s  %s  %s  %d moves  %.1fs", rec.Game, round, rec.Black, rec.White,
		scoreText(rec), detail, len(rec.Moves), rec.Finish.Sub(rec.Start).Seconds())
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

func (p *progress) status() {
	if !p.tty || p.quiet {
		return
	}
	p.drawn = time.Now()
	var run []string
	for _, g := range p.running {
		s := g.names
		if g.stones > 0 {
			s += fmt.Sprintf(" (%d stones, %s/%s)", g.stones, clockText(g.black), clockText(g.white))
		}
		run = append(run, s)
	}
	sort.Strings(run)
	eta := ""
	if p.done > 0 && p.total > p.done {
		left := time.Since(p.start) / time.Duration(p.done) * time.Duration(p.total-p.done)
		eta = "  ETA " + left.Round(time.Second).String()
	}
	line := fmt.Sprintf("%d/%d finished%s  running: %s", p.done, p.total, eta, strings.Join(run, ", "))
	if len(line) > 200 {
		line = line[:197] + "..."
	}
	fmt.Fprint(p.w, "\r\x1b[K"+line)
}

func (p *progress) clearStatus() {
	if p.tty && !p.quiet {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

func (p *progress) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearStatus()
}

// clockText is a clock reading as m:ss.
func clockText(d time.Duration) string {
	d = d.Round(time.Second)
	return fmt.Sprintf("%d:%02d", int(d.Minutes()), int(d.Seconds())%60)
}
