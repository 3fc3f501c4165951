package engine

import (
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
		dir, err := WorkDir(base, name)
		if err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		if filepath.Dir(dir) != mustReal(t, base) {
			t.Errorf("%q: working folder %s is not directly in %s", name, dir, base)
		}
	}
	// An engine plants a link in its own folder where a later process of
	// it will be given its folder: refused.
	own, err := WorkDir(base, "spy")
	if err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(own, "2")); err != nil {
		t.Fatal(err)
	}
	if dir, err := WorkDir(own, "2"); err == nil {
		t.Fatalf("a planted link made the working folder %s", dir)
	} else {
		t.Log(err)
	}
	// The base itself may be reached through a link (the organizer's).
	link := filepath.Join(t.TempDir(), "link")
	os.Symlink(base, link)
	if dir, err := WorkDir(link, "x"); err != nil || filepath.Dir(dir) != mustReal(t, base) {
		t.Errorf("through a linked base: %s, %v", dir, err)
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
