package engine

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// reapWait bounds how long Kill and Close wait for a killed group to vanish.
const reapWait = 700 * time.Millisecond

var subreaperOnce sync.Once

// becomeSubreaper makes orphaned engine helpers our children, so that killing
// a group can also reap it. Failure only means orphans go to PID 1.
func becomeSubreaper() {
	subreaperOnce.Do(func() { _ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) })
}

// noPidNamespace is set once starting an engine in a PID namespace failed.
var noPidNamespace atomic.Bool

// pidNamespace asks for a new PID namespace for the engine, where it is
// process 1: when it dies, for whatever reason, the kernel kills every
// process it started, even those that left its process group. With
// Pdeathsig on the engine, that makes the arbiter's own death (even by
// SIGKILL) take down the whole tree. It needs CAP_SYS_ADMIN; without it,
// engines run without a namespace and only their group is reached.
func pidNamespace() uintptr {
	if noPidNamespace.Load() {
		return 0
	}
	return syscall.CLONE_NEWPID
}

// proc is one running engine process and its pipes.
type proc struct {
	cmd     *exec.Cmd
	pid     int // also the process group id
	stdin   *os.File
	stdout  *os.File // read ends, closed after the group is gone
	stderr  *os.File
	out     *outQueue
	exited  chan struct{} // closed once the leader has been reaped
	waitErr error         // valid after exited
	started bool          // START was answered OK in this process
	frozen  bool          // stopped by Freeze (guarded by Engine.mu)
	cgroup  string        // its pids cgroup, removed by kill (limits.go)
}

// spawn starts path in its own process group with fresh pipes and begins
// draining its output.
func spawn(path string, args []string, dir string, env []string, errRing *ring) (*proc, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW)
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW, outR, outW)
		return nil, err
	}
	cmd := exec.Command(path, args...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL, Cloneflags: pidNamespace()}
	err = cmd.Start()
	if err != nil && cmd.SysProcAttr.Cloneflags != 0 && (errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EINVAL)) {
		// No right to make namespaces here: run without one.
		noPidNamespace.Store(true)
		cmd = exec.Command(path, args...)
		cmd.Dir, cmd.Env = dir, env
		cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
		err = cmd.Start()
	}
	closeAll(inR, outW, errW) // the child holds its own copies
	if err != nil {
		closeAll(inW, outR, errR)
		return nil, err
	}
	p := &proc{cmd: cmd, pid: cmd.Process.Pid, stdin: inW, stdout: outR, stderr: errR,
		out: newOutQueue(), exited: make(chan struct{})}
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	go drainStdout(outR, p.out)
	go drainStderr(errR, errRing)
	return p, nil
}

func closeAll(fs ...*os.File) {
	for _, f := range fs {
		f.Close()
	}
}

func (p *proc) alive() bool {
	select {
	case <-p.exited:
		return false
	default:
		return true
	}
}

// exitDetail describes how the process ended, for Reply.Detail.
func (p *proc) exitDetail() string {
	select {
	case <-p.exited:
	default:
		return "stdout closed"
	}
	if p.waitErr == nil {
		return "exit status 0"
	}
	var ee *exec.ExitError
	if errors.As(p.waitErr, &ee) {
		return ee.Error() // "exit status 3", "signal: killed"
	}
	return p.waitErr.Error()
}

// write writes s to stdin, giving up at deadline. A full pipe (an engine that
// does not read) is a timeout; a closed one is an exit.
func (p *proc) write(b []byte, deadline time.Time) (Fault, string) {
	if err := p.stdin.SetWriteDeadline(deadline); err != nil {
		return FaultExit, "stdin: " + err.Error()
	}
	_, err := p.stdin.Write(b)
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
	case <-time.After(exitLinger):
		return FaultExit, "stdin: " + err.Error()
	}
}

// kill sends SIGKILL to the whole group, waits for the leader, reaps any
// orphaned members and closes the pipes. It returns within about reapWait.
func (p *proc) kill() {
	_ = syscall.Kill(-p.pid, syscall.SIGKILL)
	select {
	case <-p.exited:
	case <-time.After(reapWait):
	}
	p.reapGroup(time.Now().Add(300 * time.Millisecond))
	removeCgroup(p.cgroup)
	closeAll(p.stdin, p.stdout, p.stderr)
}

// reapGroup reaps members of the group re-parented to us (we are a
// subreaper) until the group is gone or the deadline passes. It must only run
// after the leader has been reaped, or it would steal its status from Wait.
func (p *proc) reapGroup(deadline time.Time) {
	if p.alive() {
		return
	}
	for {
		var ws syscall.WaitStatus
		if pid, _ := syscall.Wait4(-p.pid, &ws, syscall.WNOHANG, nil); pid > 0 {
			continue
		}
		if errors.Is(syscall.Kill(-p.pid, 0), syscall.ESRCH) || time.Now().After(deadline) {
			return
		}
		_ = syscall.Kill(-p.pid, syscall.SIGKILL) // a member forked after the first signal
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
