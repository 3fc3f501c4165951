package engine

import (
	"errors"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// How an engine's stdout is read
//
// The goroutine that waits for an answer reads the pipe itself: the engine's
// line wakes that goroutine straight from the network poller, with no reader
// goroutine, queue or notification between them, and no thread is woken but
// the one that runs the game. The read deadline of the pipe is the wait's
// deadline (a runtime timer, no system call, nothing allocated).
//
// Between requests nobody reads for a moment: the lines an engine writes then
// stay in the pipe, which is enlarged to pipeSize where the kernel allows,
// and are read when the next request begins, before its command is written,
// so they are never taken as its answer. A sweeper looks at every pipe each
// idleDrain; one that has had no reader for that long gets a drainer
// goroutine, which reads it (bounded, oldest lines dropped past
// maxQueueBytes) until the next request takes the pipe back. So an engine
// that floods while its opponent thinks is never held up for more than about
// two idleDrain periods, and then only after filling the pipe, and while its
// own request waits it is read at once.

// Bounds of the idle draining.
const (
	idleDrain = 5 * time.Millisecond // how long a pipe goes unread before a drainer reads it
	pipeSize  = 1 << 20              // stdout pipe capacity asked of the kernel (F_SETPIPE_SZ)
)

// errWouldBlock is a read that found nothing and was not to wait.
var errWouldBlock = errors.New("no output waiting")

// Who reads an engine's stdout.
const (
	held     = iota // a request (send ... next ... release)
	idle            // nobody, since stdout.since
	draining        // the idle drainer
	closed          // end of file or error: nobody ever again
)

// stdout is the read side of an engine's stdout pipe.
type stdout struct {
	f          *os.File
	rc         syscall.RawConn
	lr         *lineReader // over src; used only by the current reader
	src        pipeSource
	q          *outQueue // lines the drainer read, for the next request
	transcript func(sent bool, line string)

	mu      sync.Mutex
	state   int
	since   time.Time     // when it became idle
	kicked  atomic.Bool   // a request wants the pipe back from the drainer
	drained chan struct{} // closed when the drainer gives the pipe back
}

func newStdout(f *os.File, transcript func(sent bool, line string)) *stdout {
	s := &stdout{f: f, q: newOutQueue(), transcript: transcript, state: idle, since: time.Now()}
	s.src.f = f
	if rc, err := f.SyscallConn(); err == nil {
		s.rc = rc
		s.src.rc = rc
		rc.Control(func(fd uintptr) { _, _ = unix.FcntlInt(fd, unix.F_SETPIPE_SZ, pipeSize) })
	}
	s.src.readFn, s.src.waitFn = s.src.rawRead, s.src.pollRead
	s.lr = newLineReader(&s.src, MaxLine)
	sweeper.add(s)
	return s
}

// How pipeSource reads.
const (
	readWait  = iota // poll(2) up to until (at most pollSlice), then read(2)
	readPeek         // read(2) what is there, without waiting
	readDrain        // the os.File's Read: the network poller, until a read deadline
)

// pollSlice bounds one poll(2) of a waiting request, so that it looks at the
// process (exited?) at least this often.
const pollSlice = 20 * time.Millisecond

// pipeSource is the lineReader's input. A waiting request blocks its thread
// in poll(2) on the pipe, as a C runner blocks in read(2): the engine's line
// wakes that thread and nothing else, and the read that follows takes the
// line. (Going through the network poller instead costs a failed read, an
// epoll_wait, the scheduler and often a second thread per line.)
type pipeSource struct {
	f      *os.File
	rc     syscall.RawConn
	mode   int
	until  time.Time // readWait: when to give up
	buf    []byte
	n      int
	err    error
	pfd    [1]unix.PollFd
	ts     unix.Timespec
	readFn func(fd uintptr) bool // rawRead, made once
	waitFn func(fd uintptr) bool // pollRead, made once
}

func (ps *pipeSource) Read(b []byte) (int, error) {
	if ps.mode == readDrain || ps.rc == nil {
		return ps.f.Read(b)
	}
	ps.buf = b
	fn := ps.readFn
	if ps.mode == readWait {
		fn = ps.waitFn
	}
	if err := ps.rc.Read(fn); err != nil { // holds the descriptor: a Close cannot recycle it meanwhile
		return 0, err
	}
	switch {
	case ps.err == syscall.EAGAIN:
		return 0, errWouldBlock
	case ps.err != nil:
		return 0, ps.err
	case ps.n == 0:
		return 0, io.EOF
	}
	return ps.n, nil
}

// rawRead is one read(2) that does not wait.
func (ps *pipeSource) rawRead(fd uintptr) bool {
	for {
		ps.n, ps.err = syscall.Read(int(fd), ps.buf)
		if ps.err != syscall.EINTR {
			break
		}
	}
	if ps.n < 0 {
		ps.n = 0
	}
	return true
}

// pollRead waits in poll(2) until the pipe has something (or ends) or the
// slice is over, then reads what is there.
func (ps *pipeSource) pollRead(fd uintptr) bool {
	if wait := min(time.Until(ps.until), pollSlice); wait > 0 {
		ps.pfd[0] = unix.PollFd{Fd: int32(fd), Events: unix.POLLIN}
		ps.ts = unix.NsecToTimespec(int64(wait))
		if n, err := unix.Ppoll(ps.pfd[:], &ps.ts, nil); n == 0 && err == nil {
			ps.n, ps.err = 0, syscall.EAGAIN
			return true
		}
	}
	return ps.rawRead(fd)
}

// readLine reads one line as the current reader, in the given mode.
func (s *stdout) readLine(mode int) (outLine, error) {
	s.src.mode = mode
	b, trunc, err := s.lr.ReadLine()
	if err != nil {
		return outLine{}, err
	}
	l := outLine{text: string(b), truncated: trunc}
	if s.transcript != nil {
		s.transcript(false, clip(l.text, transcriptLine))
	}
	return l, nil
}

// acquire makes the caller the reader, taking the pipe back from the drainer
// if one runs.
func (s *stdout) acquire() {
	s.mu.Lock()
	if s.state == draining {
		s.kicked.Store(true)
		ch := s.drained
		s.mu.Unlock()
		s.f.SetReadDeadline(time.Now())
		<-ch // the drainer hands over: state is held
		s.f.SetReadDeadline(time.Time{})
		return
	}
	if s.state == idle {
		s.state = held
	}
	s.mu.Unlock()
}

// release ends the caller's reading; the pipe is idle from now.
func (s *stdout) release() {
	s.mu.Lock()
	if s.state == held {
		s.state, s.since = idle, time.Now()
	}
	s.mu.Unlock()
}

// startDrain gives a pipe idle since before now-idleDrain to a drainer.
func (s *stdout) startDrain(now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != idle || now.Sub(s.since) < idleDrain {
		return
	}
	s.f.SetReadDeadline(time.Time{})
	s.kicked.Store(false)
	s.state, s.drained = draining, make(chan struct{})
	go s.drain()
}

// drain reads lines into q until a request takes the pipe back or the pipe
// ends.
func (s *stdout) drain() {
	state := held
	for !s.kicked.Load() {
		l, err := s.readLine(readDrain)
		if err == nil {
			s.q.push(l)
			continue
		}
		if temporary(err) { // the kick
			continue
		}
		s.q.close()
		state = closed
		break
	}
	if state == closed {
		sweeper.remove(s)
	}
	s.mu.Lock()
	s.state = state
	close(s.drained)
	s.mu.Unlock()
}

// close ends reading for good (the process is gone) and closes the pipe,
// which wakes a reader.
func (s *stdout) close() {
	sweeper.remove(s)
	s.f.Close()
}

// sweeper starts drainers on pipes left idle (see above).
var sweeper pipeSweeper

type pipeSweeper struct {
	mu      sync.Mutex
	pipes   map[*stdout]struct{}
	running bool
}

func (sw *pipeSweeper) add(s *stdout) {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	if sw.pipes == nil {
		sw.pipes = make(map[*stdout]struct{})
	}
	sw.pipes[s] = struct{}{}
	if !sw.running {
		sw.running = true
		go sweep()
	}
}

func (sw *pipeSweeper) remove(s *stdout) {
	sw.mu.Lock()
	delete(sw.pipes, s)
	sw.mu.Unlock()
}

// sweep runs while there are pipes to watch.
func sweep() {
	t := time.NewTicker(idleDrain)
	defer t.Stop()
	for now := range t.C {
		sweeper.mu.Lock()
		if len(sweeper.pipes) == 0 {
			sweeper.running = false
			sweeper.mu.Unlock()
			return
		}
		for s := range sweeper.pipes {
			s.startDrain(now)
		}
		sweeper.mu.Unlock()
	}
}
