package main

import (
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"gomoku-arena/results/journal"
	"gomoku-arena/results/record"
)

// Two runs of one event started at once: exactly one plays it; the other is
// refused before the first ends, naming the first's pid; the journal is the
// event's and valid.
func TestTwoRunsOnOneFolder(t *testing.T) {
	dir := t.TempDir()
	cfg := writeEvent(t, dir, "twice", "")
	a, aOut := startArena(t, nil, "run", "-quiet", cfg)
	b, bOut := startArena(t, nil, "run", "-quiet", cfg)
	exited := make(chan *exec.Cmd, 2)
	for _, c := range []*exec.Cmd{a, b} {
		go func() { c.Wait(); exited <- c }()
	}
	first, second := <-exited, <-exited
	outs := map[*exec.Cmd]*bytes.Buffer{a: aOut, b: bOut}
	if first.ProcessState.Success() || !second.ProcessState.Success() {
		t.Fatalf("want the refused run to end first and the other to play the event:\nfirst (%v):\n%s\nsecond (%v):\n%s",
			first.ProcessState, outs[first], second.ProcessState, outs[second])
	}
	want := fmt.Sprintf("in use by another arena (pid %d)", second.Process.Pid)
	if !strings.Contains(outs[first].String(), want) {
		t.Errorf("the refusal does not say %q:\n%s", want, outs[first])
	}
	recs, err := journal.Read(filepath.Join(dir, "out", "journal.jsonl"))
	if err != nil || len(recs) != 12 {
		t.Fatalf("journal: %v, %d records, want 12", err, len(recs))
	}
	eachGameOnce(t, recs)
}

// A run killed with SIGKILL holds its folder no longer: the same command
// continues at once.
func TestKilledRunLeavesNoLock(t *testing.T) {
	dir := t.TempDir()
	cfg := writeEvent(t, dir, "killed-lock", "")
	cmd, out := startArena(t, nil, "run", "-quiet", cfg)
	waitJournal(t, cmd, out, filepath.Join(dir, "out", "journal.jsonl"), 1)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if o, errOut, code := runArena(t, "run", "-quiet", cfg); code != 0 {
		t.Fatalf("resume right after the kill: exit %d\n%s%s", code, o, errOut)
	}
	recs, err := journal.Read(filepath.Join(dir, "out", "journal.jsonl"))
	if err != nil || len(recs) != 12 {
		t.Fatalf("journal: %v, %d records, want 12", err, len(recs))
	}
	eachGameOnce(t, recs)
}

// waitJournal waits until the journal at path holds n records.
func waitJournal(t *testing.T, cmd *exec.Cmd, out *bytes.Buffer, path string, n int) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		if recs, _ := journal.Read(path); len(recs) >= n {
			return
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("not %d games journaled in time:\n%s", n, out)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func eachGameOnce(t *testing.T, recs []*record.Record) {
	t.Helper()
	seen := map[[2]int]int{}
	for _, r := range recs {
		seen[[2]int{r.Round, r.Game}]++
	}
	for k, n := range seen {
		if n != 1 {
			t.Errorf("round %d game %d journaled %d times", k[0], k[1], n)
		}
	}
}

var finishTime = regexp.MustCompile(`  \d+(\.\d+)? (ms|s|min|h)( \d+ (s|min))?$`)

// gamesByNumber lists the games by number: players, result and moves.
func gamesByNumber(recs []*record.Record) string {
	lines := make([]string, len(recs)+1)
	for _, r := range recs {
		if r.Game >= 0 && r.Game < len(lines) {
			var points []string
			for _, m := range r.Moves {
				points = append(points, fmt.Sprintf("%d,%d", m.Point.X, m.Point.Y))
			}
			lines[r.Game] = finishTime.ReplaceAllString(gameLine(r), "") + "  " + strings.Join(points, " ")
		}
	}
	return strings.Join(lines, "\n")
}
