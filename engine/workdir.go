package engine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

// WorkDir makes the working folder base/FolderName(names[0])/... and
// returns its absolute path with symbolic links resolved. base is trusted
// (the event's choice) and made if missing; each level below it must be a
// real folder, not a symbolic link (an engine may have planted one in its
// own folder for a later process of its to be given), and the result must
// lie inside base once every link is resolved.
func WorkDir(base string, names ...string) (string, error) {
	if err := os.MkdirAll(base, 0o755); err != nil {
		return "", fmt.Errorf("working folder: %w", err)
	}
	root, err := filepath.EvalSymlinks(base)
	if err != nil {
		return "", fmt.Errorf("working folder: %w", err)
	}
	if root, err = filepath.Abs(root); err != nil {
		return "", fmt.Errorf("working folder: %w", err)
	}
	dir := root
	for _, n := range names {
		dir = filepath.Join(dir, FolderName(n))
		if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
			return "", fmt.Errorf("working folder: %w", err)
		}
		st, err := os.Lstat(dir)
		if err != nil {
			return "", fmt.Errorf("working folder: %w", err)
		}
		if !st.IsDir() {
			return "", fmt.Errorf("working folder %s: not a folder (a symbolic link or a file is refused)", dir)
		}
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", fmt.Errorf("working folder: %w", err)
	}
	if !within(real, root) {
		return "", fmt.Errorf("working folder %s resolves to %s, outside %s", dir, real, root)
	}
	return real, nil
}

// within reports whether path is folder or inside it (both clean and
// absolute).
func within(path, folder string) bool {
	return path == folder || folder == "/" || strings.HasPrefix(path, folder+string(filepath.Separator))
}
