package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Sandbox runs an engine inside bubblewrap (bwrap, the Debian package
// bubblewrap, 0.5 or later), which must be installed; Bwrap finds and
// checks it.
//
// What a sandboxed engine sees, and nothing else:
//   - the system's programs and libraries, read-only: /usr, /bin, /sbin,
//     /lib*, /etc (links where the system has links);
//   - its own program's folder, read-only;
//   - its working directory, read-write (the only place it can write that
//     outlives it);
//   - a private /tmp and /dev/shm, each a tmpfs of at most Limits.Memory
//     whose use counts as the engine's memory and which goes with it; its
//     own read-only /dev (null, zero, full, random, urandom, tty) and its
//     own /proc that shows only its own processes;
//   - in place of each of Hide, HideBelow, RivalDirs and RivalPrograms
//     that lies inside its program's folder or working directory, an empty
//     folder (or file), read-only.
//
// It has no network but its own loopback, no SysV IPC shared with the
// machine, its own hostname, a new session (no controlling terminal to type
// into), and no capabilities even when the arbiter runs as root (it still
// runs as the arbiter's user: as root it can read what root can in /etc).
//
// A layout that cannot be contained is refused (Check): a program in /, a
// working directory that is, holds or lies in a system folder,
// a program folder or working directory that is one of Hide, or that is (or
// is inside) one of RivalDirs, or a program folder that is one of
// RivalPrograms (two engines whose programs share a folder). Its program's
// folder may lie anywhere else: inside the output folder, or above it with
// the output folder hidden.
type Sandbox struct {
	Bwrap string // path of the bwrap program (see Bwrap)
	// Hide are folders and files the engine must not see: the event's
	// output folder, the config file, the users' homes.
	Hide []string
	// HideBelow are folders whose contents the engine must not see where
	// they lie inside its own folders, but which may be its program folder
	// itself: the config's folder (the config file is in Hide).
	HideBelow []string
	// RivalDirs are the other engines' working directories: hidden too, and
	// the engine's own folders must not be in one (its owner could write
	// there).
	RivalDirs []string
	// RivalPrograms are the other engines' program folders: hidden too, and
	// the engine's own program folder must not be one (they could not be
	// hidden from each other).
	RivalPrograms []string
}

var bwrapOnce struct {
	sync.Once
	path string
	err  error
}

// Bwrap finds bubblewrap and checks once that it can make the namespaces and
// mounts the sandbox needs on this machine. The error says what to do.
func Bwrap() (string, error) {
	bwrapOnce.Do(func() {
		p, err := exec.LookPath("bwrap")
		if err != nil {
			bwrapOnce.err = fmt.Errorf("sandbox: bubblewrap (bwrap) is not installed; install it (Debian, Ubuntu: apt-get install bubblewrap) or set sandbox = \"none\"")
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		args := append(systemArgs(1<<20), "--", "true")
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

// systemFolders are what the system needs to run programs.
var systemFolders = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"}

// systemArgs make the sandbox's system part: read-only system folders, its
// own /dev, /proc, and /tmp and /dev/shm of at most tmpMax bytes each (0:
// the kernel's default, half the memory).
func systemArgs(tmpMax int64) []string {
	a := []string{"--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
		"--die-with-parent", "--new-session", "--cap-drop", "ALL"}
	for _, d := range systemFolders {
		st, err := os.Lstat(d)
		switch {
		case err != nil:
		case st.Mode()&os.ModeSymlink != 0:
			if to, err := os.Readlink(d); err == nil {
				a = append(a, "--symlink", to, d)
			}
		case st.IsDir():
			a = append(a, "--ro-bind", d, d)
		}
	}
	a = append(a, "--dev", "/dev", "--proc", "/proc")
	for _, d := range []string{"/tmp", "/dev/shm"} {
		if tmpMax > 0 {
			a = append(a, "--size", strconv.FormatInt(tmpMax, 10))
		}
		a = append(a, "--tmpfs", d)
	}
	return a
}

// command is the bwrap command line that runs path with args in dir, with
// private tmpfs of at most tmpMax bytes.
func (s *Sandbox) command(path string, args []string, dir string, tmpMax int64) (string, []string, error) {
	own, err := s.plan(path, dir, true)
	if err != nil {
		return "", nil, err
	}
	a := append(systemArgs(tmpMax), own...)
	// Nothing else is writable: the sandbox's root and /dev are tmpfs that
	// would hold what the engine wrote there, uncounted.
	a = append(a, "--remount-ro", "/dev", "--remount-ro", "/", "--chdir", realPath(dir), "--", realPath(path))
	return s.Bwrap, append(a, args...), nil
}

// Check reports whether the engine of spec can be contained by s (see
// Sandbox), without starting it: the arbiter checks every engine before an
// event begins.
func (s *Sandbox) Check(spec Spec) error {
	e := &Engine{spec: spec}
	if err := e.resolve(); err != nil {
		return startError(spec.Name, spec.Command, err)
	}
	dir := spec.Dir
	if dir == "" {
		dir = os.TempDir()
	}
	if _, err := s.plan(e.path, dir, false); err != nil {
		return fmt.Errorf("engine %q: %w", spec.Name, err)
	}
	return nil
}

// plan is the bwrap arguments that show the engine its program's folder and
// its working directory, and hide what must be hidden inside them; make
// creates a folder to hide that does not exist yet (another engine's
// working directory, say), which would otherwise appear in view later.
func (s *Sandbox) plan(path, dir string, make bool) ([]string, error) {
	prog, work := filepath.Dir(realPath(path)), realPath(dir)
	if prog == "/" {
		return nil, fmt.Errorf("sandbox: the program %s is in /, which holds everything; give it a folder of its own", path)
	}
	for _, d := range append([]string{"/proc", "/dev", "/sys"}, systemFolders...) {
		if within(d, work) || within(work, d) {
			return nil, fmt.Errorf("sandbox: the engine's working directory %s would make %s writable; give it a folder of its own", work, d)
		}
	}
	for _, h := range s.Hide {
		h = realPath(h)
		for _, own := range []struct{ what, dir string }{{"program folder", prog}, {"working directory", work}} {
			if h == own.dir {
				return nil, fmt.Errorf("sandbox: the engine's %s %s is a folder it must not see (the event's output folder, say); give it a folder of its own", own.what, own.dir)
			}
		}
	}
	for _, r := range s.RivalDirs {
		r = realPath(r)
		for _, own := range []struct{ what, dir string }{{"program folder", prog}, {"working directory", work}} {
			if within(own.dir, r) {
				return nil, fmt.Errorf("sandbox: the engine's %s %s is inside another engine's working directory %s; give each engine a folder of its own", own.what, own.dir, r)
			}
		}
	}
	for _, r := range s.RivalPrograms {
		if r = realPath(r); r == prog {
			return nil, fmt.Errorf("sandbox: the engine's program folder %s also holds another engine's program; give each engine a folder of its own", prog)
		}
	}
	type mount struct {
		at   string
		args []string
	}
	ms := []mount{{prog, []string{"--ro-bind", prog, prog}}}
	if work != prog {
		ms = append(ms, mount{work, []string{"--bind", work, work}})
	}
	var readOnly []string
	for _, h := range append(append(append(append([]string(nil), s.Hide...), s.HideBelow...), s.RivalDirs...), s.RivalPrograms...) {
		h = realPath(h)
		if h == prog || h == work || !within(h, prog) && !within(h, work) {
			continue
		}
		st, err := os.Stat(h)
		switch {
		case err == nil && !st.IsDir():
			ms = append(ms, mount{h, []string{"--ro-bind", "/dev/null", h}})
			continue
		case errors.Is(err, os.ErrNotExist) && make:
			if err := os.MkdirAll(h, 0o755); err != nil {
				return nil, fmt.Errorf("sandbox: hiding %s: %w", h, err)
			}
		}
		ms = append(ms, mount{h, []string{"--perms", "0555", "--tmpfs", h}})
		readOnly = append(readOnly, h)
	}
	// Outer folders first, so that inner ones are mounted on top.
	sort.SliceStable(ms, func(i, j int) bool { return depth(ms[i].at) < depth(ms[j].at) })
	var a []string
	for _, m := range ms {
		a = append(a, m.args...)
	}
	for _, h := range readOnly {
		a = append(a, "--remount-ro", h)
	}
	return a, nil
}

func depth(p string) int { return strings.Count(p, string(filepath.Separator)) }

// realPath is p absolute and clean with the symbolic links of its longest
// existing part resolved (a folder not made yet keeps its name).
func realPath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	rest := ""
	for cur := abs; ; cur = filepath.Dir(cur) {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(r, rest)
		}
		if cur == "/" || cur == "." {
			return abs
		}
		rest = filepath.Join(filepath.Base(cur), rest)
	}
}
