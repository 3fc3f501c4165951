// Package durable writes files so that a crash leaves either the old content
// or the new, never a mix, and makes new names in a folder survive a crash.
//
// Two kinds of file are written. A source (the journal, event.json, the
// tokens) must survive the machine: WriteFile waits for the disk. A file
// derived from a source (a game's SGF and psq, the standings, the printable
// page, event.trf) is rebuilt from it whenever it could be stale, so
// Replace only keeps it whole against a killed process and does not wait
// for the disk, which costs milliseconds per file on a real one.
package durable

import (
	"os"
	"path/filepath"
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
// machine, leaves either the old file or the new one, never a mix.
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
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if sync {
		if err := syncFile("data", f); err != nil {
			f.Close()
			return err
		}
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
