package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"gomoku-arena/internal/proctest"
	"gomoku-arena/results/journal"
	"gomoku-arena/results/record"

	"golang.org/x/sys/unix"
)

// init lets a test run the arena with a file size limit (ARENA_TEST_FSIZE
// bytes), the clean way to make a disk "full" for the arena alone: past the
// limit every write fails with EFBIG (Go ignores SIGXFSZ).
func init() {
	if n, err := strconv.ParseUint(os.Getenv("ARENA_TEST_FSIZE"), 10, 64); err == nil && n > 0 {
		if err := unix.Setrlimit(unix.RLIMIT_FSIZE, &unix.Rlimit{Cur: n, Max: n}); err != nil {
			panic(err)
		}
	}
}

// init answers ARENA_TEST_NS_PROBE=1 with whether this user may start a
// process in a PID namespace, as the engine package does: exit 0 if so.
func init() {
	if os.Getenv("ARENA_TEST_NS_PROBE") == "1" {
		if pidNamespaces() {
			os.Exit(0)
		}
		os.Exit(1)
	}
}

// misbehaving is the chaos event's field: "greedy" (entrant 0) plays one
// game against each faulty engine. want is how each game must end, by the
// faulty engine's name: the termination, whether the faulty engine loses
// by it (forfeits), and a piece of the detail.
var misbehaving = []struct {
	name, engine string // engine: the [[engine]] table's body
	end          record.Termination
	detail       string
}{
	{"crash-at-3", `args = ["crash-at=3"]`, record.Crash, "exit status 3"},
	{"exit-after-move", `args = ["exit-after-move=2"]`, record.Crash, ""},
	{"hang-clock", "args = [\"hang-at=2\"]\n[engine.clock]\nturn = \"300ms\"\ntolerance = \"100ms\"", record.Time, ""},
	{"hang-no-clock", "args = [\"hang-at=2\"]\n[engine.clock]\nmatch = \"0s\"\nhang = \"700ms\"", record.Time, ""},
	{"deaf", "args = [\"deaf-at=2\"]\n[engine.clock]\nturn = \"300ms\"", record.Time, ""},
	{"silent-start", `args = ["silent-start"]`, record.Refusal, "START"},
	{"error-start", `args = ["refuse-start"]`, record.Refusal, "cannot play"},
	{"ignore-end", `args = ["ignore-end"]`, "", ""},
	{"stderr-flood", `args = ["stderr-flood=4000000"]`, "", ""},
	{"long-line", `args = ["long-line=10000000"]`, "", ""},
	{"garbage", `args = ["garbage"]`, "", ""},
	{"offboard", `args = ["offboard-at=2"]`, record.Illegal, "99,99"},
	{"negative", `args = ["negative-at=2"]`, record.Illegal, "-1,3"},
	{"hog", "args = [\"hog=150000000\"]\nmax_memory = \"64MiB\"", record.MemoryLimit, "limit 64.0 MiB"},
	{"fork-bomb", "args = [\"fork-bomb=200\"]\nmax_processes = 40", "", ""},
	{"lingering-child", `args = ["spawn-child"]`, "", ""},
}

// writeChaosEvent writes the chaos event; extra goes before the engines.
func writeChaosEvent(t *testing.T, dir, extra string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(`name = "chaos"
rule = "freestyle"
format = "gauntlet"
output = "out"
# long enough for any engine that answers START on a busy machine; the
# silent one is refused after it
start_timeout = "5s"
` + extra + `
[clock]
match = "20s"
tolerance = "200ms"

[[engine]]
name = "greedy"
command = "builtin:greedy"
`)
	for _, m := range misbehaving {
		fmt.Fprintf(&b, "\n[[engine]]\nname = %q\ncommand = \"builtin:faulty\"\n%s\n", m.name, m.engine)
	}
	cfg := filepath.Join(dir, "chaos.toml")
	if err := os.WriteFile(cfg, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// startArena runs the arena as a subprocess: a real process the test can
// signal and measure.
func startArena(t *testing.T, env []string, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return startArenaAs(t, self, nil, env, args...)
}

// startArenaAs runs the arena from the test binary bin, as the user cred
// (nil: this test's).
func startArenaAs(t *testing.T, bin string, cred *syscall.Credential, env []string, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(append(os.Environ(), "ARENA_TEST_MAIN=1"), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &out
}

// peakMemory polls a process's VmHWM until it exits and returns the last
// value read (VmHWM only grows).
func peakMemory(pid int, exited <-chan struct{}) int64 {
	var peak int64
	for {
		if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid)); err == nil {
			for _, l := range strings.Split(string(b), "\n") {
				if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
					n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
					peak = max(peak, n<<10)
				}
			}
		}
		select {
		case <-exited:
			return peak
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func TestChaosEvent(t *testing.T) {
	self, _ := os.Executable()
	dir := t.TempDir()
	cfg := writeChaosEvent(t, dir, "")
	cmd, out := startArena(t, nil, "run", cfg)
	exited := make(chan struct{})
	peak := make(chan int64, 1)
	go func() { peak <- peakMemory(cmd.Process.Pid, exited) }()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(5 * time.Minute): // a guard against a hang, not a measure: a busy machine is slow
		cmd.Process.Kill()
		t.Fatalf("the chaos event did not finish in 5 minutes:\n%s", out)
	}
	close(exited)
	if err != nil {
		t.Fatalf("arena: %v\n%s", err, out)
	}
	recs, err := journal.Read(filepath.Join(dir, "out", "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*record.Record{}
	for _, r := range recs {
		other := r.Black
		if other == "greedy" {
			other = r.White
		}
		byName[other] = r
	}
	for _, m := range misbehaving {
		r := byName[m.name]
		if r == nil {
			t.Errorf("%s: no game journaled", m.name)
			continue
		}
		loser := r.Black
		if r.WinnerName() == r.Black {
			loser = r.White
		}
		switch {
		case m.end == "" && r.End.Forfeit():
			t.Errorf("%s: %s %q, want a game played out", m.name, r.End, r.Detail)
		case m.end != "" && (r.End != m.end || loser != m.name || !strings.Contains(r.Detail, m.detail)):
			t.Errorf("%s: %s lost by %s %q, want %s lost by %s %q", m.name, loser, r.End, r.Detail, m.name, m.end, m.detail)
		}
	}
	proctest.WaitNoEngines(t, self)
	const bound = 150 << 20
	p := <-peak
	if testing.Verbose() {
		t.Logf("arena output:\n%s", out)
	}
	t.Logf("%d games; arbiter peak resident set %.1f MiB", len(recs), float64(p)/(1<<20))
	if p > bound {
		t.Errorf("the arbiter's peak resident set was %.1f MiB, more than %d MiB", float64(p)/(1<<20), bound>>20)
	}
}

// writeStopEvent is a small event whose engines leave helpers behind if
// they can: a fork bomb, a lingering child, an engine that ignores END.
func writeStopEvent(t *testing.T, dir string) string {
	t.Helper()
	src := `name = "stop"
rule = "freestyle"
format = "double-round-robin"
concurrency = 2
output = "out"

[clock]
match = "20s"

[[engine]]
name = "fork-bomb"
command = "builtin:faulty"
args = ["fork-bomb=200", "think=15ms"]
max_processes = 40

[[engine]]
name = "lingering-child"
command = "builtin:faulty"
args = ["spawn-child", "think=15ms"]

[[engine]]
name = "ignore-end"
command = "builtin:faulty"
args = ["ignore-end", "spawn-child", "think=15ms"]

[[engine]]
name = "greedy"
command = "builtin:greedy"
`
	cfg := filepath.Join(dir, "stop.toml")
	if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestStoppedArbiterLeavesNoEngine stops the arbiter in the middle of an
// event each way it can be stopped and finds no engine process left; as
// root, also SIGKILLs an arbiter run by an ordinary user (nobody), whose
// engines get a PID namespace inside a user namespace.
func TestStoppedArbiterLeavesNoEngine(t *testing.T) {
	self, _ := os.Executable()
	cases := []struct {
		name   string
		sig    []syscall.Signal
		nobody bool // run the arbiter as nobody
	}{
		{"SIGINT drains", []syscall.Signal{syscall.SIGINT}, false},
		{"SIGINT twice aborts", []syscall.Signal{syscall.SIGINT, syscall.SIGINT}, false},
		{"SIGTERM aborts", []syscall.Signal{syscall.SIGTERM}, false},
		{"SIGKILL", []syscall.Signal{syscall.SIGKILL}, false},
		{"SIGKILL as nobody", []syscall.Signal{syscall.SIGKILL}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			bin, dir, cred := self, t.TempDir(), (*syscall.Credential)(nil)
			if tc.nobody {
				bin, dir, cred = asNobody(t)
			}
			if tc.sig[0] == syscall.SIGKILL && !pidNamespacesFor(t, bin, cred) {
				t.Skip("without PID namespaces an engine's helpers outlive a SIGKILLed arbiter (engine/doc.go)")
			}
			cmd, out := startArenaAs(t, bin, cred, nil, "run", writeStopEvent(t, dir))
			journalPath := filepath.Join(dir, "out", "journal.jsonl")
			deadline := time.Now().Add(30 * time.Second)
			for {
				if recs, _ := journal.Read(journalPath); len(recs) >= 2 {
					break // and two games are in progress
				}
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					t.Fatalf("too slow:\n%s", out)
				}
				time.Sleep(5 * time.Millisecond)
			}
			if tc.nobody && len(proctest.Engines(bin)) == 0 {
				t.Fatalf("no engine of %s runs in the middle of the event:\n%s", bin, out)
			}
			for _, s := range tc.sig {
				cmd.Process.Signal(s)
				time.Sleep(30 * time.Millisecond)
			}
			done := make(chan struct{})
			go func() { cmd.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("the arbiter did not stop:\n%s", out)
			}
			if tc.sig[0] != syscall.SIGKILL && !strings.Contains(out.String(), "stopped:") {
				t.Errorf("no clean stop:\n%s", out)
			}
			proctest.WaitNoEngines(t, bin)
		})
	}
}

// asNobody prepares an arena run as the user nobody: a copy of the test
// binary it may run (the go tool's build folder is root's alone) and an
// event folder it owns. Only root can.
func asNobody(t *testing.T) (bin, dir string, cred *syscall.Credential) {
	t.Helper()
	const nobody = 65534
	if os.Getuid() != 0 {
		t.Skip("needs root, to run the arena as nobody")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	top, err := os.MkdirTemp("", "arena-nobody-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(top) })
	bin, dir = filepath.Join(top, "arena.test"), filepath.Join(top, "event")
	b, err := os.ReadFile(self)
	if err == nil {
		err = os.WriteFile(bin, b, 0o755)
	}
	if err == nil {
		err = os.Chmod(top, 0o755)
	}
	if err == nil {
		err = os.Mkdir(dir, 0o755)
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(dir, nobody, nobody); err != nil {
		t.Skip("no user nobody here (a user namespace without it?):", err)
	}
	return bin, dir, &syscall.Credential{Uid: nobody, Gid: nobody}
}

// pidNamespacesFor reports whether the arena bin run as cred (nil: this
// test's user) gives its engines a PID namespace.
func pidNamespacesFor(t *testing.T, bin string, cred *syscall.Credential) bool {
	t.Helper()
	c := exec.Command(bin, "-test.run=^$")
	c.Env = append(os.Environ(), "ARENA_TEST_NS_PROBE=1")
	c.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	return c.Run() == nil
}

// pidNamespaces reports whether this process may start one in a PID
// namespace the ways the engine package tries: plainly (root), or inside a
// user namespace mapping its own ids (an ordinary user, where the kernel
// allows it); the engine package falls back to none.
func pidNamespaces() bool {
	for _, a := range []*syscall.SysProcAttr{
		{Cloneflags: syscall.CLONE_NEWPID},
		{Cloneflags: syscall.CLONE_NEWUSER | syscall.CLONE_NEWPID,
			UidMappings: []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}},
			GidMappings: []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}}},
	} {
		c := exec.Command("/proc/self/exe", "-test.run=^$")
		c.Env = []string{} // not a probe again
		c.SysProcAttr = a
		if c.Run() == nil {
			return true
		}
	}
	return false
}

// TestFullDiskStopsCleanlyAndResumes fills the "disk" (a file size limit on
// the arena) in the middle of an event: the event stops with an error, the
// games journaled before stay, the torn last journal line is repaired on
// resume, and the resumed event plays every game exactly once.
func TestFullDiskStopsCleanlyAndResumes(t *testing.T) {
	self, _ := os.Executable()
	dir := t.TempDir()
	cfg := writeEvent(t, dir, "full", "")
	journalPath := filepath.Join(dir, "out", "journal.jsonl")
	cmd, out := startArena(t, []string{"ARENA_TEST_FSIZE=7000"}, "run", "-quiet", cfg)
	err := cmd.Wait()
	if err == nil || !strings.Contains(out.String(), "file too large") {
		t.Fatalf("want a failed run naming the full disk: %v\n%s", err, out)
	}
	proctest.WaitNoEngines(t, self)
	b, _ := os.ReadFile(journalPath)
	before, err := journal.Read(journalPath)
	if err != nil || len(before) == 0 || len(before) >= 12 {
		t.Fatalf("journal after the stop: %d records, %v", len(before), err)
	}
	if len(b) == 0 || b[len(b)-1] == '\n' {
		t.Logf("the last journal line is whole (%d bytes); nothing to repair", len(b))
	}
	o, errOut, code := runArena(t, "run", "-quiet", cfg)
	if code != 0 {
		t.Fatalf("resume: exit %d\n%s\n%s", code, o, errOut)
	}
	recs, err := journal.Read(journalPath)
	if err != nil || len(recs) != 12 {
		t.Fatalf("resumed journal: %d records, %v", len(recs), err)
	}
	seen := map[[2]int]int{}
	for i, r := range recs {
		seen[[2]int{r.Round, r.Game}]++
		if i < len(before) && (r.Round != before[i].Round || r.Game != before[i].Game || r.End != before[i].End) {
			t.Errorf("journaled game %d changed on resume", i)
		}
	}
	if len(seen) != 12 {
		t.Errorf("%d distinct games in 12 records", len(seen))
	}
	proctest.WaitNoEngines(t, self)
}
