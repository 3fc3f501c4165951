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
