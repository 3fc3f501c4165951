package event

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

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

func (s *Sampling) settings() *identity.SampleSettings {
	if s == nil {
		return nil
	}
	return &identity.SampleSettings{Freq: s.Freq, Format: s.Format.String(), File: s.File}
}

// gameLog is a file every finished game is appended to (the SGF
// collection, the sample file). In a folder it is written anew from the
// journal when the run begins, so that a run killed between journaling a
// game and writing it (or in the middle of a write) leaves nothing torn or
// lost: the file is a function of the journal.
type gameLog struct {
	f    *os.File
	sink sink
}

// A sink writes games in a file's format: write buffers a game, flush
// pushes what is buffered to the file so that it reads whole, end closes
// the format's framing.
type sink struct {
	write      func(*record.Record) error
	flush, end func() error
}

// openGameLog opens path, written anew with the records (rebuild) or for
// appending, ready for the next games.
//
// A rebuilt file is written whole beside its name and then takes it
// (durable.Create), and is appended to after through no link: it sits in
// a folder (a batch's, a served one) that others may write into too. A
// file appended to without a rebuild is one the user named.
func openGameLog(path string, rebuild bool, done []*record.Record, start func(io.Writer) (sink, error)) (*gameLog, error) {
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
		return &gameLog{f: f, sink: k}, nil
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
	return &gameLog{f: a, sink: k}, nil
}

// retarget is a writer whose file changes under it: a sink's writer
// outlives the file it began in.
type retarget struct{ io.Writer }

// add appends a game and pushes it to the file.
func (l *gameLog) add(rec *record.Record) error {
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

// close ends the format's framing and closes the file.
func (l *gameLog) close() error {
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

// sgfSink writes games as one SGF collection.
func sgfSink(w io.Writer) (sink, error) {
	nothing := func() error { return nil }
	return sink{write: func(rec *record.Record) error {
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

// sampleSink writes the samples of each game. A file opened for appending
// (a match without a folder) gets a new LZ4 frame per run: concatenated
// frames are one stream in the LZ4 frame format.
func sampleSink(s *Sampling, seed uint64) func(io.Writer) (sink, error) {
	opt := sample.Options{Freq: s.Freq, Seed: seed}
	return func(w io.Writer) (sink, error) {
		sw, err := sample.NewWriter(w, s.Format)
		if err != nil {
			return sink{}, err
		}
		return sink{write: func(rec *record.Record) error { return sw.Write(sample.FromRecord(rec, opt)) },
			flush: sw.Flush, end: sw.Close}, nil
	}
}

// WriteSamples writes the samples of recs (in their order) to path, whole:
// what a match with these settings and seed writes for these games.
func WriteSamples(path string, s *Sampling, seed uint64, recs []*record.Record) error {
	l, err := openGameLog(path, true, recs, sampleSink(s, seed))
	if err != nil {
		return err
	}
	return l.close()
}

// WriteCollection writes recs as one SGF collection at path, whole.
func WriteCollection(path string, recs []*record.Record) error {
	l, err := openGameLog(path, true, recs, sgfSink)
	if err != nil {
		return err
	}
	return l.close()
}

// SampleFile is where a match writes its samples: with an output folder,
// a relative file in that folder (the match's files stay together, and a
// continued match finds them), for a shard the file's base name in the
// shard's folder (each shard its own; arena merge joins them); an absolute
// file, or any file of a match without a folder (c-gomoku-cli's), as given.
func (m *Match) SampleFile() string {
	switch {
	case m.Sample == nil:
		return ""
	case !m.Plan.Shard.Whole():
		return filepath.Join(m.Folder(), filepath.Base(m.Sample.File))
	case m.Out != "" && !filepath.IsAbs(m.Sample.File):
		return filepath.Join(m.Folder(), m.Sample.File)
	}
	return m.Sample.File
}

// Folder is where the match's files go: Out, or for a shard of a batch
// the shard's folder inside it.
func (m *Match) Folder() string {
	if m.Out == "" || m.Plan.Shard.Whole() {
		return m.Out
	}
	return filepath.Join(m.Out, m.Plan.Shard.Folder())
}
