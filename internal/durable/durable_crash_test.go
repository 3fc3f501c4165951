package durable

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// The child half of TestKilledWriterLeavesOldOrNew: it rewrites the file with
// alternating contents until it is killed.
func init() {
	path := os.Getenv("DURABLE_TEST_WRITER")
	if path == "" {
		return
	}
	durableToo := os.Getenv("DURABLE_TEST_SYNC") == "1"
	for i := 0; ; i++ {
		b := content(i % 2)
		var err error
		if durableToo {
			err = WriteFile(path, b)
		} else {
			err = Replace(path, b)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
	}
}

// content is one of two whole files, each a single repeated byte, so that a
// mix of the two or a short file is seen at once.
func content(which int) []byte {
	return bytes.Repeat([]byte{"ab"[which]}, 256<<10)
}

func whole(b []byte) bool {
	return bytes.Equal(b, content(0)) || bytes.Equal(b, content(1))
}

// A process killed at any instant of a rewrite leaves the old file or the new,
// never a mix, a short file or none: the guarantee the journal's derived files
// and event.json stand on.
func TestKilledWriterLeavesOldOrNew(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"0", "1"} {
		t.Run("sync="+mode, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "standings.txt")
			if err := WriteFile(path, content(0)); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 12; i++ {
				cmd := exec.Command(exe, "-test.run=^$")
				cmd.Env = append(os.Environ(), "DURABLE_TEST_WRITER="+path, "DURABLE_TEST_SYNC="+mode)
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				// Kill it at a different instant of its loop each time.
				time.Sleep(time.Duration(5+7*i) * time.Millisecond)
				cmd.Process.Kill()
				cmd.Wait()
				if stderr.Len() > 0 {
					t.Fatalf("writer failed: %s", stderr.String())
				}
				b, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("kill %d: the file is gone: %v", i, err)
				}
				if !whole(b) {
					t.Fatalf("kill %d: a file of %d bytes that is neither the old content nor the new", i, len(b))
				}
			}
		})
	}
}

// Replacing an existing file swaps it whole: a reader that opened the old
// file keeps reading the old content, and the name shows the new one.
func TestReplaceOverAnExistingFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "page.html")
	if err := Replace(path, content(0)); err != nil {
		t.Fatal(err)
	}
	old, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	if err := Replace(path, content(1)); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if !bytes.Equal(got, content(1)) {
		t.Error("the name does not show the new content")
	}
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(old); err != nil || !bytes.Equal(buf.Bytes(), content(0)) {
		t.Errorf("a reader of the old file saw %d bytes of something else (err %v)", buf.Len(), err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("the folder holds %q, want only page.html: a temporary file was left", names)
	}
}

// A write that cannot be made leaves the old file as it was and says why.
func TestFailedWriteKeepsTheOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "event.json")
	if err := WriteFile(path, []byte("old")); err != nil {
		t.Fatal(err)
	}
	// A folder where the temporary file would go makes the write fail
	// before anything is renamed, as a full disk would.
	if err := os.Mkdir(path+".tmp", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(path+".tmp", "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("new")); err == nil {
		t.Fatal("the write succeeded")
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("the old file reads %q", b)
	}
}

// WriteFile makes the file's data durable before its name, and the name after
// the rename: the order a crash of the machine needs. The order is seen by
// the operations the package performs.
func TestWriteFileSyncsDataThenName(t *testing.T) {
	var ops []string
	defer func(f func(string, *os.File) error) { syncFile = f }(syncFile)
	syncFile = func(what string, f *os.File) error {
		ops = append(ops, what+":"+filepath.Base(f.Name()))
		return f.Sync()
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "journal.state")
	if err := WriteFile(path, []byte(strconv.Itoa(1))); err != nil {
		t.Fatal(err)
	}
	want := []string{"data:journal.state.tmp", "dir:" + filepath.Base(dir)}
	if fmt.Sprint(ops) != fmt.Sprint(want) {
		t.Errorf("syncs %q, want %q", ops, want)
	}
	ops = nil
	if err := Replace(path, []byte("2")); err != nil {
		t.Fatal(err)
	}
	if len(ops) != 0 {
		t.Errorf("Replace synced %q: a derived file does not wait for the disk", ops)
	}
}
