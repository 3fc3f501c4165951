// Package outputs owns what an output folder keeps of its games beyond
// the journal: each game's SGF and psq files (games/, written from the
// journal and restored from it when a run begins), one SGF collection
// (games.sgf), and training samples (results/sample), and the files every
// finished game is appended to (GameLog), rebuilt from the journal so that
// a run killed in the middle of a write leaves nothing torn. All of them
// are functions of the journal.
package outputs

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"

	"gomoku-arena/event/identity"
	"gomoku-arena/internal/durable"
	"gomoku-arena/results/record"
	"gomoku-arena/results/sample"
)

// Records is how a match's folder keeps its games beyond the journal.
type Records uint8

const (
	RecordsFiles      Records = iota // an SGF and a psq file per game, in games/
	RecordsCollection                // one SGF collection, games.sgf, in game-finish order
	RecordsNone                      // the journal alone (arena standings can write the files later)
)

// GamesDir is the folder of the per-game files: one SGF and one psq file
// per game.
const GamesDir = "games"

// CollectionFile is the SGF collection of a folder under RecordsCollection.
const CollectionFile = "games.sgf"

var recordsNames = []string{RecordsFiles: "files", RecordsCollection: "collection", RecordsNone: "none"}

// ParseRecords reads "files", "collection" or "none".
func ParseRecords(s string) (Records, error) {
	for i, n := range recordsNames {
		if n == s {
			return Records(i), nil
		}
	}
	return 0, fmt.Errorf("records %q: want files, collection or none", s)
}

func (r Records) String() string {
	if int(r) < len(recordsNames) {
		return recordsNames[r]
	}
	return fmt.Sprintf("Records(%d)", uint8(r))
}

// Sampling is a match's -sample: training positions from every game
// (results/sample), written to File in Format.
type Sampling struct {
	Freq   float64
	Format sample.Format
	File   string
}

// Settings is what event.json keeps of the sampling (nil for none).
func (s *Sampling) Settings() *identity.SampleSettings {
	if s == nil {
		return nil
	}
	return &identity.SampleSettings{Freq: s.Freq, Format: s.Format.String(), File: s.File}
}

// GameLog is a file every finished game is appended to (the SGF
// collection, the sample file). In a folder it is written anew from the
// journal when the run begins, so that a run killed between journaling a
// game and writing it (or in the middle of a write) leaves nothing torn or
// lost: the file is a function of the journal.
type GameLog struct {
	f    *os.File
	sink Sink
}

// A Sink writes games in a file's format: write buffers a game, flush
// pushes what is buffered to the file so that it reads whole, end closes
// the format's framing.
type Sink struct {
	write      func(*record.Record) error
	flush, end func() error
}

// OpenGameLog opens path, written anew with the records (rebuild) or for
// appending, ready for the next games.
//
// A rebuilt file is written whole beside its name and then takes it
// (durable.Create), and is appended to after through no link: it sits in
// a folder (a batch's, a served one) that others may write into too. A
// file appended to without a rebuild is one the user named.
func OpenGameLog(path string, rebuild bool, done []*record.Record, start func(io.Writer) (Sink, error)) (*GameLog, error) {
	if !rebuild {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			return nil, err
		}
		k, err := start(f)
		if err != nil {
			f.Close()
			return nil, err
		}
		return &GameLog{f: f, sink: k}, nil
	}
	f, err := durable.Create(path)
	if err != nil {
		return nil, err
	}
	w := &retarget{f}
	k, err := start(w)
	if err == nil {
		for _, rec := range done {
			if err = k.write(rec); err != nil {
				err = fmt.Errorf("game %d: %w", rec.Game, err)
				break
			}
		}
	}
	if err == nil {
		err = k.flush()
	}
	if err != nil {
		f.Discard()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Commit(false); err != nil {
		return nil, err
	}
	// The format's framing is open (an LZ4 frame): the games to come
	// go on from the same writer, into the file that now has the name.
	a, err := durable.OpenAppend(path)
	if err != nil {
		return nil, err
	}
	w.Writer = a
	return &GameLog{f: a, sink: k}, nil
}

// retarget is a writer whose file changes under it: a sink's writer
// outlives the file it began in.
type retarget struct{ io.Writer }

// Add appends a game and pushes it to the file.
func (l *GameLog) Add(rec *record.Record) error {
	if l == nil {
		return nil
	}
	if err := l.sink.write(rec); err != nil {
		return fmt.Errorf("%s: game %d: %w", l.f.Name(), rec.Game, err)
	}
	if err := l.sink.flush(); err != nil {
		return fmt.Errorf("%s: %w", l.f.Name(), err)
	}
	return nil
}

// Close ends the format's framing and closes the file.
func (l *GameLog) Close() error {
	if l == nil {
		return nil
	}
	err := l.sink.end()
	if err2 := l.f.Sync(); err == nil {
		err = err2
	}
	if err2 := l.f.Close(); err == nil {
		err = err2
	}
	if err != nil {
		return fmt.Errorf("%s: %w", l.f.Name(), err)
	}
	return nil
}

// SGFSink writes games as one SGF collection.
func SGFSink(w io.Writer) (Sink, error) {
	nothing := func() error { return nil }
	return Sink{write: func(rec *record.Record) error {
		if rec.End == record.ByeEnd {
			return nil
		}
		if err := record.WriteSGF(w, rec); err != nil {
			return err
		}
		_, err := io.WriteString(w, "\n")
		return err
	}, flush: nothing, end: nothing}, nil
}

// SampleSink writes the samples of each game. A file opened for appending
// (a match without a folder) gets a new LZ4 frame per run: concatenated
// frames are one stream in the LZ4 frame format.
func SampleSink(s *Sampling, seed uint64) func(io.Writer) (Sink, error) {
	opt := sample.Options{Freq: s.Freq, Seed: seed}
	return func(w io.Writer) (Sink, error) {
		sw, err := sample.NewWriter(w, s.Format)
		if err != nil {
			return Sink{}, err
		}
		return Sink{write: func(rec *record.Record) error { return sw.Write(sample.FromRecord(rec, opt)) },
			flush: sw.Flush, end: sw.Close}, nil
	}
}

// WriteSamples writes the samples of recs (in their order) to path, whole:
// what a match with these settings and seed writes for these games.
func WriteSamples(path string, s *Sampling, seed uint64, recs []*record.Record) error {
	l, err := OpenGameLog(path, true, recs, SampleSink(s, seed))
	if err != nil {
		return err
	}
	return l.Close()
}

// WriteCollection writes recs as one SGF collection at path, whole.
func WriteCollection(path string, recs []*record.Record) error {
	l, err := OpenGameLog(path, true, recs, SGFSink)
	if err != nil {
		return err
	}
	return l.Close()
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// GameFile is the base name of a game's files: number, round and players.
func GameFile(rec *record.Record) string {
	base := fmt.Sprintf("%04d", rec.Game)
	if rec.Round > 0 {
		base += fmt.Sprintf("-r%02d", rec.Round)
	}
	return base + "-" + unsafeName.ReplaceAllString(rec.Black, "_") + "-vs-" + unsafeName.ReplaceAllString(rec.White, "_")
}

// gameFormats are the files written for every game.
var gameFormats = []struct {
	ext   string
	write func(io.Writer, *record.Record, record.Heading) error
}{{".sgf", record.WriteSGFHeaded}, {".psq", func(w io.Writer, r *record.Record, _ record.Heading) error { return record.WritePSQ(w, r) }}}

// WriteGame writes a finished game as SGF and psq. These files are derived
// from the journal (arena standings rewrites them), so they are replaced
// whole, never appended, and not waited for on the disk: RestoreGames
// rebuilds any that a crash left stale.
func WriteGame(out string, h record.Heading, rec *record.Record) error {
	return writeGameFiles(out, h, rec, false)
}

// writeGameFiles writes a game's files; with restore, only those that are
// missing or differ from what the record gives (left empty or torn by a
// machine that lost power, or edited).
func writeGameFiles(out string, h record.Heading, rec *record.Record, restore bool) error {
	base := filepath.Join(GamesDir, GameFile(rec))
	for _, w := range gameFormats {
		var b bytes.Buffer
		if err := w.write(&b, rec, h); err != nil {
			return fmt.Errorf("game %d: %w", rec.Game, err)
		}
		if restore {
			if old, err := durable.ReadRegular(out, base+w.ext, int64(b.Len())+1); err == nil && bytes.Equal(old, b.Bytes()) {
				continue
			}
		}
		if err := durable.ReplaceIn(out, base+w.ext, b.Bytes()); err != nil {
			return fmt.Errorf("output folder: %w", err)
		}
	}
	return nil
}

// RestoreGames brings the files of the journaled games back to what the
// journal says, when a run begins: a run killed between journaling a game
// and writing its files leaves them missing, a machine that lost power may
// leave them empty or torn.
func RestoreGames(out string, h record.Heading, recs []*record.Record) error {
	for _, rec := range record.Ruled(recs) {
		if !rec.IsGame() {
			continue
		}
		if err := writeGameFiles(out, h, rec, true); err != nil {
			return err
		}
	}
	return nil
}

// WriteGameFiles writes every record's SGF and psq files into dir/games,
// as a match writes them under RecordsFiles.
func WriteGameFiles(dir string, recs []*record.Record) error {
	for _, rec := range recs {
		if err := WriteGame(dir, record.Heading{}, rec); err != nil {
			return err
		}
	}
	return nil
}
