package engine

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// reapWait bounds how long Kill and Close wait for a killed leader, and then
// for the rest of its group, to vanish. A killed process normally goes in
// microseconds; the bound is for a machine so loaded that a dying process
// waits for a processor (0.7 s was seen to be too short at a load of 20),
// and for one stuck in the kernel, which nothing can end sooner.
const reapWait = 5 * time.Second

var subreaperOnce sync.Once

// becomeSubreaper makes orphaned engine helpers our children, so that killing
// a group can also reap it. Failure only means orphans go to PID 1.
func becomeSubreaper() {
	subreaperOnce.Do(func() { _ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) })
}

// namespaces is how engines are isolated from the arbiter's processes, from
// the most to the least contained. Each engine is its PID namespace's process
// 1: when it dies, for whatever reason, the kernel kills every process it
// started, even those that left its process group. With Pdeathsig on the
// engine, that makes the arbiter's own death (even by SIGKILL) take down the
// whole tree.
type namespaces int32

const (
	// pidNS needs CAP_SYS_ADMIN (root).
	pidNS namespaces = iota
	// userPidNS makes a user namespace first, which an ordinary user may
	// where the kernel allows it (user.max_user_namespaces > 0, and on
	// Debian kernels before 6.x kernel.unprivileged_userns_clone = 1; no
	// AppArmor or seccomp rule against it), and the PID namespace inside it.
	// The user's uid and gid are mapped to themselves, so the engine runs
	// with the arbiter's own ids and, having exec'd as a non-zero uid,
	// without capabilities even in its namespace; the arbiter signals,
	// measures and limits it as before.
	userPidNS
	// noNS: only the engine's process group is reached; helpers that left
	// it outlive a SIGKILLed arbiter.
	noNS
)

func (ns namespaces) String() string {
	return [...]string{"pid", "user+pid", "none"}[ns]
}

// namespacesFrom is the most containment not yet refused by the kernel. It
// only grows: once a start with more containment failed for want of the
// right and one with less then succeeded, later engines start with less.
var namespacesFrom atomic.Int32

// settle remembers that starts with more containment than ns are refused.
func (ns namespaces) settle() {
	for {
		old := namespacesFrom.Load()
		if old >= int32(ns) || namespacesFrom.CompareAndSwap(old, int32(ns)) {
			return
		}
	}
}

// sysProcAttr is how an engine process is started with ns.
func (ns namespaces) sysProcAttr() *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	switch ns {
	case pidNS:
		a.Cloneflags = syscall.CLONE_NEWPID
	case userPidNS:
		a.Cloneflags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWPID
		a.UidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}}
		a.GidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}}
		a.GidMappingsEnableSetgroups = false // required of an unprivileged mapper
	}
	return a
}

// refusal reports whether a start with namespaces may have failed for want
// of the right to make them, rather than for the program itself: EPERM (no
// capability, a disabled sysctl, AppArmor, seccomp), EINVAL (no kernel
// support), ENOSPC and EUSERS (max_user_namespaces, nesting depth), EACCES.
func refusal(err error) bool {
	for _, e := range []syscall.Errno{syscall.EPERM, syscall.EINVAL, syscall.ENOSPC, syscall.EUSERS, syscall.EACCES} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// group is a started process: the leader of its own process group, and
// process 1 of its own PID namespace where the kernel allowed one (ns).
type group struct {
	cmd     *exec.Cmd
	pid     int           // also the process group id
	exited  chan struct{} // closed once the leader has been reaped
	waitErr error         // valid after exited
	ns      namespaces    // how it was started
	// exit is a pidfd of the leader, readable once it has exited, closed
	// once it is reaped (its users hold it through its RawConn
	// meanwhile); nil where the kernel gives none.
	exit *os.File
}

// startGroup starts path the way every engine process starts: in its own
// process group with Pdeathsig SIGKILL, in the most containment the kernel
// allows (namespaces), where it may with its own /tmp and /dev/shm of at
// most tmpMax bytes each (tmpfs.go), on the processors cpus (all when
// none). It starts in dir; scratch says dir is its own temporary folder,
// which nobody reads after it (startIn). stdio are the child's ends of its
// stdin, stdout and stderr; it inherits files as descriptors 3 on. The
// caller closes its copies of stdio once startGroup returns.
func startGroup(path string, args []string, dir string, scratch bool, env []string, stdio [3]*os.File, files []*os.File, tmpMax int64, cpus []int) (*group, error) {
	// Try the most containment the kernel allows, and remember a refusal
	// only once less containment worked: an error that every way gives is
	// the program's own (not executable, say).
	g := &group{exited: make(chan struct{})}
	first := namespaces(namespacesFrom.Load())
	var err error
	for g.ns = first; g.ns <= noNS; g.ns++ {
		g.cmd = exec.Command(path, args...)
		g.cmd.Dir, g.cmd.Env, g.cmd.ExtraFiles = dir, env, files
		g.cmd.Stdin, g.cmd.Stdout, g.cmd.Stderr = stdio[0], stdio[1], stdio[2]
		g.cmd.SysProcAttr = g.ns.sysProcAttr()
		err = startIn(g.ns, tmpMax, cpus, g.cmd, scratch)
		if err == nil && g.ns > first {
			g.ns.settle()
		}
		if err == nil || !refusal(err) {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	g.pid = g.cmd.Process.Pid
	// Opened before the reaper starts: until it reaps the leader, the id
	// cannot name another process.
	if fd, err := unix.PidfdOpen(g.pid, 0); err == nil {
		g.exit = os.NewFile(uintptr(fd), "pidfd") // close-on-exec, blocking: not in the network poller
	}
	go func() {
		g.waitErr = g.cmd.Wait()
		close(g.exited)
		if g.exit != nil {
			g.exit.Close()
		}
	}()
	return g, nil
}

// proc is one running engine process and its pipes.
type proc struct {
	*group
	stdin   *os.File
	stdinW  rawWriter   // writeNow's
	leader  leaderFiles // its leader's /proc files, for settle's looks (settle.go)
	stderr  *os.File    // read end, closed after the group is gone
	out     *stdout     // stdout's read end and its reading (stdout.go)
	started bool        // START was answered OK in this process
	frozen  bool        // stopped by Freeze (guarded by Engine.mu)
	cg      *cgroups    // its cgroups, removed by kill (cgroup.go)
	cgTried bool        // cg was attempted (it may be nil)
	// transcript sees the lines written and read (Spec.Transcript).
	transcript func(sent bool, line string)
	nproc      uint64 // its RLIMIT_NPROC, where it has no cgroup (limits.go)

	// stderrDone is closed once stderr is read to its end.
	stderrDone chan struct{}

	// held: on Spec.CPUs until seen running more than one thread
	// (threaded; held.go), last looked at then; short: with the short
	// slice until then.
	held, short, threaded bool
	looked                time.Time
}

// spawn starts path as an engine (startGroup) with fresh pipes and begins
// draining its output.
func spawn(path string, args []string, dir string, scratch bool, env []string, files []*os.File, tmpMax int64, cpus []int, errRing *ring, transcript func(pid int, sent bool, line string)) (*proc, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := stdoutPipe()
	if err != nil {
		closeAll(inR, inW)
		return nil, err
	}
	out, err := newStdout(outR)
	if err != nil {
		closeAll(inR, inW, outR, outW)
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW, outW)
		out.close()
		return nil, err
	}
	g, err := startGroup(path, args, dir, scratch, env, [3]*os.File{inR, outW, errW}, files, tmpMax, cpus)
	closeAll(inR, outW, errW) // the child holds its own copies
	if err != nil {
		closeAll(inW, errR)
		out.close()
		return nil, err
	}
	p := &proc{group: g, stdin: inW, stderr: errR, stderrDone: make(chan struct{})}
	if transcript != nil {
		pid := p.pid
		p.transcript = func(sent bool, line string) { transcript(pid, sent, line) }
	}
	p.out, out.transcript = out, p.transcript
	out.watch(g.exit)
	go drainStderr(errR, errRing, p.stderrDone)
	return p, nil
}

func closeAll(fs ...*os.File) {
	for _, f := range fs {
		f.Close()
	}
}

func (g *group) alive() bool {
	select {
	case <-g.exited:
		return false
	default:
		return true
	}
}

// exitDetail describes how the process ended, for Reply.Detail.
func (g *group) exitDetail() string {
	select {
	case <-g.exited:
	default:
		return "stdout closed"
	}
	if g.waitErr == nil {
		return "exit status 0"
	}
	var ee *exec.ExitError
	if errors.As(g.waitErr, &ee) {
		return ee.Error() // "exit status 3", "signal: killed"
	}
	return g.waitErr.Error()
}

// write writes s to stdin, giving up at deadline. A full pipe (an engine that
// does not read) is a timeout; a closed one is an exit.
func (p *proc) write(b []byte, deadline time.Time) (Fault, string) {
	// Transcribed before writing: the answer can be read (and transcribed)
	// before Write returns.
	if p.transcript != nil {
		for l := range strings.SplitSeq(strings.TrimSuffix(string(b), "\n"), "\n") {
			p.transcript(true, clip(l, transcriptLine))
		}
	}
	// A pipe with room takes b in one write(2) that cannot block (the
	// descriptor is non-blocking): no deadline, so no runtime timer, is
	// needed for it. Only what does not fit waits, under the deadline.
	n, err := p.writeNow(b)
	if err == nil && n < len(b) {
		if err = p.stdin.SetWriteDeadline(deadline); err != nil {
			return FaultExit, "stdin: " + err.Error()
		}
		_, err = p.stdin.Write(b[n:])
	}
	switch {
	case err == nil:
		return "", ""
	case errors.Is(err, os.ErrDeadlineExceeded):
		return FaultTimeout, "engine is not reading its input"
	}
	// A closed pipe usually means the process is exiting: wait a little
	// for its status, which says more than "broken pipe".
	select {
	case <-p.exited:
		return FaultExit, p.exitDetail()
	case <-time.After(exitStatusWait):
		return FaultExit, "stdin: " + err.Error()
	}
}

// writeNow writes what of b the stdin pipe takes at once, with one
// write(2) that does not block: n < len(b) with no error when the pipe is
// full (or has less room than b).
func (p *proc) writeNow(b []byte) (n int, err error) {
	w := &p.stdinW
	w.mu.Lock() // Close may write END from another goroutine
	defer w.mu.Unlock()
	if w.rc == nil { // first use, or a proc not made by spawn
		if w.rc, err = p.stdin.SyscallConn(); err != nil {
			return 0, err
		}
		w.fn = w.write
	}
	w.b = b
	err = w.rc.Control(w.fn)
	w.b = nil
	switch {
	case err != nil:
		return 0, err
	case w.err == syscall.EAGAIN:
		return 0, nil
	case w.err != nil:
		return 0, &os.PathError{Op: "write", Path: p.stdin.Name(), Err: w.err}
	}
	return w.n, nil
}

// rawWriter is writeNow's state, kept in the proc so that a write
// allocates nothing (a closure passed to Control would).
type rawWriter struct {
	mu  sync.Mutex
	rc  syscall.RawConn
	fn  func(fd uintptr) // write, as a value made once
	b   []byte
	n   int
	err error
}

func (w *rawWriter) write(fd uintptr) {
	for {
		w.n, w.err = rawWrite(int(fd), w.b)
		if w.err != syscall.EINTR {
			break
		}
	}
	if w.n < 0 {
		w.n = 0
	}
}

// kill sends SIGKILL to the whole group, waits for the leader, reaps any
// orphaned members and closes the pipes. It returns within about twice reapWait.
func (p *proc) kill() {
	p.signal()
	p.cg.kill() // also what left the group; frozen processes die only once thawed
	p.reap()
	p.leader.close()
	p.cg.remove()
	p.out.close()
	closeAll(p.stdin, p.stderr)
}

// signal sends SIGKILL to the whole group.
func (g *group) signal() { _ = syscall.Kill(-g.pid, syscall.SIGKILL) }

// reap waits for the killed leader, then reaps the rest of the group. It
// returns within about twice reapWait.
func (g *group) reap() {
	select {
	case <-g.exited:
	case <-time.After(reapWait):
	}
	g.reapGroup(time.Now().Add(reapWait))
}

// reapGroup reaps members of the group re-parented to us (we are a
// subreaper) until the group is gone or the deadline passes. It must only run
// after the leader has been reaped, or it would steal its status from Wait.
func (g *group) reapGroup(deadline time.Time) {
	if g.alive() {
		return
	}
	for {
		var ws syscall.WaitStatus
		if pid, _ := syscall.Wait4(-g.pid, &ws, syscall.WNOHANG, nil); pid > 0 {
			continue
		}
		if errors.Is(syscall.Kill(-g.pid, 0), syscall.ESRCH) || time.Now().After(deadline) {
			return
		}
		_ = syscall.Kill(-g.pid, syscall.SIGKILL) // a member forked after the first signal
		time.Sleep(2 * time.Millisecond)
	}
}

// startError names the engine and its command in a start failure:
// engine "alpha": command "./alpha": no such file or directory.
func startError(name, command string, err error) error {
	var pe *os.PathError
	var ee *exec.Error
	switch {
	case errors.As(err, &pe):
		err = pe.Err
	case errors.As(err, &ee):
		err = ee.Err
	}
	return fmt.Errorf("engine %q: command %q: %w", name, command, err)
}
