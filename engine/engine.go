package engine

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"gomoku-arena/clock"
	"gomoku-arena/rules"
)

// Defaults for the Spec durations left zero.
const (
	DefaultStartTimeout = 10 * time.Second
	DefaultCloseGrace   = time.Second
	DefaultWriteTimeout = time.Second
	exitLinger          = time.Second // after the process exits, how long lines still in the pipe are awaited
	// exitStatusWait is how long a process whose pipe closed is given to
	// end, so that its record says how (exit status 134, signal: killed)
	// rather than "stdout closed". It has lost either way; the wait, not
	// bounded by its clock, only costs a process that closed its pipe and
	// lives on, once. A second, as before, missed the status on a busy
	// machine.
	exitStatusWait = 5 * time.Second
)

// Spec says how to run one engine.
type Spec struct {
	Name    string
	Command string   // program path or name in $PATH, or "builtin:NAME"
	Args    []string // after the program (after "engine NAME" for builtins)
	// Dir is the working directory, created if missing; "" means a fresh
	// temporary directory owned by the Engine and removed on Close.
	Dir string
	// Within, when set, is a folder that Dir lies in and that the arena
	// does not own alone (the event's output folder): it is taken as
	// named, but no folder of Dir below it is followed if a link (an
	// error), and the folder checked is held open: a sandbox binds it by
	// its descriptor, not by a path that could lead elsewhere since
	// (workdir.go). Unset, Dir is taken as named.
	Within string
	// Env are KEY=VALUE pairs added to the engine's small environment
	// (Environ); the arbiter's own environment never reaches an engine.
	Env []string
	// Inherit, when set, makes a descriptor for each process of the
	// engine, which the process inherits as descriptor 3 (the arbiter
	// closes its own copy once the process started): how the arena hands
	// its own programs (a remote entrant's relay) what must be in neither
	// an environment nor a file, which another process could read.
	Inherit func() (*os.File, error)
	// StartTimeout bounds process start + the START reply, and is the wait
	// used when a caller passes a zero deadline. 0 is DefaultStartTimeout
	// (StartWithin, the one place that default is applied).
	StartTimeout time.Duration
	// CloseGrace is how long Close waits after END before killing. Default 1s.
	CloseGrace time.Duration
	// WriteTimeout bounds writes that have no deadline of their own (INFO
	// through SendInfo, END). Default 1s.
	WriteTimeout time.Duration
	Limits       Limits   // memory, processes, freezing (limits.go)
	Sandbox      *Sandbox // nil: not confined (sandbox.go)
	// Files are the files and folders beside the program that its author
	// declared it reads (settings, weights): a sandbox shows them
	// (Sandbox.Show), and a check is remembered by what they hold.
	Files []string
	// CPUs are the processors the engine's processes start on and keep
	// (their own children and threads inherit them); none: every processor
	// the arbiter was given.
	CPUs []int
	// CPUsOneThread: CPUs hold the engine only while it runs one thread;
	// seen running more (a look at its processes before a command on
	// probation or at a game's start), it is let go to every processor the
	// arbiter was given, for good (held.go). For a table with processors
	// to spare, where an engine that searches on several threads must get
	// them.
	CPUsOneThread bool
	// Transcript, when set, sees every line written to the engine (sent)
	// and read from its output, long ones cut, with the process id; it is
	// called from several goroutines and must not block for long.
	Transcript func(pid int, sent bool, line string)
	// StartEveryGame sends START before every game, also to a process
	// that played one, where RESTART is sent otherwise: c-gomoku-cli's
	// way, for a drop-in that sends what it sends.
	StartEveryGame bool
	// Refused, when set, are the extension INFO keys this entrant refused
	// (info.go): its INFO lines are written without them, in every game
	// and by every process of the entrant that shares the set.
	Refused *Extensions
}

// Stone is one line of a BOARD command.
type Stone struct {
	Point rules.Point
	Field int // 1 own stone, 2 opponent's, 3 blocked
}

// Reply is the outcome of a move request.
type Reply struct {
	Move    rules.Point   // valid only when Fault == ""
	Line    string        // the raw move line, bounded
	Elapsed time.Duration // from the request fully written to the move line read
	Fault   Fault         // "" when a move line was read
	Detail  string        // e.g. "exit status 2", the malformed line
	// Notes are MESSAGE/DEBUG/ERROR/UNKNOWN/SUGGEST lines (prefixed by their
	// keyword) and protocol warnings ("warning: ...") seen while waiting, or
	// since the previous request; at most 64 of 512 bytes.
	Notes []string
}

// Engine is one engine program and its current process. Its methods are meant
// for one goroutine; Kill and Close may also be called from another.
type Engine struct {
	spec   Spec
	name   string
	path   string
	args   []string
	dir    string
	ownDir bool
	// dirFile is the working folder checked at Start (openWorkDir), held
	// open until Close: a sandbox binds it by this descriptor.
	dirFile *os.File
	env     []string

	mu     sync.Mutex
	p      *proc // nil when no process runs
	closed bool
	stderr *ring // the latest process's stderr lines

	about   *About // the answer to ABOUT, asked once after the first START
	pending notes  // seen outside a move request, reported with the next reply
	notes   notes  // the current request's (pending moved in)
	buf     []byte // command being written
	queue   []byte // INFO lines to go out with the next move request
	out     []byte // queue + command, written at once
	x       exchange
	// unsettled is set when lines were written that no answer has followed
	// yet (INFO lines, PLAY, a command that timed out): lines they provoke
	// (an ERROR about an INFO key, a late answer) may still come, and
	// come before the answer to the next command (engines take their input
	// in order). An answer read settles it.
	unsettled bool
	// habit: the engine's program drops or refuses commands written
	// while it is still busy with its answer (settle.go); sent: a copy of
	// the lines last written, which an ERROR read later may be about;
	// requeue: INFO lines it dropped, written again with the next request.
	habit      bool
	commands   int    // settled on probation so far (settle.go)
	programKey string // program's, once made (settle.go)
	sent       []byte
	requeue    []byte
	requeued   map[string]bool // the INFO lines requeued once
}

// StartWithin is how long the engine is given to start and answer START:
// StartTimeout, or DefaultStartTimeout for 0. It is the one place that
// default is applied; every front end's engines start through it, and
// arena check's start probes judge by it.
func (s Spec) StartWithin() time.Duration {
	if s.StartTimeout <= 0 {
		return DefaultStartTimeout
	}
	return s.StartTimeout
}

// Start starts the engine's process (without sending anything). The error
// names the engine and the command when the program cannot be started.
func Start(spec Spec) (*Engine, error) {
	spec.StartTimeout = spec.StartWithin()
	if spec.CloseGrace <= 0 {
		spec.CloseGrace = DefaultCloseGrace
	}
	if spec.WriteTimeout <= 0 {
		spec.WriteTimeout = DefaultWriteTimeout
	}
	e := &Engine{spec: spec, name: spec.Name}
	if e.name == "" {
		e.name = spec.Command
	}
	if err := e.resolve(); err != nil {
		return nil, startError(e.name, spec.Command, err)
	}
	if spec.Dir == "" {
		d, err := os.MkdirTemp("", "gomoku-engine-")
		if err != nil {
			return nil, fmt.Errorf("engine %q: working directory: %w", e.name, err)
		}
		e.dir, e.ownDir = d, true
	} else {
		e.dir = spec.Dir
	}
	within := spec.Within
	if within == "" || e.ownDir { // a fresh folder of its own (arena check clears Dir): not in Within
		within = e.dir
	}
	f, err := openWorkDir(within, e.dir)
	if err != nil {
		if e.ownDir {
			os.RemoveAll(e.dir)
		}
		return nil, fmt.Errorf("engine %q: %w", e.name, err)
	}
	e.dirFile = f
	e.env = Environ(heldPath(f), spec.Env)
	becomeSubreaper()
	if err := e.spawn(); err != nil {
		f.Close()
		if e.ownDir {
			os.RemoveAll(e.dir)
		}
		return nil, err
	}
	return e, nil
}

// resolve finds the program: builtins are this executable, relative paths
// are taken from the arbiter's working directory (not the engine's), bare
// names from $PATH.
func (e *Engine) resolve() error {
	c := e.spec.Command
	switch {
	case c == "":
		return errors.New("no command")
	case strings.HasPrefix(c, "builtin:"):
		exe, err := os.Executable()
		if err != nil {
			return err
		}
		e.path = exe
		e.args = append([]string{"engine", strings.TrimPrefix(c, "builtin:")}, e.spec.Args...)
		return nil
	case strings.ContainsRune(c, os.PathSeparator):
		abs, err := filepath.Abs(c)
		if err != nil {
			return err
		}
		e.path = abs
	default:
		p, err := exec.LookPath(c)
		if err != nil {
			return err
		}
		e.path = p
	}
	e.args = e.spec.Args
	return nil
}

func (e *Engine) spawn() error {
	path, args := e.path, e.args
	var files []*os.File
	if e.spec.Inherit != nil {
		f, err := e.spec.Inherit()
		if err != nil {
			return startError(e.name, e.spec.Command, err)
		}
		defer f.Close() // the process holds its own copy
		files = append(files, f)
	}
	if e.spec.Sandbox != nil {
		var err error
		if path, args, err = e.spec.Sandbox.command(path, args, e.dirFile, 3+len(files), e.spec.Limits.Memory); err != nil {
			return fmt.Errorf("engine %q: %w", e.name, err)
		}
		files = append(files, e.dirFile) // bwrap binds it (--bind-fd) and closes it before the engine runs
	}
	errs := new(ring) // each process's own, so that its last words are its own
	// The process starts in the folder Start checked, by its descriptor:
	// its path may lead elsewhere since.
	// Its own scratch folder need not be bound back through a private /tmp
	// (startIn), unless a sandbox binds it by its descriptor, which must
	// lead where its path does.
	scratch := e.ownDir && e.spec.Sandbox == nil
	p, err := spawn(path, args, fdPath(int(e.dirFile.Fd())), scratch, e.env, files, e.spec.Limits.Memory, e.spec.CPUs, errs, e.spec.Transcript)
	if err == nil {
		if err = applyLimits(p, e.spec.Limits); err != nil {
			p.kill()
		}
	}
	if err != nil {
		return startError(e.name, e.spec.Command, err)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		p.kill()
		return fmt.Errorf("engine %q: closed", e.name)
	}
	p.held = len(e.spec.CPUs) > 0 && e.spec.CPUsOneThread
	p.short = len(e.spec.CPUs) > 0 // started with the short slice (affinity.Start; held.go)
	e.p, e.unsettled, e.stderr = p, false, errs
	e.queue = e.queue[:0] // lines for the previous process: a fresh one hears START first
	return nil
}

// Name is the engine's name from its Spec.
func (e *Engine) Name() string { return e.name }

// Dir is the engine's working directory.
func (e *Engine) Dir() string { return e.dir }

// Pid is the current process id (also its process group id), 0 when none runs.
func (e *Engine) Pid() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.p == nil {
		return 0
	}
	return e.p.pid
}

// Stderr returns the last lines the engine's latest process wrote to stderr
// (bounded), also after it was killed. When the process has exited, the
// lines still in the pipe are awaited first (for at most exitLinger), so
// that a crashed engine's last words are among them.
func (e *Engine) Stderr() []string {
	e.mu.Lock()
	p, errs := e.p, e.stderr
	e.mu.Unlock()
	if errs == nil {
		return nil
	}
	if p != nil && !p.alive() {
		select {
		case <-p.stderrDone:
		case <-time.After(exitLinger):
		}
	}
	return errs.snapshot()
}

func (e *Engine) current() *proc {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.p
}

func (e *Engine) orDefault(deadline time.Time) time.Time {
	if deadline.IsZero() {
		return time.Now().Add(e.spec.StartTimeout)
	}
	return deadline
}

// NewGame prepares a game on a size×size board: START for a fresh process
// (and for every game with Spec.StartEveryGame), RESTART otherwise (falling back to a new process when the engine answers
// UNKNOWN or ERROR, or has died), then the INFO lines, which go out with the
// next command (in its write: QueueInfo). The wait ends at
// deadline or after Spec.StartTimeout, whichever is first. Errors: *Refusal
// (ERROR to START), *FaultError (timeout or exit), or a start failure.
func (e *Engine) NewGame(size int, infos []Info, deadline time.Time) error {
	began := time.Now()
	if limit := began.Add(e.spec.StartTimeout); deadline.IsZero() || limit.Before(deadline) {
		deadline = limit
	}
	e.mu.Lock()
	closed := e.closed
	e.mu.Unlock()
	if closed {
		return fmt.Errorf("engine %q: closed", e.name)
	}
	p := e.current()
	if p != nil && !p.alive() {
		e.Kill()
		p = nil
	}
	if p != nil {
		p.heldLook() // held.go
	}
	if p != nil && p.started && e.spec.StartEveryGame {
		p.started = false // START again, as to a fresh process
	}
	if p != nil && p.started {
		restarted, err := e.restartGame(p, deadline)
		if err != nil {
			return err
		}
		if !restarted {
			// Started afresh, uncharged: the new process gets the whole
			// time to start that the restart would have had.
			e.Kill()
			p = nil
			deadline = time.Now().Add(deadline.Sub(began))
		}
	}
	if p == nil {
		if err := e.spawn(); err != nil {
			return err
		}
		p = e.current()
	}
	if !p.started {
		if err := applyLimits(p, e.spec.Limits); err != nil { // the sandbox's engine exists by now
			return startError(e.name, e.spec.Command, err)
		}
		if err := e.startGame(p, size, deadline); err != nil {
			return err
		}
		if err := e.askAbout(time.Now().Add(aboutWait)); err != nil { // its own wait, as the INFO lines below
			return err
		}
	}
	// START (or RESTART) was answered in time: the INFO lines go out with
	// the next command, in its write (exchange.send), as the time_left
	// before a move does: a game's start costs no write of its own, and
	// the engine reads them all before that command, in the same order.
	e.queueInfos(infos)
	return nil
}

// aboutWait bounds the wait for the answer to ABOUT: an engine that does
// not answer is not held up long, and a late answer is only a stray line
// (logged, never a move) in the game.
const aboutWait = 500 * time.Millisecond

// askAbout asks ABOUT once in the engine's life, after its first START, so
// that records can say which program and version played. Silence or an
// ERROR/UNKNOWN answer leaves the identity empty; only an exit is an error.
func (e *Engine) askAbout(deadline time.Time) error {
	e.mu.Lock()
	asked := e.about != nil
	if !asked {
		e.about = &About{}
	}
	e.mu.Unlock()
	if asked {
		return nil
	}
	a, err := e.About(earliest(deadline, time.Now().Add(aboutWait)))
	var fe *FaultError
	if errors.As(err, &fe) && fe.Fault == FaultExit {
		return fe
	}
	if err == nil {
		e.mu.Lock()
		e.about = &a
		e.mu.Unlock()
	}
	return nil
}

// Identity is the engine's answer to ABOUT (zero before its first game,
// or when it gave none).
func (e *Engine) Identity() About {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.about == nil {
		return About{}
	}
	return *e.about
}

// Bounds on the wait for RESTART's OK: the engine is started afresh when
// it has not come by then. An OK comes at once from an engine that restarts
// in place (Rapfi resets its board and search first); after an ERROR or UNKNOWN
// that names nothing while INFO lines are outstanding (it may be about one
// of them), an OK that is coming follows it closely.
const (
	restartWait  = 3 * time.Second
	restartGrace = 500 * time.Millisecond
)

// restartGame sends RESTART and reports whether the engine restarted in
// place, which only an OK means. Anything else — UNKNOWN or ERROR (blupig
// answers a bare UNKNOWN), silence until restartWait, an exit, a command
// that cannot be written — means the process is to be started afresh, as
// the Gomocup manager does: a restart never costs a game, whatever came
// before it. An error is returned only when the engine was closed.
func (e *Engine) restartGame(p *proc, deadline time.Time) (bool, error) {
	x := e.exchange(p, earliest(deadline, time.Now().Add(restartWait)), &e.pending)
	defer x.done()
	if f, _ := x.send([]byte("RESTART\n")); f != "" {
		return false, nil
	}
	for {
		l, f, _ := x.next()
		if f != "" {
			return false, nil
		}
		ln := ParseLine(l.text)
		switch {
		case ln.Kind == LineOK:
			x.answered = true
			return true, nil
		case (ln.Kind == LineUnknown || ln.Kind == LineError) && x.refuses(ln):
			x.note(ln, l)
			return false, nil
		case ln.Kind == LineUnknown || ln.Kind == LineError:
			// It names nothing and may answer an INFO line before RESTART:
			// an OK that is coming comes soon; otherwise this was the answer.
			x.note(ln, l)
			x.until = earliest(x.until, time.Now().Add(restartGrace))
			x.deadline = earliest(x.deadline, x.until)
		default:
			x.note(ln, l)
		}
	}
}

func (e *Engine) startGame(p *proc, size int, deadline time.Time) error {
	op := "START " + strconv.Itoa(size)
	x := e.exchange(p, deadline, &e.pending)
	defer x.done()
	if f, detail := x.send([]byte(op + "\n")); f != "" {
		return &FaultError{Engine: e.name, Op: op, Fault: f, Detail: detail}
	}
	resent := false
	for {
		l, f, detail := x.next()
		if f != "" {
			return &FaultError{Engine: e.name, Op: op, Fault: f, Detail: detail}
		}
		ln := ParseLine(l.text)
		switch {
		case ln.Kind == LineOK:
			p.started, x.answered = true, true
			return nil
		case (ln.Kind == LineError || ln.Kind == LineUnknown) && !resent && x.lostCommand(ln.Text, x.wire):
			// START lost its command word ("ERROR Unknown command: 15"):
			// not a refusal; written again once the engine settled.
			resent = true
			x.note(ln, l)
			if f, detail := x.resend(); f != "" {
				return &FaultError{Engine: e.name, Op: op, Fault: f, Detail: detail}
			}
		case ln.Kind == LineError && x.refuses(ln):
			return &Refusal{Engine: e.name, Message: clip(ln.Text, maxNoteLen)}
		case ln.Kind == LineUnknown && x.refuses(ln):
			return &Refusal{Engine: e.name, Message: clip("UNKNOWN "+ln.Text, maxNoteLen)}
		default:
			x.note(ln, l)
		}
	}
}

// queueInfos holds the INFO lines the engine has not refused for the next
// command (exchange.send).
func (e *Engine) queueInfos(infos []Info) {
	for _, in := range e.spec.Refused.Filter(infos) {
		e.queue = appendInfo(e.queue, in)
	}
}

func (e *Engine) writeInfos(p *proc, infos []Info, deadline time.Time) error {
	infos = e.spec.Refused.Filter(infos)
	if len(infos) == 0 {
		return nil
	}
	b := e.buf[:0]
	for _, in := range infos {
		b = appendInfo(b, in)
	}
	e.buf = b
	e.unsettled = true
	// Let an engine that needs it finish with its previous answer first
	// (settle.go); the wait is nobody's, so the deadline moves back by it,
	// as a command's does (exchange.send): a busy engine, or a busy
	// machine, would otherwise find its time to take the lines spent
	// before they were written.
	t0 := time.Now()
	if e.settleBefore(p, earliest(deadline, t0.Add(settleWait))) { // settle.go
		deadline = deadline.Add(time.Since(t0))
	}
	e.sent = append(e.sent[:0], b...)
	if f, detail := p.write(b, deadline); f != "" {
		return &FaultError{Engine: e.name, Op: "INFO", Fault: f, Detail: detail}
	}
	return nil
}

// appendInfo writes one INFO line; line breaks inside a key or value would
// inject commands, so they become spaces.
func appendInfo(b []byte, in Info) []byte {
	b = append(b, "INFO "...)
	b = append(b, oneLine(strings.ReplaceAll(in.Key, " ", "_"))...)
	b = append(b, ' ')
	b = append(b, oneLine(in.Value)...)
	return append(b, '\n')
}

func oneLine(s string) string {
	if strings.ContainsAny(s, "\r\n") {
		return strings.NewReplacer("\r", " ", "\n", " ").Replace(s)
	}
	return s
}

// SendInfo sends INFO lines (e.g. time_left before a move), waiting at most
// Spec.WriteTimeout for the engine to take them.
func (e *Engine) SendInfo(infos ...Info) error {
	p := e.current()
	if p == nil {
		return &FaultError{Engine: e.name, Op: "INFO", Fault: FaultExit, Detail: "not running"}
	}
	return e.writeInfos(p, infos, time.Now().Add(e.spec.WriteTimeout))
}

// QueueInfo holds INFO lines to be written together with the next command
// (a move request as a rule: BEGIN, TURN or BOARD), in one write: the
// time_left before every move costs no extra system call. The lines go out
// before the command, so they are not part of the engine's think time.
func (e *Engine) QueueInfo(infos ...Info) {
	for _, in := range infos {
		e.queue = appendInfo(e.queue, in)
	}
}

// Begin asks for the first move on an empty board.
func (e *Engine) Begin(deadline time.Time) Reply {
	return e.request(append(e.buf[:0], "BEGIN\n"...), deadline)
}

// Turn tells the engine the opponent's move and asks for its own.
func (e *Engine) Turn(opp rules.Point, deadline time.Time) Reply {
	b := append(e.buf[:0], "TURN "...)
	b = appendPoint(b, opp)
	return e.request(append(b, '\n'), deadline)
}

// Board sends the whole position, stones in the given (move) order, and asks
// for a move.
func (e *Engine) Board(stones []Stone, deadline time.Time) Reply {
	b := append(e.buf[:0], "BOARD\n"...)
	for _, s := range stones {
		b = appendPoint(b, s.Point)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(s.Field), 10)
		b = append(b, '\n')
	}
	return e.request(append(b, "DONE\n"...), deadline)
}

func appendPoint(b []byte, p rules.Point) []byte {
	b = strconv.AppendInt(b, int64(p.X), 10)
	b = append(b, ',')
	return strconv.AppendInt(b, int64(p.Y), 10)
}

// ask writes cmd, after any INFO lines queued for it, and returns the
// exchange to read the answer from and the moment the write ended (where
// think time starts). Lines seen before the write go to nt.
func (e *Engine) ask(cmd []byte, deadline time.Time, nt *notes) (x *exchange, sent time.Time, f Fault, detail string) {
	e.buf = cmd
	p := e.current()
	if p == nil {
		return nil, time.Time{}, FaultExit, "not running"
	}
	x = e.exchange(p, e.orDefault(deadline), nt)
	x.cmd = cmd
	e.takeRequeued()
	if f, detail = x.send(cmd); f != "" {
		x.done()
		return nil, time.Time{}, f, detail
	}
	return x, x.wrote(), "", ""
}

// request writes a move request and waits for the move.
func (e *Engine) request(cmd []byte, deadline time.Time) (r Reply) {
	e.notes, e.pending = e.pending, notes{}
	defer func() { r.Notes = e.notes.list() }()
	x, sent, f, detail := e.ask(cmd, deadline, &e.notes)
	if x != nil {
		defer x.done()
	}
	if f != "" {
		r.Fault, r.Detail = f, detail
		return r
	}
	resent := 0
	for {
		l, f, detail := x.next()
		if f != "" {
			r.Fault, r.Detail, r.Elapsed = f, detail, x.think(sent)
			return r
		}
		ln := ParseLine(l.text)
		if ln.Kind == LineMove && l.truncated {
			ln.Kind = LineMalformed
		}
		switch ln.Kind {
		case LineMove:
			r.Elapsed = x.think(sent)
			r.Move, r.Line = ln.Point, clip(l.text, maxNoteLen)
			x.answered = true
			return r
		case LineMalformed:
			r.Elapsed = x.think(sent)
			x.answered = true
			r.Line = clip(l.text, maxNoteLen)
			r.Fault, r.Detail = FaultMalformed, strconv.Quote(r.Line)
			return r
		case LineSuggest:
			x.note(ln, l)
			e.unsettled = true // until the move that answers PLAY
			play := appendPoint([]byte("PLAY "), ln.Point)
			if f, detail := x.p.write(append(play, '\n'), x.deadline); f != "" {
				r.Fault, r.Detail, r.Elapsed = f, detail, x.think(sent)
				return r
			}
		default:
			x.note(ln, l)
			if (ln.Kind == LineError || ln.Kind == LineUnknown) && x.lostCommand(ln.Text, x.wire) {
				// The request itself lost its command word: the engine
				// waits for a command. It is written again once settled.
				if resent < maxResends {
					resent++
					if f, detail := x.resend(); f != "" {
						r.Fault, r.Detail, r.Elapsed = f, detail, x.think(sent)
						return r
					}
				}
				continue
			}
			if resent < maxResends && rejects(l.text, x.cmd) {
				resent++
				if f, detail := x.resend(); f != "" {
					r.Fault, r.Detail, r.Elapsed = f, detail, x.think(sent)
					return r
				}
			}
		}
	}
}

// maxResends bounds how often one move request is written again after the
// engine refused it (rejects).
const maxResends = 3

// rejects reports whether a line the engine wrote in answer to a move
// request names the request itself ("BAD COMMAND TURN 8,4 IN SEARCH MODE"):
// an engine still busy with its previous search refused it and will not
// answer it. The Gomocup manager suspends an engine right after its answer
// (as freeze_idle does) and resumes it into the next command, where such an
// engine forfeits on time; the arbiter lets it settle and asks again.
// A line that only echoes the request ("DEBUG got TURN 8,4", "TURN 8,4
// received") is not a refusal: it must also say so (ERROR, UNKNOWN, BAD, ...).
func rejects(line string, cmd []byte) bool {
	req, _, _ := bytes.Cut(cmd, []byte("\n"))
	req = bytes.TrimSpace(req)
	up := strings.ToUpper(line)
	if len(req) == 0 || !strings.Contains(up, strings.ToUpper(string(req))) {
		return false
	}
	for _, w := range refusalWords {
		if strings.Contains(up, w) {
			return true
		}
	}
	return false
}

var refusalWords = []string{"ERROR", "UNKNOWN", "BAD", "INVALID", "REJECT", "REFUS", "IGNOR", "BUSY", "CANNOT", "CAN'T", "NOT "}

// resend writes the request again, with the INFO lines that went with it,
// once the engine has settled (settle.go) from the search it was refusing
// commands for; its think time still runs from the first writing.
func (x *exchange) resend() (Fault, string) {
	x.e.learn()
	x.p.settle(x.deadline, 0)
	x.notes.add("warning: the engine refused the request while busy with its previous search; written again once it settled, think time counted from the first")
	return x.p.write(x.wire, x.deadline)
}

// lostCommand reports whether an ERROR or UNKNOWN line says the engine
// dropped the command word of the exchange's request (droppedLine, against
// the lines in wire). The engine's program learns the habit: its commands
// are settled from now on. A dropped INFO line is written again with the
// next request (requeue); true only when the line dropped is the request.
func (x *exchange) lostCommand(text string, wire []byte) bool {
	off := droppedLine(text, wire)
	if off < 0 {
		return false
	}
	x.e.learn()
	line := wire[off:]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i+1]
	}
	if bytes.HasPrefix(bytes.TrimSpace(line), []byte("INFO ")) {
		// Once per line: an engine that answers an INFO line it does not
		// take with the key alone ("UNKNOWN time_left") is not sent it
		// again and again.
		if x.e.requeued == nil {
			x.e.requeued = map[string]bool{}
		}
		if k := string(line); !x.e.requeued[k] && len(x.e.requeued) < maxRequeued {
			x.e.requeued[k] = true
			x.notes.add("warning: the engine dropped the line " + strconv.Quote(clip(string(bytes.TrimSpace(line)), 200)) + " read while it was busy with its previous answer; written again with the next request")
			x.e.requeue = append(x.e.requeue, line...)
		}
		return false
	}
	return x.cmd != nil && off >= len(wire)-len(x.cmd)
}

// maxRequeued bounds the INFO lines an engine is sent again in its life.
const maxRequeued = 64

// takeRequeued puts the INFO lines the engine dropped before those queued
// for the next request, unless a newer line of the same key is queued.
func (e *Engine) takeRequeued() {
	if len(e.requeue) == 0 {
		return
	}
	var keep []byte
	for _, line := range bytes.SplitAfter(e.requeue, []byte("\n")) {
		f := bytes.Fields(line)
		if len(f) < 2 || bytes.Contains(e.queue, append(append([]byte("INFO "), f[1]...), ' ')) {
			continue
		}
		keep = append(keep, line...)
	}
	e.queue = append(keep, e.queue...)
	e.requeue = e.requeue[:0]
}

// Close ends the engine: END, up to Spec.CloseGrace for it to exit, then
// SIGKILL to its whole process group, and reaping. It removes a working
// directory the Engine created. It is idempotent and returns within about
// CloseGrace + 1s.
func (e *Engine) Close() error {
	e.Thaw() // a frozen engine must hear END
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil
	}
	e.closed = true
	p := e.p
	e.p = nil
	e.mu.Unlock()
	if p != nil {
		end := time.Now().Add(e.spec.CloseGrace)
		if p.alive() {
			p.write([]byte("END\n"), earliest(end, time.Now().Add(e.spec.WriteTimeout)))
			p.stdin.Close() // EOF for engines that wait for it
			select {
			case <-p.exited:
			case <-time.After(time.Until(end)):
			}
		}
		p.kill() // also the helpers of an engine that exited by itself
	}
	e.dirFile.Close()
	if e.ownDir {
		return os.RemoveAll(e.dir)
	}
	return nil
}

// Kill kills the engine's process group at once (after a timeout, say) and
// reaps it; the next NewGame starts a new process.
func (e *Engine) Kill() {
	e.mu.Lock()
	p := e.p
	e.p = nil
	e.mu.Unlock()
	if p != nil {
		p.kill()
	}
}

func earliest(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// exchange is one command and the wait for its answer. The waiting
// goroutine reads the engine's stdout itself (stdout.go), from send to done.
type exchange struct {
	e         *Engine
	p         *proc
	cmd       []byte // the command (without INFO lines queued before it)
	wire      []byte // what was written: the command after any queued INFO lines
	strict    bool   // e.unsettled when the command was written
	answered  bool   // the command's answer was read
	deadline  time.Time
	notes     *notes
	reading   bool      // send has acquired the pipe; done releases it
	lingering bool      // the process has exited; waiting only for lines still in the pipe
	until     time.Time // the deadline, or the end of lingering
	// began: the arbiter's stalls since then move the deadline (stall.go);
	// forgiven: how far they have moved it.
	began    time.Time
	forgiven time.Duration
}

// exchange starts the wait for one command's answer; the caller must call
// done when it has its answer (or gave up). An Engine has one exchange at a
// time, reused: nothing is allocated per command.
func (e *Engine) exchange(p *proc, deadline time.Time, nt *notes) *exchange {
	clock.Watch()
	e.x = exchange{e: e, p: p, deadline: deadline, until: deadline, notes: nt} // began: by send
	return &e.x
}

// send takes the engine's stdout, reports the lines it wrote before this
// command (late or unsolicited output: those the drainer kept, and those
// already in the pipe), and writes the command. Only lines read after this
// can be the command's answer.
func (x *exchange) send(cmd []byte) (Fault, string) {
	if x.cmd == nil {
		x.cmd = cmd
	}
	if e := x.e; len(e.queue) > 0 {
		// INFO lines queued (QueueInfo, NewGame's) go out before the
		// command, in its write.
		e.out = append(append(e.out[:0], e.queue...), cmd...)
		e.queue = e.queue[:0]
		cmd = e.out
		e.unsettled = true
	}
	x.strict = x.e.unsettled
	// Let an engine that needs it finish with its previous answer first
	// (settle.go); the wait is nobody's, so the deadline moves back by it.
	// The clock is read again only after a wait: a move's clock readings
	// are a few per cent of the arbiter's time per move of an instant
	// engine.
	t0 := time.Now()
	if x.began.IsZero() {
		x.began = t0
	}
	waited := x.e.settleBefore(x.p, earliest(x.deadline, t0.Add(settleWait)))
	if waited {
		x.deadline = x.deadline.Add(time.Since(t0))
	}
	x.until = x.deadline
	x.wire = cmd
	out := x.p.out
	out.acquire()
	x.reading = true
	if !x.p.alive() {
		x.linger()
	}
	for {
		l, ok, dropped, _ := out.q.pop()
		x.dropped(dropped)
		if !ok {
			break
		}
		x.early(l)
	}
	for {
		l, err := out.readLine(readPeek)
		if err != nil {
			break // nothing more waiting (or the pipe ended: next says so)
		}
		x.early(l)
	}
	if waited {
		x.forgive() // stalls in the wait; those later, next forgives at the deadline
	}
	x.e.sent = append(x.e.sent[:0], cmd...)
	return x.p.write(cmd, x.deadline)
}

// early notes a line the engine wrote before the command was sent.
func (x *exchange) early(l outLine) {
	ln := ParseLine(l.text)
	switch ln.Kind {
	case LineError, LineUnknown:
		x.note(ln, l)
		x.lostCommand(ln.Text, x.e.sent) // about lines written before; a request's answer is not awaited any more
	case LineMessage, LineDebug:
		x.note(ln, l)
	default:
		x.notes.add("warning: late line " + strconv.Quote(clip(l.text, maxNoteLen)))
	}
}

// done gives the engine's stdout back to the idle drainer. A command left
// without its answer (timed out, say) leaves the engine unsettled.
func (x *exchange) done() {
	if x.reading {
		x.reading = false
		x.p.out.release()
	}
	x.e.unsettled = !x.answered
}

// refuses reports whether an ERROR or UNKNOWN line can be this command's
// answer. When everything written before the command was settled it is
// (engines answer in order); otherwise it may answer an earlier line (an
// ERROR about an INFO key, as Rapfi prints "ERROR Unknown command:
// FREESTYLE" for INFO rule_name freestyle), and it counts only when it
// names the command. A refusal is an answer: it settles the engine.
func (x *exchange) refuses(ln Line) bool {
	if x.strict && !namesCommand(ln.Text, x.cmd) {
		return false
	}
	x.answered = true
	return true
}

// namesCommand reports whether text has the first word of cmd as a word of
// its own (any case): "Unknown command: SWAP2BOARD" names SWAP2BOARD, and
// "RESTART" does not name START.
func namesCommand(text string, cmd []byte) bool {
	word := cmd
	if i := bytes.IndexAny(word, " \r\n"); i >= 0 {
		word = word[:i]
	}
	return namesWord(text, string(word))
}

// namesWord reports whether text has word as a word of its own (any case).
func namesWord(text string, word string) bool {
	if len(word) == 0 {
		return false
	}
	for i := 0; i+len(word) <= len(text); i++ {
		if !strings.EqualFold(text[i:i+len(word)], word) {
			continue
		}
		before := i == 0 || !isWordByte(text[i-1])
		after := i+len(word) == len(text) || !isWordByte(text[i+len(word)])
		if before && after {
			return true
		}
	}
	return false
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func (x *exchange) dropped(n int) {
	if n > 0 {
		x.notes.add(fmt.Sprintf("warning: %d output lines dropped unread", n))
	}
}

// linger shortens the wait once the process has exited: lines written before
// the exit may still be in the pipe, but a surviving helper may hold it open.
func (x *exchange) linger() {
	x.lingering = true
	x.until = earliest(x.deadline, time.Now().Add(exitLinger))
}

// next returns the next stdout line, or the fault that ended the wait.
func (x *exchange) next() (outLine, Fault, string) {
	for {
		src := &x.p.out.src
		src.until, src.watchExit = x.until, !x.lingering
		l, err := x.p.out.readLine(readWait)
		switch {
		case err == nil:
			return l, "", ""
		case temporary(err): // the deadline, the leader's exit, or a slice of the wait
			if !x.lingering && (src.exited || !x.p.alive()) {
				x.linger()
				continue
			}
			if time.Now().Before(x.until) {
				continue
			}
			if x.lingering {
				return outLine{}, FaultExit, x.p.exitDetail()
			}
			if x.forgive() { // the deadline passed while the arbiter itself was stopped
				continue
			}
			return outLine{}, FaultTimeout, ""
		}
		// stdout closed: the process is ending; wait for its status
		t := time.NewTimer(exitStatusWait)
		select {
		case <-x.p.exited:
		case <-t.C:
		}
		t.Stop()
		return outLine{}, FaultExit, x.p.exitDetail()
	}
}

// note records a non-move line: keyword lines as they are, others as
// protocol warnings.
func (x *exchange) note(ln Line, l outLine) {
	switch ln.Kind {
	case LineMessage, LineDebug, LineError, LineUnknown:
		x.notes.add(ln.Kind.String() + " " + ln.Text)
	case LineSuggest:
		x.notes.add("SUGGEST " + ln.Point.String())
	default:
		w := "warning: unexpected line " + strconv.Quote(clip(l.text, 200))
		if l.truncated {
			w += fmt.Sprintf(" (longer than %d bytes, truncated)", MaxLine)
		}
		x.notes.add(w)
	}
}

// notes is a bounded list of notes.
type notes struct {
	lines   []string
	dropped int
}

func (n *notes) add(s string) {
	if len(n.lines) < maxNotes {
		n.lines = append(n.lines, clip(s, maxNoteLen))
		return
	}
	n.dropped++
}

func (n *notes) list() []string {
	if n.dropped > 0 {
		return append(n.lines, fmt.Sprintf("warning: %d more notes not kept", n.dropped))
	}
	return n.lines
}
