package live

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"gomoku-arena/event/identity"
	"gomoku-arena/event/outfolder"
	"gomoku-arena/event/verify"
	"gomoku-arena/results/journal"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// BenchmarkFollowJournal is what `arena serve` reads per game a running
// match adds to its journal, after some games are already there: each
// iteration appends one game and has the follower look (one poll of
// Follow). read-B/game, the bytes read from the journal per game, stays one
// line's worth however long the journal is; journal-B is the journal's size
// when the benchmark began, what each poll read before the journal had a
// Tail.
func BenchmarkFollowJournal(b *testing.B) {
	for _, before := range []int{100, 2000} {
		b.Run(fmt.Sprintf("games=%d", before), func(b *testing.B) {
			folder, lines := matchFolder(b, before+b.N+1)
			path := filepath.Join(folder, outfolder.JournalFile)
			if err := os.WriteFile(path, []byte(concat(lines[:before])), 0o644); err != nil {
				b.Fatal(err)
			}
			st, _ := os.Stat(path)
			h := NewHub()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go h.Run(ctx)
			id, err := identity.Read(filepath.Join(folder, identity.File))
			if err != nil {
				b.Fatal(err)
			}
			f := &follower{h: h, id: id, tail: journal.NewTail(path)}
			f.look()
			if got := len(f.tail.Records()); got != before {
				b.Fatalf("%d games read, want %d", got, before)
			}
			j, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				b.Fatal(err)
			}
			defer j.Close()
			read0 := f.tail.BytesRead()
			n := before
			b.ResetTimer()
			for range b.N {
				j.WriteString(lines[n])
				n++
				f.look()
			}
			b.StopTimer()
			if got := len(f.tail.Records()); got != n || f.said != "" {
				b.Fatalf("%d games read, want %d (%s)", got, n, f.said)
			}
			b.ReportMetric(float64(f.tail.BytesRead()-read0)/float64(b.N), "read-B/game")
			b.ReportMetric(float64(st.Size()), "journal-B")
		})
	}
}

// matchFolder is the folder of a freestyle match of two engines, a and b,
// of n games, with its journal lines: black makes five in each game.
func matchFolder(b *testing.B, n int) (string, []string) {
	folder := b.TempDir()
	id := identity.Identity{Format: identity.FormatVersion, Kind: identity.KindMatch, Name: "bench", Rule: "freestyle", Size: 15,
		OpeningProcedure: "none", Engines: []identity.Entrant{{Name: "a"}, {Name: "b"}},
		Match: &identity.MatchSettings{Games: n, Rounds: 1, Order: "sequential"}}
	js, err := json.Marshal(id)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(folder, identity.File), js, 0o644); err != nil {
		b.Fatal(err)
	}
	m, err := verify.Tally(&id)
	if err != nil {
		b.Fatal(err)
	}
	_, fixtures := m.Schedule()
	names := []string{"a", "b"}
	var lines []string
	for _, fx := range fixtures {
		rec := &record.Record{Event: "bench", Round: fx.Round, Game: fx.Number, Rule: "freestyle", Size: 15,
			Black: names[fx.Black], White: names[fx.White], Winner: rules.Black, End: record.Five}
		y := fx.Number % 13
		for x := range 5 {
			rec.Moves = append(rec.Moves, record.Move{Point: rules.Point{X: x, Y: y}, Color: rules.Black})
			if x < 4 {
				rec.Moves = append(rec.Moves, record.Move{Point: rules.Point{X: x, Y: y + 1}, Color: rules.White})
			}
		}
		line, err := json.Marshal(rec)
		if err != nil {
			b.Fatal(err)
		}
		lines = append(lines, string(line)+"\n")
	}
	return folder, lines
}

func concat(lines []string) string {
	var s []byte
	for _, l := range lines {
		s = append(s, l...)
	}
	return string(s)
}
