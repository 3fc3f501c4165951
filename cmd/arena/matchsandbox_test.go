package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gomoku-arena/engine"
	"gomoku-arena/results/journal"
)

// A match sandboxed from the command line (-sandbox bwrap, the event's
// sandbox key) hides a rival as an event's sandbox does: the spy (the
// hostile engine) cannot read its rival's working folder nor the match's
// journal; unconfined it can, so the test can tell.
func TestMatchSandboxedFromTheCommandLine(t *testing.T) {
	prog := hostileEngine(t)
	for _, sandbox := range []string{"bwrap", "none"} {
		t.Run(sandbox, func(t *testing.T) {
			if sandbox == "bwrap" {
				if _, err := engine.Bwrap(); err != nil {
					t.Skip(err)
				}
			}
			root := t.TempDir()
			rivalDir, out := filepath.Join(root, "rival"), filepath.Join(root, "out")
			os.MkdirAll(rivalDir, 0o755)
			secret := filepath.Join(rivalDir, "secret.txt")
			os.WriteFile(secret, []byte("the rival's book"), 0o644)
			journalPath := filepath.Join(out, "journal.jsonl")
			args := []string{"match", "-rule", "freestyle", "-games", "2", "-tc", "30s", "-start-timeout", "1m", "-sandbox", sandbox, "-freeze-idle",
				"-dir", "rival:" + rivalDir, "-out", out,
				"spy=" + prog + " read=" + secret + " read=" + journalPath, "rival=builtin:greedy"}
			if stdout, stderr, code := runArena(t, args...); code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
			}
			recs, err := journal.Read(journalPath)
			if err != nil || len(recs) != 2 {
				t.Fatalf("journal: %v, %d games", err, len(recs))
			}
			seen := 0
			for i, r := range recs {
				for _, m := range r.Messages {
					f := strings.Fields(m)
					if len(f) != 5 || f[0] != "spy:" || f[1] != "MESSAGE" || f[2] != "read" {
						continue
					}
					if i == 0 && f[3] == journalPath {
						continue // no journal before the first game is recorded
					}
					seen++
					want := map[string]string{"bwrap": "no", "none": "yes"}[sandbox]
					if f[4] != want {
						t.Errorf("game %d: the spy could read %s: %s, want %s", r.Game, f[3], f[4], want)
					}
				}
			}
			if seen < 3 {
				t.Errorf("only %d reports in the records, want 3", seen)
			}
		})
	}
}

// arena gomoku-cli -sandbox bwrap confines its engines as arena match's
// -sandbox does, the ABOUT asked before the match included: the spy cannot
// read its rival's folder (dir=).
func TestGomokuCliSandboxed(t *testing.T) {
	prog := hostileEngine(t)
	for _, sandbox := range []string{"bwrap", "none"} {
		t.Run(sandbox, func(t *testing.T) {
			if sandbox == "bwrap" {
				if _, err := engine.Bwrap(); err != nil {
					t.Skip(err)
				}
			}
			root := t.TempDir()
			rivalDir := filepath.Join(root, "rival")
			os.MkdirAll(rivalDir, 0o755)
			secret := filepath.Join(rivalDir, "secret.txt")
			os.WriteFile(secret, []byte("the rival's book"), 0o644)
			msg := filepath.Join(root, "messages.txt")
			args := []string{"gomoku-cli", "-sandbox", sandbox, "-games", "2", "-msg", msg,
				"-engine", "cmd=" + prog + " read=" + secret, "name=spy", "tc=30",
				"-engine", "cmd=builtin:greedy", "name=rival", "dir=" + rivalDir, "tc=30"}
			if stdout, stderr, code := runArena(t, args...); code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
			}
			b, _ := os.ReadFile(msg)
			want := map[string]string{"bwrap": "no", "none": "yes"}[sandbox]
			if n := strings.Count(string(b), "read "+secret+" "+want); n < 2 {
				t.Errorf("%d reports of reading %s: %s, want 2 or more\n%s", n, secret, want, b)
			}
			if other := map[string]string{"no": "yes", "yes": "no"}[want]; strings.Contains(string(b), "read "+secret+" "+other) {
				t.Errorf("the spy could read %s: %s\n%s", secret, other, b)
			}
		})
	}
}
