package journal

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"gomoku-arena/internal/durable"
	"gomoku-arena/results/record"
)

// Journal is the append-only file of an event's finished games, one JSON
// record per line in the form results/record declares (docs/FORMATS.md),
// each line carrying its format version. Each Append is synced to disk before it returns, so a
// game counts as finished exactly when its line is durable. A torn last line
// (the machine died mid-write) is cut off when the journal is reopened.
type Journal struct {
	f    *os.File
	path string
}

// Open opens (creating it if needed) the journal at path and returns
// the records already in it.
func Open(path string) (*Journal, []*record.Record, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("journal: %w", err)
	}
	recs, good, err := readJournal(f, path)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	// The file's name must be as durable as its lines.
	if err := durable.SyncDir(filepath.Dir(path)); err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("journal %s: %w", path, err)
	}
	// Cut a torn tail so the next line starts clean.
	if err := f.Truncate(good); err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("journal %s: repairing torn last line: %w", path, err)
	}
	if _, err := f.Seek(good, io.SeekStart); err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("journal %s: %w", path, err)
	}
	return &Journal{f: f, path: path}, recs, nil
}

// Read returns the records of the journal at path without opening it
// for writing (a torn last line is ignored).
func Read(path string) ([]*record.Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	defer f.Close()
	recs, _, err := readJournal(f, path)
	return recs, err
}

// readJournal parses complete lines and returns the offset just past the
// last one. Only the final line may be incomplete; a bad line in the middle
// is corruption and an error.
func readJournal(r io.Reader, path string) ([]*record.Record, int64, error) {
	var recs []*record.Record
	var good int64
	br := bufio.NewReader(r)
	for line := 1; ; line++ {
		b, err := br.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			return recs, good, nil // b, if any, is a torn tail
		}
		if err != nil {
			return nil, 0, fmt.Errorf("journal %s:%d: %w", path, line, err)
		}
		if len(bytes.TrimSpace(b)) > 0 {
			rec := new(record.Record)
			if err := json.Unmarshal(b, rec); err != nil {
				return nil, 0, fmt.Errorf("journal %s:%d: %w", path, line, err)
			}
			recs = append(recs, rec)
		}
		good += int64(len(b))
	}
}

// Append writes rec as one line and syncs it to disk.
func (j *Journal) Append(rec *record.Record) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b) // one line, ended by a newline
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rec); err != nil {
		return fmt.Errorf("journal %s: %w", j.path, err)
	}
	if _, err := j.f.Write(b.Bytes()); err != nil {
		return fmt.Errorf("journal %s: %w", j.path, err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("journal %s: sync: %w", j.path, err)
	}
	return nil
}

// Close closes the file.
func (j *Journal) Close() error { return j.f.Close() }
