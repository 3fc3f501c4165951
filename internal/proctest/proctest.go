// Package proctest finds, for tests, the engine processes a test binary
// started of itself (builtin:NAME runs the binary again as "engine NAME"),
// so that a test can show that none outlives its event or its arbiter.
package proctest

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// Engines lists the live processes running self as an engine ("PID: engine
// NAME ARGS"), zombies awaiting their reaper left out.
func Engines(self string) []string {
	var found []string
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		if err != nil {
			continue
		}
		args := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
		if len(args) > 1 && args[0] == self && args[1] == "engine" {
			if st, err := os.ReadFile(filepath.Join("/proc", d.Name(), "stat")); err == nil && strings.Contains(string(st), ") Z ") {
				continue // a zombie awaiting its reaper is not running
			}
			found = append(found, d.Name()+": "+strings.Join(args[1:], " "))
		}
	}
	sort.Strings(found)
	return found
}

// WaitNoEngines fails t if an engine process of self is still alive after
// two seconds (the kernel takes a moment to deliver a kill).
func WaitNoEngines(t testing.TB, self string) {
	t.Helper()
	var alive []string
	for range 100 {
		if alive = Engines(self); len(alive) == 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("engine processes still alive: %v", alive)
}
