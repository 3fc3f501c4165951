package config

import (
	"fmt"
	"os"
	"path/filepath"
)

// checkFiles checks engine i's declared files (Engine.Files): each exists,
// and none is or holds the config's folder (the organizer's: other
// events, notes, keys) or lies in the event's output folder (records the
// engine must not read). The sandbox refuses what else it cannot contain.
func (ev *Event) checkFiles(i int, e Engine) error {
	key := fmt.Sprintf("engine[%d].files", i)
	if e.Remote && len(e.Files) > 0 {
		return ev.ErrAt(key, fmt.Sprintf("engine %q: a remote engine runs on its entrant's machine: no files here", e.Name))
	}
	home, out := realPath(filepath.Dir(ev.File)), realPath(ev.OutputDir())
	for _, f := range e.Files {
		if f == "" {
			return ev.ErrAt(key, fmt.Sprintf("engine %q: an empty path", e.Name))
		}
		p := ev.Resolve(f)
		if _, err := os.Stat(p); err != nil {
			return ev.ErrAt(key, fmt.Sprintf("engine %q: %q: no such file or folder (%s)", e.Name, f, p))
		}
		switch a := realPath(p); {
		case within(home, a):
			return ev.ErrAt(key, fmt.Sprintf("engine %q: %q is or holds the config's folder %s, which is the organizer's; name the files the engine needs one by one, or give it a folder of its own", e.Name, f, home))
		case within(a, out) || within(out, a):
			return ev.ErrAt(key, fmt.Sprintf("engine %q: %q is in or holds the event's output folder %s", e.Name, f, out))
		}
	}
	return nil
}

// realPath is p absolute, with its symbolic links resolved where it exists.
func realPath(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	if r, err := filepath.EvalSymlinks(a); err == nil {
		return r
	}
	return a
}

// within reports whether path is folder or inside it (both clean and
// absolute).
func within(path, folder string) bool {
	return path == folder || folder == "/" || len(path) > len(folder) && path[:len(folder)] == folder && path[len(folder)] == filepath.Separator
}
