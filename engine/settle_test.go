package engine

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"gomoku-arena/clock"
)

// On probation an engine is settled before each command, except one whose
// leader runs one thread and has no child (lone): however busy its thread
// still is, that thread is the one that reads the command, so the command
// goes out at once. One with a child (or a thread more) is looked at and
// waited for. Each engine below spins, on its one thread, from its answer
// to START on.
func TestOnProbationALoneEngineIsNotWaitedFor(t *testing.T) {
	t.Parallel()
	spin := `while read -r l; do case "$l" in START*) echo OK; while :; do :; done;; esac; done`
	for _, c := range []struct {
		name, script string
		lone         bool
	}{
		{"one thread", spin, true},
		{"with a child", "sleep 600 & " + spin, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e, err := Start(Spec{Name: "sh", Command: "/bin/sh", Args: []string{"-c", c.script}, StartTimeout: generous,
				WriteTimeout: generous, CloseGrace: 100 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { e.Close() })
			newGame(t, e, 15)
			if settle, onProbation := e.settles(); !settle || !onProbation {
				t.Fatalf("settles() = %v, %v; want the engine on probation", settle, onProbation)
			}
			p := e.current()
			if got := p.lone(); got != c.lone {
				t.Errorf("lone() = %v, want %v", got, c.lone)
			}
			if waited := e.settleBefore(p, in(10*time.Second)); waited == c.lone {
				t.Errorf("settleBefore waited: %v, want %v", waited, !c.lone)
			}
		})
	}
}

// wakeUps is how many times the threads of this process went to sleep
// (voluntary context switches), all threads summed: what ends a sleep is a
// wake-up.
func wakeUps(t *testing.T) int {
	t.Helper()
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Skip(err)
	}
	n := 0
	for _, task := range tasks {
		b, err := os.ReadFile("/proc/self/task/" + task.Name() + "/status")
		if err != nil {
			continue // ended meanwhile
		}
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "voluntary_ctxt_switches:"); ok {
				c, _ := strconv.Atoi(strings.TrimSpace(v))
				n += c
			}
		}
	}
	return n
}

// While an engine thinks, the arbiter sleeps: the request's wait is one
// poll(2) until the deadline or the engine's exit, the pipe sweeper sleeps
// when no pipe is idle, and the stall heartbeat beats every clock.Beat. A
// wait cut into 20 ms slices with a 5 ms sweep and a 10 ms beat woke the
// process about 2,800 times a second (the Go runtime's monitor polls every
// 20 µs for a millisecond after a thread comes back from a long system
// call); here an engine thinks 2 s.
func TestAThinkingEngineLeavesTheArbiterAsleep(t *testing.T) {
	script := `while read -r l; do case "$l" in START*) echo OK;; BEGIN*) sleep 2; echo 7,7;; esac; done`
	e, err := Start(Spec{Name: "sh", Command: "/bin/sh", Args: []string{"-c", script}, StartTimeout: generous,
		WriteTimeout: generous, CloseGrace: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	newGame(t, e, 15)
	before := wakeUps(t)
	r := e.Begin(in(generous))
	after := wakeUps(t)
	if r.Fault != "" {
		t.Fatalf("%s %s", r.Fault, r.Detail)
	}
	// A beat wakes the heartbeat's thread, the runtime's monitor (which
	// sleeps until the next timer) and a thread or two of the scheduler:
	// about 6.5 wake-ups a beat here, quiet or beside stress-ng.
	if n, most := after-before, 10*int(r.Elapsed/clock.Beat)+60; n > most {
		t.Errorf("the arbiter woke %d times while the engine thought for %v, want at most %d", n, r.Elapsed.Round(time.Millisecond), most)
	} else {
		t.Logf("%d wake-ups in %v", n, r.Elapsed.Round(time.Millisecond))
	}
}

// vforkWait is a program that says "ready", then waits uninterruptibly on
// its one thread (state D: a vfork parent until its child execs or exits)
// for about a second while its child sleeps.
const vforkWait = `#include <stdio.h>
#include <time.h>
#include <unistd.h>
int main(void) {
	printf("ready\n");
	fflush(stdout);
	if (vfork() == 0) {
		struct timespec ts = {1, 0};
		nanosleep(&ts, 0);
		_exit(0);
	}
	return 0;
}
`

// A look counts a thread in an uninterruptible wait as busy: whatever it
// waits for (a page of its program read from disk, memory reclaimed, a
// child's exec), it is not waiting for input, and a command written then
// may land inside the window that drops it. Only running or ready threads
// counted before, and a look that found an engine's lingering thread
// paging in said the engine was settled.
func TestALookSeesAThreadInAnUninterruptibleWaitAsBusy(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(compileC(t, "vfork", vforkWait))
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	if l, err := bufio.NewReader(out).ReadString('\n'); err != nil || l != "ready\n" {
		t.Fatalf("the program said %q, %v", l, err)
	}
	pid := strconv.Itoa(cmd.Process.Pid)
	for range 100 { // until the vfork is under way
		if s, _ := statFields(mustRead(t, "/proc/"+pid+"/stat")); s == 'D' {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if s, _ := statFields(mustRead(t, "/proc/"+pid+"/stat")); s != 'D' {
		t.Skipf("the vfork parent is in state %c, not D, on this kernel", s)
	}
	lk := new(looker)
	if busy, _, _ := lk.look(cmd.Process.Pid, false); !busy {
		t.Errorf("a process whose thread waits uninterruptibly looks settled")
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
