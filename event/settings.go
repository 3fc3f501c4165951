package event

import (
	"fmt"
	"path/filepath"
	"sort"
	"time"

	"gomoku-arena/arbiter"
	"gomoku-arena/check"
	"gomoku-arena/engine"
	"gomoku-arena/internal/config"
	"gomoku-arena/pairing"
	"gomoku-arena/rules"
)

// Settings are what an event and a match have in common, typed: the one
// value every front end parses its own words into (an event file's keys,
// arena match's and arena check's flags, c-gomoku-cli's tokens). An
// event's settings (EventSettings) and a match's (MatchSetup) hold it and
// add their own; past the front ends nothing parses a rule, a format or a
// clock again.
type Settings struct {
	Name    string // the event's or the match's name in its records
	Rule    rules.Rule
	Size    int
	Engines []EngineSettings // built by EngineSettings.Entrant
	// StartTimeout bounds START (0: the engine's default, applied in one
	// place, engine.Spec.StartWithin).
	StartTimeout time.Duration
	MoveCap      int             // a draw after this many stones; 0 none
	Concurrency  int             // games at once
	Lifetime     config.Lifetime // how long an engine process lives (process_lifetime)
	Procedure    rules.Procedure
	// The openings: the list in Openings, a path (format "offset", "pos"
	// or "" for detected per line), or without one the rule's own
	// (RuleOpenings) or the empty board; Policy is outer-open's opening
	// policy; Seed shuffles their deal.
	Openings, OpeningsFormat string
	Policy                   config.Policy
	RuleOpenings             bool
	Seed                     uint64
	Confinement              Confinement
	// Out is the folder of event.json, the journal and the games ("" none,
	// for a match only).
	Out string
}

// direct sets on d what a director takes of s beyond its engines.
func (s *Settings) direct(d *arbiter.Director) {
	d.StartTimeout, d.MoveCap, d.Procedure, d.Concurrency = s.StartTimeout, s.MoveCap, s.Procedure, s.Concurrency
	d.Lifetime = lifetime(s.Lifetime)
}

// CheckSettings are the settings as package check takes them (the rule,
// the board, how games open, the start timeout): the caller adds its own
// games, concurrency and memory.
func (s *Settings) CheckSettings() check.Settings {
	return check.Settings{Rule: s.Rule, Size: s.Size, ArbiterOpens: s.Policy == config.PolicyArbiterOpens,
		Procedure: s.Procedure, StartTimeout: s.StartTimeout}
}

// EventSettings are an event's settings: the settings it shares with a
// match, and its own (the pairing format, rounds, tie-breaks, withdrawals,
// mini-matches, transcripts, remote entrants, the organizer's details).
// SettingsOf makes them from an event file.
type EventSettings struct {
	Settings
	// File is the event file: errors name it, and a sandbox hides it and
	// its folder.
	File               string
	Format             pairing.Format // as the file names it ("auto" resolved by the entrants' count)
	Rounds             int            // a Swiss's rounds
	ByePoints          *float64       // nil: the schedule's default
	Tiebreaks          []string       // checked names (standings.ParseTiebreaks)
	WithdrawAfter      int            // failed starts in a row before a Swiss withdrawal; 0 never (config.DefaultWithdrawAfter)
	OpeningsPerPairing int            // a mini-match of twice this many games per pairing; 0 one game
	Transcript         int64          // each engine's transcript's size before rotation; 0 none
	Remote             RemoteSettings
	Details            config.Details
	Ratings            []int // per engine, in Engines' order: its Elo, 0 when none is given

	// written is what event.json keeps as the file wrote it, so that the
	// event stays the same event when it is continued from another working
	// directory: the opening list and each engine's command and folder.
	written struct {
		openings     string
		command, dir []string
	}
	// at is the error at the file's line that gives key (config.Event.ErrAt).
	at func(key, msg string) error
}

// RemoteSettings are the server remote entrants connect to (the [remote]
// table), its files resolved.
type RemoteSettings struct {
	Listen            string
	CertFile, KeyFile string // none: a certificate is generated
	Grace             time.Duration
	MaxDisconnects    int
}

// SettingsOf are the settings of a checked event file, with the event's
// defaults: each engine's table over the event's (the clock, the limits
// with Gomocup's memory limit, engine.Limits.OrGomocup), its program
// resolved and its paths made relative to the file's folder. It makes the
// checks that need what runs engines, which the config (a leaf) does not
// import: every program exists (where the command names a folder of Gomocup
// builds, the build for the rule and size), a builtin names a bundled
// engine, and no two names share a working folder and transcript
// (engine.FolderName: one name, one file, whether or not a dir is given).
// Each error names the file, the line and the key.
func SettingsOf(cfg *config.Event) (*EventSettings, error) {
	rule := cfg.Game()
	if rule == nil {
		return nil, cfg.ErrAt("rule", fmt.Sprintf("no rule %q", cfg.Rule))
	}
	format, err := pairing.ParseFormat(cfg.Format)
	if err != nil {
		return nil, cfg.ErrAt("format", err.Error())
	}
	s := &EventSettings{
		Settings: Settings{Name: cfg.Name, Rule: rule, Size: cfg.Size, MoveCap: cfg.MoveCap, Concurrency: cfg.Concurrency,
			Lifetime: cfg.ProcessLifetime, Procedure: cfg.OpeningProcedure,
			Openings: cfg.Resolve(cfg.Openings), Policy: cfg.OpeningPolicy, RuleOpenings: true, Seed: uint64(cfg.Seed),
			Confinement: Confinement{Sandbox: cfg.Sandbox, FreezeIdle: cfg.FreezeIdle}, Out: cfg.OutputDir()},
		File: cfg.File, Format: format, Rounds: cfg.Rounds, ByePoints: cfg.ByePoints, Tiebreaks: cfg.Tiebreaks,
		WithdrawAfter: *cfg.WithdrawAfter, OpeningsPerPairing: cfg.OpeningsPerPairing, Details: cfg.Details, at: cfg.ErrAt}
	if s.Rounds == 0 {
		s.Rounds = pairing.DefaultSwissRounds
	}
	if cfg.StartTimeout != nil {
		s.StartTimeout = cfg.StartTimeout.Duration
	}
	if cfg.Transcript != nil {
		s.Transcript = cfg.Transcript.N
	}
	r := cfg.Remote
	s.Remote = RemoteSettings{Listen: r.Listen, CertFile: cfg.Resolve(r.Cert), KeyFile: cfg.Resolve(r.Key), Grace: r.GracePeriod(), MaxDisconnects: r.Disconnects()}
	s.written.openings = cfg.Openings

	names := make([]string, len(cfg.Engines))
	for i, e := range cfg.Engines {
		names[i] = e.Name
	}
	if i, j := sharedFolder(names); i >= 0 {
		folder := engine.FolderName(names[i])
		return nil, cfg.ErrAt(fmt.Sprintf("engine[%d].name", i), fmt.Sprintf("engine %q would share the working folder %q and transcript %q with engine %d (%q); file names keep only letters, digits and . _ - + #",
			names[i], folder, folder+".log", j+1, names[j]))
	}
	for i, e := range cfg.Engines {
		es, err := engineSettings(cfg, i, rule)
		if err != nil {
			return nil, err
		}
		s.Engines = append(s.Engines, es)
		s.Ratings = append(s.Ratings, e.Rating)
		s.written.command = append(s.written.command, e.Command)
		s.written.dir = append(s.written.dir, e.Dir)
	}
	return s, nil
}

// engineSettings are the settings of engine i of the event: its table's
// over the event's, with the event's defaults (Gomocup's memory limit,
// engine.Limits.OrGomocup), and its program resolved and checked
// (runnable). Its working folder is left "" where the event gives it
// (engines).
func engineSettings(cfg *config.Event, i int, rule rules.Rule) (EngineSettings, error) {
	e := cfg.Engines[i]
	s := EngineSettings{Name: e.Name, Args: e.Args, Dir: cfg.Resolve(e.Dir), Env: e.Env, Clock: cfg.ClockOf(i),
		BoardMode: e.BoardMode, Swap2Colors: e.Swap2Colors, Remote: e.Remote}
	for _, f := range e.Files {
		s.Files = append(s.Files, cfg.Resolve(f))
	}
	if e.Remote {
		s.Command, s.Args, s.Env, s.Dir = "builtin:relay", []string{e.Name}, nil, ""
	} else {
		var err error
		if s.Command, err = runnable(engine.Spec{Name: e.Name, Command: cfg.Command(e)}, rule, cfg.Size); err != nil {
			return s, cfg.ErrAt(fmt.Sprintf("engine[%d].command", i), err.Error())
		}
	}
	if cfg.StartTimeout != nil {
		s.StartTimeout = cfg.StartTimeout.Duration
	}
	s.Limits = engine.Limits{}.OrGomocup()
	// The event's limits, then the engine's own on top; a remote
	// entrant's relay is held to the event's defaults alone.
	for _, l := range []struct {
		memory, hard *config.Bytes
		processes    *int
	}{{cfg.MaxMemory, cfg.HardMemory, cfg.MaxProcesses}, {e.MaxMemory, e.HardMemory, e.MaxProcesses}} {
		if e.Remote {
			break
		}
		if l.memory != nil {
			s.Limits.Memory = l.memory.N
		}
		if l.hard != nil {
			s.Limits.HardMemory = l.hard.N
		}
		if l.processes != nil {
			s.Limits.Processes = *l.processes
		}
	}
	keys := make([]string, 0, len(e.Info))
	for k := range e.Info {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		s.Info = append(s.Info, engine.Info{Key: k, Value: e.Info[k]})
	}
	return s, nil
}

// engines are the event's engines as it builds its entrants in the
// output folder out: one whose folder the file does not name (and every
// remote entrant's relay) works in OUT/engines/NAME, below which no link
// is followed.
func (s *EventSettings) engines(out string) []EngineSettings {
	list := make([]EngineSettings, len(s.Engines))
	for i, e := range s.Engines {
		if e.Dir == "" {
			e.Dir, e.Within = filepath.Join(out, "engines", engine.FolderName(e.Name)), out
		}
		list[i] = e
	}
	return list
}

// errAt is the error at the file's line that gives key.
func (s *EventSettings) errAt(key, msg string) error {
	if s.at != nil {
		return s.at(key, msg)
	}
	return fmt.Errorf("%s: %s: %s", s.File, key, msg)
}

// RemoteNames are the names of the remote entrants.
func (s *EventSettings) RemoteNames() []string {
	var out []string
	for _, e := range s.Engines {
		if e.Remote {
			out = append(out, e.Name)
		}
	}
	return out
}
