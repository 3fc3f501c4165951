package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"gomoku-arena/engine"
	"gomoku-arena/results/journal"
)

// hostileEngine builds the engine package's hostile engine
// (engine/testdata/hostile) into a folder of the test's.
func hostileEngine(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("cannot build engine/testdata/hostile: no go tool on PATH")
	}
	path := filepath.Join(t.TempDir(), "pbrain-hostile")
	cmd := exec.Command(goTool, "build", "-o", path, "../../engine/testdata/hostile")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("cannot build engine/testdata/hostile (needs the go tool): %v: %s", err, out)
	}
	return path
}

// placeHostile copies the hostile engine to path.
func placeHostile(t *testing.T, from, path string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, b, 0o755); err != nil {
		t.Fatal(err)
	}
}

// TestNoWayOutOfTheEvent plays an event between a spy, whose program is in
// the folder the event is run from (above the output folder), and a forger
// named "..", the two attacks of issue 12 on the event's own records:
// the spy tries to read the journal, the config and the forger's files; the
// forger tries to append to the journal from its working folder and by
// every path to it. They report, game by game, in MESSAGE lines. The
// sandboxed event runs as root and as nobody.
func TestNoWayOutOfTheEvent(t *testing.T) {
	for _, tc := range []struct {
		sandbox string
		nobody  bool
	}{{"bwrap", false}, {"bwrap", true}, {"none", false}} {
		name := tc.sandbox
		if tc.nobody {
			name += " as nobody"
		}
		t.Run(name, func(t *testing.T) {
			if tc.sandbox == "bwrap" {
				if _, err := engine.Bwrap(); err != nil {
					t.Skip(err)
				}
			}
			prog := hostileEngine(t)
			if !tc.nobody {
				root := t.TempDir()
				cfg := writeEscapeEvent(t, root, prog, tc.sandbox)
				if stdout, stderr, code := runArena(t, "run", "-quiet", "-no-check", cfg); code != 0 {
					t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
				}
				checkEscapeEvent(t, root, tc.sandbox)
				return
			}
			bin, root, cred := asNobody(t)
			cfg := writeEscapeEvent(t, root, prog, tc.sandbox)
			filepath.Walk(root, func(p string, _ os.FileInfo, _ error) error { return os.Lchown(p, int(cred.Uid), int(cred.Gid)) })
			cmd := exec.Command(bin, "run", "-quiet", "-no-check", cfg)
			cmd.Env = append(os.Environ(), "ARENA_TEST_MAIN=1")
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
			if out, err := cmd.CombinedOutput(); err != nil {
				if strings.Contains(string(out), "does not work here") {
					t.Skipf("bubblewrap does not work for nobody here:\n%s", out)
				}
				t.Fatalf("%v\n%s", err, out)
			}
			checkEscapeEvent(t, root, tc.sandbox)
		})
	}
}

// escapePaths are where the spy and the forger look, in an event at root.
func escapePaths(root string) (out, journal, forgerDir, secret, forgerProg string) {
	out = filepath.Join(root, "out", "ev")
	forgerDir = filepath.Join(out, "engines", engine.FolderName(".."))
	return out, filepath.Join(out, "journal.jsonl"), forgerDir, filepath.Join(forgerDir, "secret.txt"),
		filepath.Join(root, "forger", "pbrain-forger")
}

// writeEscapeEvent writes the event, its programs and the forger's secret
// at root and returns the config's path.
func writeEscapeEvent(t *testing.T, root, prog, sandbox string) string {
	t.Helper()
	_, journal, forgerDir, secret, forgerProg := escapePaths(root)
	os.MkdirAll(forgerDir, 0o755)
	os.WriteFile(secret, []byte("x\n"), 0o644)
	placeHostile(t, prog, filepath.Join(root, "pbrain-spy"))
	placeHostile(t, prog, forgerProg)
	cfg := filepath.Join(root, "event.toml")
	var spyArgs, forgerArgs []string
	for _, p := range []string{journal, cfg, secret, forgerProg} {
		spyArgs = append(spyArgs, `"read=`+p+`"`)
	}
	forgerArgs = []string{`"write=journal.jsonl"`}
	if sandbox == "bwrap" { // unconfined, an engine may write what the user may
		forgerArgs = append(forgerArgs, `"write=../../journal.jsonl"`, `"write=`+journal+`"`, `"read=`+journal+`"`)
	}
	src := `name = "ev"
rule = "freestyle"
format = "double-round-robin"
concurrency = 1
output = "out/ev"
sandbox = "` + sandbox + `"
[clock]
match = "30s"

[[engine]]
name = "spy"
command = "./pbrain-spy"
args = [` + strings.Join(spyArgs, ", ") + `]

[[engine]]
name = ".."
command = "forger/pbrain-forger"
args = [` + strings.Join(forgerArgs, ", ") + `]
`
	if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// checkEscapeEvent reads the reports in the records of the event at root.
func checkEscapeEvent(t *testing.T, root, sandbox string) {
	t.Helper()
	_, journalPath, forgerDir, _, _ := escapePaths(root)
	raw, _ := os.ReadFile(journalPath)
	if strings.Contains(string(raw), "forged") {
		t.Fatalf("the forger wrote to the journal:\n%s", raw)
	}
	recs, err := journal.Read(journalPath)
	if err != nil || len(recs) != 2 {
		t.Fatalf("journal: %v, %d records", err, len(recs))
	}
	seen := 0
	for i, r := range recs {
		for _, m := range r.Messages {
			f := strings.Fields(m)
			if len(f) != 5 || f[1] != "MESSAGE" {
				continue
			}
			seen++
			what, path, could := f[2], f[3], f[4]
			if i == 0 && path == journalPath {
				continue // the journal does not exist before the first game is recorded
			}
			want := "no"
			if sandbox == "none" && f[0] == "spy:" {
				want = "yes" // unconfined, the spy sees everything: the test can tell
			}
			if could != want {
				t.Errorf("game %d: %s could %s %s: %s, want %s", r.Game, f[0], what, path, could, want)
			}
		}
	}
	if want := map[string]int{"bwrap": 16, "none": 10}[sandbox]; seen < want {
		t.Errorf("only %d reports in the records, want %d", seen, want)
	}
	if _, err := os.Stat(filepath.Join(forgerDir, "secret.txt")); err != nil {
		t.Errorf("the forger's working folder is not %s: %v", forgerDir, err)
	}
}
