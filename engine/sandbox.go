package engine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Sandbox runs an engine inside bubblewrap (bwrap, the Debian package
// bubblewrap), which must be installed; Bwrap finds and checks it.
//
// What a sandboxed engine sees:
//   - the whole file system read-only, except what follows;
//   - its working directory, read-write (the only place it can write that
//     outlives it);
//   - a private, empty /tmp (writable, gone with the engine), its own /dev
//     (null, zero, full, random, urandom, tty, shm) and its own /proc that
//     shows only its own processes;
//   - in place of each folder in Hide (the event's output folder, the other
//     engines' working directories and program folders), an empty folder;
//     its own program's folder and working directory are put back on top;
//   - no network but its own loopback, no SysV IPC shared with the machine,
//     its own hostname, a new session (no controlling terminal to type
//     into), no capabilities even when the arbiter runs as root.
//
// What it can still see: everything else that is readable (system files,
// /home, other events' folders not in Hide). Two engines whose programs
// share one folder cannot be hidden from each other: give each its folder.
type Sandbox struct {
	Bwrap string   // path of the bwrap program (see Bwrap)
	Hide  []string // folders replaced by an empty one
}

var bwrapOnce struct {
	sync.Once
	path string
	err  error
}

// Bwrap finds bubblewrap and checks once that it can make the namespaces the
// sandbox needs on this machine. The error says what to do.
func Bwrap() (string, error) {
	bwrapOnce.Do(func() {
		p, err := exec.LookPath("bwrap")
		if err != nil {
			bwrapOnce.err = fmt.Errorf("sandbox: bubblewrap (bwrap) is not installed; install it (Debian, Ubuntu: apt-get install bubblewrap) or set sandbox = \"none\"")
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		args := append(baseArgs(), "--", "true")
		cmd := exec.CommandContext(ctx, p, args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			bwrapOnce.err = fmt.Errorf("sandbox: %s does not work here (%v: %s); set sandbox = \"none\" to run engines unconfined",
				p, err, strings.TrimSpace(stderr.String()))
			return
		}
		bwrapOnce.path = p
	})
	return bwrapOnce.path, bwrapOnce.err
}

func baseArgs() []string {
	return []string{
		"--ro-bind", "/", "/",
		"--dev", "/dev",
		"--proc", "/proc",
		"--tmpfs", "/tmp",
		"--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
		"--die-with-parent", "--new-session", "--cap-drop", "ALL",
	}
}

// command is the bwrap command line that runs path with args in dir.
func (s *Sandbox) command(path string, args []string, dir string) (string, []string) {
	a := baseArgs()
	for _, h := range s.Hide {
		if h, err := filepath.Abs(h); err == nil && isDir(h) && h != "/" {
			a = append(a, "--tmpfs", h)
		}
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	a = append(a, "--ro-bind", filepath.Dir(path), filepath.Dir(path))
	a = append(a, "--bind", dir, dir, "--chdir", dir, "--", path)
	return s.Bwrap, append(a, args...)
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
