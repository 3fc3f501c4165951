package engine

// Tests of the move's hot path: the writes, and the files a settle look holds.

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// procFilesOf lists this process's descriptors open on /proc files of
// process pid.
func procFilesOf(t *testing.T, pid int) []string {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	prefix := "/proc/" + strconv.Itoa(pid) + "/"
	var out []string
	for _, ent := range ents {
		if l, err := os.Readlink(filepath.Join("/proc/self/fd", ent.Name())); err == nil && strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return out
}

// A settle look holds the engine leader's /proc files open while the
// process runs (one pread each per look, no path lookup), and killing the
// process closes them: an engine restarted game after game leaks no
// descriptor.
func TestLeaderFilesClosedOnKill(t *testing.T) {
	e := startFaulty(t)
	if err := e.NewGame(15, nil, in(5*time.Second)); err != nil { // START: on probation, so settled first
		t.Fatal(err)
	}
	if r := e.Begin(in(5 * time.Second)); r.Fault != "" {
		t.Fatal(r.Fault, r.Detail)
	}
	pid := e.Pid()
	if got, want := procFilesOf(t, pid), len(leaderNames)+1; len(got) != want { // and its task folder (lone)
		t.Fatalf("while it runs: %d /proc files of the engine open (%v), want %d", len(got), got, want)
	}
	e.Kill()
	if got := procFilesOf(t, pid); len(got) != 0 {
		t.Errorf("after Kill: still open: %v", got)
	}
}

// A command that does not fit in the stdin pipe of an engine that does not
// read is written in part at once and the rest under the deadline: the
// write ends in a timeout ("engine is not reading its input"), not as if
// it had all gone out; and a pipe already full takes nothing at once and
// times out the same way.
func TestWriteToEngineNotReading(t *testing.T) {
	t.Parallel()
	e, err := Start(Spec{Name: "deaf", Command: "/bin/sh", Args: []string{"-c", "sleep 30"}, CloseGrace: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	if err := e.spawn(); err != nil {
		t.Fatal(err)
	}
	p := e.current()
	big := make([]byte, 4<<20) // more than any pipe holds
	for i := range big {
		big[i] = 'x'
	}
	for _, name := range []string{"part at once", "pipe full"} {
		f, detail := p.write(big, time.Now().Add(200*time.Millisecond))
		if f != FaultTimeout || detail != "engine is not reading its input" {
			t.Errorf("%s: write = %q %q, want a timeout", name, f, detail)
		}
	}
}
