package batch

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"gomoku-arena/event/identity"
	"gomoku-arena/event/outfolder"
	"gomoku-arena/event/verify"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
	"gomoku-arena/schedule"
)

var mergeGames = flag.Int("merge-games", 100000, "games in BenchmarkMergeBatch's synthetic batch")

// BenchmarkMergeBatch is arena merge's cost on a big batch: reading 8
// shard journals of -merge-games synthetic games (30 stones each), counting
// them in the batch's order and writing the merged journal. The batch is
// written once, before the timer.
func BenchmarkMergeBatch(b *testing.B) {
	dir := syntheticBatch(b, *mergeGames, 8)
	b.ResetTimer()
	for b.Loop() {
		bt, err := Read(dir)
		if err != nil {
			b.Fatal(err)
		}
		if len(bt.Records) != *mergeGames || len(bt.Missing) > 0 {
			b.Fatalf("%d games, %d missing", len(bt.Records), len(bt.Missing))
		}
		if err := bt.Write(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(*mergeGames), "games/op")
}

// syntheticBatch writes the shard folders of a finished two-engine batch
// of n games: the schedule's games, each in its shard's journal.
func syntheticBatch(b *testing.B, n, shards int) string {
	dir := b.TempDir()
	id := &identity.Identity{Kind: identity.KindMatch, Name: "bench", Rule: "freestyle", Size: 15,
		Engines: []identity.Entrant{{Name: "new", Command: "./new"}, {Name: "old", Command: "./old"}},
		Match:   &identity.MatchSettings{Games: n, Rounds: 1, Order: "sequential", Transform: "none", Pairs: true, Seed: 1}}
	m, err := verify.Match(id)
	if err != nil {
		b.Fatal(err)
	}
	_, fixtures := m.Schedule()
	var moves []record.Move
	for i := range 30 {
		moves = append(moves, record.Move{Point: rules.Point{X: i % 15, Y: i / 15 * 2}, Color: []rules.Color{rules.Black, rules.White}[i%2], Think: 5 * time.Millisecond})
	}
	var files []*os.File // lines appended without a sync each: only the set-up
	for k := range shards {
		sh := schedule.Shard{Index: k, Count: shards}
		sid := *id
		settings := *id.Match
		settings.Shard = sh.String()
		sid.Match = &settings
		folder := filepath.Join(dir, sh.Folder())
		if err := os.MkdirAll(folder, 0o755); err != nil {
			b.Fatal(err)
		}
		if err := sid.Write(filepath.Join(folder, identity.File)); err != nil {
			b.Fatal(err)
		}
		f, err := os.Create(filepath.Join(folder, outfolder.JournalFile))
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		files = append(files, f)
	}
	for _, f := range fixtures {
		rec := &record.Record{Event: "bench", Game: f.Number, Rule: "freestyle", Size: 15,
			Black: id.Engines[f.Black].Name, White: id.Engines[f.White].Name, Moves: moves,
			Winner: []rules.Color{rules.Black, rules.White, rules.Empty}[f.Number%3], End: record.Five}
		line, err := rec.MarshalJSON()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := files[m.ShardOf(f.Number, shards)].Write(append(line, '\n')); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}
