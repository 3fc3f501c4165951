package transcript

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

func TestLineFormat(t *testing.T) {
	path := filepath.Join(t.TempDir(), "transcripts", "alpha.log")
	l := New(filepath.Dir(path), filepath.Base(path), "alpha", 1<<20)
	l.Line(42, true, "TURN 7,7")
	l.Line(42, false, "8,8")
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	l.Line(42, false, "after close")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := regexp.MustCompile(`^\d\d:\d\d:\d\d\.\d\d\d alpha\[42\] -> TURN 7,7\n\d\d:\d\d:\d\d\.\d\d\d alpha\[42\] <- 8,8\n$`)
	if !want.Match(b) {
		t.Errorf("transcript:\n%s", b)
	}
}

// Many lines from two goroutines: no file ever passes the bound, the newest
// lines are in the current file, and the one before in NAME.1.
func TestRotationBoundsTheFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "e.log")
	const bound = 1000
	l := New(filepath.Dir(path), filepath.Base(path), "e", bound)
	var wg sync.WaitGroup
	for g := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 500 {
				l.Line(g, g == 0, strings.Repeat("x", 30))
			}
		}()
	}
	wg.Wait()
	l.Line(7, false, "last")
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	cur, _ := os.ReadFile(path)
	old, _ := os.ReadFile(path + ".1")
	if len(cur) > bound || len(old) > bound || len(old) < bound-60 || !strings.HasSuffix(string(cur), "e[7] <- last\n") {
		t.Errorf("current %d bytes (ends %q), previous %d bytes; want both at most %d, the previous nearly full", len(cur), cur[max(0, len(cur)-20):], len(old), bound)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("%d files, want e.log and e.log.1", len(entries))
	}
	// A continued event appends, and still rotates at the bound.
	l = New(filepath.Dir(path), filepath.Base(path), "e", bound)
	for range 40 {
		l.Line(8, true, strings.Repeat("y", 30))
	}
	l.Close()
	if cur, _ = os.ReadFile(path); len(cur) > bound {
		t.Errorf("after reopening: %d bytes", len(cur))
	}
}

func TestWriteFailureIsReportedOnClose(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	os.WriteFile(blocker, nil, 0o644)
	l := New(dir, "file/e.log", "e", 1000) // a folder that is a file
	l.Line(1, true, "START 15")
	if err := l.Close(); err == nil || !strings.Contains(err.Error(), "transcript "+blocker) {
		t.Errorf("err = %v", err)
	}
}

// TestPlantedFolderIsNotFollowed: a `transcripts` folder replaced by a
// link to another folder (in an output folder shared with others) is
// refused, and nothing is written where it points.
func TestPlantedFolderIsNotFollowed(t *testing.T) {
	out, elsewhere := t.TempDir(), t.TempDir()
	if err := os.Symlink(elsewhere, filepath.Join(out, "transcripts")); err != nil {
		t.Fatal(err)
	}
	l := New(out, "transcripts/e.log", "e", 1000)
	l.Line(1, true, "START 15")
	if err := l.Close(); err == nil || !strings.Contains(err.Error(), "is a link") {
		t.Errorf("err = %v, want the link refused", err)
	}
	if ents, _ := os.ReadDir(elsewhere); len(ents) != 0 {
		t.Errorf("the transcript was written through the link: %v", ents)
	}
}
