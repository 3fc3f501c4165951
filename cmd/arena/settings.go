package main

import (
	"flag"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"gomoku-arena/event"
	"gomoku-arena/internal/bounds"
	"gomoku-arena/internal/config"
)

// The per-engine settings an event file's [[engine]] table has, as the
// command lines take them, defined once: `arena match` has a flag for each
// (-swap2-colors, -hard-memory, ...: the key with dashes), for every engine
// or, with a NAME: prefix, for one (as -depth old:6); `arena gomoku-cli`
// takes them as KEY=VALUE tokens of an -engine or -each block, beside
// c-gomoku-cli's own (tc=, maxmemory=, option.KEY=, ...). Values are
// written as in an event file: durations like 20s, amounts of memory like
// 350MiB (or 350M), true or false. A value that cannot be used is a usage
// error naming the flag and the engine, before any game.

// engineSetting is one per-engine setting.
type engineSetting struct {
	key     string // as in an event file (the clock's as in [engine.clock])
	flag    string // arena match's flag
	usage   string
	isBool  bool
	inCli   bool // a gomoku-cli token too (c-gomoku-cli has its own for the clock and memory)
	set     func(e *event.EngineSettings, v string) error
	example string // a value for the usage text
}

var engineSettings = []engineSetting{
	{key: "board_mode", flag: "board-mode", isBool: true, inCli: true,
		usage: "send the whole position (BOARD) before every move instead of TURN",
		set:   func(e *event.EngineSettings, v string) error { return setBool(&e.BoardMode, v) }},
	{key: "swap2_colors", flag: "swap2-colors", isBool: true, inCli: true,
		usage: "SWAP2BOARD stone lines carry a colour field (x,y,1 Black, x,y,2 White), as Rapfi wants",
		set:   func(e *event.EngineSettings, v string) error { return setBool(&e.Swap2Colors, v) }},
	{key: "match", flag: "tc", example: "20s", usage: "match time per side per game (0 = none)",
		set: func(e *event.EngineSettings, v string) error { return setDuration(&e.Clock.Match, v) }},
	{key: "turn", flag: "turn", example: "5s", usage: "time limit per move (0 = none)",
		set: func(e *event.EngineSettings, v string) error { return setDuration(&e.Clock.Turn, v) }},
	{key: "increment", flag: "inc", example: "1s", usage: "increment per move",
		set: func(e *event.EngineSettings, v string) error { return setDuration(&e.Clock.Increment, v) }},
	{key: "tolerance", flag: "tolerance", example: "1s", usage: "lateness accepted before a move loses on time",
		set: func(e *event.EngineSettings, v string) error { return setDuration(&e.Clock.Tolerance, v) }},
	{key: "hang", flag: "hang", example: "5m", inCli: true, usage: "the longest wait for one move, timed or not",
		set: func(e *event.EngineSettings, v string) error { return setDuration(&e.Clock.Hang, v) }},
	{key: "max_memory", flag: "max-memory", example: "350MiB",
		usage: "memory limit, measured after every move (over it loses) and told as INFO max_memory; bytes, or with K, M, G, MiB, GB...",
		set: func(e *event.EngineSettings, v string) error {
			n, err := parseBytes(v)
			if err != nil {
				return err
			}
			e.Limits.Memory = n // told as max_memory by event.EngineSettings.Entrant
			return nil
		}},
	{key: "hard_memory", flag: "hard-memory", example: "1GiB", inCli: true,
		usage: "memory the kernel refuses the engine beyond (RLIMIT_DATA)",
		set: func(e *event.EngineSettings, v string) error {
			n, err := parseBytes(v)
			e.Limits.HardMemory = n
			return err
		}},
	{key: "max_processes", flag: "max-processes", example: "8", inCli: true,
		usage: "processes and threads the engine may have at once",
		set: func(e *event.EngineSettings, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil {
				return fmt.Errorf("%q is not a whole number", v)
			}
			if err := bounds.CheckProcesses(n); err != nil {
				return problem(err)
			}
			e.Limits.Processes = n
			return nil
		}},
	{key: "dir", flag: "dir", example: "engines/x", inCli: true,
		usage: "working directory (default: a fresh temporary one per process)",
		set: func(e *event.EngineSettings, v string) error {
			if v == "" {
				return fmt.Errorf("empty folder")
			}
			e.Dir = v
			return nil
		}},
	{key: "files", flag: "files", example: "bin/weights", inCli: true,
		usage: "a file or folder beside its program the engine needs, shown to it read-only under -sandbox; repeatable",
		set: func(e *event.EngineSettings, v string) error {
			if v == "" {
				return fmt.Errorf("empty path")
			}
			abs, err := filepath.Abs(v)
			if err != nil {
				return err
			}
			e.Files = append(e.Files, abs)
			return nil
		}},
	{key: "env", flag: "env", example: "OMP_NUM_THREADS=1", inCli: true,
		usage: "an environment variable KEY=VALUE for the engine; repeatable",
		set: func(e *event.EngineSettings, v string) error {
			if err := config.CheckEnv(v); err != nil {
				return err
			}
			e.Env = append(e.Env, v)
			return nil
		}},
}

// settingByKey is the setting an event file calls key, or nil.
func settingByKey(key string) *engineSetting {
	for i := range engineSettings {
		if engineSettings[i].key == key {
			return &engineSettings[i]
		}
	}
	return nil
}

func setBool(dst *bool, v string) error {
	b, err := strconv.ParseBool(v)
	if err != nil {
		return fmt.Errorf("%q is not true or false", v)
	}
	*dst = b
	return nil
}

func setDuration(dst *time.Duration, v string) error {
	d, err := time.ParseDuration(v)
	if err != nil {
		return fmt.Errorf("%q is not a duration like 20s", v)
	}
	*dst = d // bounds: clock.Control.Validate, per engine
	return nil
}

// parseBytes reads an amount of memory: arena match's 350M (K, M, G as
// powers of 1024) or an event file's 350MiB, 2GB.
func parseBytes(v string) (int64, error) {
	if n, err := parseCount(v, true); err == nil {
		return n, nil
	}
	var b config.Bytes
	if err := b.UnmarshalText([]byte(v)); err != nil {
		return 0, err
	}
	return b.N, nil
}

// engineFlags are the per-engine settings given on a command line, in the
// order given.
type engineFlags struct {
	values []settingValue
}

type settingValue struct {
	s *engineSetting
	v string // [NAME:]VALUE as given
}

// settingFlag is one setting's flag; all of them feed one engineFlags.
type settingFlag struct {
	all *engineFlags
	s   *engineSetting
}

func (f settingFlag) String() string   { return "" }
func (f settingFlag) IsBoolFlag() bool { return f.s.isBool }
func (f settingFlag) Set(v string) error {
	f.all.values = append(f.all.values, settingValue{f.s, v})
	return nil
}

// define adds a flag for every setting to fs.
func (ef *engineFlags) define(fs *flag.FlagSet) {
	for i := range engineSettings {
		s := &engineSettings[i]
		usage := s.usage + "; NAME:VALUE for one engine"
		if s.isBool {
			usage = s.usage + "; -" + s.flag + "=NAME (or NAME:false) for one engine"
		}
		fs.Var(settingFlag{ef, s}, s.flag, usage)
	}
}

// apply sets the settings on the entrants, in the order given: a later
// value wins, so "-tc 20s -tc old:1m" gives old a minute.
func (ef *engineFlags) apply(ents []event.EngineSettings) error {
	for _, sv := range ef.values {
		target, v, err := settingTarget(ents, sv)
		if err != nil {
			return fmt.Errorf("-%s %s: %v", sv.s.flag, sv.v, err)
		}
		for i := range ents {
			if target >= 0 && target != i {
				continue
			}
			if err := sv.s.set(&ents[i], v); err != nil {
				return fmt.Errorf("-%s %s: engine %q: %v", sv.s.flag, sv.v, ents[i].Name, err)
			}
		}
	}
	return nil
}

// settingTarget splits [NAME:]VALUE: the engine it names (-1 for all) and
// the value. A bool flag also takes a lone NAME (true for that engine).
func settingTarget(ents []event.EngineSettings, sv settingValue) (int, string, error) {
	byName := func(name string) int {
		for i, e := range ents {
			if e.Name == name {
				return i
			}
		}
		return -1
	}
	if sv.s.isBool {
		if i := byName(sv.v); i >= 0 {
			return i, "true", nil
		}
	}
	name, rest, ok := strings.Cut(sv.v, ":")
	if !ok || (sv.s.key == "env" && strings.Contains(name, "=")) {
		return -1, sv.v, nil
	}
	i := byName(name)
	if i < 0 {
		return 0, "", fmt.Errorf("no engine named %q", name)
	}
	return i, rest, nil
}
