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
