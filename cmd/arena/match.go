package main

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"time"

	"gomoku-arena/arbiter"
	"gomoku-arena/clock"
	"gomoku-arena/engine"
	"gomoku-arena/internal/config"
	"gomoku-arena/results"
	"gomoku-arena/rules"
)

func runMatch(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("match", "[flags] ENGINE1 ENGINE2",
		"Plays games between two engines, colours alternating, and prints one line per game and the\n"+
			"final score. Every game is written as SGF and psq in the output folder, and journaled.\n\n"+
			"An ENGINE is a program with its arguments (\"./pbrain-x --flag\"), or builtin:NAME for a\n"+
			"bundled engine (random, greedy, search), optionally named as NAME=COMMAND.", stdout)
	games := fs.Int("games", 2, "number of games")
	ruleName := fs.String("rule", "outer-open", "rule: "+strings.Join(rules.Names(), ", "))
	size := fs.Int("size", 0, "board size (0 = the rule's default)")
	tc := fs.Duration("tc", clock.DefaultMatch, "match time per side per game (0 = none)")
	turn := fs.Duration("turn", 0, "time limit per move (0 = none)")
	inc := fs.Duration("inc", 0, "increment per move")
	tolerance := fs.Duration("tolerance", clock.DefaultTolerance, "lateness accepted before a move loses on time")
	hang := fs.Duration("hang", clock.DefaultHang, "the longest wait for one move, timed or not")
	policy := fs.String("opening-policy", config.PolicyStrict, "outer-open: strict (a first stone outside the zone loses) or arbiter-opens (the arbiter places Black's first stone)")
	openingsFile := fs.String("openings", "", "opening list file (offset or pos lines); each opening is played twice, colours exchanged")
	boardMode := fs.Bool("board-mode", false, "send the whole position (BOARD) before every move instead of TURN")
	moveCap := fs.Int("move-cap", 0, "adjudicate a draw after this many stones (0 = none)")
	startTimeout := fs.Duration("start-timeout", 10*time.Second, "deadline for an engine to start and answer START")
	out := fs.String("out", "", "output folder (default out/match-TIME)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return fmt.Errorf("%w: want two engines, got %d arguments", errUsage, fs.NArg())
	}
	if *games < 1 {
		return fmt.Errorf("%w: -games must be at least 1", errUsage)
	}
	rule, err := rules.ByName(*ruleName)
	if err != nil {
		return fmt.Errorf("%w: -rule: %v", errUsage, err)
	}
	if *size == 0 {
		*size = rule.DefaultSize()
	}
	if *policy != config.PolicyStrict && *policy != config.PolicyArbiterOpens {
		return fmt.Errorf("%w: -opening-policy %q: want strict or arbiter-opens", errUsage, *policy)
	}
	ctl := clock.Control{Match: *tc, Turn: *turn, Increment: *inc, Tolerance: *tolerance, Hang: *hang}
	if err := ctl.Validate(); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if *out == "" {
		*out = filepath.Join("out", "match-"+time.Now().Format("20060102-150405"))
	}
	cfg := &config.Event{Name: "match", Rule: rule.Name(), Size: *size, OpeningPolicy: *policy, Openings: *openingsFile, File: "arena match"}
	d := &arbiter.Director{Event: "match", Rule: rule, Size: *size, MoveCap: *moveCap, StartTimeout: *startTimeout}
	for i, arg := range fs.Args() {
		name, cmd := engineArg(arg, i)
		fields := strings.Fields(cmd)
		if len(fields) == 0 {
			return fmt.Errorf("%w: engine %d: empty command", errUsage, i+1)
		}
		d.Entrants = append(d.Entrants, arbiter.Entrant{
			Spec:      engine.Spec{Name: name, Command: fields[0], Args: fields[1:], Dir: filepath.Join(*out, "engines", name), StartTimeout: *startTimeout},
			BoardMode: *boardMode, Clock: ctl,
		})
	}
	if d.Entrants[0].Spec.Name == d.Entrants[1].Spec.Name {
		d.Entrants[0].Spec.Name += "#1"
		d.Entrants[1].Spec.Name += "#2"
	}
	opens, err := openings(cfg, rule)
	if err != nil {
		return err
	}
	var fixtures []arbiter.Fixture
	for g := 0; g < *games; g++ {
		f := arbiter.Fixture{Number: g + 1, Black: g % 2, White: 1 - g%2}
		if len(opens) > 0 {
			f.Opening = opens[(g/2)%len(opens)]
		}
		fixtures = append(fixtures, f)
	}
	if err := mkdirs(*out); err != nil {
		return err
	}
	journal, _, err := results.OpenJournal(filepath.Join(*out, "journal.jsonl"))
	if err != nil {
		return err
	}
	defer journal.Close()
	drain, abort, stop := interrupts(stderr)
	defer stop()
	defer d.Close()

	var score [2]float64
	var wdl results.WDL
	var hints []string
	d.Finished = func(rec *results.Record) error {
		if err := journal.Append(rec); err != nil {
			return err
		}
		fmt.Fprintln(stdout, gameLine(rec))
		first := rec.Score()
		if rec.Black != d.Entrants[0].Spec.Name {
			first = 1 - first
		}
		score[0] += first
		score[1] += 1 - first
		wdl.Add(first)
		if rec.Detail != "" && strings.Contains(rec.Detail, string(rules.OutsideOuterZone)) && len(hints) == 0 {
			hints = append(hints, fmt.Sprintf("hint: %s does not seem to know outer-open; -opening-policy arbiter-opens lets the arbiter place Black's first stone", rec.Black))
		}
		return writeGame(*out, rec)
	}
	err = d.Play(drain, abort, fixtures)
	n := wdl.Games()
	st := wdl.Stats()
	fmt.Fprintf(stdout, "\n%s %g - %g %s  (%d games: +%d =%d -%d)  %s  LOS %.1f%%\n",
		d.Entrants[0].Spec.Name, score[0], score[1], d.Entrants[1].Spec.Name, n, wdl.W, wdl.D, wdl.L,
		eloText(st), 100*st.LOS)
	for _, h := range hints {
		fmt.Fprintln(stdout, h)
	}
	fmt.Fprintf(stdout, "games written to %s\n", *out)
	if err == nil && (drain.Err() != nil || abort.Err() != nil) {
		err = fmt.Errorf("stopped after %d of %d games", n, *games)
	}
	return err
}

// engineArg splits NAME=COMMAND; without a name, the program's base name is
// used (builtin:greedy is "greedy").
func engineArg(arg string, i int) (name, cmd string) {
	if eq := strings.Index(arg, "="); eq > 0 && !strings.ContainsAny(arg[:eq], " /:") {
		return arg[:eq], arg[eq+1:]
	}
	prog := strings.Fields(arg)
	if len(prog) == 0 {
		return fmt.Sprintf("engine%d", i+1), arg
	}
	name = strings.TrimPrefix(filepath.Base(prog[0]), "builtin:")
	return name, arg
}

// eloText is the Elo difference with its 95% interval, or what a sweep or
// an empty match means instead.
func eloText(st results.MatchStats) string {
	switch {
	case st.Games == 0:
		return "Elo n/a"
	case math.IsInf(st.Elo, 0):
		return fmt.Sprintf("Elo %+v (a sweep: no finite estimate)", st.Elo)
	case math.IsInf(st.EloHi, 0) || math.IsInf(st.EloLo, 0):
		return fmt.Sprintf("Elo %+.1f [%+.1f, %+.1f]", st.Elo, st.EloLo, st.EloHi)
	}
	return fmt.Sprintf("Elo %+.1f ± %.1f", st.Elo, st.EloError())
}
