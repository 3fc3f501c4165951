package main

import (
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gomoku-arena/event"
	"gomoku-arena/internal/config"
)

// An event file and arena match's flags that say the same parse into one
// value, event.Settings, equal field by field (reflect.DeepEqual): a
// setting that one front end forgets, or gives another default or meaning,
// fails it. Every field of the value is given a value other than its zero
// here, so a new field fails it too until both front ends give it.
func TestEventFileAndMatchFlagsAreOneValue(t *testing.T) {
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	os.Mkdir(at("weights"), 0o755)
	src := `name = "match"
rule = "freestyle"
size = 17
move_cap = 100
concurrency = 2
start_timeout = "30s"
process_lifetime = "game"
opening_procedure = "swap2"
opening_policy = "arbiter-opens"
openings = "OPENINGS"
seed = 7
sandbox = "auto"
freeze_idle = true
output = "OUT"
max_memory = "100MiB"
hard_memory = "1GiB"
max_processes = 8

[clock]
match = "1m"
turn = "5s"
increment = "1s"
tolerance = "2s"
hang = "3m"

[[engine]]
name = "a"
command = "builtin:greedy"
args = ["--seed", "1"]
board_mode = true
swap2_colors = true
dir = "DIR"
env = ["X=1"]
files = ["WEIGHTS"]
[engine.info]
hash = "64"

[[engine]]
name = "b"
command = "builtin:random"
`
	for k, v := range map[string]string{"OPENINGS": at("openings.txt"), "OUT": at("out"), "DIR": at("a"), "WEIGHTS": at("weights")} {
		src = strings.ReplaceAll(src, k, v)
	}
	os.WriteFile(at("match.toml"), []byte(src), 0o644)
	cfg, err := config.Load(at("match.toml"))
	if err != nil {
		t.Fatal(err)
	}
	fromFile, err := event.SettingsOf(cfg)
	if err != nil {
		t.Fatal(err)
	}
	setup, _, err := parseMatchSetup([]string{"-rule", "freestyle", "-size", "17", "-move-cap", "100", "-concurrency", "2", "-start-timeout", "30s",
		"-process-lifetime", "game", "-opening-procedure", "swap2", "-opening-policy", "arbiter-opens", "-openings", at("openings.txt"),
		"-seed", "7", "-sandbox", "auto", "-freeze-idle", "-out", at("out"),
		"-max-memory", "100MiB", "-hard-memory", "1GiB", "-max-processes", "8",
		"-tc", "1m", "-turn", "5s", "-inc", "1s", "-tolerance", "2s", "-hang", "3m",
		"-board-mode=a", "-swap2-colors=a", "-dir", "a:" + at("a"), "-env", "a:X=1", "-files", "a:" + at("weights"), "-info", "a:hash=64",
		"a=builtin:greedy --seed 1", "b=builtin:random"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	file, flags := nilEmpty(fromFile.Settings), nilEmpty(setup.Settings)
	if !reflect.DeepEqual(file, flags) {
		t.Errorf("the event file and arena match's flags differ:\nfile  %+v\nflags %+v", file, flags)
		for i := range min(len(file.Engines), len(flags.Engines)) {
			if !reflect.DeepEqual(file.Engines[i], flags.Engines[i]) {
				t.Errorf("engine %d:\nfile  %+v\nflags %+v", i, file.Engines[i], flags.Engines[i])
			}
		}
	}
	// Fields neither front end has a word for (an event file names no
	// opening list format; Within is the arena's own folder; TellMemory,
	// Threads, Depth and Nodes are c-gomoku-cli's and INFO lines; Remote
	// is an event's).
	unset := map[string]bool{"OpeningsFormat": true, "Within": true, "TellMemory": true, "Threads": true, "Depth": true, "Nodes": true, "Remote": true}
	for _, v := range []reflect.Value{reflect.ValueOf(file), reflect.ValueOf(file.Engines[0])} {
		for i := range v.NumField() {
			if name := v.Type().Field(i).Name; v.Field(i).IsZero() && !unset[name] {
				t.Errorf("%s.%s is not given here: give it in the event file and the flags alike", v.Type().Name(), name)
			}
		}
	}
}

// nilEmpty is s with its engines' empty lists made nil: the front ends
// may give either for none.
func nilEmpty(s event.Settings) event.Settings {
	s.Engines = append([]event.EngineSettings(nil), s.Engines...)
	for i := range s.Engines {
		e := &s.Engines[i]
		if len(e.Args) == 0 {
			e.Args = nil
		}
		if len(e.Env) == 0 {
			e.Env = nil
		}
		if len(e.Files) == 0 {
			e.Files = nil
		}
		if len(e.Info) == 0 {
			e.Info = nil
		}
	}
	return s
}

// A c-gomoku-cli command line (arena gomoku-cli) and an event file that
// say the same parse into one value too, for every setting c-gomoku-cli has
// a word for: the rule (its code), the board, the move cap (-drawafter),
// the games at once, the opening list and its seed (srand=), the sandbox
// and freeze, each engine's program, clock (tc=, tolerance=, hang=),
// memory told (maxmemory=), INFO lines (option.KEY=) and the arena's
// tokens (board_mode=, swap2_colors=, hard_memory=, max_processes=, dir=,
// env=, files=). Where c-gomoku-cli keeps its users' own (named below, and
// nowhere else), the value holds them: everything else must equal the
// event file's, field by field.
func TestEventFileAndGomokuCliTokensAreOneValue(t *testing.T) {
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	os.Mkdir(at("weights"), 0o755)
	src := `name = "cli"
rule = "freestyle"
size = 17
move_cap = 100
concurrency = 2
openings = "OPENINGS"
seed = 7
sandbox = "auto"
freeze_idle = true
max_memory = "100MiB"
hard_memory = "1GiB"
max_processes = 8

[clock]
match = "1m"
turn = "5s"
increment = "1s"
tolerance = "2s"
hang = "3m"

[[engine]]
name = "a"
command = "builtin:greedy"
args = ["--seed", "1"]
board_mode = true
swap2_colors = true
dir = "DIR"
env = ["X=1"]
files = ["WEIGHTS"]
[engine.info]
hash = "64"

[[engine]]
name = "b"
command = "builtin:random"
`
	for k, v := range map[string]string{"OPENINGS": at("openings.txt"), "DIR": at("a"), "WEIGHTS": at("weights")} {
		src = strings.ReplaceAll(src, k, v)
	}
	os.WriteFile(at("cli.toml"), []byte(src), 0o644)
	cfg, err := config.Load(at("cli.toml"))
	if err != nil {
		t.Fatal(err)
	}
	fromFile, err := event.SettingsOf(cfg)
	if err != nil {
		t.Fatal(err)
	}
	setup, _, _, err := parseCliSetup([]string{"-rule", "0", "-boardsize", "17", "-drawafter", "100", "-concurrency", "2",
		"-openings", "file=" + at("openings.txt"), "srand=7", "-sandbox", "auto", "-freeze-idle",
		"-each", "tc=60/5+1", "tolerance=2", "hang=3m", "maxmemory=104857600", "hard_memory=1GiB", "max_processes=8",
		"-engine", "cmd=builtin:greedy --seed 1", "name=a", "board_mode=true", "swap2_colors=true", "dir=" + at("a"), "env=X=1", "files=" + at("weights"), "option.hash=64",
		"-engine", "cmd=builtin:random", "name=b"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	// c-gomoku-cli's own, where its users expect them: the run's name;
	// engine processes as its workers keep theirs (a new one when a
	// table's pair changes, START every game); without a file, the empty
	// board rather than the rule's openings (renju's 26), and a list in
	// offset form unless type= says pos, where an event file detects the
	// form per line; no folder of its own (its -pgn, -sgf and -msg files
	// are named); maxmemory= told (INFO max_memory) but not held.
	want := fromFile.Settings
	want.Name, want.Lifetime, want.RuleOpenings, want.OpeningsFormat, want.Out = "gomoku-cli", config.LifetimePair, false, "offset", ""
	want.Engines = append([]event.EngineSettings(nil), want.Engines...)
	for i := range want.Engines {
		e := &want.Engines[i]
		e.TellMemory, e.Limits.Memory = e.Limits.Memory, 0
	}
	file, cli := nilEmpty(want), nilEmpty(setup.Settings)
	if !reflect.DeepEqual(file, cli) {
		t.Errorf("the event file and c-gomoku-cli's tokens differ:\nfile %+v\ncli  %+v", file, cli)
		for i := range min(len(file.Engines), len(cli.Engines)) {
			if !reflect.DeepEqual(file.Engines[i], cli.Engines[i]) {
				t.Errorf("engine %d:\nfile %+v\ncli  %+v", i, file.Engines[i], cli.Engines[i])
			}
		}
	}
}
