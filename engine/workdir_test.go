package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFolderNamesAreNamesNotPaths(t *testing.T) {
	for name, want := range map[string]string{
		"alpha":                    "alpha",
		"Rapfi-2024.1_x+y#2":       "Rapfi-2024.1_x+y#2",
		"..":                       "_.",
		".":                        "_",
		"":                         "_",
		"../../escaped-engine-dir": "_._.._escaped-engine-dir",
		"/etc":                     "_etc",
		"a/b":                      "a_b",
		"Embryo 21":                "Embryo_21",
		"ümlaut":                   "__mlaut",
		"nul\x00byte":              "nul_byte",
		strings.Repeat("x", 100):   strings.Repeat("x", MaxFolderName),
		".hidden":                  "_hidden",
		"trailing.":                "trailing.",
		"back\\slash":              "back_slash",
		"new\nline":                "new_line",
		"C:colon":                  "C_colon",
		"semi;colon$(rm -rf)":      "semi_colon__rm_-rf_",
		"name with ../ inside it ": "name_with_..__inside_it_",
		"\u202eright-to-left mark": "___right-to-left_mark",
		"tab\tname":                "tab_name",
		"percent%20":               "percent_20",
		"star*":                    "star_",
		"question?":                "question_",
		"quote\"":                  "quote_",
		"tilde~":                   "tilde_",
		"~root":                    "_root",
		"$HOME":                    "_HOME",
		"..\\..\\windows":          "_._.._windows",
		"...":                      "_..",
		"-dash-first":              "-dash-first",
		"#1":                       "#1",
		"engines":                  "engines",
		"journal.jsonl":            "journal.jsonl",
	} {
		got := FolderName(name)
		if got != want {
			t.Errorf("FolderName(%q) = %q, want %q", name, got, want)
		}
		if got == "." || got == ".." || strings.ContainsAny(got, "/\x00") || len(got) > MaxFolderName {
			t.Errorf("FolderName(%q) = %q is not a plain folder name", name, got)
		}
	}
}

func TestWorkDirStaysInsideItsBase(t *testing.T) {
	base := filepath.Join(t.TempDir(), "engines")
	for _, name := range []string{"..", "../../escaped-engine-dir", "/etc", "a/../../b"} {
		s, err := WorkDir(Spec{Dir: base}, name)
		if err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		if filepath.Dir(s.Dir) != base || mustReal(t, s.Dir) != filepath.Join(mustReal(t, base), filepath.Base(s.Dir)) {
			t.Errorf("%q: working folder %s is not directly in %s", name, s.Dir, base)
		}
	}
	// An engine plants a link in its own folder where a later process of
	// it will be given its folder: refused.
	own, err := WorkDir(Spec{Dir: base}, "spy")
	if err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(own.Dir, "2")); err != nil {
		t.Fatal(err)
	}
	if s, err := WorkDir(own, "2"); err == nil {
		t.Fatalf("a planted link made the working folder %s", s.Dir)
	} else {
		t.Log(err)
	}
	// The base itself may be reached through a link (the organizer's).
	link := filepath.Join(t.TempDir(), "link")
	os.Symlink(base, link)
	if s, err := WorkDir(Spec{Dir: link}, "x"); err != nil || mustReal(t, filepath.Dir(s.Dir)) != mustReal(t, base) {
		t.Errorf("through a linked base: %s, %v", s.Dir, err)
	}
}

// TestPlantedWorkingFolderIsRefused: in an output folder others may write
// into, engines/NAME (or engines) was replaced by a link to another
// folder. The engine is not started there, unconfined or under
// bubblewrap, and arena check's view refuses it too; nothing is written
// where the link points.
func TestPlantedWorkingFolderIsRefused(t *testing.T) {
	for _, plant := range []string{"engines/victim", "engines"} {
		for _, sandboxed := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/sandbox=%v", plant, sandboxed), func(t *testing.T) {
				out, elsewhere := t.TempDir(), t.TempDir()
				os.MkdirAll(filepath.Join(out, filepath.Dir(plant)), 0o755)
				if err := os.Symlink(elsewhere, filepath.Join(out, plant)); err != nil {
					t.Fatal(err)
				}
				if plant == "engines" {
					os.Mkdir(filepath.Join(elsewhere, "victim"), 0o755)
				}
				spec := faultySpec()
				spec.Dir, spec.Within = filepath.Join(out, "engines", "victim"), out
				if sandboxed {
					bw, err := Bwrap()
					if err != nil {
						t.Skip(err)
					}
					spec.Sandbox = &Sandbox{Bwrap: bw}
					if _, err := spec.Sandbox.View(spec); err == nil || !strings.Contains(err.Error(), "is a link") {
						t.Errorf("View: %v, want the link refused", err)
					}
				}
				if _, err := WorkDir(spec); err == nil || !strings.Contains(err.Error(), "is a link") {
					t.Errorf("WorkDir: %v, want the link refused", err)
				}
				e, err := Start(spec)
				if err == nil {
					e.Close()
					t.Fatalf("the engine started in %s, the link's target", elsewhere)
				}
				if !strings.Contains(err.Error(), "is a link") {
					t.Errorf("err = %v, want the link refused", err)
				}
			})
		}
	}
}

// TestSandboxBindsTheFolderChecked: the working folder bubblewrap binds is
// the one Start checked and holds, by its descriptor: moved aside and
// replaced by a link after the check, the engine still writes into the
// folder checked, not the link's target.
func TestSandboxBindsTheFolderChecked(t *testing.T) {
	bw, err := Bwrap()
	if err != nil {
		t.Skip(err)
	}
	out, elsewhere := t.TempDir(), t.TempDir()
	dir := filepath.Join(out, "engines", "victim")
	spec := Spec{Name: "victim", Command: hostile(t), Args: []string{"fill=.:10"}, Dir: dir, Within: out,
		StartTimeout: generous, WriteTimeout: generous, Sandbox: &Sandbox{Bwrap: bw}}
	// What Start does, with the swap between its check and the start.
	e := &Engine{spec: spec, name: spec.Name, dir: dir}
	if err := e.resolve(); err != nil {
		t.Fatal(err)
	}
	if e.dirFile, err = openWorkDir(out, dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(dir, dir+".checked"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, dir); err != nil {
		t.Fatal(err)
	}
	if err := e.spawn(); err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if err := e.NewGame(15, nil, in(generous)); err != nil {
		t.Fatal(err, e.Stderr())
	}
	if r := e.Begin(in(generous)); r.Fault != "" {
		t.Fatalf("%v %s %v", r.Fault, r.Detail, e.Stderr())
	}
	if ents, _ := os.ReadDir(elsewhere); len(ents) != 0 {
		t.Errorf("the sandbox bound the link's target: the engine wrote %v there", ents[0].Name())
	}
	if ents, _ := os.ReadDir(dir + ".checked"); len(ents) == 0 {
		t.Errorf("the engine wrote nothing into the folder checked")
	}
}

func mustReal(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
