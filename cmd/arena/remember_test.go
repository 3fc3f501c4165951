package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Two events of the same programs under the same settings check them
// once: the second event's entrants are the first's reports, remembered
// by the programs' content and the settings (check.Memory), and it starts
// without checking. A program changed in place, or another clock, is
// checked again.
func TestChecksRememberedAcrossEvents(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	root := t.TempDir()
	self, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Skip(err)
	}
	os.MkdirAll(filepath.Join(root, "bin"), 0o755)
	prog := filepath.Join(root, "bin", "pbrain-arena")
	if err := os.WriteFile(prog, self, 0o755); err != nil {
		t.Fatal(err)
	}
	event := func(name, clock string) string {
		path := filepath.Join(root, name+".toml")
		os.WriteFile(path, []byte(`name = "`+name+`"
rule = "freestyle"
format = "round-robin"
output = "`+name+`"

[clock]
match = "`+clock+`"

[[engine]]
name = "greedy"
command = "bin/pbrain-arena"
args = ["engine", "greedy"]

[[engine]]
name = "random"
command = "bin/pbrain-arena"
args = ["engine", "random", "seed=3"]
`), 0o644)
		return path
	}
	run := func(cfg string) string {
		t.Helper()
		out, errOut, code := runArena(t, "run", "-quiet", cfg)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s\n%s", cfg, code, out, errOut)
		}
		return out
	}
	const remembered = "2 of them as checked before"
	if out := run(event("first", "30s")); !strings.Contains(out, "all 2 pass") || strings.Contains(out, "as checked before") {
		t.Fatalf("first event:\n%s", out)
	}
	if out := run(event("second", "30s")); !strings.Contains(out, remembered) {
		t.Errorf("second event, same programs and settings: checked again\n%s", out)
	}
	if out := run(event("third", "20s")); strings.Contains(out, "as checked before") {
		t.Errorf("another clock: a remembered report\n%s", out)
	}
	os.WriteFile(prog, append(self, 0), 0o755) // the same program, changed in place
	if out := run(event("fourth", "30s")); strings.Contains(out, "as checked before") {
		t.Errorf("a changed program: a remembered report\n%s", out)
	}
}
