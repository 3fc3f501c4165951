package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"gomoku-arena/event"
	"gomoku-arena/event/outputs"
	"gomoku-arena/internal/config"
	"gomoku-arena/internal/term"
	"gomoku-arena/results/rating"
	"gomoku-arena/results/record"
	"gomoku-arena/results/report"
	"gomoku-arena/rules"
)

func runMatch(args []string, stdout, stderr io.Writer) error {
	p, err := parseMatch(args, stdout)
	if err != nil {
		return err
	}
	return p.play(stdout, stderr)
}

// parseMatch is the match arena match's flags ask for, built by event
// (event.MatchSetup) and not yet played.
func parseMatch(args []string, stdout io.Writer) (*matchPlan, error) {
	setup, p, err := parseMatchSetup(args, stdout)
	if err != nil {
		return nil, err
	}
	if p.Match, err = setup.Match(); err != nil {
		return nil, err
	}
	return p, nil
}

// parseMatchSetup reads arena match's flags into the match's settings
// (event.MatchSetup) and how to show it (the plan, but for its match).
func parseMatchSetup(args []string, stdout io.Writer) (event.MatchSetup, *matchPlan, error) {
	var setup event.MatchSetup
	fs := newFlags("match", "[flags] ENGINE1 ENGINE2 [ENGINE3 ...]",
		"Plays an authors' match: games in pairs from the same opening with the colours exchanged,\n"+
			"statistics as it goes (score, Elo, LOS, pentanomial counts, SPRT), optionally stopping as\n"+
			"soon as an SPRT decides. With more than two engines it plays a round robin (or a gauntlet\n"+
			"of the first against the others) and prints a rating list and a LOS matrix. Every game is\n"+
			"written as SGF and psq in the output folder, and journaled.\n\n"+
			"An ENGINE is a program with its arguments (\"./pbrain-x --flag\"), or builtin:NAME for a\n"+
			"bundled engine (random, greedy, search), optionally named as NAME=COMMAND.\n\n"+
			"Per-engine settings (the clock -tc -turn -inc -tolerance -hang, -depth, -nodes, -threads,\n"+
			"-max-memory, -hard-memory, -max-processes, -info, -board-mode, -swap2-colors, -dir, -env)\n"+
			"apply to every engine, or with a NAME: prefix to one, a later one winning: -depth 8\n"+
			"-depth old:6 -tc 20s -tc old:1m -info hash_size=64 -swap2-colors=rapfi.\n\n"+
			"Lines \"stats  FIRST vs SECOND  games N  +W =D -L  score S%  Elo E ± H  LOS P%  ptnml LL LD DD WD WW\n"+
			"LLR X [LOWER, UPPER]\" (fields separated by two spaces) report every -report games; H and P\n"+
			"read n/a while the games show no spread (one pair, or only draws).", stdout)
	games := fs.Int("games", 2, "games per pair of engines (the maximum under -sprt; default 100000 there)")
	gf := addGameFlags(fs)
	openingsFile := fs.String("openings", "", "opening list file; each opening is played twice, colours exchanged (renju without a file: the 26 canonical openings, as in events)")
	openingsFormat := fs.String("openings-format", "", "opening list format: offset or pos (default: detected per line)")
	order := fs.String("order", "sequential", "opening order: sequential, random, or passes (a new shuffle each pass through the list, as events deal)")
	seed := fs.Uint64("seed", 0, "seed for -order random|passes and -transform random (0 = from the clock, printed)")
	transform := fs.String("transform", "none", "reuse openings under the 8 board symmetries: none, cycle (each pass through the list under the next symmetry) or random (a random symmetry per pair)")
	concurrency := fs.Int("concurrency", config.DefaultConcurrency, "games at once; an engine may play several games at once, each in its own process")
	sprtFlag := fs.String("sprt", "", "stop when an SPRT decides: elo0=0,elo1=5,alpha=0.05,beta=0.05,model=normalized|logistic|trinomial (two engines)")
	report := fs.Int("report", 10, "print a stats line every N games (0 = only at the end)")
	gauntlet := fs.Bool("gauntlet", false, "more than two engines: the first plays each other (default: round robin)")
	pgn := fs.String("pgn", "", "append every game's result to this file in the PGN form Ordo and BayesElo read")
	quiet := fs.Bool("quiet", false, "no line per game")
	serve := fs.String("serve", "", "serve the match's live page on ADDR while it runs (host:port; a port alone is 127.0.0.1's)")
	moveCap := fs.Int("move-cap", 0, "adjudicate a draw after this many stones (0 = none)")
	out := fs.String("out", "", "output folder (default out/match-TIME); with -shard, the batch's folder, shared by its shards")
	shard := fs.String("shard", "", "play one shard of a batch: K/N (shard K of N, from 0), auto (a Slurm array task) or auto/N (a Kubernetes Indexed Job of N completions); each shard writes OUT/shard-K-of-N, arena merge OUT joins them")
	syncEvery := fs.Duration("sync", event.DefaultSyncEvery, "with -shard and -sprt: how often a shard reads the batch folder to learn whether the merged SPRT has decided")
	recordsFlag := fs.String("records", "files", "game records in the folder beyond the journal: files (SGF and psq per game), collection (one games.sgf) or none")
	var conf event.Confinement
	fs.TextVar(&conf.Sandbox, "sandbox", config.SandboxNone, "run every engine in a sandbox, as an event's sandbox key: none, bwrap (an error where bubblewrap does not work) or auto (bwrap where it works)")
	fs.BoolVar(&conf.FreezeIdle, "freeze-idle", false, "freeze each engine while it waits for its opponent, as an event's freeze_idle key (no pondering on the opponent's time)")
	sampleFlag := fs.String("sample", "", "write training positions as c-gomoku-cli does: freq=F,format=csv|bin|bin_lz4|binpack|binpack_lz4,file=F (spaces or commas between; defaults freq=1, csv, sample.csv)")
	var lifetime config.Lifetime
	fs.TextVar(&lifetime, "process-lifetime", config.LifetimeReuse, "how long an engine process lives, as an event's process_lifetime key: reuse (one per engine, RESTART between games), pair (c-gomoku-cli's: a new process when a table's pair changes, START every game) or game (a new process every game)")
	if err := parse(fs, args); err != nil {
		return setup, nil, err
	}
	if fs.NArg() < 2 {
		return setup, nil, fmt.Errorf("%w: want at least two engines, got %d arguments", errUsage, fs.NArg())
	}
	rule, size, err := gf.game()
	if err != nil {
		return setup, nil, err
	}
	sh, err := event.TaskShard(*shard, os.Getenv)
	if err != nil {
		return setup, nil, fmt.Errorf("%w: -shard: %v", errUsage, err)
	}
	if !sh.Whole() && *out == "" {
		return setup, nil, fmt.Errorf("%w: -shard: the shards of a batch share one -out folder; name it", errUsage)
	}
	if err := rules.CheckOpeningFormat(*openingsFormat); err != nil {
		return setup, nil, fmt.Errorf("%w: -openings-format: %v", errUsage, err)
	}
	if *syncEvery < 0 {
		return setup, nil, fmt.Errorf("%w: -sync: %v: must not be negative (0: the default, %v)", errUsage, *syncEvery, event.DefaultSyncEvery)
	}
	records, err := outputs.ParseRecords(*recordsFlag)
	if err != nil {
		return setup, nil, fmt.Errorf("%w: -records: %v", errUsage, err)
	}
	var sampling *outputs.Sampling
	if *sampleFlag != "" {
		if sampling, err = parseSample(strings.FieldsFunc(*sampleFlag, func(r rune) bool { return r == ',' || r == ' ' })); err != nil {
			return setup, nil, fmt.Errorf("%w: -sample: %v", errUsage, err)
		}
	}
	if *out == "" {
		*out = event.NewMatchFolder()
	}
	setup.Settings = gf.common(rule, size)
	setup.Name, setup.MoveCap, setup.Concurrency, setup.Lifetime, setup.Confinement, setup.Out = "match", *moveCap, *concurrency, lifetime, conf, *out
	setup.Openings, setup.OpeningsFormat, setup.RuleOpenings, setup.Seed = *openingsFile, *openingsFormat, true, *seed
	setup.Games, setup.Rounds, setup.Gauntlet, setup.Pairs, setup.Shard, setup.SyncEvery = *games, 1, *gauntlet, true, sh, *syncEvery
	setup.PGN, setup.Records, setup.Sample = *pgn, records, sampling
	if *sprtFlag != "" {
		s, err := parseSPRT(*sprtFlag, ",", rating.ModelNormalized)
		if err != nil {
			return setup, nil, fmt.Errorf("%w: -sprt: %v", errUsage, err)
		}
		setup.SPRT = &s
		if !flagSet(fs, "games") {
			setup.Games = 100000
		}
	}
	if setup.Engines, err = gf.engines(fs.Args()); err != nil {
		return setup, nil, err
	}
	if setup.Order, err = event.ParseOrder(*order); err != nil {
		return setup, nil, fmt.Errorf("%w: -order: %v", errUsage, err)
	}
	if setup.Transform, err = event.ParseTransform(*transform); err != nil {
		return setup, nil, fmt.Errorf("%w: -transform: %v", errUsage, err)
	}
	return setup, &matchPlan{ReportEvery: *report, Quiet: *quiet, Hints: rule.Name() == "outer-open", Serve: *serve}, nil
}

// matchPlan is an authors' match, from `arena match` flags or from a
// c-gomoku-cli command line (cli.go), and how to show it; play runs it.
type matchPlan struct {
	Match       *event.Match // the match to play
	ReportEvery int          // games between stats lines; 0 = only at the end
	Quiet       bool
	Hints       bool // suggest -opening-policy when an engine ignores outer-open
	// CLI, for a c-gomoku-cli command line, prints that tool's lines
	// (cliView) instead of the arena's lines and summary.
	CLI   *cliRun
	Debug bool   // print the engines' messages after every game
	Serve string // address of the live page; "" = none
}

// validate checks the plan before anything is played: settings that do
// not fit together are the command line's fault (usage); a program that
// does not exist is not.
func (p *matchPlan) validate() error {
	if err := p.Match.Validate(); err != nil {
		f := matchFlags
		if p.CLI != nil {
			f = cliOptions
		}
		return inWords(f, err)
	}
	if p.ReportEvery < 0 {
		return fmt.Errorf("%w: -report: %d: must not be negative (0: only at the end)", errUsage, p.ReportEvery)
	}
	return p.Match.CheckEngines()
}

// play runs the plan and prints the games, stats lines and the summary.
func (p *matchPlan) play(stdout, stderr io.Writer) error {
	if err := p.validate(); err != nil {
		return err
	}
	// The user's Ctrl-C drains and aborts the match through drain and abort;
	// the match itself stops starting games when the SPRT decides or a fatal
	// error happens.
	drain, abort, stop := interrupts(stderr)
	defer stop()
	if p.CLI != nil {
		v := newCliView(stdout, p)
		err := p.Match.Run(drain, abort, v)
		switch {
		case err != nil:
			return err
		case v.fatal != nil:
			return v.fatal
		case v.total > 0 && (drain.Err() != nil || abort.Err() != nil):
			return fmt.Errorf("stopped after %d of %d games", p.Match.GamesPlayed(), v.total)
		}
		return nil
	}
	prog := newPrinter(stdout, p.Quiet, func(g event.GameStarted) string {
		return fmt.Sprintf("#%d %s-%s", g.Number, g.Black, g.White)
	})
	v := &matchView{printer: prog, plan: p, stdout: stdout}
	var obs event.Observer = v
	if p.Serve != "" {
		page, err := startPage(p.Serve, p.Match.Name(), p.Match.Out, stdout)
		if err != nil {
			return err
		}
		defer page.Close()
		obs = event.Observers{v, page}
	}
	err := p.Match.Run(drain, abort, obs)
	prog.close()
	if v.began == nil {
		return err // nothing was played: the folder or the plan was refused
	}
	var summary bytes.Buffer // engine names from the command line: cleaned for the terminal
	p.summary(&summary, p.Match.Encounters(), v.decision)
	fmt.Fprint(stdout, term.CleanLines(summary.String()))
	for _, h := range v.hints {
		fmt.Fprintln(stdout, term.Clean(h))
	}
	if p.Match.Out != "" {
		fmt.Fprintf(stdout, "games written to %s\n", term.Clean(p.Match.Folder()))
	}
	if f := p.Match.SampleFile(); f != "" {
		fmt.Fprintf(stdout, "samples written to %s\n", term.Clean(f))
	}
	switch {
	case err != nil:
		return err
	case v.fatal != nil:
		return v.fatal
	case drain.Err() != nil || abort.Err() != nil:
		return fmt.Errorf("stopped after %d of %d games", p.Match.GamesPlayed(), v.began.Total)
	}
	return nil
}

// matchView is what `arena match` shows of a match beyond its printer:
// stats lines, the SPRT's decision, hints, score lines, engine messages.
type matchView struct {
	printer
	plan     *matchPlan
	stdout   io.Writer
	began    *event.Began
	hints    []string
	fatal    error
	decision string
}

func (v *matchView) Observe(u event.Update) {
	v.printer.Observe(u)
	p := v.plan
	switch u := u.(type) {
	case event.Began:
		v.began = &u
		if u.Seed != 0 {
			v.println(fmt.Sprintf("seed %d", u.Seed))
		}
		if u.Finished > 0 {
			v.println(fmt.Sprintf("continuing %s: %d games already finished", p.Match.Out, u.Finished))
		}
	case event.BatchDecided:
		v.decision = fmt.Sprintf("SPRT: %s accepted across the batch after %d games (arena merge %s for the batch's statistics)", u.Decision, u.Games, p.Match.Out)
		v.println(v.decision)
	case event.MatchGameCounted:
		g := u.MatchGame
		rec, e := g.Record, g.Encounter
		if p.Hints && rec.Detail != "" && strings.Contains(rec.Detail, string(rules.OutsideOuterZone)) && len(v.hints) == 0 {
			v.hints = append(v.hints, fmt.Sprintf("hint: %s does not seem to know outer-open; -opening-policy arbiter-opens lets the arbiter place Black's first stone", rec.Black))
		}
		if p.Debug {
			for _, msg := range rec.Messages {
				v.println("  " + msg)
			}
		}
		reported := p.ReportEvery > 0 && g.Played%p.ReportEvery == 0
		if reported {
			for _, e := range p.Match.Encounters() {
				if e.WDL.Games() > 0 {
					v.println(p.statsLine(e))
				}
			}
		}
		if g.Decided {
			v.decision = fmt.Sprintf("SPRT: %s accepted after %d games", e.Decision, e.WDL.Games())
			if !reported {
				v.println(p.statsLine(e))
			}
			v.println(v.decision)
		}
		if g.Fatal {
			v.fatal = fmt.Errorf("-fatalerror: game %d: %s lost by %s (%s); stopping", rec.Game, loserName(rec), rec.End, rec.Detail)
			v.println(v.fatal.Error())
		}
	}
}

func loserName(rec *record.Record) string {
	if rec.End == record.DoubleForfeit {
		return rec.Black + " and " + rec.White
	}
	switch rec.Winner {
	case rules.Black:
		return rec.White
	case rules.White:
		return rec.Black
	}
	return "nobody"
}

// statsLine is the periodic, parseable summary of one encounter: fields
// separated by two spaces, none containing two spaces.
func (p *matchPlan) statsLine(e *event.Encounter) string {
	st := e.Stats()
	w := e.WDL
	mv := p.Match.View()
	line := fmt.Sprintf("stats  %s vs %s  games %d  +%d =%d -%d  score %.1f%%  %s  LOS %s",
		mv.Names[e.First], mv.Names[e.Second], w.Games(), w.W, w.D, w.L,
		100*e.Points()/float64(max(w.Games(), 1)), eloText(st), losText(st))
	if mv.Pairs {
		line += fmt.Sprintf("  ptnml %d %d %d %d %d", e.Penta[0], e.Penta[1], e.Penta[2], e.Penta[3], e.Penta[4])
	}
	if mv.SPRT != nil {
		lo, hi := mv.SPRT.Bounds()
		line += fmt.Sprintf("  LLR %.2f [%.2f, %.2f]", mv.SPRT.LLR(e.WDL, e.Penta), lo, hi)
	}
	return line
}

// summary prints the final result: for two engines the score, Elo, LOS,
// pentanomial counts and SPRT state; for more a table of encounters, the
// rating list and the LOS matrix.
func (p *matchPlan) summary(w io.Writer, encs []*event.Encounter, decision string) {
	mv := p.Match.View()
	fmt.Fprintln(w)
	for _, e := range encs {
		if e.WDL.Games() == 0 {
			continue
		}
		fmt.Fprintln(w, p.statsLine(e))
	}
	if len(encs) == 1 {
		e := encs[0]
		st := e.Stats()
		a, b := mv.Names[e.First], mv.Names[e.Second]
		pts := e.Points()
		fmt.Fprintf(w, "%s %g - %g %s  (%d games: +%d =%d -%d)  %s  LOS %s  draws %.1f%%",
			a, pts, float64(e.WDL.Games())-pts, b, e.WDL.Games(), e.WDL.W, e.WDL.D, e.WDL.L,
			eloText(st), losText(st), 100*float64(e.WDL.D)/float64(e.WDL.Games()))
		if st.Pairs > 0 {
			// Fastchess's "draw ratio" over pairs: DD and WL pairs alike.
			fmt.Fprintf(w, "  level pairs %.1f%%", 100*st.DrawRatio)
		}
		fmt.Fprintln(w)
		if mv.Pairs {
			fmt.Fprintf(w, "pentanomial (%s's pairs, LL LD DD+WL WD WW): %d %d %d %d %d\n", a, e.Penta[0], e.Penta[1], e.Penta[2], e.Penta[3], e.Penta[4])
		}
		if t := mv.SPRT; t != nil {
			lo, hi := t.Bounds()
			state := decision
			if state == "" {
				state = "SPRT: no decision yet"
			}
			fmt.Fprintf(w, "%s  (model %s, elo0 %g, elo1 %g, alpha %g, beta %g; LLR %.2f, bounds [%.2f, %.2f])\n",
				state, mv.SPRTModel, t.Elo0, t.Elo1, t.Alpha, t.Beta, t.LLR(e.WDL, e.Penta), lo, hi)
		}
		return
	}
	if p.Match.GamesPlayed() > 0 {
		p.ratingTables(w)
	}
}

// ratingTables prints the match's Bradley–Terry rating list with 95%
// intervals and the LOS matrix, and says when a sweep made it take virtual
// draws (schedule.Match.Ratings).
func (p *matchPlan) ratingTables(w io.Writer) {
	mv := p.Match.View()
	names := mv.Names
	title := "rating list (Bradley–Terry, mean 0)"
	if mv.Gauntlet {
		title = "rating list (Bradley–Terry, " + names[0] + " = 0)"
	}
	list, prior, err := p.Match.Ratings()
	if prior > 0 {
		title += fmt.Sprintf(", with %g virtual draws per pair because of a sweep", prior)
	}
	if err != nil {
		fmt.Fprintf(w, "no rating list: %v\n", err)
		return
	}
	order := make([]int, len(names))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return list.Ratings[order[i]].Elo > list.Ratings[order[j]].Elo })
	rt := report.Table{Title: title, Header: []string{"#", "Engine", "Elo", "95% interval", "Games", "Points", "Score"}}
	for rank, i := range order {
		r := list.Ratings[i]
		rt.Rows = append(rt.Rows, []string{strconv.Itoa(rank + 1), r.Name, fmt.Sprintf("%+.1f", r.Elo),
			fmt.Sprintf("[%+.1f, %+.1f]", r.Lo, r.Hi), strconv.Itoa(r.Games), strconv.FormatFloat(r.Points, 'f', -1, 64),
			fmt.Sprintf("%.1f%%", 100*r.Points/math.Max(float64(r.Games), 1))})
	}
	rt.Right = []bool{true, false, true, true, true, true, true}
	fmt.Fprintln(w)
	rt.Write(w, report.Text)
	lt := report.Table{Title: "likelihood of superiority (row is stronger than column)", Header: []string{"Engine"}}
	lt.Right = []bool{false}
	for _, j := range order {
		lt.Header = append(lt.Header, names[j])
		lt.Right = append(lt.Right, true)
	}
	for _, i := range order {
		row := []string{names[i]}
		for _, j := range order {
			cell := ""
			if i != j {
				cell = fmt.Sprintf("%.1f%%", 100*list.LOS[i][j])
			}
			row = append(row, cell)
		}
		lt.Rows = append(lt.Rows, row)
	}
	fmt.Fprintln(w)
	lt.Write(w, report.Text)
}

// parseSPRT reads "elo0=0,elo1=5,alpha=0.05,beta=0.05,model=normalized"
// (fields split by sep); unset fields take elo0 0, alpha and beta 0.05 and
// the given model.
func parseSPRT(s, sep, model string) (rating.SPRT, error) {
	t := rating.SPRT{Alpha: 0.05, Beta: 0.05, Model: model}
	elo1 := false
	for _, f := range strings.Split(s, sep) {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			return t, fmt.Errorf("%q: want KEY=VALUE", f)
		}
		if k == "model" {
			t.Model = v
			continue
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return t, fmt.Errorf("%s: %q is not a number", k, v)
		}
		switch k {
		case "elo0":
			t.Elo0 = x
		case "elo1":
			t.Elo1, elo1 = x, true
		case "alpha":
			t.Alpha = x
		case "beta":
			t.Beta = x
		default:
			return t, fmt.Errorf("unknown key %q (want elo0, elo1, alpha, beta, model)", k)
		}
	}
	if !elo1 {
		return t, errors.New("elo1 is required")
	}
	return t, t.Validate()
}

// limitFlag collects a repeatable per-match or per-engine setting: "VALUE"
// for every engine, "NAME:VALUE" for one.
type limitFlag []string

func (l *limitFlag) String() string     { return strings.Join(*l, " ") }
func (l *limitFlag) Set(s string) error { *l = append(*l, s); return nil }

// apply turns the values into INFO lines: key is the INFO key, or "" for raw
// KEY=VALUE settings. Values are whole numbers (sizes may end in K, M, G).
func (l limitFlag) apply(ents []event.EngineSettings, flagName, key string, size bool) error {
	for _, v := range l {
		target := -1
		if name, rest, ok := strings.Cut(v, ":"); ok && (key != "" || !strings.Contains(name, "=")) {
			target = -2
			for i, e := range ents {
				if e.Name == name {
					target = i
				}
			}
			if target == -2 {
				return fmt.Errorf("-%s %s: no engine named %q", flagName, v, name)
			}
			v = rest
		}
		info := event.Info{Key: key, Value: v}
		if key == "" {
			k, val, ok := strings.Cut(v, "=")
			if !ok {
				return fmt.Errorf("-%s %q: want KEY=VALUE", flagName, v)
			}
			if err := config.CheckInfo(k, val); err != nil {
				return fmt.Errorf("-%s %q: %v", flagName, v, err)
			}
			info = event.Info{Key: k, Value: val}
		} else {
			n, err := parseCount(v, size)
			if err != nil {
				return fmt.Errorf("-%s %q: %v", flagName, v, err)
			}
			info.Value = strconv.FormatInt(n, 10)
		}
		for i := range ents {
			if target < 0 || target == i {
				ents[i].Info = append(ents[i].Info, info)
			}
		}
	}
	return nil
}

// parseCount reads a non-negative whole number; with size, a K, M or G
// suffix multiplies by 1024, 1024², 1024³.
func parseCount(s string, size bool) (int64, error) {
	mult := int64(1)
	if size && s != "" {
		switch strings.ToUpper(s[len(s)-1:]) {
		case "K":
			mult = 1 << 10
		case "M":
			mult = 1 << 20
		case "G":
			mult = 1 << 30
		}
		if mult > 1 {
			s = s[:len(s)-1]
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q is not a whole number of 0 or more", s)
	}
	if n > math.MaxInt64/mult {
		return 0, fmt.Errorf("%s too large", s)
	}
	return n * mult, nil
}

// flagSet reports whether the flag was given on the command line.
func flagSet(fs *flags, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
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
	return programName(prog[0]), arg
}

// programName is an engine's default name: its program's base name, or the
// bundled engine's name for builtin:NAME.
func programName(program string) string {
	return strings.TrimPrefix(filepath.Base(program), "builtin:")
}

// eloText is the Elo difference with its 95% interval, or what a sweep or
// an empty match means instead. While the games (or pairs) counted show no
// spread at all — one pair, or only draws — the normal approximation has
// nothing to measure: the interval is "n/a", not zero.
func eloText(st rating.MatchStats) string {
	elo := st.Elo
	if elo == 0 {
		elo = 0 // never "-0.0"
	}
	switch {
	case st.Games == 0:
		return "Elo n/a"
	case math.IsInf(elo, 0):
		return fmt.Sprintf("Elo %+v (a sweep: no finite estimate)", elo)
	case st.ScoreSE == 0:
		return fmt.Sprintf("Elo %+.1f ± n/a", elo)
	case math.IsInf(st.EloHi, 0) || math.IsInf(st.EloLo, 0):
		return fmt.Sprintf("Elo %+.1f [%+.1f, %+.1f]", elo, st.EloLo, st.EloHi)
	}
	return fmt.Sprintf("Elo %+.1f ± %.1f", elo, st.EloError())
}

// losText is the likelihood of superiority, "n/a" where eloText has no
// interval: from games without spread it would be 0, ½ or 1 however few
// they are. A sweep keeps its 100% (or 0%).
func losText(st rating.MatchStats) string {
	if st.Games == 0 || (st.ScoreSE == 0 && !math.IsInf(st.Elo, 0)) {
		return "n/a"
	}
	return fmt.Sprintf("%.1f%%", 100*st.LOS)
}
