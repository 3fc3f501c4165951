package check

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gomoku-arena/arbiter"
	"gomoku-arena/clock"
	"gomoku-arena/engine"
)

// passed is a report of every check passed, as Memory keeps one.
func passed(name string) Report {
	r := Report{Engine: name}
	for _, n := range Names {
		r.Findings = append(r.Findings, Finding{Check: n, Verdict: Pass})
	}
	return r
}

// An engine's declared files are part of what its check is remembered by:
// unchanged, the report is taken as checked; a declared file changed (its
// config.toml), or an entry of a declared folder added or changed, and the
// engine is checked again. A link in a declared folder counts by the
// target it names, not by what lies there (it is not followed out).
func TestDeclaredFilesKeyTheRememberedCheck(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.toml")
	weights := filepath.Join(dir, "weights")
	elsewhere := filepath.Join(dir, "elsewhere")
	os.MkdirAll(weights, 0o755)
	os.MkdirAll(elsewhere, 0o755)
	os.WriteFile(cfg, []byte("max_memory = 1\n"), 0o644)
	os.WriteFile(filepath.Join(weights, "model.bin"), []byte("weights v1"), 0o644)
	os.WriteFile(filepath.Join(elsewhere, "big.bin"), []byte("not declared"), 0o644)
	os.Symlink(elsewhere, filepath.Join(weights, "more"))

	ent := arbiter.Entrant{Spec: engine.Spec{Name: "e", Command: "builtin:greedy", Files: []string{cfg, weights}},
		Clock: clock.Control{Match: 10 * time.Second, Tolerance: time.Second}}
	s := testSettings(t, "freestyle")
	s.Remember = Memory{Dir: t.TempDir()}
	s.defaults()
	k, err := key(ent, s)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Remember.keep(k, passed("e")); err != nil {
		t.Fatal(err)
	}
	// remembered runs the check of ent through Entrants, stopped before it
	// could check anything: a remembered report comes back whole, one not
	// remembered comes back stopped.
	stopped, stop := context.WithCancel(context.Background())
	stop()
	remembered := func() bool {
		t.Helper()
		r := Entrants(stopped, []arbiter.Entrant{ent}, s, nil)[0]
		return r.Remembered != nil
	}
	if !remembered() {
		t.Fatal("unchanged: checked again")
	}

	changes := []struct {
		name   string
		change func()
		again  bool // checked again
	}{
		{"the same content written again", func() { os.WriteFile(cfg, []byte("max_memory = 1\n"), 0o644) }, false},
		{"a link's target changed outside the folder", func() { os.WriteFile(filepath.Join(elsewhere, "big.bin"), []byte("changed"), 0o644) }, false},
		{"config.toml changed", func() { os.WriteFile(cfg, []byte("max_memory = 2\n"), 0o644) }, true},
		{"a weights file changed", func() { os.WriteFile(filepath.Join(weights, "model.bin"), []byte("weights v2"), 0o644) }, true},
		{"a file added to the folder", func() { os.WriteFile(filepath.Join(weights, "extra"), nil, 0o644) }, true},
		{"a link in the folder retargeted", func() { os.Remove(filepath.Join(weights, "more")); os.Symlink(cfg, filepath.Join(weights, "more")) }, true},
	}
	for _, c := range changes {
		c.change()
		if got := !remembered(); got != c.again {
			t.Errorf("%s: checked again %v, want %v", c.name, got, c.again)
		}
		// Kept again under the new key, as a real check passed would be.
		if k, err = key(ent, s); err != nil {
			t.Fatal(err)
		}
		s.Remember.keep(k, passed("e"))
	}
}

// Declared files past the bounds (too many entries, too many bytes) give
// no key: the engine is checked every time (Entrants checks an entrant
// without a key, and keeps nothing of it).
func TestDeclaredFilesTooLargeAreNotRemembered(t *testing.T) {
	dir := t.TempDir()
	for i := range 5 {
		os.WriteFile(filepath.Join(dir, strings.Repeat("f", i+1)), []byte("0123456789"), 0o644)
	}
	ent := arbiter.Entrant{Spec: engine.Spec{Name: "e", Command: "builtin:greedy", Files: []string{dir}}}
	s := testSettings(t, "freestyle")
	if _, err := key(ent, s); err != nil {
		t.Fatalf("within the bounds: %v", err)
	}
	for _, c := range []struct {
		entries int
		bytes   int64
		want    string
	}{{3, 1 << 20, "more than 3 entries"}, {100, 20, "more than 20 bytes"}} {
		maxDeclaredEntries, maxDeclaredBytes = c.entries, c.bytes
		_, err := key(ent, s)
		maxDeclaredEntries, maxDeclaredBytes = maxWalked, 4<<30
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("bounds %d entries, %d bytes: %v, want %q", c.entries, c.bytes, err, c.want)
		}
	}
}
