package engine

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// Program is a program started the way an engine process is, for a caller
// that speaks to it itself: `arena connect` runs an entrant's engine on the
// entrant's machine and relays its lines to the event's server, which plays
// the protocol through its own Engine. The containment is an engine's (its
// own process group with Pdeathsig SIGKILL, its own PID namespace where the
// kernel allows, see Processes in the package comment), so nothing it
// starts outlives Kill or its caller; the protocol, the deadlines and the
// limits are the server's business, not the Program's.
type Program struct {
	g *group
	// Stdin, Stdout and Stderr are the caller's ends of the program's
	// pipes; Kill closes them.
	Stdin          *os.File
	Stdout, Stderr *os.File
}

// StartProgram starts path with args in dir ("" the current directory; a
// relative path is taken from there) and the caller's environment.
func StartProgram(path string, args []string, dir string) (*Program, error) {
	var ends [6]*os.File // stdin r/w, stdout r/w, stderr r/w
	for i := 0; i < len(ends); i += 2 {
		r, w, err := os.Pipe()
		if err != nil {
			closeAll(ends[:i]...)
			return nil, err
		}
		ends[i], ends[i+1] = r, w
	}
	becomeSubreaper()
	g, err := startGroup(path, args, dir, false, nil, [3]*os.File{ends[0], ends[3], ends[5]}, nil, 0, nil)
	closeAll(ends[0], ends[3], ends[5]) // the child holds its own copies
	if err != nil {
		closeAll(ends[1], ends[2], ends[4])
		return nil, err
	}
	return &Program{g: g, Stdin: ends[1], Stdout: ends[2], Stderr: ends[4]}, nil
}

// Wait waits for the program to exit and says how: its exit code (minus
// the signal's number when a signal ended it) and the detail ("exit status
// 3", "signal: killed").
func (p *Program) Wait() (code int, detail string) {
	<-p.g.exited
	var ee *exec.ExitError
	if errors.As(p.g.waitErr, &ee) {
		code = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			code = -int(ws.Signal())
		}
	}
	return code, p.g.exitDetail()
}

// Kill kills the program and everything it started, reaps them and closes
// the pipes. It returns within about twice reapWait.
func (p *Program) Kill() {
	p.g.signal()
	p.g.reap()
	closeAll(p.Stdin, p.Stdout, p.Stderr)
}
