package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// noControls fails when text printed for a terminal carries a control
// character other than the line break: an event name with an OSC sequence
// retitled the terminal before.
func noControls(t *testing.T, what, text string) {
	t.Helper()
	for _, r := range text {
		if (r < 0x20 && r != '\n') || (r >= 0x7f && r <= 0x9f) || r == 0x202e {
			t.Errorf("%s carries %U to the terminal:\n%q", what, r, text)
			return
		}
	}
}

// An event named with an OSC sequence, and an engine whose refusal of START
// carries one: what arena run prints — the game lines, the standings, the
// continuing line — shows the sequences as text.
func TestRunPrintsNoControlCharacters(t *testing.T) {
	dir := t.TempDir()
	evil := filepath.Join(dir, "pbrain-evil")
	script := "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n" +
		"    START*) printf 'ERROR \\033]0;pwned\\007 \\302\\233 refuses\\r\\n' ;;\n" +
		"    END*) exit 0 ;;\n  esac\ndone\n"
	if err := os.WriteFile(evil, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "ev.toml")
	// No output key: the folder is out/NAME, and its path is printed too.
	t.Chdir(dir)
	src := "name = \"ev\\u001b]0;retitled\\u0007\"\nformat = \"round-robin\"\n[clock]\nmatch = \"20s\"\n" +
		"[[engine]]\nname = \"evil\"\ncommand = \"./pbrain-evil\"\n" +
		"[[engine]]\nname = \"random\"\ncommand = \"builtin:random\"\n"
	if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for range 2 { // the second run continues the event: "continuing NAME"
		out, errOut, code := runArena(t, "run", "-no-check", cfg)
		if code != 0 {
			t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
		}
		noControls(t, "stdout", out)
		noControls(t, "stderr", errOut)
		if !strings.Contains(out, `ev\x1b]0;retitled\x07`) || !strings.Contains(out, "standings") {
			t.Errorf("the event's name is not shown escaped:\n%s", out)
		}
	}
	out, errOut, code := runArena(t, "standings", filepath.Join(dir, "out", "ev\x1b]0;retitled\x07"))
	if code != 0 || !strings.Contains(out, "standings") {
		t.Fatalf("arena standings: exit %d\n%s\n%s", code, out, errOut)
	}
	noControls(t, "arena standings", out)
}

// arena match: engine names from the command line reach the game lines,
// the stats lines and the summary, all cleaned; a name with a control
// character is refused, as an event file's is (config.CheckName), and the
// refusal shows it escaped.
func TestMatchPrintsNoControlCharacters(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := runArena(t, "match", "-rule", "freestyle", "-games", "2", "-move-cap", "6", "-tc", "20s", "-out", dir,
		"r=builtin:random", "g\u202e=builtin:greedy")
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	noControls(t, "stdout", out)
	noControls(t, "stderr", errOut)
	if !strings.Contains(out, `g\u202e`) {
		t.Errorf("names not shown escaped:\n%s", out)
	}
	out, errOut, code = runArena(t, "match", "-rule", "freestyle", "-out", filepath.Join(dir, "refused"), "r\x1b]0;x\x07=builtin:random", "g=builtin:greedy")
	if code != exitUsage || !strings.Contains(errOut, `engine "r\x1b]0;x\a": a name must not hold control characters`) {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	noControls(t, "stdout", out)
	noControls(t, "stderr", errOut)
}
