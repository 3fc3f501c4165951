// Package transcript writes an engine's protocol transcript: every line sent
// to it and read from it, one per line with the time, the engine's name, its
// process id and the direction, as `arena gomoku-cli -log` writes them:
//
//	23:45:01.250 alpha[4242] -> TURN 7,7
//	23:45:01.391 alpha[4242] <- 8,8
//
// A transcript is bounded: when the file would grow past its bound it is
// renamed to NAME.1 (replacing the previous one) and a new file begins, so an
// engine's transcript never takes more than twice the bound on disk and the
// latest lines are always kept.
package transcript

import (
	"fmt"
	"gomoku-arena/internal/durable"
	"os"
	"path/filepath"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// Log is one engine's transcript file. Its methods are safe for concurrent
// use (the engine's output is read on its own goroutine).
type Log struct {
	folder, rel string // the file rel inside folder: path
	path, name  string
	max         int64

	mu     sync.Mutex
	dir    *os.File // the file's folder, opened at the first line through no link
	f      *os.File // opened at the first line
	size   int64
	err    error // the first failure; nothing more is written after it
	closed bool
}

// Format is one transcript line, stamped now, newline included.
func Format(name string, pid int, sent bool, line string) []byte {
	dir := "<-"
	if sent {
		dir = "->"
	}
	return fmt.Appendf(nil, "%s %s[%d] %s %s\n", time.Now().Format("15:04:05.000"), name, pid, dir, line)
}

// New returns the transcript of the engine called name, kept in the file
// rel inside folder and rotated at max bytes (at least one line is always
// written to a new file). The file and its folders are made at the first
// line. folder is taken as named; below it, neither a folder of rel nor
// the file may be a link (durable.OpenDirIn): the output folder may be
// shared with others, and a planted `transcripts -> elsewhere` must not
// carry the transcripts elsewhere.
func New(folder, rel, name string, max int64) *Log {
	return &Log{folder: folder, rel: rel, path: filepath.Join(folder, rel), name: name, max: max}
}

// Line records one line: sent is true for a line written to the engine. Its
// signature is engine.Spec.Transcript's.
func (l *Log) Line(pid int, sent bool, line string) {
	b := Format(l.name, pid, sent, line)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed || l.err != nil {
		return
	}
	if l.f == nil {
		if l.err = l.open(); l.err != nil {
			return
		}
	}
	if l.size > 0 && l.size+int64(len(b)) > l.max {
		if l.err = l.rotate(); l.err != nil {
			return
		}
		if l.err = l.open(); l.err != nil {
			return
		}
	}
	n, err := l.f.Write(b)
	l.size += int64(n)
	l.err = err
}

// open opens the file for appending: a continued event adds to it.
func (l *Log) open() error {
	if l.dir == nil {
		if err := os.MkdirAll(l.folder, 0o755); err != nil {
			return err
		}
		dir, err := durable.OpenDirIn(l.folder, filepath.Dir(l.rel))
		if err != nil {
			return err
		}
		l.dir = dir
	}
	f, err := durable.OpenAppendAt(l.dir, filepath.Base(l.rel)) // a link planted there is refused
	if err != nil {
		return err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	l.f, l.size = f, st.Size()
	return nil
}

// rotate moves the full file to NAME.1.
func (l *Log) rotate() error {
	err := l.f.Close()
	l.f = nil
	if err != nil {
		return err
	}
	name := filepath.Base(l.rel)
	if err := unix.Renameat(int(l.dir.Fd()), name, int(l.dir.Fd()), name+".1"); err != nil {
		return &os.LinkError{Op: "rename", Old: l.path, New: l.path + ".1", Err: err}
	}
	return nil
}

// Close closes the file; lines after it are dropped. It returns the first
// failure to write the transcript, if any.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	if l.f != nil {
		if err := l.f.Close(); l.err == nil {
			l.err = err
		}
		l.f = nil
	}
	if l.dir != nil {
		l.dir.Close()
		l.dir = nil
	}
	if l.err != nil {
		return fmt.Errorf("transcript %s: %w", l.path, l.err)
	}
	return nil
}
