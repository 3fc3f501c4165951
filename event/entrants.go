package event

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"gomoku-arena/arbiter"
	"gomoku-arena/clock"
	"gomoku-arena/engine"
	"gomoku-arena/internal/bundled"
	"gomoku-arena/internal/config"
	"gomoku-arena/rules"
)

// An event's settings in arbiter terms: each engine's settings become an
// entrant with its limits, sandbox, INFO lines and clock; the opening
// settings become the stones each pairing starts from.

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

// entrants are the engines of the event played in the folder out,
// confined as it says (confine), and notices when their sandbox could not
// be set up and they run unconfined, or when their freeze falls back to
// signals.
func entrants(s *EventSettings, out string) ([]arbiter.Entrant, []string, error) {
	list := s.engines(out)
	ents := make([]arbiter.Entrant, len(list))
	files := make([][]string, len(list))
	remote := make([]bool, len(list))
	for i, e := range list {
		ents[i], files[i], remote[i] = e.Entrant(), e.Files, e.Remote
		if err := engine.CheckWorkDir(ents[i].Spec); err != nil {
			return nil, nil, fmt.Errorf("%s: engine %q: %w", s.File, e.Name, err)
		}
	}
	org := organizers{Hide: []string{out, s.File}, Private: []string{filepath.Dir(s.File)}}
	for _, f := range []string{s.Openings, s.Remote.CertFile, s.Remote.KeyFile} {
		if f != "" {
			org.Hide = append(org.Hide, f)
		}
	}
	notices, err := confine(ents, files, remote, s.Confinement, org, s.File)
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

// openings are the stones each pairing starts from: the event's opening
// list, or the rule's own (readOpenings).
func openings(s *EventSettings) ([][]rules.Point, error) {
	list, err := readOpenings(s.Openings, s.OpeningsFormat, s.Rule, s.Size, s.Policy)
	if _, unread := errors.AsType[*fs.PathError](err); unread {
		return nil, s.errAt("openings", err.Error()) // the file, not its contents
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
	s, err := SettingsOf(cfg)
	if err != nil {
		return nil, err
	}
	return s.engines(s.Out), nil
}
