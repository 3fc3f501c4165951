package journal

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	"gomoku-arena/internal/durable"
	"gomoku-arena/results/record"
)

// Tail reads a journal, and reads it again as it grows, from where it
// stopped: each line is read and verified once, so following a journal of
// thousands of games costs each new game, not the whole file. It is the one
// reader of journals: Open and Read use it once, the live page and `arena
// serve` (live.Follow) and a batch's SPRT watch (event/batch.Reader) keep one.
//
// Only complete lines are read. A last line without its newline is a line
// being written (or torn by a crash, which the writer's next Open cuts): it
// is waited for, never an error. A complete line that is not a verified
// record is corruption, an error naming the file and line, and the tail
// stays before it (every later Read says so again). A journal replaced by
// another file, or cut below what was read, is read again from the start.
type Tail struct {
	path   string
	file   os.FileInfo // of the file last read, to tell a replacement
	offset int64       // just past the last complete line read
	lines  int         // complete lines read
	recs   []*record.Record
	check  *Lines
	read   int64 // bytes read from the file, all Reads together
}

// NewTail is a tail of the journal at path that has read nothing yet.
func NewTail(path string) *Tail {
	return &Tail{path: path, check: NewLines()}
}

// Read reads the lines completed since the last Read and returns their
// records. reset says the tail started from the beginning of the file (the
// first Read, or the journal was replaced or cut): fresh is then every
// record, and whoever follows the journal starts over with them. On an
// error, fresh and reset still say what was read before it.
func (t *Tail) Read() (fresh []*record.Record, reset bool, err error) {
	f, err := durable.OpenFile(t.path) // a regular file: never a FIFO or a device behind a link
	if err != nil {
		return nil, false, fmt.Errorf("journal: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, false, fmt.Errorf("journal %s: %w", t.path, err)
	}
	if t.file == nil || !os.SameFile(t.file, st) || st.Size() < t.offset {
		*t = Tail{path: t.path, check: NewLines(), read: t.read}
		reset = true
	}
	t.file = st
	if _, err := f.Seek(t.offset, io.SeekStart); err != nil {
		return nil, reset, fmt.Errorf("journal %s: %w", t.path, err)
	}
	before := len(t.recs)
	err = t.scan(f)
	return t.recs[before:len(t.recs):len(t.recs)], reset, err
}

// Records are every record read since the tail last started over, oldest
// first. Later Reads append to it; callers do not change it.
func (t *Tail) Records() []*record.Record { return t.recs[:len(t.recs):len(t.recs)] }

// BytesRead is how many bytes the tail has read from its file so far, all
// Reads together: what following a journal costs.
func (t *Tail) BytesRead() int64 { return t.read }

// MaxLine bounds a journal line, newline included. The arbiter's records
// stay far below it (at most 2,000 engine messages of 1 MiB together, 20
// stderr lines, the moves of one board); past it a line is not one of
// theirs, and it is refused before it is held whole, so that a hostile
// journal cannot make a reader hold gigabytes. A variable for tests.
var MaxLine = 16 << 20

// scan reads complete lines from r, which stands at t.offset, verifying
// each (Lines), up to the end or to the first line that is not a record.
func (t *Tail) scan(r io.Reader) error {
	br := bufio.NewReader(&counter{r, &t.read})
	for {
		line := t.lines + 1
		b, err := readLine(br, MaxLine)
		if errors.Is(err, io.EOF) {
			return nil // b, if any, is a line being written
		}
		if err != nil {
			return fmt.Errorf("journal %s:%d: %w", t.path, line, err)
		}
		rec, err := t.check.Parse(b, line)
		if err != nil {
			return fmt.Errorf("journal %s:%d: %w", t.path, line, err)
		}
		if rec != nil {
			t.recs = append(t.recs, rec)
		}
		t.offset += int64(len(b))
		t.lines++
	}
}

// readLine reads one line, its newline included, refusing one longer than
// max whether or not it is complete: a line being written past max is
// refused too, rather than held while it grows.
func readLine(br *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		b, err := br.ReadSlice('\n')
		if len(line)+len(b) > max {
			return nil, fmt.Errorf("line longer than %d bytes: not a record", max)
		}
		line = append(line, b...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
	}
}

// counter counts the bytes read through it.
type counter struct {
	r io.Reader
	n *int64
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	*c.n += int64(n)
	return n, err
}

// Path is the journal's path.
func (t *Tail) Path() string { return t.path }
