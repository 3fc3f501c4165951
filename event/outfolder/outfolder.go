// Package outfolder owns an output folder's ownership and its journal: the
// lock one run at a time holds (the kernel's, with the holder's pid
// written for a refused run to name), the claim that checks event.json
// against the event about to run (or writes it first, before any
// journal) and the journal opened for appending. The check of the
// journal's records against the schedule is given by the caller
// (event/verify).
package outfolder

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"gomoku-arena/event/identity"
	"gomoku-arena/results/journal"
	"gomoku-arena/results/record"
)

// The files of an output folder.
const (
	JournalFile = "journal.jsonl" // every finished game, one record a line
	LockFile    = "arena.lock"    // held by the run that owns the folder; holds its pid
)

// Folder is an output folder claimed by one run: locked, its event.json
// checked or written, its journal open for appending.
type Folder struct {
	dir     string
	lock    *os.File
	journal *journal.Journal
	Done    []*record.Record // the journal's records when the run began
}

// Claim locks dir and checks that it holds the event id describes, or is
// new. check, when the folder already holds an event, sees the old identity
// and the new one and decides: an error refuses the folder; rewrite asks for
// event.json to be written anew (an event that grew).
//
// verify checks the journal's records against the schedule before
// anything is written: a folder whose journal is refused is left as it
// was (event.json included).
func Claim(dir string, id *identity.Identity, check func(old, now *identity.Identity) (rewrite bool, err error), verify func([]*record.Record) error) (*Folder, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("output folder: %w", err)
	}
	lock, err := Lock(dir)
	if err != nil {
		return nil, err
	}
	f := &Folder{dir: dir, lock: lock}
	if err := f.open(id, check, verify); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func (f *Folder) open(id *identity.Identity, check func(old, now *identity.Identity) (bool, error), verify func([]*record.Record) error) error {
	path := filepath.Join(f.dir, identity.File)
	id.Format = identity.FormatVersion
	write := true
	old, err := identity.Read(path)
	switch {
	case err == nil:
		if old.Kind != id.Kind {
			return fmt.Errorf("%s holds %s, not %s; use a new output folder", f.dir, identity.KindName[old.Kind], identity.KindName[id.Kind])
		}
		old, up := identity.Upgraded(old, id) // written only once the journal is checked (verify)
		if write, err = check(old, id); err != nil {
			return err
		}
		write = write || up
	case !errors.Is(err, os.ErrNotExist):
		return err
	default:
		if _, err := os.Stat(filepath.Join(f.dir, JournalFile)); err == nil {
			return fmt.Errorf("%s %w", f.dir, errNoIdentity)
		}
		// A new folder: event.json before the journal, so that a crash
		// between the two never leaves a journal without its event.
		if err := id.Write(path); err != nil {
			return err
		}
		write = false
	}
	f.journal, f.Done, err = journal.Open(filepath.Join(f.dir, JournalFile))
	if err != nil {
		return err
	}
	if err := verify(f.Done); err != nil {
		return fmt.Errorf("journal %s: %w", filepath.Join(f.dir, JournalFile), err)
	}
	if write {
		return id.Write(path)
	}
	return nil
}

// Close closes the journal and gives up the folder.
func (f *Folder) Close() error {
	var err error
	if f.journal != nil {
		err = f.journal.Close()
	}
	Unlock(f.lock)
	return err
}

// Unlock gives up a folder's lock. The pid is emptied first, so that a run
// refused later never names a process that no longer holds the folder; the
// file itself stays, so that every run locks the same file.
func Unlock(lock *os.File) {
	lock.Truncate(0)
	lock.Close()
}

// Lock takes the folder's lock for this process and writes its pid
// there. The lock is the kernel's (flock): it dies with the process, so a
// killed run never blocks its own continuation.
func Lock(dir string) (*os.File, error) {
	path := filepath.Join(dir, LockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW, 0o644) // truncated: never through a link
	if err != nil {
		return nil, fmt.Errorf("output folder: %w", err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, fmt.Errorf("%s is in use by another arena (%s); one run at a time owns a folder", dir, holder(path))
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	// The pid is what tells a refused run who holds the folder: its write
	// failing is an error like the lock's.
	err = f.Truncate(0)
	if err == nil {
		_, err = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// holder names the process holding the lock file at path. The holder writes
// its pid just after taking the lock, so a run refused in between waits a
// moment for it.
func holder(path string) string {
	for range 20 {
		b, _ := os.ReadFile(path)
		if pid := strings.TrimSpace(string(b)); pid != "" {
			return "pid " + pid
		}
		time.Sleep(10 * time.Millisecond)
	}
	return "pid unknown"
}

// Append journals a finished game (or a bye): once it returns, the record
// is part of the event.
func (f *Folder) Append(rec *record.Record) error { return f.journal.Append(rec) }

// errNoIdentity is a folder with a journal but no event.json.
var errNoIdentity = errors.New("holds a journal but no event.json: it is not a folder this arena wrote; use a new output folder")
