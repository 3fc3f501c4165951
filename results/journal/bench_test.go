package journal

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// randomGames are n games of random legal stones near the centre under rule,
// each ended where the rule ends it or drawn by a move cap of 120.
func randomGames(tb testing.TB, rule rules.Rule, n int) []*record.Record {
	rng := rand.New(rand.NewPCG(11, uint64(n)))
	var recs []*record.Record
	for g := 1; g <= n; g++ {
		p, _ := rules.NewPosition(15)
		rec := &record.Record{Game: g, Rule: rule.Name(), Size: 15, Black: "a", White: "b", End: record.MoveCap}
		for len(rec.Moves) < 120 {
			m := rules.Point{X: 2 + rng.IntN(11), Y: 2 + rng.IntN(11)}
			if p.Board.At(m) != rules.Empty {
				continue
			}
			c := p.ToMove()
			v := rule.Play(p, m)
			mv := record.Move{Point: m, Color: c, Captured: v.Captured}
			if v.Illegal {
				mv.Refused = string(v.Reason)
			}
			rec.Moves = append(rec.Moves, mv)
			if v.Over {
				rec.Winner = v.Winner
				rec.End = map[rules.Reason]record.Termination{rules.Five: record.Five, rules.FullBoard: record.FullBoard,
					rules.Forbidden33: record.Forbidden, rules.Forbidden44: record.Forbidden, rules.ForbiddenOverline: record.Forbidden}[v.Reason]
				break
			}
		}
		if _, err := record.Verify(rec, rule); err != nil {
			tb.Fatalf("game %d: %v", g, err)
		}
		recs = append(recs, rec)
	}
	return recs
}

func writeJournal(tb testing.TB, recs []*record.Record) string {
	path := filepath.Join(tb.TempDir(), "journal.jsonl")
	var b bytes.Buffer
	for _, r := range recs {
		line, _ := json.Marshal(r)
		b.Write(append(line, '\n'))
	}
	os.WriteFile(path, b.Bytes(), 0o644)
	return path
}

// BenchmarkReadRenju reads a journal of 200 renju games, each replayed
// through the rule; BenchmarkDecodeRenju only decodes the same lines, for the
// cost of the verification.
func BenchmarkReadRenju(b *testing.B) {
	renju, _ := rules.ByName("renju")
	path := writeJournal(b, randomGames(b, renju, 200))
	for b.Loop() {
		if recs, err := Read(path); err != nil || len(recs) != 200 {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeRenju(b *testing.B) {
	renju, _ := rules.ByName("renju")
	path := writeJournal(b, randomGames(b, renju, 200))
	for b.Loop() {
		f, _ := os.Open(path)
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		n := 0
		for sc.Scan() {
			var r record.Record
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				b.Fatal(err)
			}
			n++
		}
		f.Close()
		if n != 200 {
			b.Fatal(n)
		}
	}
}

// BenchmarkFollow is what following a journal of 1000 games costs per game
// appended to it: each iteration appends one game and reads the journal
// again, with a Tail (the live page, arena serve, a batch's SPRT watch) and,
// for comparison, by reading it whole as arena serve did before. read-B/game
// is the bytes read from the file per game appended.
func BenchmarkFollow(b *testing.B) {
	for _, mode := range []string{"tail", "whole"} {
		b.Run(mode, func(b *testing.B) {
			var recs []*record.Record
			for n := 1; n <= 1000; n++ {
				recs = append(recs, fiveGame(n, n%13))
			}
			path := writeJournal(b, recs)
			f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			tail := NewTail(path)
			if _, _, err := tail.Read(); err != nil {
				b.Fatal(err)
			}
			var read int64
			before := tail.BytesRead()
			n := 1000
			for b.Loop() {
				n++
				line, _ := json.Marshal(fiveGame(n, n%13))
				f.Write(append(line, '\n'))
				switch mode {
				case "tail":
					if fresh, _, err := tail.Read(); err != nil || len(fresh) != 1 {
						b.Fatal(err)
					}
				case "whole":
					all, err := Read(path)
					if err != nil || len(all) != n {
						b.Fatal(err)
					}
					st, _ := os.Stat(path)
					read += st.Size()
				}
			}
			if mode == "tail" {
				read = tail.BytesRead() - before
			}
			b.ReportMetric(float64(read)/float64(b.N), "read-B/game")
		})
	}
}
