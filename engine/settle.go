package engine

import (
	"bytes"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// An engine is not always done with its answer when the answer has been
// read. Rapfi prints its move and only then clears its "thinking" flag; a
// command word it reads while the flag is set is dropped, and the rest of
// the line is read as the next command ("INFO time_left 1234" becomes the
// command TIME_LEFT: "ERROR Unknown command: TIME_LEFT"). Frozen at once
// after its answer (freeze_idle: the Gomocup manager suspends it there too)
// it is stopped inside that window and thawed straight into the next
// command; an opponent that answers at once leaves it no time either. Other
// engines keep searching for a while after they answer and refuse commands
// meanwhile ("BAD COMMAND TURN 8,4 IN SEARCH MODE").
//
// The class is an engine not listening yet when the next command arrives.
// Almost no engine has it, so the arbiter does not pay for it on every
// move of every engine. It settles (waits for) an engine before a command
// only where it serves:
//
//   - an engine whose program has shown the habit: it dropped or refused a
//     command (habits.go); the command was written again, and from then
//     on, in this arbiter, every engine running that program is settled;
//   - an engine under freeze_idle, where the freeze can land inside the
//     window however the engine behaves otherwise;
//   - every engine for its first commands (probation): one found still
//     finishing its answer then shows the habit before it loses anything.
//     An engine whose leader runs one thread and has no child is not
//     looked at further on probation (lone): the thread that answered is
//     the one that reads, so nothing it still does can lose the command.
//     Knowing that costs an fstat(2) of its task folder (whose link count
//     is two plus its thread count) and a read of its children, not a read
//     of its stat, which costs the kernel several times more.
//
// Settling is a look at the engine's threads (their state in
// /proc/PID/task/TID/stat): when none is running, ready to run (R) or in an
// uninterruptible wait (D: a page of its program read from disk, memory
// reclaimed, a child's exec awaited), none is busy with anything but waiting
// for input, and the command goes out at once, with no sleep. Otherwise the
// arbiter looks again until none is, until the engine has run settleCPU of
// processor time meanwhile (an engine that ponders, or polls its input
// busily, never settles; the bound is what a frozen engine may ponder when
// thawed), or for settleWait at most; the looks come further apart the
// longer it stays busy, so that a wait costs the arbiter a few looks.
// Processor time rather than wall time bounds it, so that a loaded machine,
// where a ready thread waits long for a processor, does not cut the wait
// short. The wait is before the command is written: it is no one's think
// time.
//
// One look costs at most settleLookProcs processes and settleLookTasks
// threads, whatever the engine spawns: a single-threaded engine is two
// small reads (its stat and its children); an engine of 20,000 threads is
// looked at through its first threads only, so that what it spawns costs
// the arbiter a bounded amount (about what 32 threads cost, on probation or
// where it is settled; nothing otherwise). The processes are the leader
// and the children of each one's main thread, which is how a sandbox
// launcher (bwrap) leads to the engine it runs.
const (
	settleCPU       = 2 * time.Millisecond
	settleWait      = time.Second
	settlePoll      = 50 * time.Microsecond // then twice as long each time, up to settlePollMax
	settlePollMax   = time.Millisecond
	settleQuick     = settleCPU / 4 // a thread that finishes in this much CPU was finishing its answer
	settleLookProcs = 8
	settleLookTasks = 32
)

// settle waits until the engine's threads are all off the processor, until
// the engine has run cpuMax meanwhile (0: no bound), or until limit. It
// reports whether it waited (it found a thread running), and whether a
// thread other than its process's main one (which reads the commands, as a
// rule) was busy and the engine then settled quickly
// (settleQuick): it was still finishing its answer, rather than pondering
// or searching on (which the CPU bound ends) or only going back to its
// read.
func (p *proc) settle(limit time.Time, cpuMax time.Duration) (waited, finishing bool) {
	lk := lookers.Get().(*looker)
	defer lookers.Put(lk)
	lk.own = &p.leader
	defer func() { lk.own = nil }()
	busy, side, _ := lk.look(p.pid, false)
	p.threaded = p.threaded || lk.many // held.go
	if !busy {
		return false, false
	}
	_, _, cpu0 := lk.look(p.pid, true)
	for pause := settlePoll; p.alive() && time.Now().Before(limit); pause = min(2*pause, settlePollMax) {
		time.Sleep(pause)
		b, s, cpu := lk.look(p.pid, true)
		side = side || s
		if !b {
			return true, side && cpu-cpu0 < settleQuick
		}
		if cpuMax > 0 && cpu-cpu0 >= cpuMax {
			return true, false
		}
	}
	return true, false
}

// probation is how many commands each engine is settled before whatever
// it showed: one that is still finishing its answer on a thread of its
// own when a command comes then shows the habit without losing a command
// (an engine that only drops a command now and then, as Rapfi does, may
// first do so later; the habit is learned then). A single-threaded engine
// cannot have it: the thread that answered is the one that reads.
const probation = 64

// settleBefore settles the engine before a command when it is to be
// settled, learning the habit from an engine found finishing its answer.
// It reports whether it waited (found the engine busy).
func (e *Engine) settleBefore(p *proc, limit time.Time) (waited bool) {
	if settle, onProbation := e.settles(); settle && !(onProbation && p.lone()) {
		var finishing bool
		if waited, finishing = p.settle(limit, settleCPU); finishing && !e.habit {
			e.learn()
		}
	}
	p.freeIfThreaded() // held.go
	return waited
}

// lone reports whether the engine's leader runs one thread and has no
// child (see probation).
func (p *proc) lone() bool {
	lk := lookers.Get().(*looker)
	defer lookers.Put(lk)
	return p.leader.lone(lk, p.pid)
}

// looker reads /proc files into one buffer, without allocating a file
// object for each.
type looker struct {
	buf  [4096]byte
	path []byte
	own  *leaderFiles // the engine's leader's files, held open; nil: none
	many bool         // the last look found a process running more than one thread (held.go)
}

// leaderFiles are an engine leader's /proc files that every look reads,
// opened at its first look and held open until the process is killed:
// a look then reads them with one pread(2) each, rather than an open,
// read and close by path (the path lookup is most of a look's cost). Read
// after the process is gone they fail (ESRCH), where a path could name a
// process that reused its id.
type leaderFiles struct {
	mu     sync.Mutex
	fds    [3]int // leaderStat, leaderSchedstat, leaderChildren; -1 when not open
	task   int    // the leader's task folder (lone); -1 when not open
	opened bool
	closed bool
	// kids are the children files of the leader's first threads
	// (threadChildren), listed when its thread count was kidsThreads.
	kids        []int
	kidsOpen    bool
	kidsThreads int
}

const (
	leaderStat = iota
	leaderSchedstat
	leaderChildren
)

var leaderNames = [3]string{"/stat", "/schedstat", "/children"}

// read reads the leader's file which (pid is the leader's) into lk.buf.
func (lf *leaderFiles) read(lk *looker, pid string, which int) []byte {
	lf.mu.Lock()
	defer lf.mu.Unlock()
	if lf.closed {
		return nil
	}
	lf.open(pid)
	fd := lf.fds[which]
	if fd < 0 {
		return nil
	}
	n, err := syscall.Pread(fd, lk.buf[:], 0)
	if err != nil || n <= 0 {
		return nil
	}
	return lk.buf[:n]
}

// open opens the files at the first look (lf.mu held).
func (lf *leaderFiles) open(pid string) {
	if lf.opened {
		return
	}
	lf.opened = true
	for i, name := range leaderNames {
		lf.fds[i] = -1
		if fd, err := syscall.Open("/proc/"+pid+"/task/"+pid+name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0); err == nil {
			lf.fds[i] = fd
		}
	}
	lf.task = -1
	if fd, err := syscall.Open("/proc/"+pid+"/task", syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0); err == nil {
		lf.task = fd
	}
}

// lone reports whether the leader (whose id is pid) runs one thread, by
// its task folder's link count, and has no child. False when either cannot
// be read.
func (lf *leaderFiles) lone(lk *looker, pid int) bool {
	lf.mu.Lock()
	defer lf.mu.Unlock()
	if lf.closed {
		return false
	}
	if !lf.opened {
		lf.open(strconv.Itoa(pid))
	}
	var st syscall.Stat_t
	if lf.task < 0 || lf.fds[leaderChildren] < 0 || syscall.Fstat(lf.task, &st) != nil || st.Nlink != 2+1 {
		return false
	}
	n, err := syscall.Pread(lf.fds[leaderChildren], lk.buf[:], 0)
	return err == nil && n == 0
}

// threadChildren passes each children file of the leader's first max
// threads (pid is the leader's, threads its thread count now), read into
// lk.buf, to each: a process with many threads is read with one pread(2) a
// thread, not a listing of its threads and an open, read and close of each
// by path. The threads are listed again whenever their count has changed
// since (a thread ended or began: the children of one that ended go to
// another) or a file fails. each may see a file twice.
func (lf *leaderFiles) threadChildren(lk *looker, pid string, threads, max int, each func([]byte)) {
	lf.mu.Lock()
	defer lf.mu.Unlock()
	if lf.kidsOpen && lf.kidsThreads != threads {
		lf.closeKids()
	}
	for range 2 {
		if lf.closed {
			return
		}
		if !lf.kidsOpen {
			lf.kidsOpen, lf.kidsThreads = true, threads
			for _, tid := range taskIDs(pid, max) {
				if fd, err := syscall.Open("/proc/"+pid+"/task/"+tid+"/children", syscall.O_RDONLY|syscall.O_CLOEXEC, 0); err == nil {
					lf.kids = append(lf.kids, fd)
				}
			}
		}
		ended := false
		for _, fd := range lf.kids {
			n, err := syscall.Pread(fd, lk.buf[:], 0)
			if err != nil {
				ended = true
				break
			}
			if n > 0 {
				each(lk.buf[:n])
			}
		}
		if !ended {
			return
		}
		lf.closeKids() // and list them again
	}
}

// closeKids closes the threads' children files (lf.mu held).
func (lf *leaderFiles) closeKids() {
	for _, fd := range lf.kids {
		syscall.Close(fd)
	}
	lf.kids, lf.kidsOpen = lf.kids[:0], false
}

// close closes the files for good (the process is being killed).
func (lf *leaderFiles) close() {
	lf.mu.Lock()
	defer lf.mu.Unlock()
	lf.closed = true
	if lf.opened {
		for _, fd := range lf.fds {
			if fd >= 0 {
				syscall.Close(fd)
			}
		}
		if lf.task >= 0 {
			syscall.Close(lf.task)
		}
	}
	lf.closeKids()
}

// leaderRead reads file which of process pid: through lk.own when pid is
// the engine's leader, by path otherwise.
func (lk *looker) leaderRead(pid string, leader bool, which int) []byte {
	if leader && lk.own != nil {
		return lk.own.read(lk, pid, which)
	}
	return lk.read("/proc/", pid, "/task/", pid, leaderNames[which])
}

// lookers are kept for reuse: a look would otherwise allocate its buffer.
var lookers = sync.Pool{New: func() any { return new(looker) }}

// read reads the start of a /proc file; nil when it cannot.
func (lk *looker) read(parts ...string) []byte {
	lk.path = lk.path[:0]
	for _, s := range parts {
		lk.path = append(lk.path, s...)
	}
	fd, err := syscall.Open(string(lk.path), syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	n, err := syscall.Read(fd, lk.buf[:])
	syscall.Close(fd)
	if err != nil || n <= 0 {
		return nil
	}
	return lk.buf[:n]
}

// look reports whether any thread it reaches (processes and threads as the
// bounds above say) is running or ready to run, and, with cpu, the
// processor time those threads have used (schedstat, in nanoseconds).
// Best effort: what cannot be read counts as idle.
func (lk *looker) look(leader int, cpu bool) (busy, side bool, used time.Duration) {
	procs := [settleLookProcs]int{leader}
	n, tasks := 1, 0
	lk.many = false
	for i := 0; i < n; i++ {
		pid := strconv.Itoa(procs[i])
		st := lk.leaderRead(pid, i == 0, leaderStat) // the main thread's: /proc/PID/stat sums every thread's times
		state, threads := statFields(st)
		if state == 0 {
			continue
		}
		lk.many = lk.many || threads > 1
		if threads <= 1 || tasks >= settleLookTasks {
			// One thread (or no budget left for a walk): the process's
			// own stat says all there is.
			tasks++
			busy = busy || working(state)
			if cpu {
				used += schedstat(lk.leaderRead(pid, i == 0, leaderSchedstat))
			}
		} else {
			for _, tid := range taskIDs(pid, settleLookTasks-tasks) {
				tasks++
				if s, _ := statFields(lk.read("/proc/", pid, "/task/", tid, "/stat")); working(s) {
					busy, side = true, side || tid != pid
				}
				if cpu {
					used += schedstat(lk.read("/proc/", pid, "/task/", tid, "/schedstat"))
				}
			}
		}
		for _, c := range fieldsOf(lk.leaderRead(pid, i == 0, leaderChildren)) {
			if n == len(procs) {
				break
			}
			if id, err := strconv.Atoi(c); err == nil {
				procs[n] = id
				n++
			}
		}
	}
	return busy, side, used
}

// working reports whether a thread in state (of its stat) is busy with
// something: running or ready to run (R), or in an uninterruptible wait
// (D), which a thread waiting for input never is (a read of a pipe sleeps
// interruptibly, S).
func working(state byte) bool { return state == 'R' || state == 'D' }

// statFields takes a /proc/PID/task/TID/stat line apart: "pid (comm) S ..." with comm
// holding any bytes, so the state is the field after the last ')'; the
// thread count is field 20.
func statFields(b []byte) (state byte, threads int) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) {
		return 0, 0
	}
	state = b[i+2]
	f := bytes.Fields(b[i+2:])
	if len(f) > 17 {
		threads, _ = strconv.Atoi(string(f[17]))
	}
	return state, threads
}

func schedstat(b []byte) time.Duration {
	if i := bytes.IndexByte(b, ' '); i > 0 {
		ns, _ := strconv.ParseInt(string(b[:i]), 10, 64)
		return time.Duration(ns)
	}
	return 0
}

func fieldsOf(b []byte) []string {
	var out []string
	for _, f := range bytes.Fields(b) {
		out = append(out, string(f))
	}
	return out
}

// taskIDs lists at most max thread ids of process pid, in the order the
// kernel gives them (the main thread first): one read of the directory,
// however many threads it holds.
func taskIDs(pid string, max int) []string {
	if max <= 0 {
		return nil
	}
	fd, err := syscall.Open("/proc/"+pid+"/task", syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	defer syscall.Close(fd)
	// A small buffer: the kernel makes an inode for every entry it
	// lists, which costs far more than the read (about 10 µs each).
	var buf [512]byte
	var ids []string
	for len(ids) < max {
		n, err := syscall.ReadDirent(fd, buf[:min(len(buf), 32*(max-len(ids)+2))])
		if err != nil || n <= 0 {
			break
		}
		_, _, names := syscall.ParseDirent(buf[:n], max-len(ids), nil)
		ids = append(ids, names...)
	}
	return ids
}

// habits are the programs that have dropped or refused a command in this
// arbiter, by program and arguments: every engine running one is settled
// before its commands, so that the arena learns the habit once, and not
// once per table or per game.
var habits sync.Map

// settles reports whether the engine is to be settled before a command,
// and whether only because it is on probation (its program has shown no
// habit, in this engine or another, and it is not under freeze_idle).
func (e *Engine) settles() (settle, onProbation bool) {
	if e.spec.Limits.FreezeIdle || e.habit {
		return true, false
	}
	if _, learned := habits.Load(e.program()); learned {
		e.habit = true
		return true, false
	}
	if e.commands < probation {
		e.commands++
		return true, true
	}
	return false, false
}

// learn records that the engine's program drops or refuses commands.
func (e *Engine) learn() {
	e.habit = true
	habits.Store(e.program(), true)
}

// program is the key of e's program in habits: its path and arguments,
// made once (settles looks it up on every command).
func (e *Engine) program() string {
	if e.programKey == "" {
		e.programKey = e.path + "\x00" + strings.Join(e.args, "\x00")
	}
	return e.programKey
}

// droppedLine finds the line of wire that an engine's ERROR or UNKNOWN
// line text says it did not take as written: the engine dropped the
// line's first word (its command) and read the word after it as a command
// of its own, so that text names that word and not the command. For a
// one-word command (BOARD, SWAP2BOARD) the word after it is the next
// line's. It returns the dropped line's offset in wire, or -1. A value
// named (Rapfi's "ERROR Unknown command: FREESTYLE" for "INFO rule_name
// freestyle", the key being unknown to it) is not a drop: it is the third
// word.
func droppedLine(text string, wire []byte) int {
	lines := bytes.SplitAfter(wire, []byte("\n"))
	off := 0
	for i, line := range lines {
		f := bytes.Fields(line)
		var after []byte
		switch {
		case len(f) >= 2:
			after = f[1]
		case len(f) == 1 && i+1 < len(lines):
			if nf := bytes.Fields(lines[i+1]); len(nf) > 0 {
				after = nf[0]
			}
		}
		if after != nil && namesWord(text, string(after)) && !namesWord(text, string(f[0])) {
			return off
		}
		off += len(line)
	}
	return -1
}
