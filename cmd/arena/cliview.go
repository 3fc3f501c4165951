package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"gomoku-arena/event"
	"gomoku-arena/internal/term"
	"gomoku-arena/results/rating"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// cliView prints a match the way c-gomoku-cli prints one, line for line
// (src/main.cpp, jobs.cpp, sprt.cpp), so that the scripts that read its
// output read ours:
//
//	[1] Started game 3 of 200 (alpha vs beta)
//	[1] Finished game 3 (alpha vs beta): 1-0 {Black win by five connection}
//	Score of alpha vs beta: 2 - 1 - 0  [0.667] 3
//	SPRT: LLR = 0.123 [-2.944,2.944]
//	Tournament update:
//	alpha vs beta: 2 - 1 - 0  [0.667] 3
//	Matches/min: 40.000, Estimated time to complete: 00:04:51
//
// [N] is the table (c-gomoku-cli's worker) that played the game; names are
// Black's then White's; the result is Black's-White's; Score lines count
// the pair's games from its first engine's side. The SPRT line follows every
// game under -sprt, and the tournament update every -games games.
type cliView struct {
	mu     sync.Mutex
	w      io.Writer
	plan   *matchPlan
	now    func() time.Time
	begin  time.Time
	total  int         // games in the schedule (c-gomoku-cli's job count)
	dealt  int         // games started so far (its job index)
	tables map[int]int // game number -> the table playing it
	fatal  error
	// encounters are the match's pairs in c-gomoku-cli's order, for the
	// tournament update (the plan's, once it runs).
	encounters func() []*event.Encounter
	index      map[string]int // entrant by name
}

func newCliView(w io.Writer, p *matchPlan) *cliView {
	v := &cliView{w: w, plan: p, now: time.Now, tables: map[int]int{}, encounters: p.Match.Encounters, index: map[string]int{}}
	for i, n := range p.Match.View().Names {
		v.index[n] = i
	}
	return v
}

// SkipsMoves: c-gomoku-cli prints lines about games, none about moves
// (event.GamesObserver).
func (v *cliView) SkipsMoves() bool { return true }

func (v *cliView) Observe(u event.Update) {
	v.mu.Lock()
	defer v.mu.Unlock()
	p := v.plan
	switch u := u.(type) {
	case event.Began:
		v.total, v.begin = u.Total, v.now()
		fmt.Fprint(v.w, term.CleanLines(cliDump(p)))
		if u.Seed != 0 {
			v.println(fmt.Sprintf("seed %d", u.Seed))
		}
		if p.CLI.openings != "" {
			v.println("Load opening file " + p.CLI.openings)
		}
	case event.GameStarted:
		v.dealt++
		v.tables[u.Number] = u.Table
		v.load(max(u.Table, 1), u.Fresh)
		v.println(fmt.Sprintf("[%d] Started game %d of %d (%s vs %s)", max(u.Table, 1), u.Number, v.total, u.Black, u.White))
	case event.MatchGameCounted:
		g := u.MatchGame
		rec, e := g.Record, g.Encounter
		if p.Debug {
			for _, msg := range rec.Messages {
				v.println("  " + msg)
			}
		}
		result, reason := record.CGomokuCliOutcome(rec, "1-0", "1/2-1/2", "0-1")
		table := v.table(rec.Game)
		if line := cliFaultLine(rec); line != "" {
			v.println(fmt.Sprintf("[%d] %s", table, line))
		}
		v.println(fmt.Sprintf("[%d] Finished game %d (%s vs %s): %s {%s}", table, rec.Game, rec.Black, rec.White, result, reason))
		mv := p.Match.View()
		v.println(fmt.Sprintf("Score of %s vs %s: %s", mv.Names[e.First], mv.Names[e.Second], cliScore(e.WDL)))
		if mv.SPRT != nil {
			v.println(cliSPRTLine(*mv.SPRT, e.WDL))
		}
		if mv.Games > 0 && g.Played%mv.Games == 0 {
			v.tournamentUpdate()
		}
		if g.Fatal {
			v.fatal = fmt.Errorf("-fatalerror: game %d: %s lost by %s (%s); stopping", rec.Game, loserName(rec), rec.End, rec.Detail)
			v.println(v.fatal.Error())
		}
	}
}

// table is the table that played game n, as Started told it.
func (v *cliView) table(n int) int {
	if t, ok := v.tables[n]; ok && t > 0 {
		delete(v.tables, n)
		return t
	}
	return 1
}

// cliFaultLine is the line c-gomoku-cli prints on stdout before the
// Finished line of a game lost by an illegal stone or a move that came too
// late (game.cpp, Game::play): who, and after how many of the engines'
// moves. Other forfeits it reports on stderr, and so does the arena.
func cliFaultLine(rec *record.Record) string {
	if len(rec.Moves) == 0 {
		return ""
	}
	last := rec.Moves[len(rec.Moves)-1]
	if last.Refused == "" || last.Raw != "" {
		return ""
	}
	played := 0
	for _, m := range rec.Moves {
		if !m.Opening && m.Refused == "" {
			played++
		}
	}
	name := rec.Black
	if last.Color == rules.White {
		name = rec.White
	}
	switch {
	case rec.End == record.Time && last.Refused == record.RefusedLate:
		return fmt.Sprintf("engine %s timeout at %d moves after opening", name, played)
	case rec.End == record.Illegal:
		return fmt.Sprintf("engine %s output illegal move at %d moves after opening: %s", name, played, last.Point)
	}
	return ""
}

// load prints c-gomoku-cli's "Load engine" line for each engine whose
// process the table starts for the game (the pair's first engine first),
// as c-gomoku-cli prints one when a worker starts an engine: when the pair
// changes at the table, and none when it does not.
func (v *cliView) load(table int, fresh []string) {
	for _, name := range fresh {
		var a event.About
		if e, ok := v.index[name]; ok && e < len(v.plan.CLI.about) {
			a = v.plan.CLI.about[e]
		}
		v.println(fmt.Sprintf("[%d] Load engine: %s (version %s) by %s, %s", table, orUnknown(a.Name), orUnknown(a.Version), orUnknown(a.Author), orUnknown(a.Country)))
	}
}

// orUnknown is c-gomoku-cli's "?" for an ABOUT field not given.
func orUnknown(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

// println prints a line, cleaned for the terminal (names and engine
// answers are outside input).
func (v *cliView) println(line string) { fmt.Fprintln(v.w, term.Clean(line)) }

// tournamentUpdate is c-gomoku-cli's JobQueue::print_results: every pair
// that has played, and while games are still to start, the pace and an
// estimate of the time left.
func (v *cliView) tournamentUpdate() {
	var b strings.Builder
	b.WriteString("Tournament update:\n")
	names := v.plan.Match.View().Names
	for _, e := range v.encounters() {
		if e.WDL.Games() > 0 {
			fmt.Fprintf(&b, "%s vs %s: %s\n", names[e.First], names[e.Second], cliScore(e.WDL))
		}
	}
	if v.dealt < v.total {
		elapsed := max(float64(v.now().Sub(v.begin).Milliseconds()), 1)
		speed := float64(v.dealt) / elapsed // games per millisecond
		eta := int64(float64(v.total-v.dealt) / speed)
		fmt.Fprintf(&b, "Matches/min: %.3f, Estimated time to complete: %02d:%02d:%02d\n",
			speed*60000, eta/3600000, eta%3600000/60000, eta%60000/1000)
	}
	fmt.Fprint(v.w, term.CleanLines(b.String()))
}

// cliScore is "W - L - D  [score] N", c-gomoku-cli's tally of a pair from
// its first engine's side.
func cliScore(w rating.WDL) string {
	n := w.Games()
	return fmt.Sprintf("%d - %d - %d  [%.3f] %d", w.W, w.L, w.D, (float64(w.W)+0.5*float64(w.D))/float64(max(n, 1)), n)
}

// cliSPRTLine is c-gomoku-cli's SPRTParam::done line: the LLR and Wald's
// bounds, and the hypothesis once accepted.
func cliSPRTLine(s rating.SPRT, w rating.WDL) string {
	llr := s.LLR(w, rating.Pentanomial{})
	lo, hi := s.Bounds()
	line := fmt.Sprintf("SPRT: LLR = %.3f [%.3f,%.3f]", llr, lo, hi)
	switch {
	case llr > hi:
		line += ". H1 accepted."
	case llr < lo:
		line += ". H0 accepted."
	}
	return line
}
