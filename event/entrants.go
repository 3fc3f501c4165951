package event

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"

	"gomoku-arena/arbiter"
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
	rule, err := rules.ByName(cfg.Rule)
	if err != nil {
		return err
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
	for i, e := range cfg.Engines {
		var err error
		if ents[i], err = entrant(cfg, i, out); err != nil {
			return nil, nil, err
		}
		for _, f := range e.Files {
			files[i] = append(files[i], cfg.Resolve(f))
		}
		remote[i] = e.Remote
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

// entrant is engine i of the event, unconfined.
func entrant(cfg *config.Event, i int, out string) (arbiter.Entrant, error) {
	e := cfg.Engines[i]
	if e.Remote {
		return remoteEntrant(cfg, i, out), nil
	}
	dir := cfg.Resolve(e.Dir)
	if dir == "" {
		dir = filepath.Join(out, "engines", engine.FolderName(e.Name))
	}
	command, err := program(cfg, i)
	if err != nil {
		return arbiter.Entrant{}, err
	}
	spec := engine.Spec{Name: e.Name, Command: command, Args: e.Args, Dir: dir, Env: e.Env}
	if cfg.StartTimeout != nil {
		spec.StartTimeout = cfg.StartTimeout.Duration
	}
	spec.Limits = engine.Limits{Memory: engine.DefaultMaxMemory}
	// The event's limits, then the engine's own on top.
	for _, l := range []struct {
		memory, hard *config.Bytes
		processes    *int
	}{{cfg.MaxMemory, cfg.HardMemory, cfg.MaxProcesses}, {e.MaxMemory, e.HardMemory, e.MaxProcesses}} {
		if l.memory != nil {
			spec.Limits.Memory = l.memory.N
		}
		if l.hard != nil {
			spec.Limits.HardMemory = l.hard.N
		}
		if l.processes != nil {
			spec.Limits.Processes = *l.processes
		}
	}
	ent := arbiter.Entrant{Spec: spec, BoardMode: e.BoardMode, Clock: cfg.ClockOf(i)}
	ent.Swap2Colors = e.Swap2Colors
	if _, set := e.Info[engine.KeyMaxMemory]; !set {
		ent.Infos = append(ent.Infos, engine.MaxMemory(spec.Limits.Memory))
	}
	keys := make([]string, 0, len(e.Info))
	for k := range e.Info {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		ent.Infos = append(ent.Infos, engine.Info{Key: k, Value: e.Info[k]})
	}
	return ent, nil
}

// remoteEntrant is a remote engine e: its program is the relay (package
// remote), a local process the driver treats like any engine, so clocks,
// checks and records are the same as a local engine's. Nothing of the
// entrant's runs here, so there is nothing to confine or freeze (it may
// ponder on its own machine); its clock has the network allowance added to
// its tolerance (config.Event.ClockOf).
func remoteEntrant(cfg *config.Event, i int, out string) arbiter.Entrant {
	e := cfg.Engines[i]
	spec := engine.Spec{Name: e.Name, Command: "builtin:relay", Args: []string{e.Name}, Dir: filepath.Join(out, "engines", engine.FolderName(e.Name))}
	if cfg.StartTimeout != nil {
		spec.StartTimeout = cfg.StartTimeout.Duration
	}
	spec.Limits = engine.Limits{Memory: engine.DefaultMaxMemory}
	ent := arbiter.Entrant{Spec: spec, BoardMode: e.BoardMode, Clock: cfg.ClockOf(i), Swap2Colors: e.Swap2Colors}
	keys := make([]string, 0, len(e.Info))
	for k := range e.Info {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		ent.Infos = append(ent.Infos, engine.Info{Key: k, Value: e.Info[k]})
	}
	return ent
}

// program is the program engine i runs: its command, or where the command
// names a folder of Gomocup builds, the build for the event's rule and size
// (engine.GomocupBuild).
func program(cfg *config.Event, i int) (string, error) {
	e := cfg.Engines[i]
	rule, err := rules.ByName(cfg.Rule)
	if err != nil {
		return "", err
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
