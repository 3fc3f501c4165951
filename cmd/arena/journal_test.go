package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// A finished journal of a real event, edited by hand, is refused by resume
// and by `arena standings`, each naming the line (issue 11).
func TestEditedJournalIsRefused(t *testing.T) {
	dir := t.TempDir()
	cfg := writeEvent(t, dir, "edited", "")
	if _, errOut, code := runArena(t, "run", "-quiet", cfg); code != 0 {
		t.Fatalf("run: %s", errOut)
	}
	out := filepath.Join(dir, "out")
	journalPath := filepath.Join(out, "journal.jsonl")
	orig, err := os.ReadFile(journalPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(orig), "\n")
	lines = lines[:len(lines)-1] // after the last newline
	// The first game won by a five: its result can be replayed.
	five := -1
	for i, l := range lines {
		if rec := decodeLine(t, l); rec.End == record.Five && five < 0 {
			five = i
		}
	}
	if five < 1 || five == len(lines)-1 {
		t.Fatalf("want a five that is neither the first nor the last line, have it at %d of %d", five, len(lines))
	}
	edit := func(i int, f func(*record.Record)) []string {
		rec := decodeLine(t, lines[i])
		f(rec)
		b, _ := json.Marshal(rec)
		l := append([]string(nil), lines...)
		l[i] = string(b) + "\n"
		return l
	}
	cases := []struct {
		name  string
		lines []string
		want  string
	}{
		{"winner swapped", edit(five, func(r *record.Record) { r.Winner = r.Winner.Opponent() }),
			fmt.Sprintf("journal.jsonl:%d: game ", five+1)},
		// Consistent by itself, but the schedule knows who had Black
		// (issue 27): the win would move to the other entrant.
		{"colours exchanged", edit(five, func(r *record.Record) {
			r.Black, r.White, r.BlackAbout, r.WhiteAbout = r.White, r.Black, r.WhiteAbout, r.BlackAbout
		}), fmt.Sprintf("game %d (%s vs %s): the schedule has game %[1]d as %[3]s (black) vs %[2]s (white)",
			decodeLine(t, lines[five]).Game, decodeLine(t, lines[five]).White, decodeLine(t, lines[five]).Black)},
		{"a time loss for the side that made five", edit(five, func(r *record.Record) { r.Winner, r.End = r.Winner.Opponent(), record.Time }),
			fmt.Sprintf("journal.jsonl:%d: ", five+1)},
		{"a middle line cut", append(append(append([]string(nil), lines[:2]...), lines[2][:len(lines[2])/2]+"\n"), lines[3:]...),
			"journal.jsonl:3: "},
		{"a line duplicated", append(append([]string(nil), lines...), lines[1]),
			fmt.Sprintf("journal.jsonl:%d: game %d is already journaled at line 2", len(lines)+1, decodeLine(t, lines[1]).Game)},
		{"the winning stone moved", edit(five, func(r *record.Record) {
			last := &r.Moves[len(r.Moves)-1]
			for y := 0; ; y++ { // the first empty point from the top left
				p := rules.Point{X: 0, Y: y}
				if !occupies(r, p) {
					last.Point = p
					break
				}
			}
		}), fmt.Sprintf("journal.jsonl:%d: ", five+1)},
		{"a stone moved onto another", edit(five, func(r *record.Record) { r.Moves[3].Point = r.Moves[0].Point }),
			fmt.Sprintf("journal.jsonl:%d: game %d (", five+1, decodeLine(t, lines[five]).Game)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			edited := strings.Join(tc.lines, "")
			if err := os.WriteFile(journalPath, []byte(edited), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{"standings", out}, {"run", "-quiet", cfg}} {
				o, errOut, code := runArena(t, args...)
				if code == 0 || !strings.Contains(errOut, tc.want) {
					t.Errorf("arena %s: exit %d\n%s%s\nwant an error containing %q", args[0], code, o, errOut, tc.want)
				}
			}
			if after, _ := os.ReadFile(journalPath); !bytes.Equal(after, []byte(edited)) {
				t.Error("a refused journal was changed")
			}
		})
	}
	os.WriteFile(journalPath, orig, 0o644)
	if _, errOut, code := runArena(t, "standings", out); code != 0 {
		t.Fatalf("the journal as the event wrote it is refused: %s", errOut)
	}
}

func decodeLine(t *testing.T, line string) *record.Record {
	t.Helper()
	rec := new(record.Record)
	if err := json.Unmarshal([]byte(line), rec); err != nil {
		t.Fatal(err)
	}
	return rec
}

func occupies(r *record.Record, p rules.Point) bool {
	for _, m := range r.Moves {
		if m.Point == p {
			return true
		}
	}
	return false
}
