package remote

import (
	"os/exec"
	"strings"
	"sync"
	"testing"
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
