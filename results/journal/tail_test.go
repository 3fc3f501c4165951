package journal

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"gomoku-arena/results/record"
)

// A tail reads each line once, as it is completed: a torn last line is
// waited for, not an error, and is read when its writer finishes it.
func TestTailReadsCompletedLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	tail := NewTail(path)
	if _, _, err := tail.Read(); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("no journal yet: %v", err)
	}
	j, _, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	fresh, reset, err := tail.Read()
	if err != nil || len(fresh) != 0 || !reset {
		t.Fatalf("empty journal: %d records, reset %v, %v", len(fresh), reset, err)
	}
	for n := 1; n <= 2; n++ {
		if err := j.Append(fiveGame(n, n)); err != nil {
			t.Fatal(err)
		}
	}
	if fresh, reset, err := tail.Read(); err != nil || reset || len(fresh) != 2 || fresh[1].Game != 2 {
		t.Fatalf("two games: %d records, reset %v, %v", len(fresh), reset, err)
	}
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	defer f.Close()
	third := line(3)
	f.WriteString(third[:40])
	if fresh, _, err := tail.Read(); err != nil || len(fresh) != 0 {
		t.Fatalf("a torn last line: %d records, %v", len(fresh), err)
	}
	f.WriteString(third[40:])
	if fresh, _, err := tail.Read(); err != nil || len(fresh) != 1 || fresh[0].Game != 3 {
		t.Fatalf("the line finished: %d records, %v", len(fresh), err)
	}
	if got := tail.Records(); len(got) != 3 || got[0].Game != 1 || got[2].Game != 3 {
		t.Fatalf("Records: %d", len(got))
	}
	before := tail.BytesRead()
	if fresh, _, err := tail.Read(); err != nil || len(fresh) != 0 || tail.BytesRead() != before {
		t.Fatalf("nothing new: %d records, %d bytes read again, %v", len(fresh), tail.BytesRead()-before, err)
	}
}

// A complete line that is not a record is corruption: the tail says which
// file and line, and says it again on the next read rather than skipping
// the line.
func TestTailCorruptLineNamesFileAndLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	os.WriteFile(path, []byte(line(1)+line(2)), 0o644)
	tail := NewTail(path)
	if fresh, _, err := tail.Read(); err != nil || len(fresh) != 2 {
		t.Fatalf("%d records, %v", len(fresh), err)
	}
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("{not json}\n" + line(4))
	f.Close()
	for range 2 {
		if _, _, err := tail.Read(); err == nil || !strings.Contains(err.Error(), path+":3:") {
			t.Fatalf("err = %v, want one naming %s:3", err, path)
		}
	}
	if got := len(tail.Records()); got != 2 {
		t.Errorf("%d records kept, want the 2 before the corrupt line", got)
	}
}

// A journal replaced by another file (a merge writes a new one and renames
// it over), or cut below what was read, is read again from the start.
func TestTailStartsOverOnAReplacedJournal(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "journal.jsonl")
	os.WriteFile(path, []byte(line(1)+line(2)), 0o644)
	tail := NewTail(path)
	if fresh, reset, err := tail.Read(); err != nil || !reset || len(fresh) != 2 {
		t.Fatalf("first read: %d records, reset %v, %v", len(fresh), reset, err)
	}
	other := filepath.Join(dir, "new")
	os.WriteFile(other, []byte(line(2)+line(1)+line(5)), 0o644)
	os.Rename(other, path)
	fresh, reset, err := tail.Read()
	if err != nil || !reset || len(fresh) != 3 || fresh[0].Game != 2 || len(tail.Records()) != 3 {
		t.Fatalf("replaced: %d records, reset %v, %v", len(fresh), reset, err)
	}
	os.Truncate(path, int64(len(line(2))))
	if fresh, reset, err := tail.Read(); err != nil || !reset || len(fresh) != 1 || len(tail.Records()) != 1 {
		t.Fatalf("cut: %d records, reset %v, %v", len(fresh), reset, err)
	}
}

// A journal appended to while it is read: one writer appends games through
// Journal.Append and then by hand, each line in pieces (a writer caught
// mid-line), while the tail reads; every game is read once, in order, and
// no torn line is an error.
func TestTailWhileTheJournalGrows(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, _, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	const games = 120
	done := make(chan error, 1)
	go func() {
		defer j.Close()
		for n := 1; n <= games/2; n++ {
			if err := j.Append(fiveGame(n, n%13)); err != nil {
				done <- err
				return
			}
			runtime.Gosched()
		}
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			done <- err
			return
		}
		defer f.Close()
		for n := games/2 + 1; n <= games; n++ {
			b, _ := json.Marshal(fiveGame(n, n%13))
			b = append(b, '\n')
			for _, piece := range [][]byte{b[:1], b[1 : len(b)/2], b[len(b)/2 : len(b)-1], b[len(b)-1:]} {
				if _, err := f.Write(piece); err != nil {
					done <- err
					return
				}
				runtime.Gosched()
			}
		}
		done <- nil
	}()
	tail := NewTail(path)
	var got []*record.Record
	var writeErr error
	for finished := false; ; {
		fresh, reset, err := tail.Read()
		if err != nil {
			t.Fatalf("after %d games: %v", len(got), err)
		}
		if reset && len(got) > 0 {
			t.Fatalf("reset after %d games", len(got))
		}
		got = append(got, fresh...)
		if finished {
			break
		}
		select {
		case writeErr = <-done:
			finished = true // one more read takes what was written last
		default:
		}
	}
	if writeErr != nil {
		t.Fatal(writeErr)
	}
	if len(got) != games {
		t.Fatalf("read %d games, want %d", len(got), games)
	}
	for i, r := range got {
		if r.Game != i+1 {
			t.Fatalf("record %d is game %d", i, r.Game)
		}
	}
}

// A line past MaxLine is refused naming the file and line, before it is
// held whole, complete or still growing: a 300 MB line once cost a reader
// 1.43 GB.
func TestTailRefusesALineBeyondTheCap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	var rec map[string]any
	json.Unmarshal([]byte(line(2)), &rec)
	rec["detail"] = strings.Repeat("x", MaxLine) // a record by itself, but no arbiter's
	huge, _ := json.Marshal(rec)
	for _, tc := range []struct{ name, body string }{
		{"complete", line(1) + string(huge) + "\n"},
		{"growing", line(1) + string(huge)},
	} {
		os.WriteFile(path, []byte(tc.body), 0o644)
		if _, err := Read(path); err == nil || !strings.Contains(err.Error(), path+":2: line longer than") {
			t.Errorf("%s: %v, want the line refused naming %s:2", tc.name, err, path)
		}
	}
}
