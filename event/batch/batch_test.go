package batch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gomoku-arena/event/identity"
	"gomoku-arena/event/outfolder"
	"gomoku-arena/results/journal"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// A batch reader parses only what was added to a journal since its last
// read, ignores a line still being written, and reads a journal that
// shrank (a torn line cut, a shard restarted) again from the start.
func TestBatchReaderReadsJournalsIncrementally(t *testing.T) {
	path := filepath.Join(t.TempDir(), outfolder.JournalFile)
	j, _, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	add := func(game int) {
		if err := j.Append(&record.Record{Game: game, Rule: "freestyle", Size: 15, Black: "a", White: "b", Winner: rules.Black, End: record.Refusal}); err != nil {
			t.Fatal(err)
		}
	}
	games := func(recs []*record.Record) []int {
		var out []int
		for _, r := range recs {
			out = append(out, r.Game)
		}
		return out
	}
	var r Reader
	add(1)
	add(2)
	if recs, err := r.Journal(path); err != nil || len(recs) != 2 {
		t.Fatalf("first read: %v %v", games(recs), err)
	}
	add(3)
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"format":2,"game":4,`) // a line being written
	f.Close()
	recs, err := r.Journal(path)
	if err != nil || len(recs) != 3 || recs[2].Game != 3 {
		t.Fatalf("after one more game and half a line: %v %v", games(recs), err)
	}
	j.Close()
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	j, _, err = journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	add(7)
	if recs, err := r.Journal(path); err != nil || len(recs) != 1 || recs[0].Game != 7 {
		t.Fatalf("after the journal shrank: %v %v", games(recs), err)
	}
}

// A batch folder is outside input: a shard folder claiming an absurd
// count, and a corrupt journal line, are errors naming the folder, file
// and line.
func TestReadBatchRefusesHostileFolders(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "shard-0-of-99999999999"), 0o755)
	if _, err := Read(dir); err == nil || !strings.Contains(err.Error(), "shard-0-of-99999999999: a batch has 1 to") {
		t.Errorf("absurd shard count: %v", err)
	}
	dir = t.TempDir()
	folder := filepath.Join(dir, "shard-0-of-1")
	os.Mkdir(folder, 0o755)
	id := &identity.Identity{Kind: identity.KindMatch, Name: "m", Rule: "freestyle", Size: 15,
		Engines: []identity.Entrant{{Name: "a"}, {Name: "b"}}, Match: &identity.MatchSettings{Games: 2, Rounds: 1, Pairs: true, Shard: "0/1"}}
	if err := id.Write(filepath.Join(folder, identity.File)); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(folder, outfolder.JournalFile), []byte("{not json}\n"), 0o644)
	if _, err := Read(dir); err == nil || !strings.Contains(err.Error(), "journal.jsonl:1:") {
		t.Errorf("corrupt journal: %v", err)
	}
}
