package event

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gomoku-arena/engine"
	"gomoku-arena/internal/config"
	"gomoku-arena/results/journal"
)

// oneProgramEvent is an event of three entrants that run one program file
// (this test binary, which is also the bundled engines) at three
// settings, from a folder beside the config that also holds the
// organizer's notes, with declared weights.
func oneProgramEvent(t *testing.T, sandbox string) (cfg *config.Event, root string) {
	t.Helper()
	root = t.TempDir()
	self, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Skip(err)
	}
	os.MkdirAll(filepath.Join(root, "bin", "weights"), 0o755)
	if err := os.WriteFile(filepath.Join(root, "bin", "pbrain-arena"), self, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "bin", "weights", "net.bin"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(root, "notes.txt"), []byte("x"), 0o644)
	src := `name = "one-program"
rule = "freestyle"
format = "round-robin"
output = "out"
sandbox = "` + sandbox + `"

[clock]
match = "30s"
`
	for _, e := range []struct{ name, args string }{{"greedy", `"engine", "greedy"`}, {"random-1", `"engine", "random", "seed=1"`}, {"random-2", `"engine", "random", "seed=2"`}} {
		src += "\n[[engine]]\nname = \"" + e.name + "\"\ncommand = \"bin/pbrain-arena\"\nargs = [" + e.args + "]\nfiles = [\"bin/weights\"]\n"
	}
	path := filepath.Join(root, "event.toml")
	os.WriteFile(path, []byte(src), 0o644)
	cfg, err = config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return cfg, root
}

// TestOneProgramSeveralEntrants: entrants that run one program file at
// several settings are accepted under the sandbox and play; each is shown
// the program and the declared weights read-only and its own working
// folder, and not the folder the program sits in.
func TestOneProgramSeveralEntrants(t *testing.T) {
	if _, err := engine.Bwrap(); err != nil {
		t.Skip(err)
	}
	cfg, root := oneProgramEvent(t, "bwrap")
	cs, err := Containments(cfg)
	if err != nil {
		t.Fatal(err)
	}
	prog, weights := filepath.Join(root, "bin", "pbrain-arena"), filepath.Join(root, "bin", "weights")
	for _, c := range cs {
		shown := map[string]engine.Access{}
		for _, p := range c.Paths {
			shown[p.Path] = p.Access
		}
		own := filepath.Join(root, "out", "engines", c.Entrant)
		for path, want := range map[string]engine.Access{prog: engine.ReadOnly, weights: engine.ReadOnly, own: engine.ReadWrite} {
			if got := shown[realPathOf(path)]; got != want {
				t.Errorf("%s: %s is %q, want %s; the view: %v", c.Entrant, path, got, want, c.Paths)
			}
		}
		for p := range shown {
			if p == realPathOf(root) || p == realPathOf(filepath.Join(root, "bin")) || strings.HasPrefix(p, realPathOf(filepath.Join(root, "out"))+"/") && p != realPathOf(own) {
				t.Errorf("%s is shown %s: %v", c.Entrant, p, c.Paths)
			}
		}
	}
	ev, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ev.Run(context.Background(), context.Background(), newRecorder()); err != nil {
		t.Fatal(err)
	}
	recs, err := journal.Read(filepath.Join(ev.Folder(), "journal.jsonl"))
	if err != nil || len(recs) < 3 {
		t.Fatalf("journal: %v, %d games, want each pair to play", err, len(recs))
	}
	for _, r := range recs {
		if r.End.Forfeit() {
			t.Errorf("%s–%s ended by %s: %s", r.Black, r.White, r.End, r.Detail)
		}
	}
}

func realPathOf(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}
