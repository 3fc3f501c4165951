package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"gomoku-arena/internal/durable"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
// What a sandboxed engine sees, and nothing else (View lists it):
//   - the system's programs and libraries, read-only: /usr, /bin, /sbin,
//     /lib*, /etc (links where the system has links);
//   - its own program, the file alone, read-only: never the rest of the
//     folder it sits in (the organizer's notes, other events, a TLS key);
//   - the files and folders its author declared it needs (Show: its
//     weights, its settings), read-only;
//   - its working directory, read-write (the only place it can write that
//     outlives it);
//   - a private /tmp and /dev/shm, each a tmpfs of at most Limits.Memory
//     whose use counts as the engine's memory and which goes with it; its
//     own read-only /dev (null, zero, full, random, urandom, tty) and its
//     own /proc that shows only its own processes;
//   - in place of each of Hide, RivalDirs and RivalFiles that lies inside
//     a folder it is shown, an empty folder (or file), read-only.
//
// It has no network but its own loopback, no SysV IPC shared with the
// machine, its own hostname, a new session (no controlling terminal to type
// into), no capabilities even when the arbiter runs as root (it still runs
// as the arbiter's user: as root it can read what root can in /etc), and
// the environment Environ gives every engine.
//
// A layout that cannot be contained is refused (Check): a working
// directory that is, holds or lies in a system folder; a folder shown that
// holds /proc, /dev or /sys; anything shown that is one of Hide, lies in
// one of RivalDirs (its owner could write there), or is or holds one of
// Private. Several engines may run one program (one file at several
// settings): each is shown the program read-only and its own working
// directory.
type Sandbox struct {
	Bwrap string // path of the bwrap program (see Bwrap)
	// Show are the files and folders beside its program that the
	// engine's author declared it needs (a weights folder, a settings
	// file), shown read-only at their own paths.
	Show []string
	// Hide are folders and files the engine must not see: the event's
	// output folder, the config file, the openings, the TLS key, the
	// users' homes. Hidden where they lie inside a folder it is shown;
	// nothing shown may be one of them.
	Hide []string
	// Private are folders nothing shown to the engine may be or hold: the
	// config's folder, which is the organizer's (notes, other events'
	// configs and journals).
	Private []string
	// RivalDirs are the other engines' working directories: hidden too, and
	// nothing shown to the engine may lie in one (its owner could write
	// there).
	RivalDirs []string
	// RivalFiles are the other engines' programs and declared files:
	// hidden where they lie inside a folder the engine is shown, unless
	// they are its own too (entrants that run one program).
	RivalFiles []string
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

// command is the bwrap command line that runs path with args in the
// working folder dir, which bwrap inherits as descriptor fd and binds by
// it (--bind-fd: the folder openWorkDir checked, whatever its path leads
// to now), with private tmpfs of at most tmpMax bytes.
func (s *Sandbox) command(path string, args []string, dir *os.File, fd int, tmpMax int64) (string, []string, error) {
	work := heldPath(dir)
	ms, err := s.mounts(path, work, true)
	if err != nil {
		return "", nil, err
	}
	a := systemArgs(tmpMax)
	var readOnly []string
	for _, m := range ms {
		switch {
		case m.access == ReadOnly:
			a = append(a, "--ro-bind", m.path, m.path)
		case m.access == ReadWrite && m.what == "working folder":
			a = append(a, "--bind-fd", strconv.Itoa(fd), m.path)
			work = m.path
		case m.access == ReadWrite:
			a = append(a, "--bind", m.path, m.path)
		case m.file:
			a = append(a, "--ro-bind", "/dev/null", m.path)
		default:
			a = append(a, "--perms", "0555", "--tmpfs", m.path)
			readOnly = append(readOnly, m.path)
		}
	}
	for _, h := range readOnly {
		a = append(a, "--remount-ro", h)
	}
	// Nothing else is writable: the sandbox's root and /dev are tmpfs that
	// would hold what the engine wrote there, uncounted.
	a = append(a, "--remount-ro", "/dev", "--remount-ro", "/", "--chdir", work, "--", realPath(path))
	return s.Bwrap, append(a, args...), nil
}

// Check reports whether the engine of spec can be contained by s (see
// Sandbox), without starting it: the arbiter checks every engine before an
// event begins.
func (s *Sandbox) Check(spec Spec) error {
	_, err := s.View(spec)
	return err
}

// Access is what an engine may do with a path.
type Access string

const (
	ReadOnly  Access = "read-only"
	ReadWrite Access = "read-write"
	Hidden    Access = "hidden" // an empty folder or file stands in its place
)

// Exposure is one path of what a sandbox shows an engine, or hides from it.
type Exposure struct {
	Path   string
	Access Access
	What   string // "program", "working folder", "declared", "system", "another engine's working folder"...
}

// View is what the sandbox shows the engine of spec and hides from it,
// path by path, outer paths first; nothing else of the machine's files is
// there. An error is a layout Check refuses. It starts nothing.
func (s *Sandbox) View(spec Spec) ([]Exposure, error) {
	e := &Engine{spec: spec}
	if err := e.resolve(); err != nil {
		return nil, startError(spec.Name, spec.Command, err)
	}
	dir := spec.Dir
	if dir == "" {
		// A folder of its own, as Start makes one for each process: not
		// the temporary folder itself, which may hold the organizer's.
		d, err := os.MkdirTemp("", "gomoku-engine-")
		if err != nil {
			return nil, fmt.Errorf("engine %q: working directory: %w", spec.Name, err)
		}
		defer os.Remove(d)
		dir = d
	} else if err := CheckWorkDir(spec); err != nil {
		return nil, fmt.Errorf("engine %q: %w", spec.Name, err)
	}
	ms, err := s.mounts(e.path, dir, false)
	if err != nil {
		return nil, fmt.Errorf("engine %q: %w", spec.Name, err)
	}
	var v []Exposure
	for _, d := range systemFolders {
		if _, err := os.Lstat(d); err == nil {
			v = append(v, Exposure{d, ReadOnly, "system"})
		}
	}
	v = append(v, Exposure{"/dev", ReadOnly, "its own: null, zero, full, random, urandom, tty"},
		Exposure{"/proc", ReadOnly, "its own: only its own processes"},
		Exposure{"/tmp", ReadWrite, "its own tmpfs, counted as its memory, gone with it"},
		Exposure{"/dev/shm", ReadWrite, "its own tmpfs, counted as its memory, gone with it"})
	for _, m := range ms {
		v = append(v, Exposure{m.path, m.access, m.what})
	}
	return v, nil
}

// mount is one path the sandbox shows or hides.
type mount struct {
	path   string
	access Access
	what   string
	file   bool // a hidden file rather than a folder
}

// mounts are the paths that show the engine its program, its declared
// files and its working directory, and hide what must be hidden inside
// them, outer paths first; make creates a folder to hide that does not
// exist yet (another engine's working directory, say), which would
// otherwise appear in view later.
func (s *Sandbox) mounts(path, dir string, make bool) ([]mount, error) {
	prog, work := realPath(path), realPath(dir)
	for _, d := range append([]string{"/proc", "/dev", "/sys"}, systemFolders...) {
		if within(d, work) || within(work, d) {
			return nil, fmt.Errorf("sandbox: the engine's working directory %s would make %s writable; give it a folder of its own", work, d)
		}
	}
	shown := []mount{{path: prog, access: ReadOnly, what: "program"}, {path: work, access: ReadWrite, what: "working folder"}}
	for _, f := range s.Show {
		f = realPath(f)
		st, err := os.Stat(f)
		if err != nil {
			return nil, fmt.Errorf("sandbox: declared file %s: %w", f, err)
		}
		for _, d := range []string{"/proc", "/dev", "/sys"} {
			if within(d, f) || within(f, d) {
				return nil, fmt.Errorf("sandbox: the declared file %s would show %s; declare what the engine needs, not a system folder", f, d)
			}
		}
		if f == prog || f == work {
			continue
		}
		shown = append(shown, mount{path: f, access: ReadOnly, what: "declared", file: !st.IsDir()})
	}
	for _, own := range shown {
		for _, h := range s.Hide {
			if realPath(h) == own.path {
				return nil, fmt.Errorf("sandbox: the engine's %s %s is a path it must not see (the event's output folder or config, say); give it a folder of its own", own.what, own.path)
			}
		}
		for _, r := range s.RivalDirs {
			if r = realPath(r); within(own.path, r) {
				return nil, fmt.Errorf("sandbox: the engine's %s %s is inside another engine's working directory %s; give each engine a folder of its own", own.what, own.path, r)
			}
		}
		for _, p := range s.Private {
			if p = realPath(p); within(p, own.path) {
				return nil, fmt.Errorf("sandbox: the engine's %s %s is or holds %s, the organizer's folder (other events, notes, keys); declare the files it needs one by one, or give it a folder of its own", own.what, own.path, p)
			}
		}
	}
	ms := append([]mount(nil), shown...)
	hide := func(list []string, what string, rival bool) error {
		for _, h := range list {
			h = realPath(h)
			inside, own, in := false, false, ""
			for _, m := range shown {
				own = own || m.path == h
				if within(h, m.path) && h != m.path {
					inside = true
					if len(m.path) > len(in) {
						in = m.path // the innermost folder shown that holds it
					}
				}
			}
			if own || !inside || slices.ContainsFunc(ms, func(m mount) bool { return m.path == h }) {
				continue // its own, out of view anyway, or hidden already
			}
			st, err := os.Stat(h)
			switch {
			case err == nil && !st.IsDir():
				ms = append(ms, mount{path: h, access: Hidden, what: what, file: true})
				continue
			case errors.Is(err, os.ErrNotExist) && rival:
				continue // a file another engine declared, not there: nothing to hide
			case errors.Is(err, os.ErrNotExist) && make:
				// Made from the folder shown, one name at a time, following no
				// link: an engine that can write there may have planted one
				// on the way to a folder it wants made elsewhere.
				rel, err := filepath.Rel(in, h)
				if err == nil {
					err = durable.MkdirIn(in, rel)
				}
				if err != nil {
					return fmt.Errorf("sandbox: hiding %s: %w", h, err)
				}
			}
			ms = append(ms, mount{path: h, access: Hidden, what: what})
		}
		return nil
	}
	for _, l := range []struct {
		list  []string
		what  string
		rival bool
	}{{s.Hide, "the event's or the organizer's", false}, {s.RivalDirs, "another engine's working folder", false}, {s.RivalFiles, "another engine's", true}} {
		if err := hide(l.list, l.what, l.rival); err != nil {
			return nil, err
		}
	}
	// Outer paths first, so that inner ones are mounted on top.
	sort.SliceStable(ms, func(i, j int) bool { return depth(ms[i].path) < depth(ms[j].path) })
	return ms, nil
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
