package config

import (
	"strings"
	"testing"
)

// Entrant names are names, not paths: any name maps to a folder inside the
// event's engines folder (engine.FolderName), and names that would share a
// folder, or hold control characters, are refused at their line.
func TestEngineNamesAreNotPaths(t *testing.T) {
	cases := []struct {
		a, b string // the two engines' names
		want string // "" for no error
	}{
		{"..", "../../escaped-engine-dir", ""},
		{"Embryo 21", "Embryo_21", `t.toml:15: engine[1].name: engine "Embryo_21" would share the working folder "Embryo_21" and transcript "Embryo_21.log" with engine 1 ("Embryo 21")`},
		// Two spaces are not one (issue 27: the transcripts were one file).
		{"x y", "x  y", ""},
		{strings.Repeat("n", 64) + "1", strings.Repeat("n", 64) + "2", `engine[1].name: engine "` + strings.Repeat("n", 64) + `2" would share the working folder`},
		{"a/b", "a_b", `t.toml:15: engine[1].name: engine "a_b" would share the working folder "a_b"`},
		{"ok", "new\\nline", `t.toml:15: engine[1].name: engine "new\nline": a name must not hold control characters`},
	}
	for _, tc := range cases {
		src := strings.Replace(good, `name = "a"`, `name = "`+strings.ReplaceAll(tc.a, `\`, `\\`)+`"`, 1)
		src = strings.Replace(src, `name = "b"`, `name = "`+tc.b+`"`, 1)
		_, err := Parse("t.toml", []byte(src))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q, %q: %v", tc.a, tc.b, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q, %q: err = %v\nwant it to contain %q", tc.a, tc.b, err, tc.want)
		}
	}
}
