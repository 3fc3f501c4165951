package config

import (
	"strings"
	"testing"
)

// Entrant names are names: one that holds control characters is refused at
// its line. Names that would share a working folder are refused where the
// engines are built (package event, TestEngineTablesAreCheckedWhereEnginesAreBuilt).
func TestEngineNamesAreNotPaths(t *testing.T) {
	cases := []struct {
		a, b string // the two engines' names
		want string // "" for no error
	}{
		{"..", "../../escaped-engine-dir", ""},
		{"x y", "x  y", ""},
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
