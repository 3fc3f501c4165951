package event

import (
	"fmt"
	"testing"

	"gomoku-arena/pairing"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// BenchmarkLiveFiles is what every finished game costs for the live
// standings and crosstable: computing them from the journal's records and
// writing the eight files durably, here after the last game of a 16-entrant
// round robin (120 games).
func BenchmarkLiveFiles(b *testing.B) {
	id, done := roundRobin16(b)
	out := b.TempDir()
	for b.Loop() {
		if _, err := writeStandings(out, id, done); err != nil {
			b.Fatal(err)
		}
	}
}

// roundRobin16 is a finished 16-entrant round robin.
func roundRobin16(b *testing.B) (*Identity, []*record.Record) {
	id := &Identity{Kind: KindEvent, Name: "bench", Pairing: "round-robin"}
	for i := range 16 {
		id.Engines = append(id.Engines, Entrant{Name: fmt.Sprintf("e%02d", i)})
	}
	sched, err := pairing.Schedule(pairing.RoundRobinFormat, 16)
	if err != nil {
		b.Fatal(err)
	}
	var done []*record.Record
	for _, round := range sched {
		for _, p := range round {
			winner := []rules.Color{rules.Black, rules.White, rules.Empty}[len(done)%3]
			done = append(done, &record.Record{Round: p.Round, Game: len(done) + 1,
				Black: id.Engines[p.Black].Name, White: id.Engines[p.White].Name, Winner: winner, End: record.Five})
		}
	}
	return id, done
}

// BenchmarkLiveStandingsCompute is the computing part of BenchmarkLiveFiles
// alone, without the files.
func BenchmarkLiveStandingsCompute(b *testing.B) {
	id, done := roundRobin16(b)
	for b.Loop() {
		if _, err := standingsReport(id, done); err != nil {
			b.Fatal(err)
		}
	}
}
