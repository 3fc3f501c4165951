package engine

import (
	"bytes"
	"io"
	"sync"
)

// Bounds on what is kept of an engine's output.
const (
	MaxLine       = 64 << 10 // longest stdout line kept; the rest is discarded
	maxQueueBytes = 1 << 20  // stdout lines waiting to be read, beyond which the oldest are dropped
	maxNotes      = 64       // notes per reply
	maxNoteLen    = 512      // bytes per note
	stderrLines   = 64       // stderr lines kept
	stderrLineLen = 512      // bytes per stderr line
)

// lineReader splits a stream into lines ended by LF, CR or CRLF without ever
// holding more than max bytes of one line: the excess is discarded up to the
// line end and the line is reported truncated.
type lineReader struct {
	r          io.Reader
	buf        []byte
	start, end int
	max        int
	line       []byte
	truncated  bool // the line being read has lost bytes
	partial    bool // bytes of a line have been read and its end not yet
	skipLF     bool // the previous line ended in CR: a following LF belongs to it
	err        error
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{r: r, buf: make([]byte, 32<<10), max: max, line: make([]byte, 0, min(max, 4096))}
}

// temporary reports whether a read error only means "nothing yet": a read
// that was not to wait (or whose slice of the wait ended), or a drainer
// asked to stop. The line being read is kept and the next ReadLine goes on
// with it.
func temporary(err error) bool {
	return err == errWouldBlock || err == errKicked
}

// ReadLine returns the next line without its ending; the slice is valid until
// the next call. A last line without an ending is returned before the error.
// After a temporary error (see temporary) the line read so far is kept.
func (lr *lineReader) ReadLine() (line []byte, truncated bool, err error) {
	if !lr.partial {
		lr.line, lr.truncated = lr.line[:0], false
	}
	for {
		if lr.start == lr.end {
			if lr.err != nil {
				if lr.partial {
					lr.partial = false
					return lr.line, lr.truncated, nil
				}
				return nil, false, lr.err
			}
			n, err := lr.r.Read(lr.buf)
			lr.start, lr.end = 0, n
			if err != nil {
				if temporary(err) && n == 0 {
					return nil, false, err
				}
				if !temporary(err) {
					lr.err = err
				}
			}
			continue
		}
		chunk := lr.buf[lr.start:lr.end]
		if lr.skipLF {
			lr.skipLF = false
			if chunk[0] == '\n' {
				lr.start++
				continue
			}
		}
		i := bytes.IndexAny(chunk, "\r\n")
		body := chunk
		if i >= 0 {
			body = chunk[:i]
		}
		if room := lr.max - len(lr.line); len(body) > room {
			body, lr.truncated = body[:room], true
		}
		lr.line = append(lr.line, body...)
		lr.partial = true
		if i < 0 {
			lr.start = lr.end
			continue
		}
		lr.skipLF = chunk[i] == '\r'
		lr.start += i + 1
		lr.partial = false
		return lr.line, lr.truncated, nil
	}
}

// buffered reports whether a whole or partial line is held already.
func (lr *lineReader) buffered() bool { return lr.start < lr.end }

// outLine is one stdout line waiting to be read.
type outLine struct {
	text      string
	truncated bool
}

// outQueue holds stdout lines between the reader goroutine and the waiting
// request. It never blocks the reader: past maxQueueBytes the oldest lines are
// dropped (and counted), so an engine that floods while nobody waits is
// neither stalled nor allowed to grow memory.
type outQueue struct {
	mu      sync.Mutex
	lines   []outLine
	head    int
	bytes   int
	dropped int
	eof     bool
	notify  chan struct{} // receives a token whenever a line is pushed or EOF is reached
}

func newOutQueue() *outQueue { return &outQueue{notify: make(chan struct{}, 1)} }

func (q *outQueue) push(l outLine) {
	q.mu.Lock()
	q.lines = append(q.lines, l)
	q.bytes += len(l.text)
	for q.bytes > maxQueueBytes && q.head < len(q.lines)-1 {
		q.bytes -= len(q.lines[q.head].text)
		q.lines[q.head] = outLine{}
		q.head++
		q.dropped++
	}
	q.mu.Unlock()
	q.wake()
}

func (q *outQueue) close() {
	q.mu.Lock()
	q.eof = true
	q.mu.Unlock()
	q.wake()
}

func (q *outQueue) wake() {
	select {
	case q.notify <- struct{}{}:
	default:
	}
}

// pop returns the oldest waiting line, if any, and how many lines were
// dropped unread since the last call; eof reports that the stream has ended
// and nothing is left.
func (q *outQueue) pop() (l outLine, ok bool, dropped int, eof bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	dropped, q.dropped = q.dropped, 0
	if q.head == len(q.lines) {
		q.lines, q.head = q.lines[:0], 0
		return outLine{}, false, dropped, q.eof
	}
	l = q.lines[q.head]
	q.lines[q.head] = outLine{}
	q.head++
	q.bytes -= len(l.text)
	return l, true, dropped, false
}

// ring keeps the last lines of a stream (stderr) for diagnostics.
type ring struct {
	mu    sync.Mutex
	lines []string
	next  int
	full  bool
}

func (r *ring) add(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.lines == nil {
		r.lines = make([]string, stderrLines)
	}
	r.lines[r.next] = s
	r.next = (r.next + 1) % len(r.lines)
	if r.next == 0 {
		r.full = true
	}
}

func (r *ring) snapshot() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.full {
		return append([]string(nil), r.lines[:r.next]...)
	}
	out := make([]string, 0, len(r.lines))
	out = append(out, r.lines[r.next:]...)
	return append(out, r.lines[:r.next]...)
}

// transcriptLine bounds the lines a transcript sees.
const transcriptLine = 1024

// drainStderr keeps the last lines of r in g until EOF or error, then
// closes done.
func drainStderr(r io.Reader, g *ring, done chan<- struct{}) {
	defer close(done)
	lr := newLineReader(r, stderrLineLen)
	for {
		b, trunc, err := lr.ReadLine()
		if err != nil {
			return
		}
		s := string(b)
		if trunc {
			s += "…"
		}
		g.add(s)
	}
}

// clip bounds s to n bytes for notes and details, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
