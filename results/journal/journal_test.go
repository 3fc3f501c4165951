package journal

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

func TestJournalAppendReopenAndTornTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, recs, err := Open(path)
	if err != nil || len(recs) != 0 {
		t.Fatalf("new journal: %v, %d records", err, len(recs))
	}
	for i := 1; i <= 3; i++ {
		rec := &record.Record{Game: i, Black: "a", White: "b", Winner: rules.Black, End: record.Five,
			Moves: []record.Move{{Point: rules.Point{X: i, Y: 7}, Color: rules.Black}}}
		if err := j.Append(rec); err != nil {
			t.Fatal(err)
		}
	}
	j.Close()

	// Power loss in the middle of the fourth line.
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"Game":4,"Black":"a","Wh`)
	f.Close()

	j, recs, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 || recs[2].Game != 3 || recs[1].Moves[0].Point.X != 2 {
		t.Fatalf("after a torn tail: %d records %+v", len(recs), recs)
	}
	if err := j.Append(&record.Record{Game: 4, End: record.Refusal, Winner: rules.White}); err != nil {
		t.Fatal(err)
	}
	j.Close()
	recs, err = Read(path)
	if err != nil || len(recs) != 4 || recs[3].Game != 4 {
		t.Fatalf("after repair and append: %v %d", err, len(recs))
	}
}

func TestJournalCorruptMiddleLineIsAnError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	os.WriteFile(path, []byte(line(1)+"not json\n"+line(3)), 0o644)
	_, _, err := Open(path)
	if err == nil || !strings.Contains(err.Error(), "journal.jsonl:2") {
		t.Fatalf("err = %v, want one naming line 2", err)
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), line(3)) {
		t.Fatal("a corrupt journal was modified")
	}
}

// line is a journal line holding game n.
func line(n int) string {
	b, err := json.Marshal(&record.Record{Game: n, Black: "a", White: "b", Winner: rules.Black, End: record.Five,
		Moves: []record.Move{{Point: rules.Point{X: n, Y: 7}, Color: rules.Black}}})
	if err != nil {
		panic(err)
	}
	return string(b) + "\n"
}

// A journal written before formats were declared (testdata/format1.jsonl, as
// that arena wrote it: a pente round robin with byes, malformed moves and a
// capture) is read, and continued in the current format.
func TestJournalReadsAndContinuesFormat1(t *testing.T) {
	old, err := os.ReadFile("testdata/format1.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	os.WriteFile(path, old, 0o644)
	j, recs, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var byes, raws, captures int
	for _, r := range recs {
		if r.End == record.ByeEnd && r.Winner == rules.Black && r.White == "" {
			byes++
		}
		for _, m := range r.Moves {
			if m.Raw == "7," && m.Color != rules.Empty {
				raws++
			}
			captures += len(m.Captured)
		}
	}
	if len(recs) != 6 || byes != 3 || raws != 2 || captures != 12 || recs[3].Moves[0].Think <= 0 {
		t.Fatalf("%d records, %d byes, %d malformed moves, %d captured stones; want 6, 3, 2, 12", len(recs), byes, raws, captures)
	}
	if err := j.Append(recs[3]); err != nil {
		t.Fatal(err)
	}
	j.Close()
	b, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(b[len(old):]), `{"format":2,`) {
		t.Fatalf("appended line: %s", b[len(old):])
	}
	again, err := Read(path)
	if err != nil || len(again) != 7 || again[6].Moves[0].Point != recs[3].Moves[0].Point || again[6].End != recs[3].End {
		t.Fatalf("after appending a format 2 line: %v, %d records", err, len(again))
	}
}

func TestJournalRefusesAnUnknownFormatNamingTheLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	os.WriteFile(path, []byte(line(1)+strings.Replace(line(2), `"format":2`, `"format":7`, 1)+line(3)), 0o644)
	for _, open := range []func() error{
		func() error { _, err := Read(path); return err },
		func() error { _, _, err := Open(path); return err },
	} {
		err := open()
		if err == nil || !strings.Contains(err.Error(), "journal.jsonl:2: format 7 is not one this arena reads") {
			t.Errorf("err = %v, want one naming line 2 and format 7", err)
		}
	}
}

// A journal line is one line whatever the engines wrote, and keeps their
// characters as written.
func TestJournalLineKeepsEnginesWords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, _, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	words := "engine.cpp:7: f(): Assertion `a && v.size() < 2' failed.\nnext\u2028line"
	if err := j.Append(&record.Record{Game: 1, End: record.Crash, Winner: rules.White, Stderr: []string{words}}); err != nil {
		t.Fatal(err)
	}
	j.Close()
	b, _ := os.ReadFile(path)
	if strings.Count(string(b), "\n") != 1 || !strings.Contains(string(b), "`a && v.size() < 2' failed.\\nnext\\u2028line") {
		t.Errorf("journal line: %s", b)
	}
	recs, err := Read(path)
	if err != nil || len(recs) != 1 || recs[0].Stderr[0] != words {
		t.Fatalf("read back: %v %+v", err, recs)
	}
}
