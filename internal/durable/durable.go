// Package durable writes files so that a crash leaves either the old content
// or the new, never a mix, and makes new names in a folder survive a crash;
// and so that a link planted in a folder the arena shares with others never
// turns a write (or a read) of ours into one of the file it points at.
//
// Two kinds of file are written. A source (the journal, event.json, the
// tokens) must survive the machine: WriteFile waits for the disk. A file
// derived from a source (a game's SGF and psq, the standings, the printable
// page, event.trf) is rebuilt from it whenever it could be stale, so
// Replace only keeps it whole against a killed process and does not wait
// for the disk, which costs milliseconds per file on a real one.
package durable

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// SyncDir makes a folder's entries (a new file's name) durable.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return syncFile("dir", d)
}

// syncFile waits for the disk to hold f; what says whether f is a file's data
// or a folder's names. A variable so that a test can see the order of syncs.
var syncFile = func(what string, f *os.File) error { return f.Sync() }

// WriteFile replaces path with b durably: a crash, of the process or of the
// machine, leaves either the old file or the new one, never a mix. Like
// every write of this package it follows no link (see Create).
func WriteFile(path string, b []byte) error {
	if err := replace(path, b, true); err != nil {
		return err
	}
	return SyncDir(filepath.Dir(path))
}

// Replace replaces path with b whole: a killed process leaves either the old
// file or the new one, never a mix. A machine that loses power may leave
// the old file, an empty one or none: for derived files only, which their
// writer rebuilds from the source when it starts (see the package comment).
func Replace(path string, b []byte) error { return replace(path, b, false) }

func replace(path string, b []byte, sync bool) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Discard()
		return err
	}
	return f.Commit(sync)
}

// Links. The arena writes into folders it does not own alone: a batch
// folder that many jobs write, a folder another arena serves, an output
// folder a user named. A link planted there must not turn a write of ours
// into a write of the file it points at. So the file is never opened by
// its name: a new file is made beside it under a fresh name (O_EXCL, which
// follows no link) and renamed over the name, which replaces a link
// itself, never what it points at. The folder the caller names is taken as
// named; the folders below it that ReplaceIn and MkdirIn walk are not
// followed either.

// File is a file being written in place of another: it takes the name of
// the file it replaces only on Commit, whole.
type File struct {
	*os.File
	dir  *os.File // the folder, held open: the rename happens in it, whatever its name now leads to
	name string
}

// Create starts a file that will replace path, in path's folder.
func Create(path string) (*File, error) {
	dir, err := os.OpenFile(filepath.Dir(path), os.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		return nil, err
	}
	return create(dir, filepath.Base(path))
}

func create(dir *os.File, name string) (*File, error) {
	for {
		tmp := fmt.Sprintf(".%s.%08x.tmp", name, rand.Uint32())
		fd, err := unix.Openat(int(dir.Fd()), tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o644)
		if errors.Is(err, unix.EEXIST) {
			continue
		}
		if err != nil {
			dir.Close()
			return nil, &os.PathError{Op: "create", Path: filepath.Join(dir.Name(), name), Err: err}
		}
		return &File{File: os.NewFile(uintptr(fd), filepath.Join(dir.Name(), tmp)), dir: dir, name: name}, nil
	}
}

// Commit gives the file its name, replacing what had it (a file, or a link
// but not what the link points at); with sync the content is on the disk
// first.
func (f *File) Commit(sync bool) error {
	defer f.dir.Close()
	tmp := filepath.Base(f.File.Name())
	err := error(nil)
	if sync {
		err = syncFile("data", f.File)
	}
	if err2 := f.File.Close(); err == nil {
		err = err2
	}
	if err == nil {
		err = unix.Renameat(int(f.dir.Fd()), tmp, int(f.dir.Fd()), f.name)
	}
	if err != nil {
		unix.Unlinkat(int(f.dir.Fd()), tmp, 0)
		return &os.PathError{Op: "replace", Path: filepath.Join(f.dir.Name(), f.name), Err: err}
	}
	return nil
}

// Discard drops the file; what had the name keeps it.
func (f *File) Discard() {
	f.File.Close()
	unix.Unlinkat(int(f.dir.Fd()), filepath.Base(f.File.Name()), 0)
	f.dir.Close()
}

// ReplaceIn replaces the file rel inside folder with b whole, as Replace
// does, making the folders of rel that are missing; a folder of rel that
// is a link, or not a folder, is an error.
func ReplaceIn(folder, rel string, b []byte) error {
	dir, err := walk(folder, filepath.Dir(rel))
	if err != nil {
		return err
	}
	f, err := create(dir, filepath.Base(rel))
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Discard()
		return err
	}
	return f.Commit(false)
}

// WriteFileIn is WriteFile for the file rel inside folder, made with perm:
// the folders of rel are made where missing, and none is followed if a
// link (OpenDirIn); the file and its name are on the disk when it returns.
func WriteFileIn(folder, rel string, b []byte, perm os.FileMode) error {
	dir, err := walk(folder, filepath.Dir(rel))
	if err != nil {
		return err
	}
	fd, err := unix.Dup(int(dir.Fd())) // Commit closes dir; its names are synced after
	if err != nil {
		dir.Close()
		return err
	}
	sync := os.NewFile(uintptr(fd), dir.Name())
	defer sync.Close()
	f, err := create(dir, filepath.Base(rel))
	if err != nil {
		return err
	}
	err = f.Chmod(perm)
	if err == nil {
		_, err = f.Write(b)
	}
	if err != nil {
		f.Discard()
		return err
	}
	if err := f.Commit(true); err != nil {
		return err
	}
	return syncFile("dir", sync)
}

// MkdirIn makes the folder rel inside folder, and those above it, where
// missing; one that is a link, or not a folder, is an error.
func MkdirIn(folder, rel string) error {
	dir, err := OpenDirIn(folder, rel)
	if err != nil {
		return err
	}
	return dir.Close()
}

// OpenDirIn opens the folder rel inside folder, making it and those above
// it where missing, one name at a time, never following a link below
// folder (folder itself is taken as named): what it returns is the folder
// that was checked, whatever its path leads to later. A folder of rel that
// is a link, or not a folder, is an error.
func OpenDirIn(folder, rel string) (*os.File, error) { return walk(folder, rel) }

// OpenAppendAt opens the file name in the open folder dir for appending,
// made if missing; a link there is an error, never followed.
func OpenAppendAt(dir *os.File, name string) (*os.File, error) {
	path := filepath.Join(dir.Name(), name)
	if name != filepath.Base(name) || name == "." || name == ".." {
		return nil, &os.PathError{Op: "open", Path: path, Err: errors.New("not a name in the folder")}
	}
	fd, err := unix.Openat(int(dir.Fd()), name, unix.O_WRONLY|unix.O_APPEND|unix.O_CREAT|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o644)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}

// walk opens the folder rel inside folder, making what is missing, never
// following a link below folder.
func walk(folder, rel string) (*os.File, error) {
	dir, err := os.OpenFile(folder, os.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		return nil, err
	}
	if rel == "." || rel == "" {
		return dir, nil
	}
	for _, part := range strings.Split(filepath.ToSlash(filepath.Clean(rel)), "/") {
		if part == ".." || part == "." {
			dir.Close()
			return nil, fmt.Errorf("%s: %q leaves the folder", folder, rel)
		}
		path := filepath.Join(dir.Name(), part)
		if err := unix.Mkdirat(int(dir.Fd()), part, 0o755); err != nil && !errors.Is(err, unix.EEXIST) {
			dir.Close()
			return nil, &os.PathError{Op: "mkdir", Path: path, Err: err}
		}
		fd, err := unix.Openat(int(dir.Fd()), part, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		dir.Close()
		if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
			return nil, fmt.Errorf("%s: is a link or not a folder; the arena writes only into folders of its own there", path)
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: path, Err: err}
		}
		dir = os.NewFile(uintptr(fd), path)
	}
	return dir, nil
}

// OpenAppend opens path for appending, made if missing; a link there is
// an error, never followed.
func OpenAppend(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|unix.O_NOFOLLOW, 0o644)
}

// ReadRegular reads the file rel inside folder, at most max bytes (more is
// an error), when it is a regular file reached through no link: the
// reading side of the same rule, for a file that may have been replaced
// by a link to something else (a device, a FIFO that never ends, a secret).
func ReadRegular(folder, rel string, max int64) ([]byte, error) {
	f, err := OpenRegular(folder, rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(b)) > max {
		err = fmt.Errorf("%s: more than %d bytes", f.Name(), max)
	}
	return b, err
}

// OpenRegular opens the file rel inside folder for reading when it is a
// regular file and no folder below folder, nor the file, is a link.
func OpenRegular(folder, rel string) (*os.File, error) {
	dir, err := os.OpenFile(folder, os.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		return nil, err
	}
	parts := strings.Split(filepath.ToSlash(filepath.Clean(rel)), "/")
	for i, part := range parts {
		path := filepath.Join(dir.Name(), part)
		if part == ".." || part == "." || part == "" {
			dir.Close()
			return nil, fmt.Errorf("%s: %q leaves the folder", folder, rel)
		}
		flags := unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_CLOEXEC | unix.O_NONBLOCK // a FIFO opens at once, and is refused below
		if i < len(parts)-1 {
			flags |= unix.O_DIRECTORY
		}
		fd, err := unix.Openat(int(dir.Fd()), part, flags, 0)
		dir.Close()
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: path, Err: err}
		}
		f := os.NewFile(uintptr(fd), path)
		if i < len(parts)-1 {
			dir = f
			continue
		}
		st, err := f.Stat()
		if err == nil && !st.Mode().IsRegular() {
			err = fmt.Errorf("%s: not a regular file", path)
		}
		if err != nil {
			f.Close()
			return nil, err
		}
		return f, nil // O_NONBLOCK means nothing to a regular file
	}
	panic("unreachable")
}

// OpenFile opens path for reading when it is a regular file and not a
// link: a file of a folder others may write into (a journal, an
// event.json) that was replaced by a link to a device or a FIFO would
// otherwise be read for ever. Errors are *os.PathError.
func OpenFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = errors.New("not a regular file")
		}
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return f, nil
}
