package engine

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gomoku-arena/internal/durable"
)

// MaxFolderName bounds the length of a working folder's name.
const MaxFolderName = 64

// FolderName is the working folder's name for an entrant called name.
// Names are names, not paths: the name keeps its ASCII letters and digits
// and the characters . _ - + # (the #N of self-play copies), and every
// other character (a slash, a space, a letter outside ASCII, a control
// character) becomes an underscore; a leading dot becomes an underscore too,
// so that "." and ".." name no folder above. It is cut to MaxFolderName
// bytes; an empty name is "_". Two names may map to one folder: the config
// refuses that (internal/config).
func FolderName(name string) string {
	b := []byte(name)
	if len(b) > MaxFolderName {
		b = b[:MaxFolderName]
	}
	for i, c := range b {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			strings.IndexByte("._-+#", c) >= 0
		if !ok || i == 0 && c == '.' {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		return "_"
	}
	return string(b)
}

// WorkDir is spec with its working folder Dir/FolderName(names[0])/...,
// made where missing: a second process of an entrant gets a folder of its
// own inside the first's. Below spec.Within (Dir itself where Within is
// unset: the organizer named it), no folder may be a link, nor anything
// but a folder: an engine may have planted one in its own folder for a
// later process of its to be given, someone sharing the output folder one
// in place of engines/NAME. The result has Within set, so that Start holds
// the same rule.
func WorkDir(spec Spec, names ...string) (Spec, error) {
	if spec.Within == "" {
		spec.Within = spec.Dir
	}
	dir := spec.Dir
	for _, n := range names {
		dir = filepath.Join(dir, FolderName(n))
	}
	f, err := openWorkDir(spec.Within, dir)
	if err != nil {
		return spec, err
	}
	f.Close()
	spec.Dir = dir
	return spec, nil
}

// openWorkDir opens the working folder dir, made where missing: within is
// taken as named (made if missing), and each folder of dir below it is
// opened without following a link (durable.OpenDirIn). What it returns is
// the folder checked: a sandbox binds it by this descriptor, so that a
// link put in place of its path since leads nowhere.
func openWorkDir(within, dir string) (*os.File, error) {
	if err := os.MkdirAll(within, 0o755); err != nil {
		return nil, fmt.Errorf("working folder: %w", err)
	}
	rel, err := filepath.Rel(within, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return nil, fmt.Errorf("working folder %s is not inside %s", dir, within)
	}
	f, err := durable.OpenDirIn(within, rel)
	if err != nil {
		return nil, fmt.Errorf("working folder: %w", err)
	}
	return f, nil
}

// CheckWorkDir reports, making nothing, what Start would refuse of spec's
// working folder: a folder of Dir below Within that exists and is a link
// or not a folder. The event checks it before the first game.
func CheckWorkDir(spec Spec) error {
	if spec.Dir == "" {
		return nil
	}
	return checkWorkDir(cmp.Or(spec.Within, spec.Dir), spec.Dir)
}

func checkWorkDir(within, dir string) error {
	rel, err := filepath.Rel(within, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return fmt.Errorf("working folder %s is not inside %s", dir, within)
	}
	cur := within
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		if part == "." {
			continue
		}
		cur = filepath.Join(cur, part)
		st, err := os.Lstat(cur)
		if err != nil {
			return nil // missing, made by Start; or what Start (or the output folder's claim) reports
		}
		if !st.IsDir() {
			return fmt.Errorf("%s: is a link or not a folder; the arena writes only into folders of its own there", cur)
		}
	}
	return nil
}

// heldPath is the path of the folder f holds, as the kernel knows it now
// (every link resolved); f's own name when it cannot say.
func heldPath(f *os.File) string {
	if p, err := os.Readlink(fdPath(int(f.Fd()))); err == nil && filepath.IsAbs(p) {
		return p
	}
	return realPath(f.Name())
}

// within reports whether path is folder or inside it (both clean and
// absolute).
func within(path, folder string) bool {
	return path == folder || folder == "/" || strings.HasPrefix(path, folder+string(filepath.Separator))
}
