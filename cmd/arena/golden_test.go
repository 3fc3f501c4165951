package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Golden snapshots of what arena prints, command by command: the exit code,
// stdout and stderr of one command line, in testdata/golden/NAME.golden.
// When a change means to alter what people see, rewrite them with
//
//	go test ./cmd/arena -run Golden -update
//
// and read the diff: it is the change as a user meets it.
//
// The commands run in this process (arena(), as runArena does); the engines
// they start are the bundled ones at fixed seeds and depths, so every move is
// the same on every machine. Only what legitimately differs between runs is
// normalized (normalize), never a line dropped.

// snapshot runs arena with args and compares what it printed with
// testdata/golden/NAME.golden, normalized for a run in tmp.
func snapshot(t *testing.T, name, tmp string, args ...string) {
	t.Helper()
	out, errOut, code := runArena(t, slices.Clone(args)...)
	var b strings.Builder
	fmt.Fprintf(&b, "$ arena %s\nexit %d\n--- stdout\n%s--- stderr\n%s", strings.Join(args, " "), code, out, errOut)
	golden(t, filepath.Join("golden", name+".golden"), []byte(normalize(b.String(), tmp)))
}

// gameTime is the last field of a game line, the time the game took.
var gameTime = regexp.MustCompile(`(?m)^(game \d+  .*  \d+ moves?  )\S+(?: \S+)*$`)

// normalize replaces what differs from run to run and machine to machine,
// and only that, in what a command printed:
//
//   - the test's temporary folder (tmp) reads $TMP;
//   - the time a game took, the last field of its line, reads <t>: it is
//     measured on a machine that may be busy.
//
// Moves, results, counts, ratings, tables and help texts are left as they
// are: with the bundled engines at fixed seeds they are the same everywhere.
// A new kind of varying output gets its own rule here, narrow enough to
// leave settings (a -tc 60s, a default) alone.
func normalize(s, tmp string) string {
	if tmp != "" {
		s = strings.ReplaceAll(s, tmp, "$TMP")
	}
	return gameTime.ReplaceAllString(s, "${1}<t>")
}

func TestNormalize(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"game 1  round 1  a vs b  1-0  five  9 moves  1.02 s", "game 1  round 1  a vs b  1-0  five  9 moves  <t>"},
		{"game 12  greedy vs random  0-1  time  1 move  1 min 3 s\nnext", "game 12  greedy vs random  0-1  time  1 move  <t>\nnext"},
		{"game 3  a vs b  0-1  forfeit  4 moves  850 ms  stderr: boom", "game 3  a vs b  0-1  forfeit  4 moves  850 ms  stderr: boom"},
		{"-tc 60s -tc old:1m", "-tc 60s -tc old:1m"},
		{"h8i8i11 15x15 3 stones 100.0% Elo +116", "h8i8i11 15x15 3 stones 100.0% Elo +116"},
		{"written to /tmp/x/out", "written to $TMP/out"},
	} {
		if got := normalize(tc.in, "/tmp/x"); got != tc.want {
			t.Errorf("normalize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// Every command's help, as `arena help` lists them and as -h prints them.
func TestGoldenHelp(t *testing.T) {
	snapshot(t, "help", "", "help")
	for _, name := range commandNames() {
		t.Run(name, func(t *testing.T) {
			snapshot(t, "help-"+name, "", name, "-h")
		})
	}
}

// commandNames are the commands arena knows, sorted.
func commandNames() []string {
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// tinyEvent is an event of two games between bundled engines at fixed seeds:
// the smallest that prints game lines, standings and a crosstable.
const tinyEvent = `name = "tiny"
rule = "freestyle"
format = "double-round-robin"
concurrency = 1
output = "out"

[clock]
match = "60s" # no game comes near it, however busy the machine

[[engine]]
name = "greedy"
command = "builtin:greedy"
args = ["seed=1"]

[[engine]]
name = "random"
command = "builtin:random"
args = ["seed=1"]
`

// An event, then the commands that read what it wrote: standings rebuilt
// from its journal, and its rating list beside a match's.
func TestGoldenEvent(t *testing.T) {
	tmp := t.TempDir()
	cfg := filepath.Join(tmp, "tiny.toml")
	if err := os.WriteFile(cfg, []byte(tinyEvent), 0o644); err != nil {
		t.Fatal(err)
	}
	snapshot(t, "run", tmp, "run", cfg)
	out := filepath.Join(tmp, "out")
	snapshot(t, "standings", tmp, "standings", out)
	match := filepath.Join(tmp, "match")
	snapshot(t, "match", tmp, "match", "builtin:greedy seed=1", "builtin:random seed=1",
		"-rule", "freestyle", "-games", "2", "-tc", "60s", "-out", match)
	snapshot(t, "rate", tmp, "rate", out, match)
}

func TestGoldenRules(t *testing.T) {
	snapshot(t, "rules-moves", "", "rules", "-rule", "freestyle", "h8i8i9h9h10")
	snapshot(t, "rules-sgf", "", "rules", "testdata/setup-renju.sgf")
	snapshot(t, "rules-psq", "", "rules", "-rule", "renju", "testdata/no-rule.psq")
}

// A check that fails: what would forfeit, the remedy, exit 1. (A passing
// engine's report quotes its answer and exit times, and whether they pass
// depends on the machine's load: it is no snapshot.)
func TestGoldenCheck(t *testing.T) {
	snapshot(t, "check", "", "check", "-rule", "freestyle", "builtin:faulty refuse-start")
}

// What a command line arena cannot read prints: the error, then the usage
// (exit 2).
func TestGoldenUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"no-command", nil},
		{"unknown-command", []string{"play"}},
		{"run-no-event", []string{"run"}},
		{"match-bad-flag", []string{"match", "-games", "two", "builtin:greedy", "builtin:random"}},
		{"rules-no-rule", []string{"rules", "testdata/no-rule.psq"}},
		{"help-unknown", []string{"help", "play"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			snapshot(t, "usage-"+tc.name, "", tc.args...)
		})
	}
}
