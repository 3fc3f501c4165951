package event

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"gomoku-arena/arbiter"
	"gomoku-arena/clock"
	"gomoku-arena/engine"
	"gomoku-arena/internal/config"
	"gomoku-arena/rules"
	"gomoku-arena/schedule"
)

// A config in arbiter terms: an engine table becomes an entrant with its
// limits, sandbox, INFO lines and clock; the opening settings become the
// stones each pairing starts from.

// entrant is engine e of the event, and notices when its sandbox could not
// be set up and it runs unconfined, or when its freeze falls back to
// signals.
func entrant(cfg *config.Event, e config.Engine, out string) (ent arbiter.Entrant, notices []string, err error) {
	if e.Remote {
		ent, err := remoteEntrant(cfg, e, out)
		return ent, nil, err
	}
	dir := cfg.Resolve(e.Dir)
	if dir == "" {
		dir = filepath.Join(out, "engines", engine.FolderName(e.Name))
	}
	command, err := program(cfg, e)
	if err != nil {
		return arbiter.Entrant{}, nil, err
	}
	spec := engine.Spec{Name: e.Name, Command: command, Args: e.Args, Dir: dir, Env: e.Env}
	if cfg.StartTimeout != nil {
		spec.StartTimeout = cfg.StartTimeout.Duration
	}
	spec.Limits = engine.Limits{Memory: engine.DefaultMaxMemory, FreezeIdle: cfg.FreezeIdle}
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
	if spec.Limits.FreezeIdle {
		if _, err := engine.Freezer(); err != nil {
			notices = append(notices, fmt.Sprintf("freeze_idle: %v; engines are frozen by SIGSTOP to each of their processes, which an engine that keeps starting new ones can dodge", err))
		}
	}
	if cfg.Sandbox != config.SandboxNone {
		bw, err := engine.Bwrap()
		switch {
		case err != nil && cfg.Sandbox == config.SandboxBwrap:
			return arbiter.Entrant{}, nil, fmt.Errorf("%s: %w", cfg.File, err)
		case err != nil:
			notices = append(notices, fmt.Sprintf("%v; engines run unconfined", err))
		default:
			spec.Sandbox = sandbox(bw, cfg, e, out)
			// A layout the sandbox cannot contain is refused before the
			// event begins, under "auto" too: running it unconfined would
			// be the silent failure the setting is there to prevent.
			if err := spec.Sandbox.Check(spec); err != nil {
				return arbiter.Entrant{}, nil, fmt.Errorf("%s: %w", cfg.File, err)
			}
		}
	}
	ent = arbiter.Entrant{Spec: spec, BoardMode: e.BoardMode, Clock: clockOf(cfg.Clock, e.Clock)}
	ent.Swap2Colors = e.Swap2Colors
	if _, set := e.Info["max_memory"]; !set {
		ent.Infos = append(ent.Infos, engine.Info{Key: "max_memory", Value: fmt.Sprint(spec.Limits.Memory)})
	}
	keys := make([]string, 0, len(e.Info))
	for k := range e.Info {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		ent.Infos = append(ent.Infos, engine.Info{Key: k, Value: e.Info[k]})
	}
	return ent, notices, ent.Clock.Validate()
}

// remoteEntrant is a remote engine e: its program is the relay (package
// remote), a local process the driver treats like any engine, so clocks,
// checks and records are the same as a local engine's. Nothing of the
// entrant's runs here, so there is nothing to confine or freeze (it may
// ponder on its own machine); the network allowance is added to its
// tolerance.
func remoteEntrant(cfg *config.Event, e config.Engine, out string) (arbiter.Entrant, error) {
	spec := engine.Spec{Name: e.Name, Command: "builtin:relay", Args: []string{e.Name}, Dir: filepath.Join(out, "engines", engine.FolderName(e.Name))}
	if cfg.StartTimeout != nil {
		spec.StartTimeout = cfg.StartTimeout.Duration
	}
	spec.Limits = engine.Limits{Memory: engine.DefaultMaxMemory}
	ent := arbiter.Entrant{Spec: spec, BoardMode: e.BoardMode, Clock: clockOf(cfg.Clock, e.Clock), Swap2Colors: e.Swap2Colors}
	if a := cfg.Remote.Allowance; a != nil {
		ent.Clock.Tolerance += a.Duration
	}
	keys := make([]string, 0, len(e.Info))
	for k := range e.Info {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		ent.Infos = append(ent.Infos, engine.Info{Key: k, Value: e.Info[k]})
	}
	return ent, ent.Clock.Validate()
}

// sandbox is what a sandboxed engine e is shown besides its program and
// working folder (the files its author declared, files), and what it must
// not see: the event's output folder, its config, openings and TLS files,
// the users' homes, and the other engines' working folders, programs and
// declared files (engine.Sandbox shows it only its own, and hides whatever
// of these lies inside them). The config's folder is the organizer's: no
// folder shown to it may be or hold it.
func sandbox(bw string, cfg *config.Event, e config.Engine, out string) *engine.Sandbox {
	s := &engine.Sandbox{Bwrap: bw, Hide: []string{out, cfg.File, "/root", "/home"}, Private: []string{filepath.Dir(cfg.File)}}
	if home, err := os.UserHomeDir(); err == nil {
		s.Hide = append(s.Hide, home)
	}
	for _, f := range []string{cfg.Openings, cfg.Remote.Cert, cfg.Remote.Key} {
		if f != "" {
			s.Hide = append(s.Hide, cfg.Resolve(f))
		}
	}
	for _, f := range e.Files {
		s.Show = append(s.Show, cfg.Resolve(f))
	}
	for _, o := range cfg.Engines {
		if o.Name == e.Name {
			continue
		}
		dir := cfg.Resolve(o.Dir)
		if dir == "" {
			dir = filepath.Join(out, "engines", engine.FolderName(o.Name))
		}
		s.RivalDirs = append(s.RivalDirs, dir)
		if c, err := program(cfg, o); err == nil && strings.ContainsRune(c, '/') {
			s.RivalFiles = append(s.RivalFiles, c) // a folder of builds: the build this event runs
		}
		for _, f := range o.Files {
			s.RivalFiles = append(s.RivalFiles, cfg.Resolve(f))
		}
	}
	return s
}

// program is the program engine e runs: its command, or where the command
// names a folder of Gomocup builds, the build for the event's rule and size
// (engine.GomocupBuild).
func program(cfg *config.Event, e config.Engine) (string, error) {
	rule, err := rules.ByName(cfg.Rule)
	if err != nil {
		return "", err
	}
	c, err := engine.GomocupBuild(cfg.Command(e), rule.Code(), cfg.Size)
	if err != nil {
		return "", fmt.Errorf("%s: engine %q: command: %w", cfg.File, e.Name, err)
	}
	return c, nil
}

// clockOf is the event clock with an engine's own settings on top.
func clockOf(base config.Clock, own *config.Clock) clock.Control {
	c := clock.Control{Match: clock.DefaultMatch, Tolerance: clock.DefaultTolerance}
	for _, layer := range []*config.Clock{&base, own} {
		if layer == nil {
			continue
		}
		set(&c.Match, layer.Match)
		set(&c.Turn, layer.Turn)
		set(&c.Increment, layer.Increment)
		set(&c.Tolerance, layer.Tolerance)
		set(&c.Hang, layer.Hang)
	}
	return c
}

func set(dst *time.Duration, src *config.Duration) {
	if src != nil {
		*dst = src.Duration
	}
}

// openings are the stones each pairing starts from: the config's opening
// list, or under outer-open with the arbiter-opens policy, Black's first
// stone from the outer zone.
func openings(cfg *config.Event, rule rules.Rule) ([][]rules.Point, error) {
	if cfg.Openings != "" {
		path := cfg.Resolve(cfg.Openings)
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("%s: openings: %w", cfg.File, err)
		}
		defer f.Close()
		list, err := rules.ReadOpenings(f, path, "", cfg.Size)
		if err != nil {
			return nil, err
		}
		var out [][]rules.Point
		for _, o := range list {
			if err := o.Validate(rule, cfg.Size); err != nil {
				return nil, fmt.Errorf("%s:%d: opening %q: %w", path, o.Line, o.Text, err)
			}
			out = append(out, o.Stones)
		}
		return out, nil
	}
	// Renju events play the 26 canonical openings, each twice with colours
	// reversed (one per pairing); the RIF procedure falls back to them too.
	var out [][]rules.Point
	for _, o := range schedule.DefaultOpenings(rule, cfg.Size, cfg.OpeningPolicy == config.PolicyArbiterOpens) {
		out = append(out, o.Stones)
	}
	return out, nil
}
