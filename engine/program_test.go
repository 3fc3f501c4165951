package engine

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// sleepers is the pids of the live processes running `sleep arg`.
func sleepers(arg string) []int {
	var pids []int
	cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, f := range cmdlines {
		b, err := os.ReadFile(f)
		if err != nil || !strings.HasSuffix(string(b), "sleep\x00"+arg+"\x00") {
			continue
		}
		if pid, err := strconv.Atoi(filepath.Base(filepath.Dir(f))); err == nil && !procGone(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// A Program's helpers die with Kill: the one in its process group always,
// the one that left the group (setsid) where the kernel gave the program a
// PID namespace, as it does an engine. Nothing is left to reap.
func TestProgramKillTakesItsHelpers(t *testing.T) {
	arg := fmt.Sprintf("1%d.%d", os.Getpid()%1000, time.Now().Nanosecond()%1000) // this test's own sleeps
	p, err := StartProgram("sh", []string{"-c", "sleep " + arg + " & setsid sleep " + arg + " </dev/null >/dev/null 2>&1 & echo ready; wait"}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if l, err := bufio.NewReader(p.Stdout).ReadString('\n'); l != "ready\n" {
		p.Kill()
		t.Fatalf("read %q, %v", l, err)
	}
	for end := in(10 * time.Second); len(sleepers(arg)) < 2; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			p.Kill()
			t.Fatalf("the helpers did not start: %v", sleepers(arg))
		}
	}
	p.Kill()
	left := sleepers(arg)
	if p.g.ns == noNS {
		t.Logf("no PID namespace here: the helper that left the group outlives the program (doc.go): %v", left)
		if len(left) > 1 {
			t.Errorf("the helper in the program's group outlived Kill: %v", left)
		}
		for _, pid := range left {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		return
	}
	if len(left) > 0 {
		for _, pid := range left {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		t.Fatalf("helpers outlived Kill: %v", left)
	}
	if code, detail := p.Wait(); code != -9 || detail != "signal: killed" {
		t.Errorf("Wait: %d %q, want -9 \"signal: killed\"", code, detail)
	}
}

// Wait reports the program's own exit and its lines come through its pipes.
func TestProgramExitAndPipes(t *testing.T) {
	p, err := StartProgram("sh", []string{"-c", "read l; echo out $l; echo err $l >&2; exit 3"}, "")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Kill()
	fmt.Fprintln(p.Stdin, "hello")
	out, _ := bufio.NewReader(p.Stdout).ReadString('\n')
	errl, _ := bufio.NewReader(p.Stderr).ReadString('\n')
	if out != "out hello\n" || errl != "err hello\n" {
		t.Errorf("stdout %q, stderr %q", out, errl)
	}
	if code, detail := p.Wait(); code != 3 || detail != "exit status 3" {
		t.Errorf("Wait: %d %q, want 3 \"exit status 3\"", code, detail)
	}
	if _, err := StartProgram(filepath.Join(t.TempDir(), "none"), nil, ""); err == nil {
		t.Error("a missing program started")
	}
}
