package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gomoku-arena/results/journal"
)

// Each INFO key reaches an engine once, whichever front end set the
// match up: a per-engine value (max_memory, timeout_turn) replaces the
// default instead of following it. The engine (faulty info-once) exits
// on a key told twice in one game, as Rapfi, which sizes its hash to the
// first max_memory, forfeits on its memory.
func TestEachInfoKeyToldOnceInEveryFrontEnd(t *testing.T) {
	dir := t.TempDir()
	event := filepath.Join(dir, "once.toml")
	os.WriteFile(event, []byte(`name = "once"
rule = "freestyle"
format = "round-robin"
output = "out"
max_memory = "350MiB"

[clock]
match = "30s"

[[engine]]
name = "once"
command = "builtin:faulty"
args = ["info-once"]
[engine.info]
max_memory = "134217728"
timeout_turn = "1500"

[[engine]]
name = "greedy"
command = "builtin:greedy"
`), 0o644)
	for _, tc := range []struct {
		front   string
		args    []string
		journal string // the folder's journal, where the games are checked
	}{
		{"match", []string{"match", "-rule", "freestyle", "-games", "2", "-tc", "30s", "-max-memory", "350MiB", "-info", "once:max_memory=134217728", "-info", "once:timeout_turn=1500",
			"-out", filepath.Join(dir, "match"), "once=builtin:faulty info-once", "builtin:greedy"}, filepath.Join(dir, "match", "journal.jsonl")},
		{"gomoku-cli", []string{"gomoku-cli", "-fatalerror", "-games", "2", "-engine", "cmd=builtin:faulty info-once", "name=once", "tc=30",
			"option.max_memory=134217728", "option.timeout_turn=1500", "-engine", "cmd=builtin:greedy", "tc=30"}, ""},
		{"check", []string{"check", "-rule", "freestyle", "-tc", "30s", "-max-memory", "350MiB", "-info", "max_memory=134217728", "-info", "timeout_turn=1500",
			"once=builtin:faulty info-once"}, ""},
		{"run", []string{"run", event}, filepath.Join(dir, "out", "journal.jsonl")},
	} {
		t.Run(tc.front, func(t *testing.T) {
			out, errOut, code := runArena(t, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
			}
			if tc.journal == "" {
				return
			}
			recs, err := journal.Read(tc.journal)
			if err != nil || len(recs) == 0 {
				t.Fatalf("journal: %v, %d games", err, len(recs))
			}
			for _, r := range recs {
				if r.End.Forfeit() {
					t.Errorf("game %d ended by %s: %s", r.Game, r.End, strings.TrimSpace(r.Detail))
				}
			}
		})
	}
}
