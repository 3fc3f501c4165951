package engine

import (
	"errors"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// How an engine's stdout is read
//
// The goroutine that waits for an answer reads the pipe itself, as a C
// runner blocks in read(2): the engine's line wakes that thread and nothing
// else. The read end is non-blocking, so a read(2) that finds nothing
// returns at once and the wait is a poll(2) with the request's deadline,
// which also watches the engine's leader through a pidfd, so that its exit
// ends the wait at once (where the kernel has no pidfd, the wait is cut
// into pollSlice slices, each followed by a look at the process); an
// engine that answered while the command was being written (an instant one
// usually has: writing to it woke it) costs one read(2) and no poll(2). The
// look for lines written before a command is one read(2) too. There is no reader
// goroutine, queue or notification between the pipe and the game, no
// runtime timer per move, and the pipe is not in the Go network poller at
// all: a poller registration would wake the runtime's idle thread (parked
// in epoll_wait) on every line as well, which with two or more Ps doubled
// the arbiter's CPU per move.
//
// Between requests nobody reads for a moment: the lines an engine writes then
// stay in the pipe, which is enlarged to pipeSize where the kernel allows,
// and are read when the next request begins, before its command is written,
// so they are never taken as its answer. A sweeper looks at every pipe each
// idleDrain; one that has had no reader for a whole sweep (idleDrain to
// twice that: a request's end notes the sweep, not the clock, which a move
// would otherwise read once more) gets a drainer goroutine, which reads it (bounded, oldest lines dropped past
// maxQueueBytes) until the next request takes the pipe back through an
// eventfd. So an engine that floods while its opponent thinks is never held
// up for more than about two idleDrain periods, and then only after filling
// the pipe; while its own request waits it is read at once. A sweep that
// finds no pipe idle is the last until one is (a request ends, an engine
// starts): while engines think, the arbiter wakes for nothing.
//
// Nothing here wakes the arbiter periodically while engines think: a
// periodic wake-up costs the Go runtime far more than the wake itself
// (its monitor thread polls every 20 µs for a millisecond after a thread
// comes back from a long system call), about 8% of a processor at one
// table with a 20 ms slice and a 5 ms sweep.

// Bounds of the reading.
const (
	idleDrain = 5 * time.Millisecond  // how long a pipe goes unread before a drainer reads it
	pipeSize  = 1 << 20               // stdout pipe capacity asked of the kernel (F_SETPIPE_SZ)
	pollSlice = 20 * time.Millisecond // longest poll(2) of a request where the kernel has no pidfd: it looks at the process this often
)

// errWouldBlock is a read that found nothing and was not to wait (or whose
// slice of the wait ended); errKicked ends a drainer's read.
var (
	errWouldBlock = errors.New("no output waiting")
	errKicked     = errors.New("reader wanted back")
)

// Who reads an engine's stdout.
const (
	held     = iota // a request (exchange.send ... exchange.done)
	idle            // nobody, since sweep stdout.since
	draining        // the idle drainer
	closed          // the pipe has ended or is closed: nobody ever again
)

// How pipeSource reads.
const (
	readWait  = iota // read(2); if nothing is there, poll(2) up to until (or the leader's exit) and read(2)
	readPeek         // read(2) only what is there already
	readDrain        // poll(2) the pipe and the kick, then read(2)
)

// stdoutPipe makes the stdout pipe. Both ends are made blocking, so that
// os.NewFile keeps the read end out of the network poller (see above); the
// read end is then made non-blocking (its own open file description: the
// engine's end stays blocking), which only pipeSource's raw reads see.
func stdoutPipe() (r, w *os.File, err error) {
	var fds [2]int
	if err := unix.Pipe2(fds[:], unix.O_CLOEXEC); err != nil {
		return nil, nil, os.NewSyscallError("pipe2", err)
	}
	_, _ = unix.FcntlInt(uintptr(fds[0]), unix.F_SETPIPE_SZ, pipeSize) // best effort
	r, w = os.NewFile(uintptr(fds[0]), "|0"), os.NewFile(uintptr(fds[1]), "|1")
	if err := unix.SetNonblock(fds[0], true); err != nil {
		r.Close()
		w.Close()
		return nil, nil, os.NewSyscallError("fcntl", err)
	}
	return r, w, nil
}

// stdout is the read side of an engine's stdout pipe.
type stdout struct {
	f          *os.File
	kick       *os.File    // an eventfd: written to take the pipe back from the drainer
	lr         *lineReader // over src; used only by the current reader
	src        pipeSource
	q          *outQueue // lines the drainer read, for the next request
	transcript func(sent bool, line string)

	mu      sync.Mutex
	state   int
	since   int64         // the sweep (sweeps) in which it became idle
	drained chan struct{} // closed when the drainer gives the pipe back
}

func newStdout(f *os.File) (*stdout, error) {
	kfd, err := unix.Eventfd(0, unix.EFD_CLOEXEC)
	if err != nil {
		return nil, os.NewSyscallError("eventfd", err)
	}
	s := &stdout{f: f, kick: os.NewFile(uintptr(kfd), "kick"), q: newOutQueue(), state: idle, since: sweeps.Load()}
	s.src.f, s.src.kick = f, s.kick
	if s.src.rc, err = f.SyscallConn(); err == nil {
		s.src.krc, err = s.kick.SyscallConn()
	}
	if err != nil {
		s.kick.Close()
		return nil, err
	}
	s.src.readFn, s.src.waitFn, s.src.drainFn, s.src.exitFn = s.src.peekRead, s.src.pollRead, s.src.drainRead, s.src.exitPoll
	s.lr = newLineReader(&s.src, MaxLine)
	sweeper.add(s)
	return s, nil
}

// watch makes a request's wait end when the engine's leader exits, through
// exit, a pidfd of it (group.exit), which the caller keeps open until it
// has no use for it. With none, the wait is cut into pollSlice slices.
func (s *stdout) watch(exit *os.File) {
	if exit == nil {
		return
	}
	if rc, err := exit.SyscallConn(); err == nil {
		s.src.exit, s.src.xrc = exit, rc
	}
}

// pipeSource is the lineReader's input, read through the descriptors' raw
// connections: holding a descriptor there keeps a Close from recycling its
// number meanwhile.
type pipeSource struct {
	f, kick *os.File
	rc, krc syscall.RawConn
	exit    *os.File // the leader's pidfd (watch), or nil
	xrc     syscall.RawConn
	mode    int
	until   time.Time // readWait: when to give up
	// readWait: watchExit makes the wait end at the leader's exit too,
	// which then sets exited
	watchExit, exited bool
	buf               []byte
	n                 int
	err               error
	kfd, xfd, fd      uintptr
	wait              time.Duration
	ready             bool
	pfd               [2]unix.PollFd
	ts                unix.Timespec
	// the methods below as values, made once
	readFn, waitFn, drainFn func(fd uintptr) bool
	exitFn                  func(xfd uintptr)
}

func (ps *pipeSource) Read(b []byte) (int, error) {
	ps.buf, ps.n, ps.err = b, 0, nil
	var err error
	switch ps.mode {
	case readPeek:
		err = ps.rc.Read(ps.readFn)
	case readWait:
		err = ps.rc.Read(ps.waitFn)
	default:
		var rerr error
		err = ps.krc.Control(func(fd uintptr) { // the kick is held open too
			ps.kfd = fd
			rerr = ps.rc.Read(ps.drainFn)
		})
		if err == nil {
			err = rerr
		}
	}
	switch {
	case err != nil:
		return 0, err
	case ps.err != nil:
		return 0, ps.err
	case ps.n == 0:
		return 0, io.EOF
	}
	return ps.n, nil
}

// What a poll watches besides the pipe.
const (
	pollPipe = iota // the pipe alone
	pollKick        // and the kick (ps.kfd): a request wants the pipe back
	pollExit        // and the leader's pidfd (ps.xfd): it exited
)

// poll waits up to d (forever if negative) for the pipe (and what also
// says) to be readable; it reports whether the pipe is (or has ended).
func (ps *pipeSource) poll(fd uintptr, d time.Duration, also int) bool {
	ps.pfd[0] = unix.PollFd{Fd: int32(fd), Events: unix.POLLIN}
	fds := ps.pfd[:1]
	switch also {
	case pollKick:
		ps.pfd[1] = unix.PollFd{Fd: int32(ps.kfd), Events: unix.POLLIN}
		fds = ps.pfd[:2]
	case pollExit:
		ps.pfd[1] = unix.PollFd{Fd: int32(ps.xfd), Events: unix.POLLIN}
		fds = ps.pfd[:2]
	}
	var ts *unix.Timespec
	if d >= 0 {
		ps.ts = unix.NsecToTimespec(int64(d))
		ts = &ps.ts
	}
	for {
		n, err := unix.Ppoll(fds, ts, nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			ps.err = os.NewSyscallError("ppoll", err)
			return false
		}
		if also == pollKick && ps.pfd[1].Revents != 0 {
			var b [8]byte
			unix.Read(int(ps.kfd), b[:]) // reset the eventfd
			ps.err = errKicked
			return false
		}
		if also == pollExit && ps.pfd[1].Revents != 0 {
			ps.exited = true
		}
		return n > 0 && ps.pfd[0].Revents != 0
	}
}

// read is one read(2) of the (non-blocking) pipe; it reports whether it
// found the pipe readable (bytes, or the end: ps.n == 0 with no error).
func (ps *pipeSource) read(fd uintptr) bool {
	for {
		ps.n, ps.err = rawRead(int(fd), ps.buf)
		if ps.err != syscall.EINTR {
			break
		}
	}
	if ps.n < 0 {
		ps.n = 0
	}
	if ps.err == syscall.EAGAIN {
		ps.err = errWouldBlock
		return false
	}
	return true
}

func (ps *pipeSource) peekRead(fd uintptr) bool {
	ps.read(fd)
	return true
}

func (ps *pipeSource) pollRead(fd uintptr) bool {
	if ps.read(fd) {
		return true
	}
	ps.err = nil
	ps.fd, ps.wait, ps.ready = fd, max(time.Until(ps.until), 0), false
	if !ps.watchExit || ps.xrc == nil || ps.xrc.Control(ps.exitFn) != nil {
		ps.ready = ps.poll(fd, min(ps.wait, pollSlice), pollPipe)
	}
	if !ps.ready {
		if ps.err == nil {
			ps.err = errWouldBlock
		}
		return true
	}
	ps.read(fd) // readable: bytes or the end (or, raced, errWouldBlock)
	return true
}

// exitPoll is pollRead's poll when it watches the leader's pidfd (held
// open meanwhile, as the pipe is).
func (ps *pipeSource) exitPoll(xfd uintptr) {
	ps.xfd = xfd
	ps.ready = ps.poll(ps.fd, ps.wait, pollExit)
}

func (ps *pipeSource) drainRead(fd uintptr) bool {
	for ps.poll(fd, -1, pollKick) {
		if ps.read(fd) {
			break
		}
		ps.err = nil // readable, yet nothing there: wait again
	}
	return true
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

// wake writes the kick.
func (s *stdout) wake() {
	one := [8]byte{1}
	s.kick.Write(one[:])
}

// acquire makes the caller the reader, taking the pipe back from the drainer
// if one runs.
func (s *stdout) acquire() {
	s.mu.Lock()
	if s.state == draining {
		ch := s.drained
		s.mu.Unlock()
		s.wake()
		<-ch // the drainer hands over: state is held
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
		s.state, s.since = idle, sweeps.Load()
	}
	s.mu.Unlock()
	sweeper.wake()
}

// startDrain gives a pipe idle since before the sweep before sweep to a
// drainer. It reports whether the pipe is still idle, for a later sweep.
func (s *stdout) startDrain(sweep int64) (idleStill bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != idle {
		return false
	}
	if sweep-s.since < 2 {
		return true
	}
	s.state, s.drained = draining, make(chan struct{})
	go s.drain()
	return false
}

// drain reads lines into q until a request takes the pipe back, or the pipe
// ends.
func (s *stdout) drain() {
	next := held
	for {
		l, err := s.readLine(readDrain)
		if err == nil {
			s.q.push(l)
			continue
		}
		if err != errKicked {
			s.q.close()
			next = closed
		}
		break
	}
	if next == closed {
		sweeper.remove(s)
	}
	s.mu.Lock()
	if s.state == draining { // close may have marked it closed meanwhile
		s.state = next
	}
	close(s.drained)
	s.mu.Unlock()
}

// close ends reading for good (the process is gone): a drainer is stopped
// and the descriptors closed. A request reading meanwhile (Kill from another
// goroutine) has seen the process exit (or, with no pidfd, sees it within a
// pollSlice); the pipe is closed once it is done with it.
func (s *stdout) close() {
	sweeper.remove(s)
	s.mu.Lock()
	draining := s.state == draining
	ch := s.drained
	s.state = closed
	s.mu.Unlock()
	if draining {
		s.wake()
		<-ch
	}
	s.kick.Close()
	s.f.Close()
}

// sweeper starts drainers on pipes left idle (see above); sweeps counts
// its sweeps.
var (
	sweeper pipeSweeper
	sweeps  atomic.Int64
)

type pipeSweeper struct {
	mu      sync.Mutex
	pipes   map[*stdout]struct{}
	running bool
	// asleep is set while (or just before) the sweeper waits for a pipe
	// to become idle; wake then sends it the token.
	asleep atomic.Bool
	token  chan struct{}
}

func (sw *pipeSweeper) add(s *stdout) {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	if sw.pipes == nil {
		sw.pipes, sw.token = make(map[*stdout]struct{}), make(chan struct{}, 1)
	}
	sw.pipes[s] = struct{}{}
	if !sw.running {
		sw.running = true
		go sweep()
	}
	sw.wake() // s starts idle
}

// wake makes a sleeping sweeper sweep again: a pipe became idle. One
// atomic load when it is not asleep.
func (sw *pipeSweeper) wake() {
	if sw.asleep.Load() {
		select {
		case sw.token <- struct{}{}:
		default:
		}
	}
}

func (sw *pipeSweeper) remove(s *stdout) {
	sw.mu.Lock()
	delete(sw.pipes, s)
	sw.mu.Unlock()
}

// sweep runs while there are pipes to watch, every idleDrain while one is
// idle; when none is, it sleeps until one becomes idle. It marks itself
// asleep before it looks, so that a pipe released while it looks wakes it.
func sweep() {
	t := time.NewTicker(idleDrain)
	defer t.Stop()
	for range t.C {
		sweep := sweeps.Add(1)
		sweeper.asleep.Store(true)
		sweeper.mu.Lock()
		if len(sweeper.pipes) == 0 {
			sweeper.running = false
			sweeper.asleep.Store(false)
			sweeper.mu.Unlock()
			return
		}
		idle := false
		for s := range sweeper.pipes {
			idle = s.startDrain(sweep) || idle
		}
		sweeper.mu.Unlock()
		if idle {
			sweeper.asleep.Store(false)
			continue
		}
		t.Stop()
		<-sweeper.token
		sweeper.asleep.Store(false)
		t.Reset(idleDrain)
	}
}

// rawRead and rawWrite are read(2) and write(2) on a non-blocking
// descriptor, made without telling the Go scheduler (no entersyscall): they
// cannot block, so the table's thread keeps its P through them. A write
// that wakes an engine on the table's processor is often preempted by it
// until it answers; told of a system call that long, the runtime's monitor
// takes the P away and hands it to another thread, and the table's thread
// then has to get one back (a futex wait and a wake-up, with locked tables
// sharing few Ps). Only waits that block (poll(2)) go through the
// scheduler.
func rawRead(fd int, b []byte) (int, error) { return rawIO(syscall.SYS_READ, fd, b) }

func rawWrite(fd int, b []byte) (int, error) { return rawIO(syscall.SYS_WRITE, fd, b) }

func rawIO(trap uintptr, fd int, b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	n, _, e := syscall.RawSyscall(trap, uintptr(fd), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	if e != 0 {
		return -1, e
	}
	return int(n), nil
}
