// Package check is the arena's compliance check of engines, the pbrain
// counterpart of fastchess's --compliance and of the Gomocup judge's rule
// tests: before an event, it drives each engine through real games against
// a bundled engine and through positions and protocol exchanges chosen to
// show the habits that cost real engines their games (a hash sized to
// exactly max_memory, a move budget read from timeout_turn alone, BOARD
// answered only when the opponent's stone is last, a RESTART not answered
// OK, silence to SWAP2BOARD, floods of DEBUG lines), under the settings the
// event will use. Each engine gets a list of findings, each a named check
// with a verdict (pass, warn, fail), what was seen and what to change. A
// fail means the engine would forfeit games under these settings.
//
// It drives engines only through package engine and games only through
// package arbiter, so what it sees is what an event would see.
package check

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"sync"
	"time"

	"gomoku-arena/arbiter"
	"gomoku-arena/engine"
	"gomoku-arena/internal/bounds"
	"gomoku-arena/rules"
)

// Verdict is a finding's judgement.
type Verdict string

const (
	Pass Verdict = "pass"
	Warn Verdict = "warn" // works, at a cost, or would fail under other settings
	Fail Verdict = "fail" // would forfeit games under these settings
)

// The checks, in the order they are reported.
var Names = []string{"start", "about", "info", "turn", "board", "restart", "end", "swap2", "rule", "time", "memory", "output", "files"}

// Finding is one check's result for one engine.
type Finding struct {
	Check   string  `json:"check"`
	Verdict Verdict `json:"verdict"`
	Seen    string  `json:"seen"`             // what the engine did
	Remedy  string  `json:"remedy,omitempty"` // what the organizer or the author can change
}

// Report is one engine's findings, one per check in Names order.
type Report struct {
	Engine   string    `json:"engine"`
	Findings []Finding `json:"findings"`
	// Remembered, when set, is when the check this report is from was
	// made: the engine was not checked again (Memory).
	Remembered *time.Time `json:"remembered,omitempty"`
}

// Failed reports whether any finding is a fail.
func (r Report) Failed() bool {
	for _, f := range r.Findings {
		if f.Verdict == Fail {
			return true
		}
	}
	return false
}

// Settings are the event's: what the engines will be asked to play.
type Settings struct {
	Rule rules.Rule
	Size int // 0: the rule's default
	// ArbiterOpens: under outer-open, the arbiter places Black's first
	// stone (no engine is asked to open on the empty board).
	ArbiterOpens bool
	Procedure    rules.Procedure
	// StartTimeout bounds START for an entrant whose spec gives none (0:
	// the engine's default, engine.Spec.StartWithin).
	StartTimeout time.Duration
	// Opponent is the engine the check games are played against (zero:
	// builtin:greedy, fast and sound).
	Opponent engine.Spec
	// Games is how many check games each engine plays, colours
	// alternating (0: 2, one with each colour).
	Games int
	// MoveCap ends a check game as a draw after this many stones (0: 40):
	// the opening, middle-game moves and the clock's first half are what
	// show an engine's habits.
	MoveCap int
	// ProbeSlack is how long a probe waits for a move beyond its own
	// per-move limit (2 s) and the tolerance, for an engine that thinks
	// past it (0: 5 s). Tests shorten it.
	ProbeSlack time.Duration
	// GameTime bounds the check games of one engine, all together (0: 90
	// s): under a long clock they are cut there, and what their moves
	// showed is judged.
	GameTime time.Duration
	// Concurrency is how many engines are checked at once (0: half the
	// processors, at least one); one engine's checks run one after the
	// other, so that its timings are its own.
	Concurrency int
	// Remember recalls the report of an engine checked under the same
	// settings before, and keeps the new ones (Memory); its zero value
	// checks every engine afresh.
	Remember Memory
}

// DefaultGames are the check games of one engine when Settings.Games is
// 0; MaxGames bounds them.
const (
	DefaultGames = 2
	MaxGames     = 100
)

// Validate refuses settings a front end read that no check takes: a
// negative number of games or of engines checked at once (0 is the
// default, never a negative), or one past its bound. The error is a
// *bounds.SettingError naming the setting (games, concurrency), for the
// front end to name its flag.
func (s Settings) Validate() error {
	if s.Games < 0 || s.Games > MaxGames {
		return &bounds.SettingError{Setting: "games", Problem: fmt.Sprintf("%d is not 0 (the default, %d) to %d", s.Games, DefaultGames, MaxGames)}
	}
	if s.Concurrency < 0 || s.Concurrency > bounds.MaxConcurrency {
		return &bounds.SettingError{Setting: "concurrency", Problem: fmt.Sprintf("%d is not 0 (the default, half the processors) to %d", s.Concurrency, bounds.MaxConcurrency)}
	}
	return nil
}

func (s *Settings) defaults() {
	if s.Size == 0 {
		s.Size = s.Rule.DefaultSize()
	}
	if s.Opponent.Command == "" {
		s.Opponent = engine.Spec{Name: "check-opponent", Command: "builtin:greedy"}
	}
	if s.Games <= 0 {
		s.Games = DefaultGames
	}
	if s.MoveCap <= 0 {
		s.MoveCap = 40
	}
	if s.ProbeSlack <= 0 {
		s.ProbeSlack = 5 * time.Second
	}
	if s.GameTime <= 0 {
		s.GameTime = 90 * time.Second
	}
	if s.Concurrency <= 0 {
		s.Concurrency = max(1, runtime.NumCPU()/2)
	}
}

// Entrants checks every entrant under s and returns their reports in the
// entrants' order. done, if set, hears of each report as it is made (from
// several goroutines, one at a time). Cancelling ctx stops the checks: the
// reports then say so.
func Entrants(ctx context.Context, ents []arbiter.Entrant, s Settings, done func(Report)) []Report {
	s.defaults()
	reps := make([]Report, len(ents))
	var mu sync.Mutex
	sem := make(chan struct{}, s.Concurrency)
	var wg sync.WaitGroup
	for i := range ents {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			k := ""
			if s.Remember.Dir != "" {
				k, _ = key(ents[i], s) // "" when the program cannot be read: the check says why
			}
			if r, ok := s.Remember.recall(k); ok {
				reps[i] = r.Report
				reps[i].Engine, reps[i].Remembered = ents[i].Spec.Name, &r.Checked
			} else {
				reps[i] = Engine(ctx, ents[i], s)
				if ctx.Err() == nil {
					s.Remember.keep(k, reps[i]) // one not kept is only checked again
				}
			}
			if done != nil {
				mu.Lock()
				done(reps[i])
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return reps
}

// Engine checks one entrant under s.
func Engine(ctx context.Context, ent arbiter.Entrant, s Settings) Report {
	s.defaults()
	c := newChecker(ctx, ent, s)
	c.filesFinding() // whether or not it starts: what it would be shown
	c.startTurnRestart()
	if c.verdict("start") == Fail {
		// Nothing else can be seen of an engine that does not start a game.
		return c.report()
	}
	c.games()
	for _, probe := range []func(){c.info, c.board, c.rule, c.swap2, c.end} {
		if ctx.Err() != nil {
			break
		}
		probe()
	}
	c.timeFinding()
	c.memoryFinding()
	c.outputFinding()
	return c.report()
}

// checker is one engine's check in progress.
type checker struct {
	ctx  context.Context
	ent  arbiter.Entrant
	s    Settings
	tape *tape
	// limit is the memory limit the engine is held to: the entrant's, or
	// the max_memory it is told, or Gomocup's 350 MiB.
	limit    int64
	findings map[string][]Finding
	// from the games
	records []gameRecord
	peak    int64        // the largest memory measured after one of its moves
	cut     bool         // the games were cut at Settings.GameTime
	warm    map[int]bool // processes (by pid) that were asked for a move
}

// startTimeout is ent's start timeout: its spec's, or the settings', or
// the engine's default (engine.Spec.StartWithin).
func startTimeout(ent arbiter.Entrant, s Settings) time.Duration {
	spec := ent.Spec
	if spec.StartTimeout <= 0 {
		spec.StartTimeout = s.StartTimeout
	}
	return spec.StartWithin()
}

func newChecker(ctx context.Context, ent arbiter.Entrant, s Settings) *checker {
	c := &checker{ctx: ctx, ent: ent, s: s, tape: &tape{}, findings: map[string][]Finding{}, warm: map[int]bool{}}
	c.limit = ent.Spec.Limits.Memory
	if c.limit == 0 {
		c.limit = engine.Limits{}.OrGomocup().Memory
		for _, in := range ent.Infos {
			if n, err := strconv.ParseInt(in.Value, 10, 64); in.Key == engine.KeyMaxMemory && err == nil && n > 0 {
				c.limit = n
			}
		}
	}
	return c
}

// add records a finding; several for one check are merged in report (the
// worst verdict wins, the others' words follow).
func (c *checker) add(check string, v Verdict, seen, remedy string) {
	c.findings[check] = append(c.findings[check], Finding{Check: check, Verdict: v, Seen: seen, Remedy: remedy})
}

// verdict is the worst verdict of a check so far ("" when none).
func (c *checker) verdict(check string) Verdict {
	fs := c.findings[check]
	if len(fs) == 0 {
		return ""
	}
	return merge(fs).Verdict
}

func (c *checker) report() Report {
	r := Report{Engine: c.ent.Spec.Name}
	for _, name := range Names {
		fs := c.findings[name]
		if len(fs) == 0 {
			why := "not checked: it does not start a game (see start)"
			switch {
			case c.ctx.Err() != nil:
				why = "not checked: the check was stopped"
			case c.verdict("start") != Fail:
				why = "not checked: an earlier step failed (see the other checks)"
			}
			r.Findings = append(r.Findings, Finding{Check: name, Verdict: Warn, Seen: why})
			continue
		}
		r.Findings = append(r.Findings, merge(fs))
	}
	return r
}

var rank = map[Verdict]int{Pass: 0, Warn: 1, Fail: 2}

// merge folds one check's findings into one: the worst verdict, its words
// first, then the others' that are not passes.
func merge(fs []Finding) Finding {
	worst := 0
	for i, f := range fs {
		if rank[f.Verdict] > rank[fs[worst].Verdict] {
			worst = i
		}
	}
	out := fs[worst]
	for i, f := range fs {
		if i == worst || (f.Verdict == Pass && out.Verdict != Pass) {
			continue
		}
		out.Seen += "; " + f.Seen
		if f.Remedy != "" && f.Remedy != out.Remedy {
			if out.Remedy != "" {
				out.Remedy += "; "
			}
			out.Remedy += f.Remedy
		}
	}
	return out
}

// tape keeps what the engine's processes wrote, for the output check and
// for answers the engine package consumes itself (RESTART's).
type tape struct {
	mu    sync.Mutex
	lines []tapeLine
	more  int // lines beyond maxTape, counted only
}

type tapeLine struct {
	at   time.Time
	pid  int
	sent bool
	text string
}

const maxTape = 50000

func (t *tape) line(pid int, sent bool, text string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.lines) >= maxTape {
		t.more++
		return
	}
	t.lines = append(t.lines, tapeLine{at: time.Now(), pid: pid, sent: sent, text: text})
}

// mark is a position in the tape, to read what came after it.
func (t *tape) mark() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.lines)
}

func (t *tape) since(m int) []tapeLine {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]tapeLine(nil), t.lines[min(m, len(t.lines)):]...)
}

// answerTo is the first line (MESSAGE and DEBUG aside) the engine wrote after the command cmd was
// sent (after mark), and how long after; ok false when none came.
func (t *tape) answerTo(m int, cmd string) (text string, after time.Duration, ok bool) {
	var sent time.Time
	for _, l := range t.since(m) {
		switch {
		case l.sent && l.text == cmd:
			sent = l.at
		case !l.sent && !sent.IsZero():
			if k := engine.ParseLine(l.text).Kind; k == engine.LineMessage || k == engine.LineDebug {
				continue // chatter, not the answer
			}
			return l.text, l.at.Sub(sent), true
		}
	}
	return "", 0, false
}

// ms is d in milliseconds, for the words of a finding.
func ms(d time.Duration) string { return fmt.Sprintf("%d ms", d.Milliseconds()) }
