package journal

import (
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
	if err := j.Append(&record.Record{Game: 4}); err != nil {
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
	os.WriteFile(path, []byte("{\"Game\":1}\nnot json\n{\"Game\":3}\n"), 0o644)
	_, _, err := Open(path)
	if err == nil || !strings.Contains(err.Error(), "journal.jsonl:2") {
		t.Fatalf("err = %v, want one naming line 2", err)
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), `{"Game":3}`) {
		t.Fatal("a corrupt journal was modified")
	}
}
