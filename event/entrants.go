package event

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"gomoku-arena/arbiter"
	"gomoku-arena/clock"
	"gomoku-arena/engine"
	"gomoku-arena/internal/bundled"
	"gomoku-arena/internal/config"
	"gomoku-arena/rules"
)

// A config in arbiter terms: an engine table becomes an entrant with its
// limits, sandbox, INFO lines and clock; the opening settings become the
// stones each pairing starts from.

// checkEngines makes the checks of the engine tables that need what runs
// engines, which the config (a leaf) does not import: every program exists
// (where the command names a folder of Gomocup builds, the one for the rule
// and size), a builtin names a bundled engine, and no two names share a
// working folder and transcript (engine.FolderName: one name, one file,
// whether or not a dir is given). Each error names the config's file, line
// and key.
func checkEngines(cfg *config.Event) error {
	names := make([]string, len(cfg.Engines))
	for i, e := range cfg.Engines {
		names[i] = e.Name
	}
	if i, j := sharedFolder(names); i >= 0 {
		folder := engine.FolderName(names[i])
		return cfg.ErrAt(fmt.Sprintf("engine[%d].name", i), fmt.Sprintf("engine %q would share the working folder %q and transcript %q with engine %d (%q); file names keep only letters, digits and . _ - + #",
			names[i], folder, folder+".log", j+1, names[j]))
	}
	rule := cfg.Game()
	if rule == nil {
		return cfg.ErrAt("rule", fmt.Sprintf("no rule %q", cfg.Rule))
	}
	for i, e := range cfg.Engines {
		if e.Remote {
			continue
		}
		if _, err := runnable(engine.Spec{Name: e.Name, Command: cfg.Command(e)}, rule, cfg.Size); err != nil {
			return cfg.ErrAt(fmt.Sprintf("engine[%d].command", i), err.Error())
		}
	}
	return nil
}

// sharedFolder finds the first name whose working folder
// (engine.FolderName) an earlier name has: later and earlier index names,
// or -1, -1 when every name has a folder and a transcript of its own.
func sharedFolder(names []string) (later, earlier int) {
	folders := map[string]int{}
	for i, n := range names {
		f := engine.FolderName(n)
		if j, dup := folders[f]; dup {
			return i, j
		}
		folders[f] = i
	}
	return -1, -1
}

// runnable is the program spec runs, checked before anything is played:
// where its command names a folder of Gomocup builds, the build for the
// rule and size (engine.GomocupBuild); a program that exists, or a bundled
// engine (bundled.Check). The error names the engine.
func runnable(spec engine.Spec, rule rules.Rule, size int) (string, error) {
	c, err := engine.GomocupBuild(spec.Command, rule.Code(), size)
	if err != nil {
		return "", fmt.Errorf("engine %q: %w", spec.Name, err)
	}
	spec.Command = c
	return c, bundled.Check(spec)
}

// entrants are the engines of the event, confined as it says (confine),
// and notices when their sandbox could not be set up and they run
// unconfined, or when their freeze falls back to signals.
func entrants(cfg *config.Event, out string) ([]arbiter.Entrant, []string, error) {
	ents := make([]arbiter.Entrant, len(cfg.Engines))
	files := make([][]string, len(cfg.Engines))
	remote := make([]bool, len(cfg.Engines))
	for i := range cfg.Engines {
		s, err := engineSettings(cfg, i, out)
		if err != nil {
			return nil, nil, err
		}
		ents[i], files[i], remote[i] = s.Entrant(), s.Files, s.Remote
		if err := engine.CheckWorkDir(ents[i].Spec); err != nil {
			return nil, nil, fmt.Errorf("%s: engine %q: %w", cfg.File, s.Name, err)
		}
	}
	org := organizers{Hide: []string{out, cfg.File}, Private: []string{filepath.Dir(cfg.File)}}
	for _, f := range []string{cfg.Openings, cfg.Remote.Cert, cfg.Remote.Key} {
		if f != "" {
			org.Hide = append(org.Hide, cfg.Resolve(f))
		}
	}
	notices, err := confine(ents, files, remote, Confinement{Sandbox: cfg.Sandbox, FreezeIdle: cfg.FreezeIdle}, org, cfg.File)
	return ents, notices, err
}

// EngineSettings are one engine's settings, typed, as every front end
// gives them: an event file's [[engine]] table under the event's own
// settings, arena match's and arena check's flags, c-gomoku-cli's tokens.
// Each front end keeps its own words for them and its own defaults where
// its users expect them (c-gomoku-cli tells maxmemory= without holding
// it); Entrant is the one builder of what the arbiter plays from them.
type EngineSettings struct {
	Name    string
	Command string // a program, builtin:NAME, or a folder of Gomocup builds
	Args    []string
	// Dir is the working folder; "" is the front end's: an event's or a
	// match's OUT/engines/NAME, else a fresh temporary one per process.
	// Within is the folder Dir lies in that the arena made (the output
	// folder): below it no link is followed (engine.WorkDir); "" for a
	// folder the organizer named, taken as named.
	Dir, Within string
	Env         []string
	// Files are the files and folders beside its program that the engine
	// needs (weights, settings), as absolute or resolved paths: a sandbox
	// shows them read-only, and hides them from its rivals.
	Files []string
	Clock clock.Control
	// StartTimeout bounds START (0: the engine's default, applied in one
	// place, engine.Spec.StartWithin).
	StartTimeout time.Duration
	// Limits are held by the arbiter; a memory limit is also told
	// (max_memory), unless Info replaces it. 0 is none, and tells nothing.
	Limits                 engine.Limits
	BoardMode, Swap2Colors bool
	// TellMemory is a max_memory told without being held (c-gomoku-cli's
	// maxmemory=); Threads, Depth and Nodes, when above 0, are told as
	// thread_num, max_depth and max_node.
	TellMemory            int64
	Threads, Depth, Nodes int64
	// Info are the engine's own INFO lines, in the order given: a later
	// line replaces an earlier one of its key, and any replaces what the
	// arena would tell (engine.Once).
	Info []engine.Info
	// Remote: the engine runs on its entrant's machine; here its relay
	// runs (package remote), held to Limits and told nothing of them.
	Remote bool
}

// Entrant is the entrant the arbiter plays from s: the program and its
// folder, environment, limits, clock, and INFO lines (the memory limit's
// max_memory, then Info, each key told once).
func (s EngineSettings) Entrant() arbiter.Entrant {
	spec := engine.Spec{Name: s.Name, Command: s.Command, Args: s.Args, Dir: s.Dir, Within: s.Within, Env: s.Env, StartTimeout: s.StartTimeout, Limits: s.Limits, Files: s.Files}
	ent := arbiter.Entrant{Spec: spec, BoardMode: s.BoardMode, Swap2Colors: s.Swap2Colors, Clock: s.Clock}
	var infos []engine.Info
	tell := s.TellMemory
	if s.Limits.Memory > 0 && !s.Remote {
		tell = s.Limits.Memory
	}
	if tell > 0 && !slices.ContainsFunc(s.Info, func(in engine.Info) bool { return strings.EqualFold(in.Key, engine.KeyMaxMemory) }) {
		infos = append(infos, engine.MaxMemory(tell))
	}
	for _, l := range []struct {
		n    int64
		info func(int64) engine.Info
	}{{s.Threads, engine.ThreadNum}, {s.Depth, engine.MaxDepth}, {s.Nodes, engine.MaxNode}} {
		if l.n > 0 {
			infos = append(infos, l.info(l.n))
		}
	}
	if infos = engine.Once(append(infos, s.Info...)); len(infos) > 0 {
		ent.Infos = infos
	}
	return ent
}

// Entrants are the entrants of list (EngineSettings.Entrant).
func Entrants(list []EngineSettings) []arbiter.Entrant {
	ents := make([]arbiter.Entrant, len(list))
	for i, s := range list {
		ents[i] = s.Entrant()
	}
	return ents
}

// engineSettings are the settings of engine i of the event: its table's
// over the event's, with the event's defaults (Gomocup's memory limit,
// engine.Limits.OrGomocup; the working folder OUT/engines/NAME), and its
// program resolved (program).
func engineSettings(cfg *config.Event, i int, out string) (EngineSettings, error) {
	e := cfg.Engines[i]
	s := EngineSettings{Name: e.Name, Args: e.Args, Dir: cfg.Resolve(e.Dir), Env: e.Env, Clock: cfg.ClockOf(i),
		BoardMode: e.BoardMode, Swap2Colors: e.Swap2Colors, Remote: e.Remote}
	for _, f := range e.Files {
		s.Files = append(s.Files, cfg.Resolve(f))
	}
	if s.Dir == "" || e.Remote { // below the output folder, no link is followed
		s.Dir, s.Within = filepath.Join(out, "engines", engine.FolderName(e.Name)), out
	}
	if e.Remote {
		s.Command, s.Args, s.Env = "builtin:relay", []string{e.Name}, nil
	} else {
		var err error
		if s.Command, err = program(cfg, i); err != nil {
			return s, err
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

// program is the program engine i runs: its command, or where the command
// names a folder of Gomocup builds, the build for the event's rule and size
// (engine.GomocupBuild).
func program(cfg *config.Event, i int) (string, error) {
	e := cfg.Engines[i]
	rule := cfg.Game()
	if rule == nil {
		return "", cfg.ErrAt("rule", fmt.Sprintf("no rule %q", cfg.Rule))
	}
	c, err := engine.GomocupBuild(cfg.Command(e), rule.Code(), cfg.Size)
	if err != nil {
		return "", cfg.ErrAt(fmt.Sprintf("engine[%d].command", i), fmt.Sprintf("engine %q: %v", e.Name, err))
	}
	return c, nil
}

// openings are the stones each pairing starts from: the config's opening
// list, or the rule's own (readOpenings).
func openings(cfg *config.Event, rule rules.Rule) ([][]rules.Point, error) {
	list, err := readOpenings(cfg.Resolve(cfg.Openings), "", rule, cfg.Size, cfg.OpeningPolicy)
	if _, unread := errors.AsType[*fs.PathError](err); unread {
		return nil, cfg.ErrAt("openings", err.Error()) // the file, not its contents
	}
	if err != nil {
		return nil, err
	}
	var out [][]rules.Point
	for _, o := range list {
		out = append(out, o.Stones)
	}
	return out, nil
}

// EngineSettingsOf are the settings of every engine of cfg, as the event
// builds its entrants from them (before their sandbox).
func EngineSettingsOf(cfg *config.Event) ([]EngineSettings, error) {
	list := make([]EngineSettings, len(cfg.Engines))
	for i := range cfg.Engines {
		var err error
		if list[i], err = engineSettings(cfg, i, cfg.OutputDir()); err != nil {
			return nil, err
		}
	}
	return list, nil
}
