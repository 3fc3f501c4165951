package rulings

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// RequestsLockFile is the file of an event's folder whose lock an arena
// holds while it reads, checks and appends to the request files: two
// arbiters' decisions, or two withdrawals, made at once are each checked
// against the other and both kept, never one written over the other.
const RequestsLockFile = "requests.lock"

// Hold waits for the lock of the request files of the event in folder and
// holds it until release is called. The running event only reads them
// (each is replaced whole, so a reader sees one version), and so takes no
// lock.
func Hold(folder string) (release func(), err error) {
	path := filepath.Join(folder, RequestsLockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW, 0o644) // never through a link
	if err != nil {
		return nil, fmt.Errorf("request files: %w", err)
	}
	for {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return func() { f.Close() }, nil
}
