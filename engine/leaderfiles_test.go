package engine

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
	if got := procFilesOf(t, pid); len(got) != len(leaderNames) {
		t.Fatalf("while it runs: %d /proc files of the engine open (%v), want %d", len(got), got, len(leaderNames))
	}
	e.Kill()
	if got := procFilesOf(t, pid); len(got) != 0 {
		t.Errorf("after Kill: still open: %v", got)
	}
}
