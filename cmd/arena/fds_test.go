package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gomoku-arena/engine"
)

// TestInheritedDescriptorsReachNoEngine is issue 36's attack as an
// organizer's shell would make it: `arena run EVENT.toml 9<secret
// 5<>secret`, and `arena check` the same, with a hostile engine that tries
// every descriptor 3 to 64 and reports in MESSAGE lines. Neither the
// journal nor check's output holds the secret or its path, and the secret
// is unchanged; unconfined and under bubblewrap.
func TestInheritedDescriptorsReachNoEngine(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	prog := hostileEngine(t)
	for _, sandbox := range []string{"none", "bwrap"} {
		t.Run(sandbox, func(t *testing.T) {
			if sandbox == "bwrap" {
				if _, err := engine.Bwrap(); err != nil {
					t.Skip(err)
				}
			}
			root := t.TempDir()
			placeHostile(t, prog, filepath.Join(root, "pbrain-fds"))
			secret := filepath.Join(t.TempDir(), "secret.txt")
			const content = "the organizer's secret"
			if err := os.WriteFile(secret, []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			cfg := filepath.Join(root, "event.toml")
			if err := os.WriteFile(cfg, []byte(`name = "fds"
rule = "freestyle"
format = "round-robin"
output = "out"
sandbox = "`+sandbox+`"
[clock]
match = "30s"
[[engine]]
name = "fds"
command = "./pbrain-fds"
args = ["fds=64"]
[[engine]]
name = "greedy"
command = "builtin:greedy"
`), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{"run", "-quiet", "-no-check", cfg}, {"check", cfg}} {
				if args[0] == "check" && testing.Short() {
					continue // a minute of checks; the same binary's start as run's
				}
				ro, err := os.Open(secret)
				if err != nil {
					t.Fatal(err)
				}
				rw, err := os.OpenFile(secret, os.O_RDWR, 0)
				if err != nil {
					t.Fatal(err)
				}
				cmd := exec.Command(self, args...)
				cmd.Env = append(os.Environ(), "ARENA_TEST_MAIN=1")
				cmd.ExtraFiles = []*os.File{nil, nil, rw, nil, nil, nil, ro} // descriptors 5 and 9
				out, err := cmd.CombinedOutput()
				ro.Close()
				rw.Close()
				if err != nil {
					t.Fatalf("arena %s: %v\n%s", args[0], err, out)
				}
				seen := string(out)
				if args[0] == "run" {
					b, err := os.ReadFile(filepath.Join(root, "out", "journal.jsonl"))
					if err != nil {
						t.Fatal(err)
					}
					if !strings.Contains(string(b), "fds tried 3-64") {
						t.Fatalf("the journal holds no report of the engine's descriptors:\n%s", b)
					}
					seen += string(b)
				}
				if strings.Contains(seen, secret) || strings.Contains(seen, content) {
					t.Errorf("arena %s: an engine reached an inherited descriptor:\n%s", args[0], seen)
				}
				if b, _ := os.ReadFile(secret); string(b) != content {
					t.Errorf("arena %s: an engine wrote through an inherited descriptor: the secret holds %q", args[0], b)
				}
			}
		})
	}
}
