package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gomoku-arena/check"
	"gomoku-arena/results/journal"
)

// writeRefuser writes an engine that refuses every START, with control
// characters in its words (which must reach no terminal).
func writeRefuser(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "pbrain-refuser")
	script := "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n" +
		"    START*) printf 'ERROR only 20x20 \\033]0;pwned\\007\\r\\n' ;;\n" +
		"    END*) exit 0 ;;\n  esac\ndone\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// arena check -json: a bundled engine passes, an engine that refuses the
// size fails its start check, and the exit status says so.
func TestCheckJSON(t *testing.T) {
	dir := t.TempDir()
	refuser := writeRefuser(t, dir)
	out, errOut, code := runArena(t, "check", "-json", "-rule", "freestyle", "-tc", "4s", "builtin:greedy", "bad="+refuser)
	if code != 1 || !strings.Contains(errOut, "1 of 2 engines would forfeit games") || !strings.Contains(errOut, "bad") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	var got struct {
		Engines []check.Report `json:"engines"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(got.Engines) != 2 || got.Engines[0].Engine != "greedy" || got.Engines[1].Engine != "bad" {
		t.Fatalf("engines: %+v", got.Engines)
	}
	for _, f := range got.Engines[0].Findings {
		if f.Verdict == check.Fail {
			t.Errorf("greedy: %+v", f)
		}
	}
	start := got.Engines[1].Findings[0]
	if start.Check != "start" || start.Verdict != check.Fail || !strings.Contains(start.Seen, "only 20x20") || start.Remedy == "" {
		t.Errorf("bad: start finding %+v", start)
	}
}

// arena run checks the entrants of a new event: an entrant that would
// forfeit stops it, named with what to change; -force plays anyway; a
// continued event is not checked again.
func TestRunChecksANewEvent(t *testing.T) {
	dir := t.TempDir()
	refuser := writeRefuser(t, dir)
	cfg := filepath.Join(dir, "ev.toml")
	src := "name = \"ev\"\nrule = \"freestyle\"\nformat = \"round-robin\"\noutput = \"out\"\n[clock]\nmatch = \"4s\"\n" +
		"[[engine]]\nname = \"bad\"\ncommand = \"" + refuser + "\"\n" +
		"[[engine]]\nname = \"random\"\ncommand = \"builtin:random\"\n"
	if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runArena(t, "run", "-quiet", cfg)
	if code != 1 || !strings.Contains(out, "FAIL  start") || !strings.Contains(out, "remedy:") || !strings.Contains(errOut, "not started: bad would forfeit") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	noControls(t, "stdout", out)
	noControls(t, "stderr", errOut)
	if _, err := os.Stat(filepath.Join(dir, "out", "journal.jsonl")); err == nil {
		t.Fatal("the refused event wrote a journal")
	}
	out, errOut, code = runArena(t, "run", "-quiet", "-force", cfg)
	if code != 0 || !strings.Contains(out, "-force: starting although bad would forfeit") {
		t.Fatalf("-force: exit %d\n%s\n%s", code, out, errOut)
	}
	recs, err := journal.Read(filepath.Join(dir, "out", "journal.jsonl"))
	if err != nil || len(recs) != 1 {
		t.Fatalf("journal: %v, %d records", err, len(recs))
	}
	out, errOut, code = runArena(t, "run", "-quiet", cfg)
	if code != 0 || strings.Contains(out, "checked the entrants") {
		t.Fatalf("continued: exit %d\n%s\n%s", code, out, errOut)
	}
}

// A negative or absurd number of check games or engines at once is a usage
// error naming the flag, never taken silently as the default.
func TestCheckRefusesBadCounts(t *testing.T) {
	for _, args := range [][]string{
		{"-games", "-1"},
		{"-concurrency", "-5"},
		{"-games", "1000000"},
		{"-concurrency", "100000"},
	} {
		_, errOut, code := runArena(t, append(append([]string{"check"}, args...), "builtin:random")...)
		if code != 2 || !strings.Contains(errOut, args[0]+": "+args[1]) {
			t.Errorf("arena check %s: exit %d, %q; want exit 2 naming %s", strings.Join(args, " "), code, errOut, args[0])
		}
	}
}
