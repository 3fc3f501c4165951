package engine

import (
	"math"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// Descriptors. A process receives the descriptors its parent left open: a
// shell's `exec 3>>log` or `9<secret`, a CI runner's, systemd's. Go's
// os/exec passes a child only its stdin, stdout, stderr and ExtraFiles, and
// every descriptor Go opens is close-on-exec; but those inherited at start
// are not, and would reach every engine, sandbox launcher and relay the
// arena starts (bubblewrap passes on what it is given). So every program
// that starts engines marks them close-on-exec once, before anything runs:
// the arena's own process keeps using them, what it starts never sees them.
// What the arena means a child to have (a relay's socket, an engine's
// pipes, a working folder bubblewrap binds) it passes by ExtraFiles or
// stdio, which the child gets whatever the flag.

func init() { closeInheritedOnExec() }

// closeRangeCloexec is the kernel's CLOSE_RANGE_CLOEXEC (linux/close_range.h).
const closeRangeCloexec = 1 << 2

// closeInheritedOnExec marks every descriptor above stderr close-on-exec:
// by close_range where the kernel has it (5.11), else one by one from
// /proc/self/fd.
func closeInheritedOnExec() {
	if unix.CloseRange(3, math.MaxUint32, closeRangeCloexec) == nil {
		return
	}
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return
	}
	for _, e := range ents {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
			unix.CloseOnExec(fd)
		}
	}
}
