package main

import (
	"bytes"
	"fmt"
	"os"
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

// matchArgs is a deterministic authors' match: the faulty engine plays the
// same moves every time, and greedy answers the same way.
func matchArgs(out string, extra ...string) []string {
	args := []string{"match", "-quiet", "-rule", "freestyle", "-games", "8", "-concurrency", "2", "-tc", "30s", "-out", out}
	args = append(args, extra...)
	return append(args, "slow=builtin:faulty think=30ms", "builtin:greedy")
}

// An authors' match killed mid-run continues with the same command and ends
// with exactly the games of an uninterrupted run, each game once, and its
// game files are written once; a changed command is refused.
func TestKilledMatchContinues(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "m")
	cmd, buf := startArena(t, nil, matchArgs(out)...)
	waitJournal(t, cmd, buf, filepath.Join(out, "journal.jsonl"), 3)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	files, _ := filepath.Glob(filepath.Join(out, "games", "*.sgf"))
	before := map[string]time.Time{}
	for _, f := range files {
		if st, err := os.Stat(f); err == nil {
			before[f] = st.ModTime()
		}
	}

	if o, errOut, code := runArena(t, matchArgs(out, "-tc", "20s")...); code == 0 || !strings.Contains(errOut, "clock.match_ms: 30000 in the folder, 20000 now") {
		t.Errorf("a changed command: exit %d, want a refusal naming the clock\n%s%s", code, o, errOut)
	}
	o, errOut, code := runArena(t, matchArgs(out)...)
	if code != 0 || !strings.Contains(o, "continuing") {
		t.Fatalf("resume: exit %d\n%s%s", code, o, errOut)
	}
	// Once finished, the same command plays nothing more.
	if o, errOut, code := runArena(t, matchArgs(out)...); code != 0 || !strings.Contains(o, "8 games already finished") {
		t.Fatalf("a finished match again: exit %d\n%s%s", code, o, errOut)
	}
	resumed, err := journal.Read(filepath.Join(out, "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	eachGameOnce(t, resumed)
	for f, mod := range before {
		if st, err := os.Stat(f); err != nil || !st.ModTime().Equal(mod) {
			t.Errorf("%s was rewritten by the continued match", filepath.Base(f))
		}
	}
	files, _ = filepath.Glob(filepath.Join(out, "games", "*.psq"))
	if len(files) != 8 {
		t.Errorf("%d psq files, want 8", len(files))
	}

	whole := filepath.Join(dir, "whole")
	if o, errOut, code := runArena(t, matchArgs(whole)...); code != 0 {
		t.Fatalf("uninterrupted: exit %d\n%s%s", code, o, errOut)
	}
	uninterrupted, err := journal.Read(filepath.Join(whole, "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if a, b := gamesByNumber(resumed), gamesByNumber(uninterrupted); a != b {
		t.Errorf("the continued match differs from an uninterrupted one:\n%s\nwant\n%s", a, b)
	}
}

var finishTime = regexp.MustCompile(`\s+\d+(\.\d+)?s$`)

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

// A second match on the folder of a running one is refused at once, naming
// the running one's pid, and leaves its journal alone.
func TestSecondMatchOnAFolderIsRefused(t *testing.T) {
	out := filepath.Join(t.TempDir(), "m")
	cmd, buf := startArena(t, nil, matchArgs(out)...)
	path := filepath.Join(out, "journal.jsonl")
	waitJournal(t, cmd, buf, path, 1)
	o, errOut, code := runArena(t, matchArgs(out)...)
	want := fmt.Sprintf("in use by another arena (pid %d)", cmd.Process.Pid)
	if code != exitError || !strings.Contains(errOut, want) {
		t.Errorf("exit %d, want %d and %q:\n%s%s", code, exitError, want, o, errOut)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the running match: %v\n%s", err, buf)
	}
	recs, err := journal.Read(path)
	if err != nil || len(recs) != 8 {
		t.Fatalf("journal: %v, %d records, want 8", err, len(recs))
	}
	eachGameOnce(t, recs)
}
