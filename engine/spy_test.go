package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// spyLayout is an event's folders for the spy: where the config, the
// output folder, the spy's program and working folder and a rival's are.
type spyLayout struct {
	name     string
	prog     string // the spy's program, relative to the root
	refusal  string // the start fails with this, "" if it runs
	rivalBin string // the rival's program folder, relative to the root
	config   string // the config file, relative to the root; "" is event.toml
	dir      string // the spy's working folder, relative to the root; "" is out/ev/engines/spy
	show     string // a folder the spy declared it needs, relative to the root
}

// TestSpyCannotSeeTheEvent runs a hostile engine that tries to read the
// event's journal, the config file, the organizer's notes and TLS key and
// another event's journal beside the config, a rival's secret and the
// rival's program, and to append to the journal, under bubblewrap, with
// its program in each place people put one: in the folder the event is run
// from (above the output folder, beside the config), inside the output
// folder, inside its own working folder, beside or as the rival's program,
// and elsewhere. It reports what it could do in MESSAGE lines.
func TestSpyCannotSeeTheEvent(t *testing.T) {
	bw, err := Bwrap()
	if err != nil {
		t.Skip(err)
	}
	layouts := []spyLayout{
		{name: "program beside the config, above the output folder", prog: "pbrain-spy", rivalBin: "rival"},
		{name: "program beside the config, with a declared folder", prog: "pbrain-spy", rivalBin: "rival", show: "spy-weights"},
		{name: "program inside the output folder", prog: "out/ev/programs/spy/pbrain-spy", rivalBin: "out/ev/programs/rival"},
		{name: "program inside its own working folder", prog: "out/ev/engines/spy/bin/pbrain-spy", rivalBin: "rival"},
		{name: "program in a folder of its own", prog: "engines/spy/pbrain-spy", rivalBin: "engines/rival"},
		{name: "program above the config's folder", prog: "pbrain-spy", rivalBin: "rival", config: "configs/event.toml"},
		{name: "program in the rival's program folder", prog: "rival/pbrain-spy", rivalBin: "rival"},
		{name: "program is the rival's program", prog: "rival/pbrain-rival", rivalBin: "rival"},
		{name: "program in the output folder itself", prog: "out/ev/pbrain-spy", rivalBin: "rival"},
		{name: "program in the rival's working folder", prog: "out/ev/engines/rival/bin/pbrain-spy", rivalBin: "rival",
			refusal: "is inside another engine's working directory"},
		{name: "working folder is the config's folder", prog: "pbrain-spy", rivalBin: "rival", dir: ".",
			refusal: "the organizer's folder"},
		{name: "declared folder is the config's folder", prog: "pbrain-spy", rivalBin: "rival", show: ".",
			refusal: "the organizer's folder"},
		{name: "declared folder is the output folder", prog: "pbrain-spy", rivalBin: "rival", show: "out/ev",
			refusal: "must not see"},
	}
	for _, l := range layouts {
		t.Run(l.name, func(t *testing.T) { spyIn(t, bw, l, true) })
	}
	// Unconfined, the spy sees everything: the test can tell.
	t.Run("unconfined", func(t *testing.T) { spyIn(t, "", layouts[0], false) })
}

func spyIn(t *testing.T, bw string, l spyLayout, sandboxed bool) {
	root := t.TempDir()
	at := func(p string) string { return filepath.Join(root, p) }
	out := at("out/ev")
	if l.config == "" {
		l.config = "event.toml"
	}
	config, journal := at(l.config), filepath.Join(out, "journal.jsonl")
	// The organizer's folder: notes, the remote server's key, another
	// event's config and journal, beside the config.
	notes, key := filepath.Join(filepath.Dir(config), "notes.txt"), filepath.Join(filepath.Dir(config), "server.key")
	otherConfig, otherJournal := filepath.Join(filepath.Dir(config), "other.toml"), at("out/other/journal.jsonl")
	spyDir, rivalDir := filepath.Join(out, "engines/spy"), filepath.Join(out, "engines/rival")
	if l.dir != "" {
		spyDir = at(l.dir)
	}
	secret, rivalProg := filepath.Join(rivalDir, "secret.txt"), filepath.Join(at(l.rivalBin), "pbrain-rival")
	for _, f := range []string{config, notes, key, otherConfig, otherJournal, journal, secret, rivalProg, at(l.prog)} {
		os.MkdirAll(filepath.Dir(f), 0o755)
		os.WriteFile(f, []byte("x\n"), 0o644)
	}
	os.MkdirAll(spyDir, 0o755)
	if err := copyFile(hostile(t), at(l.prog)); err != nil {
		t.Fatal(err)
	}
	os.Chmod(at(l.prog), 0o755)
	os.WriteFile(filepath.Join(spyDir, "own.txt"), []byte("x\n"), 0o644)
	targets := map[string]string{ // attack: what the spy may do
		"read=" + journal:                          "no",
		"read=" + config:                           "no",
		"read=" + notes:                            "no",
		"read=" + key:                              "no",
		"read=" + otherConfig:                      "no",
		"read=" + otherJournal:                     "no",
		"read=" + secret:                           "no",
		"read=" + rivalProg:                        "no",
		"read=" + rivalDir:                         "no",
		"write=" + journal:                         "no",
		"read=" + filepath.Join(spyDir, "own.txt"): "yes",
		"read=" + at(l.prog):                       "yes",
	}
	if at(l.prog) == rivalProg {
		targets["read="+rivalProg] = "yes" // its own program too
	}
	var show []string
	if l.show != "" {
		os.MkdirAll(at(l.show), 0o755)
		weights := filepath.Join(at(l.show), "weights.bin")
		os.WriteFile(weights, []byte("x\n"), 0o644)
		targets["read="+weights] = "yes"
		targets["write="+weights] = "no"
		show = append(show, at(l.show))
	}
	var args []string
	for a := range targets {
		args = append(args, a)
	}
	spec := Spec{Name: "spy", Command: at(l.prog), Args: args, Dir: spyDir, StartTimeout: generous}
	if sandboxed {
		home, _ := os.UserHomeDir()
		spec.Sandbox = &Sandbox{Bwrap: bw, Show: show, Hide: []string{out, config, key, home}, Private: []string{filepath.Dir(config)},
			RivalDirs: []string{rivalDir}, RivalFiles: []string{rivalProg}}
		err := spec.Sandbox.Check(spec)
		if l.refusal != "" {
			if err == nil || !strings.Contains(err.Error(), l.refusal) {
				t.Fatalf("Check: %v, want a refusal with %q", err, l.refusal)
			}
			t.Log(err)
			if _, err := Start(spec); err == nil || !strings.Contains(err.Error(), l.refusal) {
				t.Fatalf("Start: %v, want a refusal with %q", err, l.refusal)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	e, err := Start(spec)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if err := e.NewGame(15, nil, in(generous)); err != nil {
		t.Fatal(err)
	}
	r := e.Begin(in(generous))
	if r.Fault != "" {
		t.Fatalf("%v %s %v", r.Fault, r.Detail, e.Stderr())
	}
	got := map[string]string{}
	for _, n := range r.Notes {
		if f := strings.Fields(n); len(f) == 4 && f[0] == "MESSAGE" {
			got[f[1]+"="+f[2]] = f[3]
		}
	}
	for a, want := range targets {
		if !sandboxed {
			want = "yes"
		}
		if got[a] != want {
			t.Errorf("%s: %q, want %s", a, got[a], want)
		}
	}
	if b, _ := os.ReadFile(journal); string(b) != "x\n" && sandboxed {
		t.Errorf("the journal was changed: %q", b)
	}
}
