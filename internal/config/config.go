// Package config reads an event's TOML file into a checked Event. Every
// problem is reported with the file, the line and the key, and nothing is
// guessed: unknown keys, wrong types, missing engines, duplicate names and
// impossible values are errors.
//
// It is a leaf: it imports only the game's vocabulary (rules, clock,
// pairing, tie-break names) and the shared bounds, never what plays the
// games. What only the builder of engines can tell (that a program exists,
// a bundled engine's name, a folder of Gomocup builds, two names of one
// working folder) is checked by package event, which names the file and
// line through Event.ErrAt.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/BurntSushi/toml"

	"gomoku-arena/clock"
	"gomoku-arena/internal/bounds"
	"gomoku-arena/pairing"
	"gomoku-arena/results/standings"
	"gomoku-arena/rules"
)

// Duration is a TOML string such as "20m" or "1.5s".
type Duration struct{ time.Duration }

// UnmarshalText parses a Go duration.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("not a duration like \"20m\" or \"500ms\": %q", b)
	}
	d.Duration = v
	return nil
}

// MarshalText writes the duration back in the same form.
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// Bytes is a TOML string or integer amount of memory: "350MiB", "1.5GiB",
// "512MB", "367001600", or "0" (no limit).
type Bytes struct{ N int64 }

var byteUnits = []struct {
	suffix string
	mult   float64
}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"kB", 1e3}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1}, {"", 1}}

// UnmarshalText parses an amount with an optional unit.
func (b *Bytes) UnmarshalText(t []byte) error {
	s := strings.TrimSpace(string(t))
	for _, u := range byteUnits {
		num, ok := strings.CutSuffix(s, u.suffix)
		if !ok {
			continue
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
		if err != nil || f < 0 || f*u.mult >= 1<<62 || f != f {
			break
		}
		b.N = int64(f * u.mult)
		return nil
	}
	return fmt.Errorf("not an amount of memory like \"350MiB\", \"2GB\" or \"0\": %q", t)
}

// MarshalText writes the amount in bytes.
func (b Bytes) MarshalText() ([]byte, error) { return []byte(strconv.FormatInt(b.N, 10)), nil }

// MinTranscript is the smallest transcript bound: a few protocol lines.
const MinTranscript = 4 << 10

// Clock is a time control as written in a config.
type Clock struct {
	Match     *Duration `toml:"match"`
	Turn      *Duration `toml:"turn"`
	Increment *Duration `toml:"increment"`
	Tolerance *Duration `toml:"tolerance"`
	Hang      *Duration `toml:"hang"`
}

// Engine is one [[engine]] table.
type Engine struct {
	Name      string            `toml:"name"`
	Command   string            `toml:"command"`
	Args      []string          `toml:"args"`
	Dir       string            `toml:"dir"`
	Env       []string          `toml:"env"`
	BoardMode bool              `toml:"board_mode"`
	Info      map[string]string `toml:"info"`
	Clock     *Clock            `toml:"clock"`
	// Limits over the event's; unset means the event's.
	MaxMemory    *Bytes `toml:"max_memory"`
	HardMemory   *Bytes `toml:"hard_memory"`
	MaxProcesses *int   `toml:"max_processes"`
	// Swap2Colors adds a colour field (1 Black, 2 White) to SWAP2BOARD's
	// stone lines.
	Swap2Colors bool `toml:"swap2_colors"`
	// Rating, when given, is the engine's Elo for the ARO tie-break and the
	// TRF report; entrants are seeded in the order the file lists them.
	Rating int `toml:"rating"`
	// Remote: the engine runs on its entrant's machine and plays through
	// `arena connect` (package remote); it has no command here.
	Remote bool `toml:"remote"`
	// Files are the files and folders beside its program that the engine
	// needs (weights, settings), relative to the config's folder: the
	// sandbox shows them read-only, and nothing else of the program's
	// folder (files.go).
	Files []string `toml:"files"`
}

// Remote is the [remote] table: the server remote entrants connect to.
type Remote struct {
	Listen         string    `toml:"listen"` // default DefaultListen
	Cert           string    `toml:"cert"`   // the organizer's certificate (PEM); none: generated
	Key            string    `toml:"key"`
	Grace          *Duration `toml:"grace"`             // default DefaultGrace
	MaxDisconnects *int      `toml:"max_disconnects"`   // per game, default DefaultMaxDisconnects
	Allowance      *Duration `toml:"network_allowance"` // added to a remote entrant's tolerance, default 0
}

// Defaults of the [remote] table.
const (
	DefaultListen         = ":7650"
	DefaultGrace          = 5 * time.Minute
	DefaultMaxDisconnects = 3
)

// Event is a whole config file.
type Event struct {
	Name          string   `toml:"name"`
	Rule          string   `toml:"rule"`
	Size          int      `toml:"size"`
	Format        string   `toml:"format"`
	Rounds        int      `toml:"rounds"`
	OpeningPolicy Policy   `toml:"opening_policy"`
	Openings      string   `toml:"openings"`
	MoveCap       int      `toml:"move_cap"`
	Concurrency   int      `toml:"concurrency"`
	Output        string   `toml:"output"` // see OutputDir
	Seed          int64    `toml:"seed"`
	Tiebreaks     []string `toml:"tiebreaks"`
	ByePoints     *float64 `toml:"bye_points"`
	// WithdrawAfter withdraws a Swiss entrant after this many games in a
	// row it failed to start (refused, or crashed before its first move);
	// 0 never does. Default DefaultWithdrawAfter. See schedule.Tournament.
	WithdrawAfter *int      `toml:"withdraw_after"`
	StartTimeout  *Duration `toml:"start_timeout"`
	Clock         Clock     `toml:"clock"`
	Engines       []Engine  `toml:"engine"`
	// Limits and containment (engine.Limits, engine.Sandbox).
	MaxMemory    *Bytes `toml:"max_memory"` // default engine.Limits.OrGomocup (350 MiB)
	HardMemory   *Bytes `toml:"hard_memory"`
	MaxProcesses *int   `toml:"max_processes"`
	FreezeIdle   bool   `toml:"freeze_idle"`
	// ProcessLifetime is how long an engine process lives: reuse (the
	// default: one per entrant, RESTART between games), pair or game.
	ProcessLifetime Lifetime `toml:"process_lifetime"`

	Sandbox Sandbox `toml:"sandbox"`
	// OpeningProcedure is how games open: none (default), swap2 or rif.
	OpeningProcedure rules.Procedure `toml:"opening_procedure"`
	// Transcript, when above 0, keeps each engine's protocol transcript in
	// OUTPUT/transcripts/NAME.log, rotated at that size (internal/transcript).
	// Not part of the event's identity: it can be switched on for a resume.
	Transcript *Bytes `toml:"transcript"`
	// Remote is the server of the remote entrants (engine.remote).
	Remote Remote `toml:"remote"`
	// OpeningsPerPairing, when above 0, makes every pairing of a round
	// robin or gauntlet a mini-match of twice that many games: the same
	// openings for every pair, each with both colours (Gomocup's leagues).
	OpeningsPerPairing int `toml:"openings_per_pairing"`
	// Details names the event for the record the organizer signs
	// (details.go).
	Details Details `toml:"details"`

	// File is the path the event was read from; relative paths in it
	// (output, openings, engine commands and dirs) are relative to its folder.
	File string `toml:"-"`
	src  []byte
	rule rules.Rule // Rule, parsed once by check
}

// Game is the event's rule, parsed once when the file is read (its
// defaults and checks, then package event, take it from here); nil for a
// rule name that names none (check refuses such a file).
func (ev *Event) Game() rules.Rule {
	if ev.rule == nil {
		ev.rule, _ = rules.ByName(ev.Rule)
	}
	return ev.rule
}

var typeErr = regexp.MustCompile(`^toml: line (\d+) \(last key "([^"]*)"\): (.*)$`)

// Load reads and checks the event file at path.
func Load(path string) (*Event, error) {
	src, err := read(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, src)
}

// Parse checks src, the contents of the file named path. A file past the
// bounds of checkShape never reaches the TOML parser.
func Parse(path string, src []byte) (*Event, error) {
	if err := checkShape(path, src); err != nil {
		return nil, err
	}
	ev := &Event{File: path, src: src}
	md, err := toml.Decode(string(src), ev)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			// A value its type refuses (UnmarshalText) is reported on the
			// line that sets the key: name the key too.
			if setsKey(src, pe.Position.Line, pe.LastKey) {
				return nil, fmt.Errorf("%s:%d: %s: %s", path, pe.Position.Line, pe.LastKey, pe.Message)
			}
			return nil, fmt.Errorf("%s:%d: %s", path, pe.Position.Line, pe.Message)
		}
		// Type errors read `toml: line 3 (last key "format"): incompatible ...`.
		if m := typeErr.FindStringSubmatch(err.Error()); m != nil {
			return nil, fmt.Errorf("%s:%s: %s: %s", path, m[1], m[2], m[3])
		}
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		k := und[0].String()
		if len(und[0]) > 1 && und[0][0] == "engine" {
			// TOML keys of [[engine]] tables carry no index: name the first
			// table that has the key.
			for i := range ev.Engines {
				ik := fmt.Sprintf("engine[%d]%s", i, k[len("engine"):])
				if exact, _ := lineOf(src, ik); exact > 0 {
					k = ik
					break
				}
			}
		}
		return nil, ev.ErrAt(k, "unknown key")
	}
	ev.defaults()
	if err := ev.check(); err != nil {
		return nil, err
	}
	return ev, nil
}

// The defaults of an event's rule and of its games at once, which arena
// match's and arena check's flags take too.
const (
	DefaultRule        = "outer-open"
	DefaultConcurrency = 1
)

// DefaultWithdrawAfter is how many games in a row a Swiss entrant may fail
// to start before it is withdrawn, unless the config says otherwise.
const DefaultWithdrawAfter = 3

func (ev *Event) defaults() {
	if ev.Name == "" {
		ev.Name = strings.TrimSuffix(filepath.Base(ev.File), filepath.Ext(ev.File))
	}
	if ev.Rule == "" {
		ev.Rule = DefaultRule
	}
	if ev.Format == "" {
		ev.Format = "auto"
	}
	if ev.Concurrency == 0 {
		ev.Concurrency = DefaultConcurrency
	}
	if ev.WithdrawAfter == nil {
		n := DefaultWithdrawAfter
		ev.WithdrawAfter = &n
	}
	if r := ev.Game(); r != nil && ev.Size == 0 {
		ev.Size = r.DefaultSize()
	}
}

func (ev *Event) check() error {
	rule := ev.Game()
	if rule == nil {
		_, err := rules.ByName(ev.Rule) // its words for the error
		return ev.ErrAt("rule", err.Error())
	}
	if err := rules.CheckSize(rule, ev.Size); err != nil {
		return ev.ErrAt("size", err.Error())
	}
	if _, err := pairing.ParseFormat(ev.Format); err != nil { // the formats pairing knows, "auto" resolved by it
		return ev.ErrAt("format", err.Error())
	}
	if ev.Rounds < 0 || ev.Rounds > pairing.MaxRounds {
		return ev.ErrAt("rounds", fmt.Sprintf("%d: want 0 (the default) to %d", ev.Rounds, pairing.MaxRounds))
	}
	if err := ev.OpeningProcedure.Check(rule, ev.Size); err != nil {
		return ev.ErrAt("opening_procedure", err.Error())
	}
	if err := ev.checkMiniMatches(); err != nil {
		return err
	}
	for _, err := range []error{bounds.CheckMoveCap(ev.MoveCap), bounds.CheckConcurrency(ev.Concurrency)} {
		if err != nil {
			return ev.settingErr(err)
		}
	}
	if n := ev.WithdrawAfter; n != nil && *n < 0 {
		return ev.ErrAt("withdraw_after", "must not be negative (0 never withdraws)")
	}
	if b := ev.ByePoints; b != nil && *b != 0 && *b != 0.5 && *b != 1 {
		return ev.ErrAt("bye_points", "must be 0, 0.5 or 1 (a loss, a draw or a win)")
	}
	if _, err := standings.ParseTiebreaks(ev.Tiebreaks); err != nil {
		return ev.ErrAt("tiebreaks", err.Error())
	}
	if err := ev.checkClock("clock", ev.Clock); err != nil {
		return err
	}
	if err := ev.checkDuration("start_timeout", ev.StartTimeout); err != nil {
		return err
	}
	if ev.MaxProcesses != nil {
		if err := bounds.CheckProcesses(*ev.MaxProcesses); err != nil {
			return ev.settingErr(err)
		}
	}
	if t := ev.Transcript; t != nil && t.N != 0 && t.N < MinTranscript {
		return ev.ErrAt("transcript", fmt.Sprintf("%d bytes: want 0 (no transcript) or at least %d", t.N, MinTranscript))
	}
	if err := ev.checkRemote(); err != nil {
		return err
	}
	if err := ev.checkDetails(); err != nil {
		return err
	}
	if len(ev.Engines) < 2 {
		return ev.ErrAt("engine", fmt.Sprintf("an event needs at least two [[engine]] tables, found %d", len(ev.Engines)))
	}
	if err := ev.checkScheduleSize(); err != nil {
		return err
	}
	seen := map[string]int{}
	for i, e := range ev.Engines {
		at := func(key string) string { return fmt.Sprintf("engine[%d].%s", i, key) }
		if e.Name == "" {
			return ev.ErrAt(at("name"), "missing")
		}
		if err := CheckName(e.Name); err != nil {
			return ev.ErrAt(at("name"), err.Error())
		}
		if j, dup := seen[e.Name]; dup {
			return ev.ErrAt(at("name"), fmt.Sprintf("duplicate engine name %q (also engine[%d])", e.Name, j))
		}
		seen[e.Name] = i
		switch {
		case e.Remote && (e.Command != "" || len(e.Args) > 0 || e.Dir != "" || len(e.Env) > 0):
			return ev.ErrAt(at("command"), fmt.Sprintf("engine %q: a remote engine runs on its entrant's machine (arena connect): no command, args, dir or env here", e.Name))
		case e.Remote:
		case e.Command == "":
			// That the program exists, or the bundled engine it names, is
			// checked where the engines are built (package event).
			return ev.ErrAt(at("command"), fmt.Sprintf("engine %q: missing", e.Name))
		}
		if err := ev.checkFiles(i, e); err != nil {
			return err
		}
		for _, kv := range e.Env {
			if err := CheckEnv(kv); err != nil {
				return ev.ErrAt(at("env"), fmt.Sprintf("engine %q: %v", e.Name, err))
			}
		}
		for k, v := range e.Info {
			if err := CheckInfo(k, v); err != nil {
				return ev.ErrAt(at("info."+k), fmt.Sprintf("engine %q: %v", e.Name, err))
			}
		}
		if e.Rating < 0 {
			return ev.ErrAt(at("rating"), fmt.Sprintf("engine %q: must not be negative", e.Name))
		}
		if e.MaxProcesses != nil {
			var se *bounds.SettingError
			if err := bounds.CheckProcesses(*e.MaxProcesses); errors.As(err, &se) {
				return ev.ErrAt(at(se.Setting), fmt.Sprintf("engine %q: %s", e.Name, se.Problem))
			}
		}
		if e.Clock != nil {
			if err := ev.checkClock(at("clock"), *e.Clock); err != nil {
				return err
			}
		}
		if err := ev.checkControl(i); err != nil {
			return err
		}
	}
	return nil
}

// ClockOf is the clock engine i plays under: the defaults, the event's
// [clock], the engine's own [engine.clock] on top, and for a remote engine
// the network allowance added to its tolerance. Parse has checked it
// (clock.Control.Validate).
func (ev *Event) ClockOf(i int) clock.Control {
	e := ev.Engines[i]
	c := clock.Default()
	for _, layer := range []*Clock{&ev.Clock, e.Clock} {
		if layer == nil {
			continue
		}
		for _, f := range layer.fields() {
			if f.d != nil {
				*f.of(&c) = f.d.Duration
			}
		}
	}
	if a := ev.Remote.Allowance; e.Remote && a != nil {
		c.Tolerance += a.Duration
	}
	return c
}

// clockField is one key of a [clock] table and the setting of a
// clock.Control it gives.
type clockField struct {
	key string // as clock.SettingError names it
	d   *Duration
	of  func(*clock.Control) *time.Duration
}

func (c *Clock) fields() []clockField {
	return []clockField{
		{"match", c.Match, func(x *clock.Control) *time.Duration { return &x.Match }},
		{"turn", c.Turn, func(x *clock.Control) *time.Duration { return &x.Turn }},
		{"increment", c.Increment, func(x *clock.Control) *time.Duration { return &x.Increment }},
		{"tolerance", c.Tolerance, func(x *clock.Control) *time.Duration { return &x.Tolerance }},
		{"hang", c.Hang, func(x *clock.Control) *time.Duration { return &x.Hang }},
	}
}

// checkControl checks the clock engine i plays under as a whole (clock's
// own rules, such as an increment needing a match time), naming the line
// that sets the setting at fault: the engine's own clock, else the
// event's.
func (ev *Event) checkControl(i int) error {
	err := ev.ClockOf(i).Validate()
	var se *clock.SettingError
	if err == nil || !errors.As(err, &se) {
		return err
	}
	key := "clock." + se.Setting
	if own := ev.Engines[i].Clock; own != nil {
		for _, f := range own.fields() {
			if f.key == se.Setting && f.d != nil {
				key = fmt.Sprintf("engine[%d].clock.%s", i, se.Setting)
			}
		}
	}
	if se.Setting == "tolerance" && ev.Engines[i].Remote && ev.Remote.Allowance != nil {
		key = "remote.network_allowance"
	}
	return ev.ErrAt(key, fmt.Sprintf("engine %q: %s", ev.Engines[i].Name, se.Problem))
}

// CheckName refuses an engine's name that holds control characters: it is
// printed, and written into records and file names. The command lines
// check theirs with it too, naming the argument or token.
func CheckName(name string) error {
	if strings.IndexFunc(name, unicode.IsControl) >= 0 {
		return fmt.Errorf("engine %q: a name must not hold control characters", name)
	}
	return nil
}

// CheckEnv refuses an engine's environment setting that is not KEY=VALUE
// with a key. The command lines check theirs with it too, naming the flag.
func CheckEnv(kv string) error {
	if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
		return fmt.Errorf("%q: want KEY=VALUE", kv)
	}
	return nil
}

// CheckInfo refuses an INFO line the protocol cannot carry as one: a key
// that is not one word, or a key or value on more than one line. The
// command lines check theirs with it too, naming the flag.
func CheckInfo(key, value string) error {
	if strings.ContainsAny(key+value, "\r\n") || strings.ContainsAny(key, " \t") || key == "" {
		return fmt.Errorf("INFO %q %q must be one word and one line", key, value)
	}
	return nil
}

// checkMiniMatches allows openings_per_pairing where a mini-match means
// one thing: a round robin or a gauntlet, named as such, whose games start
// from the arbiter's openings. A double round robin would play every
// opening of a pair twice with each colour, a Swiss pairs one game at a
// time from the results, and an opening procedure lets the engines choose
// the colours: each is refused rather than given a meaning of its own.
func (ev *Event) checkMiniMatches() error {
	n := ev.OpeningsPerPairing
	switch {
	case n == 0:
		return nil
	case n < 0:
		return ev.ErrAt("openings_per_pairing", "must not be negative (0: one game per pairing)")
	case n > bounds.MaxOpeningsPerPairing:
		return ev.ErrAt("openings_per_pairing", fmt.Sprintf("%d: at most %d", n, bounds.MaxOpeningsPerPairing))
	}
	switch ev.Format {
	case "round-robin", "gauntlet":
	case "double-round-robin":
		return ev.ErrAt("openings_per_pairing", "a double round robin would play each opening twice with each colour: use format = \"round-robin\", whose mini-matches already give every opening both colours")
	case "swiss":
		return ev.ErrAt("openings_per_pairing", "a Swiss pairs one game at a time from the results: mini-matches are for format = \"round-robin\" or \"gauntlet\"")
	default:
		return ev.ErrAt("openings_per_pairing", fmt.Sprintf("format %q: name the format of a league, \"round-robin\" or \"gauntlet\"", ev.Format))
	}
	if ev.OpeningProcedure != rules.NoProcedure {
		return ev.ErrAt("openings_per_pairing", fmt.Sprintf("opening_procedure %q lets the engines choose the colours: a mini-match plays each opening with both colours, from the arbiter's openings (opening_procedure = \"none\")", ev.OpeningProcedure))
	}
	return nil
}

// checkScheduleSize refuses an event whose schedule is more games than
// bounds.MaxGames: the schedule is laid out in memory before the first
// game, and a round robin's grows with the square of its entrants.
func (ev *Event) checkScheduleSize() error {
	n := len(ev.Engines)
	f, err := pairing.ParseFormat(ev.Format)
	if err != nil {
		return nil // said by the format's own check
	}
	games := 0
	switch pairing.Resolve(f, n) {
	case pairing.SwissFormat:
		rounds := ev.Rounds
		if rounds == 0 {
			rounds = pairing.DefaultSwissRounds
		}
		games = rounds * ((n + 1) / 2)
	case pairing.GauntletFormat:
		games = n - 1
	case pairing.RoundRobinFormat:
		games = n * (n - 1) / 2
	default:
		games = n * (n - 1)
	}
	if ev.OpeningsPerPairing > 0 {
		games *= 2 * ev.OpeningsPerPairing // a mini-match per pairing
	}
	if games > bounds.MaxGames {
		return ev.ErrAt("engine", fmt.Sprintf("%d engines in a %s event make %d games, more than the %d one event may hold", n, pairing.Resolve(f, n), games, bounds.MaxGames))
	}
	return nil
}

func (ev *Event) checkRemote() error {
	r := &ev.Remote
	if r.Listen == "" {
		r.Listen = DefaultListen
	}
	if (r.Cert == "") != (r.Key == "") {
		return ev.ErrAt("remote.cert", "cert and key go together: both files, or neither (one is generated)")
	}
	for _, d := range []struct {
		key string
		d   *Duration
	}{{"remote.grace", r.Grace}, {"remote.network_allowance", r.Allowance}} {
		if err := ev.checkDuration(d.key, d.d); err != nil {
			return err
		}
	}
	if r.MaxDisconnects != nil && *r.MaxDisconnects < 0 {
		return ev.ErrAt("remote.max_disconnects", "must not be negative")
	}
	return nil
}

// RemoteNames are the names of the remote entrants.
func (ev *Event) RemoteNames() []string {
	var out []string
	for _, e := range ev.Engines {
		if e.Remote {
			out = append(out, e.Name)
		}
	}
	return out
}

// GracePeriod is how long a remote entrant may stay away during a game.
func (r Remote) GracePeriod() time.Duration {
	if r.Grace == nil {
		return DefaultGrace
	}
	return r.Grace.Duration
}

// Disconnects is how many disconnections a remote entrant may have in one
// game.
func (r Remote) Disconnects() int {
	if r.MaxDisconnects == nil {
		return DefaultMaxDisconnects
	}
	return *r.MaxDisconnects
}

func (ev *Event) checkClock(key string, c Clock) error {
	for _, f := range c.fields() {
		if err := ev.checkDuration(key+"."+f.key, f.d); err != nil {
			return err
		}
	}
	return nil
}

// checkDuration refuses a negative duration, and one too long for the
// clocks and the protocol: clock.CheckDuration, the rule the command lines'
// durations are held to too.
func (ev *Event) checkDuration(key string, d *Duration) error {
	if d == nil {
		return nil
	}
	if err := clock.CheckDuration(d.Duration); err != nil {
		return ev.ErrAt(key, err.Error())
	}
	return nil
}

// settingErr is err at the line of the key it names, when it is a
// setting's (bounds.SettingError, whose setting names it as the file's key
// does), else err.
func (ev *Event) settingErr(err error) error {
	var se *bounds.SettingError
	if errors.As(err, &se) {
		return ev.ErrAt(se.Setting, se.Problem)
	}
	return err
}

// Resolve makes a path written in the config relative to the config's folder.
func (ev *Event) Resolve(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(filepath.Dir(ev.File), p)
}

// OutputDir is the event's output folder: as configured (relative to the
// config's folder), or out/NAME in the current directory.
func (ev *Event) OutputDir() string {
	if ev.Output == "" {
		return filepath.Join("out", ev.Name)
	}
	return ev.Resolve(ev.Output)
}

// Command is the program to run for e: a builtin spec as it is, a bare
// name to be looked up in PATH, or a path relative to the config's folder.
func (ev *Event) Command(e Engine) string {
	if strings.HasPrefix(e.Command, "builtin:") || !strings.ContainsRune(e.Command, '/') {
		return e.Command
	}
	p := ev.Resolve(e.Command)
	if !strings.ContainsRune(p, '/') {
		p = "./" + p // still a path, never a name looked up in PATH
	}
	return p
}

// ErrAt is an error at the line where key is written, such as
// "event.toml:12: engine[1].command: ...": the checks of settings that only
// the builder of engines can make (package event) report with it. Keys of
// [[engine]] tables are written engine[i].key with i counted from 0.
func (ev *Event) ErrAt(key, msg string) error {
	exact, near := lineOf(ev.src, key)
	if line := max(exact, near); line > 0 {
		return fmt.Errorf("%s:%d: %s: %s", ev.File, line, key, msg)
	}
	return fmt.Errorf("%s: %s: %s", ev.File, key, msg)
}

// setsKey reports whether line n of src sets the last part of the dotted
// key.
func setsKey(src []byte, n int, key string) bool {
	lines := strings.Split(string(src), "\n")
	if key == "" || n < 1 || n > len(lines) {
		return false
	}
	k, v, ok := strings.Cut(lines[n-1], "=")
	return ok && strings.TrimSpace(k) == key[strings.LastIndexByte(key, '.')+1:] && v != ""
}

// lineOf finds the line that sets key (a dotted path; engine[i] names the
// i-th [[engine]] table). It knows just enough TOML for config files:
// table headers, arrays of tables, and "key =" lines. It returns 0 when it
// cannot tell. When the key is not written (a missing value), near is the
// line of the table it belongs in.
func lineOf(src []byte, key string) (exact, near int) {
	want := strings.Split(key, ".")
	engineIdx := -1
	var table []string
	for n, raw := range bytes.Split(src, []byte("\n")) {
		line := strings.TrimSpace(string(raw))
		switch {
		case strings.HasPrefix(line, "[["):
			name := strings.TrimSpace(strings.Trim(line, "[] "))
			if name == "engine" {
				engineIdx++
			}
			table = strings.Split(name, ".")
		case strings.HasPrefix(line, "["):
			table = strings.Split(strings.TrimSpace(strings.Trim(line, "[] ")), ".")
		case strings.Contains(line, "="):
			k := strings.Trim(strings.TrimSpace(line[:strings.Index(line, "=")]), `"`)
			path := append(append([]string(nil), table...), strings.Split(k, ".")...)
			if len(path) > 0 && path[0] == "engine" {
				path[0] = fmt.Sprintf("engine[%d]", engineIdx)
			}
			if strings.Join(path, ".") == strings.Join(want, ".") {
				return n + 1, 0
			}
			continue
		default:
			continue
		}
		// A header line: remember the table's own line for keys missing in it.
		head := append([]string(nil), table...)
		if len(head) > 0 && head[0] == "engine" {
			head[0] = fmt.Sprintf("engine[%d]", engineIdx)
		}
		if len(want) > len(head) && strings.Join(want[:len(head)], ".") == strings.Join(head, ".") {
			near = n + 1
		}
	}
	return 0, near
}
