package event

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"gomoku-arena/event/identity"
	"gomoku-arena/event/tables"
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
		if _, err := tables.Write(out, id, done); err != nil {
			b.Fatal(err)
		}
	}
}

// roundRobin16 is a finished 16-entrant round robin.
func roundRobin16(b *testing.B) (*identity.Identity, []*record.Record) {
	id := &identity.Identity{Kind: identity.KindEvent, Name: "bench", Pairing: "round-robin"}
	for i := range 16 {
		id.Engines = append(id.Engines, identity.Entrant{Name: fmt.Sprintf("e%02d", i)})
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
		if _, err := tables.StandingsOf(id, done); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLiveFilesSwiss is BenchmarkLiveFiles for a Swiss event after its
// first round, by the number of entrants: the cost of publishing a result
// grows with the event.
func BenchmarkLiveFilesSwiss(b *testing.B) {
	for _, n := range []int{100, 500, 1000, 10000} {
		b.Run(fmt.Sprintf("entrants=%d", n), func(b *testing.B) {
			id, done := swissAfterRound1(n)
			out := b.TempDir()
			for b.Loop() {
				if _, err := tables.Write(out, id, done); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// swissAfterRound1 is a Swiss event of n entrants with its first round
// played: top half against bottom half, random results.
func swissAfterRound1(n int) (*identity.Identity, []*record.Record) {
	id := &identity.Identity{Kind: identity.KindEvent, Name: "big", Rule: "freestyle", Size: 15, Pairing: "swiss", Rounds: 11}
	for i := range n {
		id.Engines = append(id.Engines, identity.Entrant{Name: fmt.Sprintf("e%d", i+1)})
	}
	rng := rand.New(rand.NewPCG(1, 2))
	start := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	var done []*record.Record
	for g := range n / 2 {
		rec := &record.Record{Event: id.Name, Round: 1, Game: g + 1, Rule: id.Rule, Size: id.Size,
			Black: id.Engines[g].Name, White: id.Engines[g+n/2].Name, End: record.Five, Start: start, Finish: start.Add(time.Minute),
			Winner: []rules.Color{rules.Black, rules.White}[rng.IntN(2)]}
		done = append(done, rec)
	}
	return id, done
}
