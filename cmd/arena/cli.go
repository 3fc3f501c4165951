package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"gomoku-arena/clock"
	"gomoku-arena/event"
	"gomoku-arena/event/outputs"
	"gomoku-arena/internal/config"
	"gomoku-arena/internal/term"
	"gomoku-arena/results/rating"
	"gomoku-arena/results/sample"
	"gomoku-arena/rules"
)

// A drop-in for c-gomoku-cli (github.com/dhbloo/c-gomoku-cli, the fork of
// nkg114mc's that is maintained): `arena gomoku-cli ARGS...`, or the arena
// binary installed under the name c-gomoku-cli, accepts that tool's command
// line so an author's scripts run unchanged, and plays the match with this
// arbiter (matchPlan in match.go): the same games in the same order with
// the same colours (c-gomoku-cli's deals), its lines on stdout (cliView)
// and its -sgf, -pgn and -msg files (record.WriteCGomokuCliSGF, ...).
// docs/gomoku-cli.md says what matches and what still differs, and
// scripts/compare-c-gomoku-cli.sh checks it against the real tool.
//
// Meanings follow c-gomoku-cli's README and option parser:
//   - tc=MATCH/TURN+INC in seconds (fractions allowed); TURN defaults to
//     MATCH, INC to 0; MATCH 0 means no match clock. tolerance= is seconds
//     (default 3). maxmemory= is bytes (default 350 MiB, 367001600, sent as
//     INFO max_memory); thread= is sent as INFO thread_num, and without it
//     none is sent, as c-gomoku-cli does; depth= and
//     nodes= become INFO max_depth and max_node; option.KEY=VAL is sent as
//     INFO KEY VAL before every game.
//   - -each sets options for every engine and, as in c-gomoku-cli, wins over
//     an engine's own setting (option.* lines are added to the engine's).
//   - -games N per pair of engines; -rounds R repeats the schedule; round
//     robin by default, -gauntlet pairs the first engine with each other.
//     Game n of the run takes opening n; in a pair's even games of every
//     round its first engine plays the first move after the opening (White
//     after an odd number of stones), in its odd games the other.
//   - -repeat: games 2k and 2k+1 of the run share an opening; without it
//     every game takes the next opening.
//   - -transform: pass p through the opening list uses c-gomoku-cli's
//     symmetry p mod 8, in its order.
//   - -openings file=F type=offset|pos order=sequential|random srand=N:
//     random is c-gomoku-cli's shuffle with its generator seeded by srand
//     (srand 0: a seed from the clock, printed).
//   - -sprt elo0= elo1= alpha= beta=: c-gomoku-cli's own test (logistic Elo
//     over single games, its approximate LLR); elo0 defaults to 0, alpha and
//     beta to 0.05.
//   - -loseonly (with -gauntlet): -pgn, -sgf and -msg keep only the games the
//     first engine lost.
//   - -drawafter N: a draw once the board holds N stones.
//   - -sendbyboard: BOARD before every move instead of TURN.
//   - -fatalerror: the first crash, time loss or refusal stops the run, exit 1.
//   - -rule 0 (freestyle), 1 (exact five), 4 (renju); as extensions 8
//     (caro), 9 (caro-exact) and any arena rule name (outer-open, pente, ...).
//
// Where c-gomoku-cli has bugs this drop-in does the right thing instead:
//   - an off-board or malformed move ("99,99", "-1,3") is an illegal move
//     and loses; it is never wrapped or clipped onto the board;
//   - no wait is unbounded: a hung engine loses at its deadline (or after
//     the hang limit when untimed), so the last game cannot hang the run,
//     and the run never dies because one engine stopped answering;
//   - a forfeit (crash, time, illegal move, an engine that cannot start) is
//     always charged to the engine that failed, whichever colour it had;
//   - without tc the engines are not told "timeout_turn 0", which the
//     protocol defines as "play instantly".
//
// Differences to know: an engine without name= is named by its ABOUT
// reply, asked before the match; each engine process runs in its own fresh
// temporary directory, not in the folder of its command; files get games in
// the order they finish; -draw and -resign (score adjudication) are
// accepted and ignored, as the protocol has no score; -log (and -debug,
// which also prints the engines' messages after every game) appends every
// line to and from the engines to one file, c-gomoku-cli.log, each line
// with the time, the engine's name and its process id, where c-gomoku-cli
// writes one file per thread. docs/gomoku-cli.md has the full list.

// cliLog is the transcript file of -log and -debug.
const cliLog = "c-gomoku-cli.log"

// cliUsage is what `arena gomoku-cli -h` prints.
const cliUsage = `usage: arena gomoku-cli [-each ENGINE_OPTIONS] -engine ENGINE_OPTIONS -engine ENGINE_OPTIONS ... [OPTIONS]
       c-gomoku-cli ...   (the arena binary installed under that name)

The command line of c-gomoku-cli, played by this arbiter.

ENGINE_OPTIONS: cmd=COMMAND name=NAME tc=MATCH/TURN+INC (seconds) depth=N nodes=N
  maxmemory=BYTES thread=N tolerance=SECONDS option.KEY=VALUE
  and the arena's: board_mode=BOOL swap2_colors=BOOL hang=DURATION hard_memory=BYTES
  max_processes=N dir=FOLDER files=PATH env=KEY=VALUE

OPTIONS: -rule 0|1|4 (8, or an arena rule name)  -boardsize N  -games N  -rounds N
  -gauntlet  -loseonly  -repeat  -transform  -concurrency N  -drawafter N
  -openings file=FILE [type=offset|pos] [order=sequential|random] [srand=N]
  -sprt [elo0=E0] elo1=E1 [alpha=A] [beta=B]  -sendbyboard  -fatalerror
  -sgf FILE  -pgn FILE  -msg FILE  -log  -debug
  -sample [freq=F] [format=csv|bin|bin_lz4|binpack|binpack_lz4] [file=FILE]
  and the arena's: -sandbox none|bwrap|auto  -freeze-idle
`

// cliEngine is one -engine (or -each) block; set marks what was given, so
// -each overrides only what it names.
type cliEngine struct {
	cmd, name                   string
	match, turn, inc, tolerance time.Duration
	depth, nodes, threads, mem  int64
	options                     []event.Info
	set                         map[string]bool
	settings                    []settingValue // the arena's per-engine settings (settings.go)
}

func runGomokuCli(args []string, stdout, stderr io.Writer) error {
	for _, a := range args {
		if a == "-h" || a == "-help" || a == "--help" {
			fmt.Fprint(stdout, cliUsage)
			return nil
		}
	}
	p, err := parseCli(args, stderr)
	if err != nil {
		return err
	}
	if err := p.validate(); err != nil {
		return err
	}
	if err := p.CLI.askAbout(p); err != nil {
		return err
	}
	return p.play(stdout, stderr)
}

// parseCli turns a c-gomoku-cli command line into a match plan.
func parseCli(args []string, stderr io.Writer) (*matchPlan, error) {
	setup, cli, debug, err := parseCliSetup(args, stderr)
	if err != nil {
		return nil, err
	}
	m, err := setup.Match()
	if err != nil {
		return nil, err
	}
	return &matchPlan{Match: m, CLI: cli, Debug: debug}, nil
}

// parseCliSetup reads a c-gomoku-cli command line into the match's
// settings (event.MatchSetup), what its lines need beyond them (cliRun),
// and whether -debug asks for the engines' messages.
func parseCliSetup(args []string, stderr io.Writer) (setup event.MatchSetup, cli *cliRun, debug bool, err error) {
	usage := func(format string, a ...any) error {
		return usageError{fmt.Errorf("%w: "+format, append([]any{errUsage}, a...)...), func(w io.Writer) { fmt.Fprint(w, cliUsage) }}
	}
	var (
		engines    []*cliEngine
		each       *cliEngine
		ruleArg    = "0"
		size       = 15
		games      = 1
		rounds     = 1
		conc       = config.DefaultConcurrency // c-gomoku-cli's too
		drawAt     = 0
		gauntlet   bool
		loseOnly   bool
		repeat     bool
		trans      bool
		board      bool
		fatal      bool
		transcript bool
		sprt       *rating.SPRT
		order, _   = event.ParseOrder("sequential")
		seed       uint64
		openFile   string
		openType   = rules.OffsetFormat
		sgf, pgn   string
		msg        string
		sampling   *outputs.Sampling
		conf       event.Confinement
	)
	// values reads the KEY=VALUE tokens after args[i], up to the next option.
	values := func(i int) (int, []string) {
		var vals []string
		for i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			i++
			vals = append(vals, args[i])
		}
		return i, vals
	}
	next := func(i int) (int, string, error) {
		if i+1 >= len(args) {
			return i, "", usage("%s needs a value", args[i])
		}
		return i + 1, args[i+1], nil
	}
	nextInt := func(i int) (int, int, error) {
		i, v, err := next(i)
		if err != nil {
			return i, 0, err
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return i, 0, usage("%s %q: not a whole number", args[i-1], v)
		}
		return i, n, nil
	}
	for i := 0; i < len(args); i++ {
		var err error
		switch a := args[i]; a {
		case "-engine", "-each":
			var vals []string
			i, vals = values(i)
			e, err := parseCliEngine(vals)
			if err != nil {
				return setup, nil, false, usage("%s: %v", a, err)
			}
			if a == "-each" {
				each = e
			} else {
				engines = append(engines, e)
			}
		case "-rule":
			i, ruleArg, err = next(i)
		case "-boardsize":
			i, size, err = nextInt(i)
		case "-games":
			i, games, err = nextInt(i)
		case "-rounds":
			i, rounds, err = nextInt(i)
		case "-concurrency":
			i, conc, err = nextInt(i)
		case "-drawafter":
			i, drawAt, err = nextInt(i)
		case "-gauntlet":
			gauntlet = true
		case "-loseonly":
			loseOnly = true
		case "-repeat":
			repeat = true
		case "-transform":
			trans = true
		case "-sendbyboard":
			board = true
		case "-fatalerror":
			fatal = true
		case "-debug":
			debug, transcript = true, true
		case "-log":
			transcript = true
		case "-sandbox":
			var v string
			if i, v, err = next(i); err == nil {
				if conf.Sandbox, err = config.ParseSandbox(v); err != nil {
					return setup, nil, false, usage("-sandbox: %v", err)
				}
			}
		case "-freeze-idle":
			conf.FreezeIdle = true
		case "-sgf":
			i, sgf, err = next(i)
		case "-pgn":
			i, pgn, err = next(i)
		case "-msg":
			i, msg, err = next(i)
		case "-draw", "-resign":
			if i+2 >= len(args) {
				return setup, nil, false, usage("%s needs COUNT and SCORE", a)
			}
			i += 2
			fmt.Fprintf(stderr, "arena gomoku-cli: %s ignored: engines report no score in the Gomocup protocol\n", term.Clean(a))
		case "-openings":
			var vals []string
			i, vals = values(i)
			for _, v := range vals {
				k, val, _ := strings.Cut(v, "=")
				switch k {
				case "file":
					openFile = val
				case "type":
					if err := rules.CheckOpeningFormat(val); err != nil {
						return setup, nil, false, usage("-openings type=: %v", err)
					}
					openType = val
				case "order":
					if order, err = event.ParseOrder(val); err != nil {
						return setup, nil, false, usage("-openings: %v", err)
					}
				case "srand":
					if seed, err = cliSrand(val); err != nil {
						return setup, nil, false, usage("-openings srand=%q: not a whole number", val)
					}
				default:
					return setup, nil, false, usage("-openings: unknown token %q", v)
				}
			}
		case "-sample":
			var vals []string
			i, vals = values(i)
			if sampling, err = parseSample(vals); err != nil {
				return setup, nil, false, usage("-sample: %v", err)
			}
		case "-sprt":
			var vals []string
			i, vals = values(i)
			s, err := parseSPRT(strings.Join(vals, " "), " ", rating.ModelCGomokuCli)
			if err != nil {
				return setup, nil, false, usage("-sprt: %v", err)
			}
			sprt = &s
		default:
			return setup, nil, false, usage("unknown option %q", a)
		}
		if err != nil {
			return setup, nil, false, err
		}
	}
	if len(engines) < 2 {
		return setup, nil, false, usage("at least 2 engines are needed (-engine cmd=...)")
	}
	rule, err := cliRule(ruleArg)
	if err != nil {
		return setup, nil, false, usage("-rule: %v", err)
	}
	if err := rules.CheckSize(rule, size); err != nil {
		return setup, nil, false, usage("-boardsize: %v", err)
	}
	if loseOnly && !gauntlet {
		fmt.Fprintln(stderr, "arena gomoku-cli: -loseonly applies only with -gauntlet (as in c-gomoku-cli); every game is written")
		loseOnly = false
	}
	setup = event.MatchSetup{Settings: event.Settings{Name: "gomoku-cli", Rule: rule, Size: size, MoveCap: drawAt, Concurrency: conc, // the start timeout: engine's default, as c-gomoku-cli has no flag for it
		// Without a file every game starts on the empty board, as in
		// c-gomoku-cli: not the rule's default openings (renju's 26).
		Openings: openFile, OpeningsFormat: openType, Policy: config.PolicyStrict, Seed: seed, Confinement: conf},
		Games: games, Rounds: rounds, Gauntlet: gauntlet, SPRT: sprt, LoseOnly: loseOnly, FatalError: fatal,
		PGN: pgn, SGF: sgf, Msg: msg, Sample: sampling, CGomokuCli: true, RuleCode: cliRuleCode(rule),
		Order: order, Pairs: repeat}
	if transcript {
		setup.Log = cliLog
	}
	if trans {
		setup.Transform, _ = event.ParseTransform("cycle")
	}
	cli = &cliRun{openings: openFile, openingType: openType}
	setup.Lifetime = config.LifetimePair // its workers' engines: START every game, new ones when the pair changes
	for i, e := range engines {
		if each != nil {
			e.override(each)
		}
		es, err := e.engine(i, board)
		if err != nil {
			return setup, nil, false, usage("engine %d: %v", i+1, err)
		}
		setup.Engines = append(setup.Engines, es)
		cli.engines = append(cli.engines, e)
	}
	event.UniqueEngineNames(setup.Engines)
	return setup, cli, debug, nil
}

// cliRule maps c-gomoku-cli's rule codes, and as an extension the arena's
// rule names, to a rule.
func cliRule(s string) (rules.Rule, error) {
	switch s {
	case "0":
		return rules.ByName("freestyle")
	case "1":
		return rules.ByName("standard")
	case "4":
		return rules.ByName("renju")
	case "8":
		return rules.ByName("caro")
	case "9":
		return rules.ByName("caro-exact")
	}
	if _, err := strconv.Atoi(s); err == nil {
		return nil, fmt.Errorf("rule code %s: want 0 (freestyle), 1 (exact five), 4 (renju), 8 (caro) or 9 (caro-exact)", s)
	}
	return rules.ByName(s)
}

// cliRun is what a c-gomoku-cli command line needs beyond the match plan.
type cliRun struct {
	openings    string        // -openings file=, for "Load opening file"
	openingType string        // -openings type=
	engines     []*cliEngine  // per entrant, as given (-each applied)
	about       []event.About // per entrant: its answer to ABOUT before the match
}

// askAbout starts every engine once before the match and asks it ABOUT,
// as c-gomoku-cli does when it starts an engine: an engine without name=
// takes the name it answers (names shared are then told apart as
// event.UniqueNames does), and the answers are what the "Load engine" lines
// show. An engine that does not answer keeps its program's name; its
// games will say what is wrong with it.
func (c *cliRun) askAbout(p *matchPlan) error {
	about, err := p.Match.About()
	if err != nil {
		return err
	}
	c.about = about
	names := make([]string, len(about))
	for i, a := range about {
		if c.engines[i].name == "" {
			names[i] = a.Name
		}
	}
	p.Match.Rename(names)
	return nil
}

// cliSrand reads srand= as c-gomoku-cli's atoll does, for the same
// shuffle: a negative number is its two's complement, and one beyond the
// 64-bit signed range saturates. Anything but a decimal number is an error.
func cliSrand(s string) (uint64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if errors.Is(err, strconv.ErrRange) {
		err = nil // n is already the saturated value
	}
	return uint64(n), err
}

// cliRuleCode is the rule's c-gomoku-cli number, for its SGF's RU: 0, 1,
// 4, and the codes cliRule reads as extensions; the rule's name for a rule
// that has no number.
func cliRuleCode(r rules.Rule) string {
	for _, code := range []string{"0", "1", "4", "8", "9"} {
		if c, err := cliRule(code); err == nil && c.Name() == r.Name() {
			return code
		}
	}
	return r.Name()
}

// parseCliEngine reads one -engine or -each block.
func parseCliEngine(vals []string) (*cliEngine, error) {
	e := &cliEngine{tolerance: 3 * time.Second, mem: 367001600, set: map[string]bool{}}
	for _, v := range vals {
		k, val, ok := strings.Cut(v, "=")
		if !ok {
			return nil, fmt.Errorf("illegal syntax %q: want KEY=VALUE", v)
		}
		var err error
		switch {
		case k == "cmd":
			e.cmd = val
		case k == "name":
			e.name = val
		case k == "tc":
			e.match, e.turn, e.inc, err = parseCliTC(val)
		case k == "tolerance":
			e.tolerance, err = cliSeconds(val)
		case k == "depth":
			e.depth, err = parseCount(val, false)
		case k == "nodes":
			e.nodes, err = parseCount(val, false)
		case k == "thread" || k == "threads":
			k = "thread"
			e.threads, err = parseCount(val, false)
		case k == "maxmemory":
			e.mem, err = parseCount(val, true)
		case strings.HasPrefix(k, "option."):
			key := strings.TrimPrefix(k, "option.")
			err = config.CheckInfo(key, val)
			e.options = append(e.options, event.Info{Key: key, Value: val})
		case settingByKey(k) != nil && settingByKey(k).inCli:
			s := settingByKey(k)
			err = s.set(&event.EngineSettings{}, val) // checked now, applied by entrant
			e.settings = append(e.settings, settingValue{s, val})
		default:
			return nil, fmt.Errorf("illegal syntax %q", v)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", v, err)
		}
		e.set[k] = true
	}
	return e, nil
}

// override applies -each: what it sets replaces the engine's own setting;
// its options are added.
func (e *cliEngine) override(each *cliEngine) {
	for k := range each.set {
		switch k {
		case "cmd":
			e.cmd = each.cmd
		case "name":
			e.name = each.name
		case "tc":
			e.match, e.turn, e.inc = each.match, each.turn, each.inc
		case "tolerance":
			e.tolerance = each.tolerance
		case "depth":
			e.depth = each.depth
		case "nodes":
			e.nodes = each.nodes
		case "thread":
			e.threads = each.threads
		case "maxmemory":
			e.mem = each.mem
		}
		e.set[k] = true
	}
	e.options = append(e.options, each.options...)
	e.settings = append(e.settings, each.settings...) // after the engine's own: they win
}

// engine is the engine's settings, as event.EngineSettings types them.
func (e *cliEngine) engine(i int, boardMode bool) (event.EngineSettings, error) {
	fields := strings.Fields(e.cmd)
	if len(fields) == 0 {
		return event.EngineSettings{}, fmt.Errorf("no cmd=")
	}
	name := e.name
	if name == "" {
		name = programName(fields[0])
	}
	if err := config.CheckName(name); err != nil {
		return event.EngineSettings{}, fmt.Errorf("name: %v", err)
	}
	ctl := clock.Control{Match: e.match, Turn: e.turn, Increment: e.inc, Tolerance: e.tolerance}
	// maxmemory= is told, not held, as c-gomoku-cli does, and an
	// option.max_memory= replaces it (event.EngineSettings); as in
	// c-gomoku-cli no thread= sends no thread_num, and the engine keeps its
	// own. Dir "": each process gets a fresh temporary working directory.
	es := event.EngineSettings{Name: name, Command: fields[0], Args: fields[1:], BoardMode: boardMode, Clock: ctl,
		TellMemory: e.mem, Threads: e.threads, Depth: e.depth, Nodes: e.nodes, Info: e.options}
	for _, sv := range e.settings {
		if err := sv.s.set(&es, sv.v); err != nil {
			return event.EngineSettings{}, fmt.Errorf("%s=%s: %v", sv.s.key, sv.v, err)
		}
	}
	if err := es.Clock.Validate(); err != nil {
		return event.EngineSettings{}, fmt.Errorf("%s: %v", cliClockToken(err), err)
	}
	return es, nil
}

// cliClockToken is the token of an -engine block that gives the clock
// setting a clock.Control.Validate error is about: tc for the match time,
// the move time and the increment.
func cliClockToken(err error) string {
	var se *clock.SettingError
	if errors.As(err, &se) && (se.Setting == "tolerance" || se.Setting == "hang") {
		return se.Setting
	}
	return "tc"
}

// parseCliTC reads c-gomoku-cli's tc=MATCH/TURN+INC, in seconds.
func parseCliTC(s string) (match, turn, inc time.Duration, err error) {
	left, incText, hasInc := strings.Cut(s, "+")
	if hasInc {
		if inc, err = cliSeconds(incText); err != nil {
			return
		}
	}
	matchText, turnText, hasTurn := strings.Cut(left, "/")
	if match, err = cliSeconds(matchText); err != nil {
		return
	}
	turn = match
	if hasTurn {
		turn, err = cliSeconds(turnText)
	}
	return
}

// cliSeconds reads a non-negative number of seconds, fractions allowed.
// How long a clock setting may be is clock.Control.Validate's rule, as
// for the other front ends; past 1e9 s (31 years, well within a
// time.Duration) the number is not read at all.
func cliSeconds(s string) (time.Duration, error) {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || x < 0 || x > 1e9 {
		return 0, fmt.Errorf("%q is not a number of seconds", s)
	}
	return time.Duration(x * float64(time.Second)), nil
}

// parseSample reads c-gomoku-cli's -sample tokens: freq=F (1 by default),
// format=csv|bin|bin_lz4|binpack|binpack_lz4 (csv) and file=NAME
// (sample.csv, sample.bin, sample.bin.lz4, sample.binpack or
// sample.binpack.lz4 after the format).
func parseSample(vals []string) (*outputs.Sampling, error) {
	s := &outputs.Sampling{Freq: 1, Format: sample.CSV}
	for _, v := range vals {
		k, val, ok := strings.Cut(v, "=")
		if !ok {
			return nil, fmt.Errorf("%q: want freq=F, format=F or file=F", v)
		}
		var err error
		switch k {
		case "freq":
			if s.Freq, err = strconv.ParseFloat(val, 64); err != nil {
				return nil, fmt.Errorf("freq=%q: not a number", val)
			}
			err = sample.Options{Freq: s.Freq}.Validate()
		case "format":
			s.Format, err = sample.ParseFormat(val)
		case "file":
			if val == "" {
				err = errors.New("file= needs a name")
			}
			s.File = val
		default:
			err = fmt.Errorf("unknown token %q (want freq, format, file)", v)
		}
		if err != nil {
			return nil, err
		}
	}
	if s.File == "" {
		s.File = s.Format.DefaultFile()
	}
	return s, nil
}
