package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Declared files (engine.files) are checked when the event is read: each
// exists, none is or holds the config's folder or lies in the output
// folder, a remote engine has none; the error names file, line and key.
func TestDeclaredFiles(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "engines", "a", "weights"), 0o755)
	os.MkdirAll(filepath.Join(root, "out", "ev"), 0o755)
	cases := []struct{ files, want string }{
		{`["engines/a/weights"]`, ""},
		{`["engines/a/missing"]`, `t.toml:7: engine[0].files: engine "a": "engines/a/missing": no such file or folder`},
		{`["."]`, `t.toml:7: engine[0].files: engine "a": "." is or holds the config's folder`},
		{`[".."]`, `is or holds the config's folder`},
		{`["out/ev"]`, `is in or holds the event's output folder`},
		{`[""]`, `an empty path`},
	}
	for _, tc := range cases {
		src := "name = \"ev\"\nrule = \"freestyle\"\noutput = \"out/ev\"\n\n[[engine]]\nname = \"a\"\nfiles = " + tc.files + "\ncommand = \"builtin:random\"\n\n[[engine]]\nname = \"b\"\ncommand = \"builtin:random\"\n"
		_, err := Parse(filepath.Join(root, "t.toml"), []byte(src))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.files, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: err = %v\nwant it to contain %q", tc.files, err, tc.want)
		}
	}
}
