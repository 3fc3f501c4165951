package remote

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// A stderr flood costs the connection a message per stderrEvery, not one
// per line, and the last message carries the engine's last lines. The
// flood comes from a real process writing one line per write, as an
// unbuffered stderr does.
func TestStderrFloodIsPaced(t *testing.T) {
	cmd := exec.Command("sh", "-c", `i=0; while [ $i -lt 20000 ]; do echo "flood $i" >&2; i=$((i+1)); done`)
	errp, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var (
		mu   sync.Mutex
		sent []message
	)
	send := func(m message) {
		mu.Lock()
		sent = append(sent, m)
		mu.Unlock()
	}
	var wg sync.WaitGroup
	wg.Add(1)
	(&Client{}).pumpStderr(&wg, errp, 7, send)
	cmd.Wait()
	if len(sent) == 0 {
		t.Fatal("nothing sent")
	}
	last := strings.Split(sent[len(sent)-1].L, "\n")
	if len(last) == 0 || last[len(last)-1] != "flood 19999" {
		t.Errorf("the last message ends %q, want the last line", last[len(last)-1])
	}
	lines := 0
	for _, m := range sent {
		n := len(strings.Split(m.L, "\n"))
		if n > stderrKept || m.T != "err" || m.S != 7 {
			t.Fatalf("a message of %d lines, type %q, engine %d", n, m.T, m.S)
		}
		lines += n
	}
	// Paced, 20,000 lines are one message per stderrEvery the loop runs
	// (a handful); unpaced, about one message per two lines were sent.
	if len(sent) > 2000 {
		t.Errorf("%d messages for 20,000 lines", len(sent))
	}
	t.Logf("%d messages, %d lines", len(sent), lines)
}

// A burst of stdout lines goes in few messages, every line in order; a
// move followed by half a line is sent without waiting for the rest.
func TestStdoutBurstIsBatched(t *testing.T) {
	cmd := exec.Command("sh", "-c", `i=0; while [ $i -lt 5000 ]; do echo "MESSAGE $i"; i=$((i+1)); done | cat; printf '7,7\nDEBUG'; sleep 1; echo ' done'`)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	got := make(chan message, 10000)
	var wg sync.WaitGroup
	wg.Add(1)
	go pumpStdout(&wg, out, 3, func(m message) { got <- m })
	var lines []string
	messages := 0
	deadline := time.After(10 * time.Second)
	for len(lines) == 0 || lines[len(lines)-1] != "7,7" {
		select {
		case m := <-got:
			messages++
			lines = append(lines, strings.Split(m.L, "\n")...)
		case <-deadline:
			t.Fatalf("no move after %d lines", len(lines))
		}
	}
	for i := 0; i < 5000; i++ {
		if want := fmt.Sprintf("MESSAGE %d", i); lines[i] != want {
			t.Fatalf("line %d is %q, want %q", i, lines[i], want)
		}
	}
	if len(lines) != 5001 {
		t.Fatalf("%d lines before the move, want 5000", len(lines)-1)
	}
	if messages > 2500 {
		t.Errorf("%d messages for 5,001 lines", messages)
	}
	wg.Wait()
	cmd.Wait()
	if m := <-got; m.L != "DEBUG done" {
		t.Errorf("last line %q", m.L)
	}
	t.Logf("%d messages for 5,001 lines", messages)
}

// The client's engine is started through the engine package: its exit is
// told with its status, and when the server closes its stream the engine
// and the helper it left running in its group are gone before the client
// reads on (the helper holds a lock the test then takes at once).
func TestClientEngineExitAndKill(t *testing.T) {
	if _, err := exec.LookPath("flock"); err != nil {
		t.Skip("needs flock(1) (util-linux) for the helper that holds a lock")
	}
	got := make(chan message, 100)
	send := func(m message) { got <- m }
	next := func(kind string) message {
		for deadline := time.After(30 * time.Second); ; {
			select {
			case m := <-got:
				if m.T == kind {
					return m
				}
			case <-deadline:
				t.Fatalf("no %q message", kind)
			}
		}
	}
	dir := t.TempDir()
	c := &Client{Engine: []string{"sh", "-c", "exit 3"}, Dir: dir}
	if _, err := c.start(1, send); err != nil {
		t.Fatal(err)
	}
	if m := next("exit"); m.S != 1 || m.C != 3 || m.L != "exit status 3" {
		t.Errorf("exit told as %+v, want code 3", m)
	}

	lock := filepath.Join(dir, "lock")
	c.Engine = []string{"sh", "-c", "flock " + lock + " sleep 600 & until [ -e " + lock + " ]; do sleep 0.01; done; echo ready; wait"}
	e, err := c.start(2, send)
	if err != nil {
		t.Fatal(err)
	}
	if m := next("out"); m.L != "ready" {
		t.Fatalf("read %q, want ready", m.L)
	}
	f, err := os.Open(lock)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for deadline := time.Now().Add(30 * time.Second); syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil; time.Sleep(10 * time.Millisecond) {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		if time.Now().After(deadline) {
			e.kill()
			t.Fatal("the helper never took the lock")
		}
	}
	e.kill()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Errorf("the engine's helper outlived its stream: the lock is still held (%v)", err)
	}
	select {
	case m := <-got:
		if m.T == "exit" {
			t.Errorf("an engine the server closed was told as exited: %+v", m)
		}
	case <-time.After(100 * time.Millisecond):
	}
}
