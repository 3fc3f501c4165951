package durable

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// plant makes dir/name a link to a file outside holding "secret", and
// returns that file.
func plant(t *testing.T, dir, name string) string {
	t.Helper()
	target := filepath.Join(t.TempDir(), "target")
	if err := os.WriteFile(target, []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
		t.Fatal(err)
	}
	return target
}

func unchanged(t *testing.T, target string) {
	t.Helper()
	if b, err := os.ReadFile(target); err != nil || string(b) != "secret" {
		t.Errorf("the file a planted link points at was written: %q %v", b, err)
	}
}

// A link planted where a file is replaced is replaced itself; what it
// points at is not written.
func TestReplaceFollowsNoLink(t *testing.T) {
	for name, write := range map[string]func(string, []byte) error{"WriteFile": WriteFile, "Replace": Replace} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			target := plant(t, dir, "games.sgf")
			path := filepath.Join(dir, "games.sgf")
			if err := write(path, []byte("ours")); err != nil {
				t.Fatal(err)
			}
			unchanged(t, target)
			if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
				t.Fatalf("%s is not our regular file: %v %v", path, fi, err)
			}
			// The temporary name of an older version of this package.
			target2 := plant(t, dir, "event.json.tmp")
			if err := write(filepath.Join(dir, "event.json"), []byte("ours")); err != nil {
				t.Fatal(err)
			}
			unchanged(t, target2)
			entries, _ := os.ReadDir(dir)
			if len(entries) != 3 {
				t.Errorf("left behind: %v", entries)
			}
		})
	}
}

// ReplaceIn and MkdirIn refuse a folder below the given one that is a
// link; OpenAppend refuses a link.
func TestFoldersBelowAreNotFollowed(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "games")); err != nil {
		t.Fatal(err)
	}
	if err := ReplaceIn(dir, "games/0001.sgf", []byte("x")); err == nil || !strings.Contains(err.Error(), "link") {
		t.Errorf("ReplaceIn through a linked folder: %v", err)
	}
	if err := MkdirIn(dir, "games/more"); err == nil {
		t.Errorf("MkdirIn through a linked folder succeeded")
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("written outside: %v", entries)
	}
	if err := ReplaceIn(dir, "fresh/0001.sgf", []byte("x")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "fresh", "0001.sgf")); err != nil || string(b) != "x" {
		t.Errorf("ReplaceIn into a new folder: %q %v", b, err)
	}
	target := plant(t, dir, "alpha.log")
	if f, err := OpenAppend(filepath.Join(dir, "alpha.log")); err == nil {
		f.Close()
		t.Errorf("OpenAppend followed a link")
	}
	unchanged(t, target)
}

// OpenRegular opens regular files inside the folder only: no link (to a
// file or a folder), no FIFO, nothing above the folder.
func TestOpenRegular(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "games"), 0o755)
	os.WriteFile(filepath.Join(dir, "games", "ok.sgf"), []byte("(;)"), 0o644)
	plant(t, filepath.Join(dir, "games"), "evil.sgf")
	os.Symlink(filepath.Join(dir, "games"), filepath.Join(dir, "linked"))
	if err := syscall.Mkfifo(filepath.Join(dir, "games", "fifo.sgf"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadRegular(dir, "games/ok.sgf", 100); err != nil || string(b) != "(;)" {
		t.Fatalf("a regular file: %q %v", b, err)
	}
	if _, err := ReadRegular(dir, "games/ok.sgf", 2); err == nil {
		t.Errorf("a file over the bound was read")
	}
	for _, rel := range []string{"games/evil.sgf", "linked/ok.sgf", "games/fifo.sgf", "../x", "games", "games/missing.sgf"} {
		if f, err := OpenRegular(dir, rel); err == nil {
			f.Close()
			t.Errorf("%s opened", rel)
		}
	}
}

// OpenFile refuses a link and a FIFO at once: a journal replaced by a link
// to /dev/zero or a FIFO would be read for ever.
func TestOpenFileRefusesWhatNeverEnds(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "journal.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Symlink("/dev/zero", filepath.Join(dir, "event.json"))
	os.WriteFile(filepath.Join(dir, "ok"), []byte("x"), 0o644)
	for _, name := range []string{"journal.jsonl", "event.json"} {
		if f, err := OpenFile(filepath.Join(dir, name)); err == nil {
			f.Close()
			t.Errorf("%s opened", name)
		}
	}
	if _, err := OpenFile(filepath.Join(dir, "missing")); !os.IsNotExist(err) {
		t.Errorf("a missing file: %v, want not-exist", err)
	}
	if f, err := OpenFile(filepath.Join(dir, "ok")); err != nil {
		t.Error(err)
	} else {
		f.Close()
	}
}
