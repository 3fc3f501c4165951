package config

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

const good = `name = "t"
rule = "outer-open"
format = "auto"
concurrency = 2

[clock]
match = "20m"
tolerance = "1s"

[[engine]]
name = "a"
command = "builtin:greedy"

[[engine]]
name = "b"
command = "builtin:random"
args = ["seed=3"]
[engine.info]
max_depth = "4"
[engine.clock]
match = "10m"
`

func TestParseGood(t *testing.T) {
	ev, err := Parse("t.toml", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if ev.Size != 15 || ev.Clock.Match.Duration != 20*time.Minute || ev.Engines[1].Info["max_depth"] != "4" ||
		ev.Engines[1].Clock.Match.Duration != 10*time.Minute || ev.OpeningPolicy != PolicyStrict {
		t.Fatalf("parsed %+v", ev)
	}
}

func TestParseErrorsNameFileLineAndKey(t *testing.T) {
	cases := []struct {
		name, edit, want string
	}{
		{"unknown top-level key", `concurrency = 2`, `t.toml:4: concurency: unknown key`},
		{"unknown engine key", `args = ["seed=3"]`, `t.toml:17: engine[1].argz: unknown key`},
		{"wrong type", `format = "auto"`, `t.toml:3: format: incompatible types`},
		{"bad duration", `match = "20m"`, `t.toml:7`},
		{"unknown rule", `rule = "outer-open"`, `t.toml:2: rule: unknown rule "gomoku"`},
		{"duplicate engine", `name = "b"`, `t.toml:15: engine[1].name: duplicate engine name "a"`},
		{"negative clock", `tolerance = "1s"`, `t.toml:8: clock.tolerance: negative duration -1s`},
		{"bad format", `format = "auto"`, `t.toml:3: format: format "knockout" is not one of auto, round-robin, double-round-robin, swiss, gauntlet`},
		{"syntax", `concurrency = 2`, `t.toml:4:`},
		{"bye points", `concurrency = 2`, `t.toml:5: bye_points: must be 0, 0.5 or 1`},
		{"pente below 7x7", `rule = "outer-open"`, `size: pente needs a board of at least 7x7, not 6x6`},
		{"process lifetime", `concurrency = 2`, `t.toml:5: process_lifetime: process lifetime "forever" is not one of reuse, pair, game`},
	}
	edits := map[string]string{
		"unknown top-level key": `concurency = 2`,
		"unknown engine key":    `argz = ["seed=3"]`,
		"wrong type":            `format = 3`,
		"bad duration":          `match = "twenty minutes"`,
		"unknown rule":          `rule = "gomoku"`,
		"duplicate engine":      `name = "a"`,
		"negative clock":        `tolerance = "-1s"`,
		"bad format":            `format = "knockout"`,
		"syntax":                `concurrency = = 2`,
		"bye points":            "concurrency = 2\nbye_points = 0.3",
		"pente below 7x7":       "rule = \"pente\"\nsize = 6",
		"process lifetime":      "concurrency = 2\nprocess_lifetime = \"forever\"",
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(good, tc.edit, edits[tc.name], 1)
			_, err := Parse("t.toml", []byte(src))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v\nwant it to contain %q", err, tc.want)
			}
		})
	}
}

func TestTooFewEngines(t *testing.T) {
	src := good[:strings.Index(good, "[[engine]]\nname = \"b\"")]
	if _, err := Parse("t.toml", []byte(src)); err == nil || !strings.Contains(err.Error(), "at least two") {
		t.Fatalf("err = %v", err)
	}
}

// The shipped configs load, and the reference config shows every key there is.
func TestShippedConfigs(t *testing.T) {
	files, _ := filepath.Glob("../../configs/*.toml")
	if len(files) < 3 {
		t.Fatalf("found %d configs", len(files))
	}
	for _, f := range files {
		if _, err := Load(f); err != nil {
			t.Errorf("%v", err)
		}
	}
	ref, err := os.ReadFile("../../configs/reference.toml")
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range []reflect.Type{reflect.TypeOf(Event{}), reflect.TypeOf(Engine{}), reflect.TypeOf(Clock{})} {
		for i := 0; i < typ.NumField(); i++ {
			key := strings.Split(typ.Field(i).Tag.Get("toml"), ",")[0]
			if key == "" || key == "-" {
				continue
			}
			if !regexp.MustCompile(`(?m)^(# )?` + key + ` = |^\[\[?(engine\.)?` + key + `\]`).Match(ref) {
				t.Errorf("reference.toml does not document %s.%s", typ.Name(), key)
			}
		}
	}
}

// The clock an engine plays under is checked as a whole, the event's and
// its own layered, at the line of the setting at fault.
func TestClockOfEachEngineIsCheckedAtItsLine(t *testing.T) {
	cases := []struct{ name, edit, to, want string }{
		{"event increment, no match time", `match = "20m"`, "match = \"0s\"\nincrement = \"1s\"", `t.toml:8: clock.increment: engine "a": 1s needs a match time`},
		{"the engine's own match time", "[engine.clock]\nmatch = \"10m\"", "[engine.clock]\nmatch = \"0s\"\nincrement = \"3s\"", `t.toml:22: engine[1].clock.increment: engine "b": 3s needs a match time`},
		{"the allowance of a remote engine", `command = "builtin:random"` + "\nargs = [\"seed=3\"]", "remote = true\n[engine.clock]\ntolerance = \"596h\"\n[remote]\nnetwork_allowance = \"1h\"\n[[engine]]\nname = \"c\"\nremote = true",
			`remote.network_allowance: engine "b": 597h0m0s is longer than`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(good, tc.edit, tc.to, 1)
			if src == good {
				t.Fatal("the edit changes nothing")
			}
			_, err := Parse("t.toml", []byte(src))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v\nwant it to contain %q", err, tc.want)
			}
		})
	}
	ev, err := Parse("t.toml", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if a, b := ev.ClockOf(0), ev.ClockOf(1); a.Match != 20*time.Minute || b.Match != 10*time.Minute || a.Tolerance != time.Second || b.Hang != 0 {
		t.Errorf("clocks %v and %v", a, b)
	}
}
