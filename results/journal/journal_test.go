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
		if err := j.Append(fiveGame(i, i)); err != nil {
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
	if len(recs) != 3 || recs[2].Game != 3 || recs[1].Moves[0].Point.Y != 2 {
		t.Fatalf("after a torn tail: %d records %+v", len(recs), recs)
	}
	if err := j.Append(fiveGame(4, 4)); err != nil {
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
	var b []byte
	for _, n := range []int{1, 3} {
		line, _ := json.Marshal(fiveGame(n, n))
		b = append(append(b, line...), '\n')
		if n == 1 {
			b = append(b, "not json\n"...)
		}
	}
	os.WriteFile(path, b, 0o644)
	_, _, err := Open(path)
	if err == nil || !strings.Contains(err.Error(), "journal.jsonl:2") {
		t.Fatalf("err = %v, want one naming line 2", err)
	}
	if after, _ := os.ReadFile(path); string(after) != string(b) {
		t.Fatal("a corrupt journal was modified")
	}
}

// line is a journal line holding game n, a five that its moves make.
func line(n int) string {
	b, err := json.Marshal(fiveGame(n, 2*n%13))
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
	next := *recs[3]
	next.Game = 99 // the same game again would be refused as journaled twice
	if err := j.Append(&next); err != nil {
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
	rec := fiveGame(1, 3)
	rec.Moves = rec.Moves[:1] // Black's first stone, then White crashed
	rec.End, rec.Winner, rec.Stderr = record.Crash, rules.Black, []string{words}
	if err := j.Append(rec); err != nil {
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

// fiveGame is game n of a freestyle event: Black makes five on row y while
// White plays the row below.
func fiveGame(n, y int) *record.Record {
	rec := &record.Record{Game: n, Rule: "freestyle", Size: 15, Black: "a", White: "b", Winner: rules.Black, End: record.Five}
	for x := 0; x < 5; x++ {
		rec.Moves = append(rec.Moves, record.Move{Point: rules.Point{X: x, Y: y}, Color: rules.Black})
		if x < 4 {
			rec.Moves = append(rec.Moves, record.Move{Point: rules.Point{X: x, Y: y + 1}, Color: rules.White})
		}
	}
	return rec
}

// A journal line is believed only when its moves lead to its result.
func TestJournalRefusesContradictions(t *testing.T) {
	cases := []struct {
		name string
		edit func(recs []*record.Record) []*record.Record
		want string
	}{
		{"winner swapped", func(r []*record.Record) []*record.Record {
			r[1].Winner = rules.White
			return r
		}, ":2: game 2 (a vs b): the record says white wins (five), but the stones say black wins (five)"},
		{"time loss for the side that made five", func(r []*record.Record) []*record.Record {
			r[1].Winner, r[1].End = rules.White, record.Time
			return r
		}, ":2: game 2 (a vs b): the record says white wins (time), but the stones say black wins (five)"},
		{"a five that is not there", func(r []*record.Record) []*record.Record {
			r[2].Moves = r[2].Moves[:len(r[2].Moves)-2]
			return r
		}, ":3: game 3 (a vs b): the record says black wins (five), but no move ends the game on the board"},
		{"a stone on an occupied point", func(r []*record.Record) []*record.Record {
			r[0].Moves[2].Point = r[0].Moves[0].Point
			return r
		}, ":1: game 1 (a vs b): move 3 (black 0,1): occupied, and more moves follow"},
		{"game twice", func(r []*record.Record) []*record.Record {
			return append(r, r[0])
		}, ":4: game 1 is already journaled at line 1"},
		{"aborted", func(r []*record.Record) []*record.Record {
			r[1].Winner, r[1].End, r[1].Moves = rules.Empty, record.Aborted, nil
			return r
		}, `:2: end "aborted" is not a termination this arena knows`},
		{"unknown rule", func(r []*record.Record) []*record.Record {
			r[1].Rule = "go"
			return r
		}, `:2: game 2: unknown rule "go"`},
		{"bye twice", func(r []*record.Record) []*record.Record {
			b := &record.Record{Round: 1, Rule: "freestyle", Size: 15, Black: "c", Winner: rules.Black, End: record.ByeEnd}
			return append(r, b, b)
		}, `:5: the bye of "c" in round 1 is already journaled at line 4`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "journal.jsonl")
			var b []byte
			for _, rec := range tc.edit([]*record.Record{fiveGame(1, 1), fiveGame(2, 4), fiveGame(3, 7)}) {
				aborted := rec.End == record.Aborted
				if aborted {
					rec.End = record.Five // the writer refuses to write it: write it by hand
				}
				line, err := json.Marshal(rec)
				if err != nil {
					t.Fatal(err)
				}
				if aborted {
					line = []byte(strings.Replace(string(line), `"end":"five"`, `"end":"aborted"`, 1))
				}
				b = append(append(b, line...), '\n')
			}
			os.WriteFile(path, b, 0o644)
			for name, read := range map[string]func() error{
				"Open": func() error { _, _, err := Open(path); return err },
				"Read": func() error { _, err := Read(path); return err },
			} {
				if err := read(); err == nil || !strings.Contains(err.Error(), "journal.jsonl"+tc.want) {
					t.Errorf("%s: %v\nwant it to contain %q", name, err, tc.want)
				}
			}
			if after, _ := os.ReadFile(path); string(after) != string(b) {
				t.Error("a refused journal was modified")
			}
		})
	}
}
