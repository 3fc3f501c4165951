package event

import (
	"strings"
	"testing"

	"gomoku-arena/internal/config"
)

// engineTables is an event of two engine tables for the checks of those
// tables that only the builder of engines can make (checkEngines).
const engineTables = `name = "t"
rule = "outer-open"

[clock]
match = "20m"

[[engine]]
name = "a"
command = "builtin:greedy"

[[engine]]
name = "b"
command = "builtin:random"
`

// The config is a leaf that does not know which programs exist, which
// engines are bundled or how a name becomes a folder; the event does, and
// its errors still name the config's file, line and key.
func TestEngineTablesAreCheckedWhereEnginesAreBuilt(t *testing.T) {
	cases := []struct {
		name, edit, to, want string
	}{
		{"missing program", `command = "builtin:random"`, `command = "./nope"`, `t.toml:13: engine[1].command: engine "b": command "./nope": no such file or directory`},
		{"unknown builtin", `command = "builtin:random"`, `command = "builtin:randomm"`, `t.toml:13: engine[1].command: engine "b": no bundled engine "randomm"`},
		// Entrant names are names, not paths: any name maps to a folder
		// inside the event's engines folder (engine.FolderName), and names
		// that would share a folder are refused at their line.
		{"names of one folder", `name = "b"`, `name = "Embryo_21"`, `t.toml:12: engine[1].name: engine "Embryo_21" would share the working folder "Embryo_21" and transcript "Embryo_21.log" with engine 1 ("Embryo 21")`},
		{"a slash is not a folder", `name = "b"`, `name = "a_b"`, `t.toml:12: engine[1].name: engine "a_b" would share the working folder "a_b"`},
		{"names cut to one", `name = "b"`, `name = "` + strings.Repeat("n", 64) + `2"`, `engine[1].name: engine "` + strings.Repeat("n", 64) + `2" would share the working folder`},
		{"dots are a name", `name = "b"`, `name = "../../escaped-engine-dir"`, ``},
		{"two spaces are not one", `name = "b"`, `name = "x  y"`, ``},
	}
	first := map[string]string{ // the first engine's name, where the case needs one
		"names of one folder": "Embryo 21", "a slash is not a folder": "a/b", "names cut to one": strings.Repeat("n", 64) + "1",
		"dots are a name": "..", "two spaces are not one": "x y",
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(engineTables, tc.edit, tc.to, 1)
			if a, ok := first[tc.name]; ok {
				src = strings.Replace(src, `name = "a"`, `name = "`+a+`"`, 1)
			}
			cfg, err := config.Parse("t.toml", []byte(src))
			if err != nil {
				t.Fatalf("the config refuses what the event should: %v", err)
			}
			_, err = New(cfg)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("err = %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("err = %v\nwant it to contain %q", err, tc.want)
			}
			if err != nil {
				if _, cerr := Containments(cfg); cerr == nil || cerr.Error() != err.Error() {
					t.Fatalf("Containments: err = %v, want %v", cerr, err)
				}
			}
		})
	}
}
