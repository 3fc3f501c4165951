// Package durable writes files so that a crash leaves either the old content
// or the new, never a mix, and makes new names in a folder survive a crash.
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
	return d.Sync()
}

// WriteFile replaces path with b durably: a crash leaves either the old file
// or the new one, never a mix.
func WriteFile(path string, b []byte) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	return SyncDir(filepath.Dir(path))
}
