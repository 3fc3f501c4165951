package journal

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"

	"gomoku-arena/internal/durable"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
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
// the records already in it, each verified: a line that repeats a game,
// or whose result its own moves contradict, is an error naming the line.
func Open(path string) (*Journal, []*record.Record, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW, 0o644) // cut and appended to: never through a link
	if err != nil {
		return nil, nil, fmt.Errorf("journal: %w", err)
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("journal %s: not a regular file", path)
	}
	t := NewTail(path)
	if err := t.scan(f); err != nil {
		f.Close()
		return nil, nil, err
	}
	recs, good := t.Records(), t.offset
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

// Read returns the records of the journal at path, verified as Open
// verifies them, without opening it for writing (a torn last line is
// ignored).
func Read(path string) ([]*record.Record, error) {
	t := NewTail(path)
	if _, _, err := t.Read(); err != nil {
		return nil, err
	}
	return t.Records(), nil
}

// Lines checks a journal's complete lines one at a time, in order, each as
// Open checks it (Tail reads with it).
type Lines struct{ seen seenLines }

// NewLines is the check of a journal's first line.
func NewLines() *Lines {
	return &Lines{seen: seenLines{games: map[int]int{}, byes: map[bye]int{}, decisions: map[string]int{}}}
}

// Parse reads line number line (from 1), verified; a blank line is no
// record (nil).
func (l *Lines) Parse(b []byte, line int) (*record.Record, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, nil
	}
	rec := new(record.Record)
	if err := json.Unmarshal(b, rec); err != nil {
		return nil, err
	}
	if err := l.seen.verify(rec, line); err != nil {
		return nil, err
	}
	return rec, nil
}

// seenLines remembers which line journaled each game and bye.
type seenLines struct {
	games     map[int]int // game number -> line (its record's, or its adjudication's); a voided game leaves
	byes      map[bye]int
	decisions map[string]int // decision id -> line
}

// bye is a line that is not a game: a bye or a withdrawal, at most one of
// each per entrant and round.
type bye struct {
	round int
	name  string
	end   record.Termination
}

// verify refuses a line the journal cannot hold: a game or bye journaled
// twice, an aborted game, or a result its own moves contradict. Each game is
// replayed through its rule (record.Verify): what that can and cannot prove
// is in docs/limits.md ("What the journal proves"). Only a line it accepts is remembered, so a reader
// that meets a bad line can read it again and be told the same.
func (s *seenLines) verify(rec *record.Record, line int) error {
	if rec.End == record.Decided {
		return s.decide(rec, line)
	}
	if err := s.check(rec); err != nil {
		return err
	}
	if rec.IsGame() {
		s.games[rec.Game] = line
	} else {
		s.byes[bye{rec.Round, rec.Black, rec.End}] = line
	}
	return nil
}

// decide takes the arbiter's decision on a game (record.Decision): a
// correction or a void names a game the journal holds (a voided game's
// number is free again, for its replay), an adjudication one it does not
// (it then holds it). Which games the event has is the schedule's to say
// (schedule.ScheduleCheck).
func (s *seenLines) decide(rec *record.Record, line int) error {
	d := rec.Decision
	if d == nil {
		return fmt.Errorf("a decision line carries no decision")
	}
	if err := d.Check(); err != nil {
		return fmt.Errorf("decision on game %d: %w", rec.Game, err)
	}
	if rec.Game < 1 || rec.Black == "" || rec.White == "" || len(rec.Moves) > 0 || rec.Winner != rules.Empty {
		return fmt.Errorf("a decision names a game (from 1) and its two entrants, with no moves and no winner of its own")
	}
	if first, dup := s.decisions[d.ID]; dup {
		return fmt.Errorf("decision %s is already journaled at line %d", d.ID, first)
	}
	_, held := s.games[rec.Game]
	switch {
	case d.Kind == record.Adjudicate && held:
		return fmt.Errorf("game %d has a result (line %d): the arbiter corrects it or voids it, an adjudication is for a game not finished", rec.Game, s.games[rec.Game])
	case d.Kind != record.Adjudicate && !held:
		return fmt.Errorf("game %d: no result is journaled to %s", rec.Game, map[record.DecisionKind]string{record.Correct: "correct", record.Void: "void"}[d.Kind])
	}
	switch d.Kind {
	case record.Void:
		delete(s.games, rec.Game)
	case record.Adjudicate:
		s.games[rec.Game] = line
	}
	s.decisions[d.ID] = line
	return nil
}

func (s *seenLines) check(rec *record.Record) error {
	if !rec.IsGame() {
		k := bye{rec.Round, rec.Black, rec.End}
		if first, dup := s.byes[k]; dup {
			return fmt.Errorf("the %s of %q in round %d is already journaled at line %d", rec.End, rec.Black, rec.Round, first)
		}
		if rec.End == record.Withdrawn {
			if len(rec.Moves) > 0 || rec.White != "" || rec.Winner != rules.Empty {
				return fmt.Errorf("a withdrawal has Black alone, no winner and no moves")
			}
			return nil
		}
	} else {
		if rec.Game < 1 {
			return fmt.Errorf("game number %d: games are numbered from 1", rec.Game)
		}
		if first, dup := s.games[rec.Game]; dup {
			return fmt.Errorf("game %d is already journaled at line %d", rec.Game, first)
		}
	}
	if rec.End == record.Aborted {
		return fmt.Errorf("game %d was aborted, and an aborted game is never journaled", rec.Game)
	}
	rule, err := rules.ByName(rec.Rule)
	if err != nil {
		return fmt.Errorf("game %d: %w", rec.Game, err)
	}
	if err := rules.CheckSize(rule, rec.Size); err != nil && rec.End != record.ByeEnd {
		return fmt.Errorf("game %d: %w", rec.Game, err)
	}
	if _, err := record.Verify(rec, rule); err != nil {
		return fmt.Errorf("game %d (%s vs %s): %w", rec.Game, rec.Black, rec.White, err)
	}
	return nil
}

// Append writes rec as one line and syncs it to disk. The line is read
// back first: a record the journal could not read again is refused before
// it is written. rec is left as the journal holds it (times to the
// millisecond), so that whatever is written from it now (a game's SGF, the
// standings) is what a rebuild from the journal writes.
func (j *Journal) Append(rec *record.Record) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b) // one line, ended by a newline
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rec); err != nil {
		return fmt.Errorf("journal %s: %w", j.path, err)
	}
	var held record.Record
	if err := json.Unmarshal(b.Bytes(), &held); err != nil {
		return fmt.Errorf("journal %s: game %d would not read back: %w", j.path, rec.Game, err)
	}
	if _, err := j.f.Write(b.Bytes()); err != nil {
		return fmt.Errorf("journal %s: %w", j.path, err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("journal %s: sync: %w", j.path, err)
	}
	*rec = held
	return nil
}

// Close closes the file.
func (j *Journal) Close() error { return j.f.Close() }
