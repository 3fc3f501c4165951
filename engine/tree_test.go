package engine

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// threadForks forks a child from each of three threads, and on a line of
// input ends those threads (their children go to a thread that is left)
// and forks two more from two new threads.
const threadForks = `#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
static int gate[2];
static void *forker(void *keep) {
	if (fork() == 0) { close(gate[1]); pause(); _exit(0); }
	char b;
	if (keep) for (;;) pause();
	read(gate[0], &b, 1); /* ends when the gate closes */
	return 0;
}
int main(void) {
	pthread_t t[3], u[2];
	char line[64];
	pipe(gate);
	for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, forker, 0);
	sleep(1);
	printf("ready\n"); fflush(stdout);
	if (!fgets(line, sizeof line, stdin)) return 0;
	close(gate[1]);
	for (int i = 0; i < 3; i++) pthread_join(t[i], 0);
	for (int i = 0; i < 2; i++) pthread_create(&u[i], 0, forker, (void *)1);
	sleep(1);
	printf("ready\n"); fflush(stdout);
	while (fgets(line, sizeof line, stdin)) {}
	return 0;
}
`

// The process tree read through the leader's held files (treeOf, after
// every move) sees the children that threads other than the main one
// forked, and sees them again after those threads ended and others forked
// more: the held children files of ended threads fail, and the threads are
// listed anew.
func TestTreeSeesWhatThreadsForkAsThreadsComeAndGo(t *testing.T) {
	cmd := exec.Command(compileC(t, "forks", threadForks))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); cmd.Wait() }()
	stuck := time.AfterFunc(time.Minute, func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }) // a read never waits for ever
	defer stuck.Stop()
	r := bufio.NewReader(out)
	ready := func() {
		if l, err := r.ReadString('\n'); err != nil || strings.TrimSpace(l) != "ready" {
			t.Fatalf("the program said %q, %v", l, err)
		}
	}
	var lf leaderFiles
	defer lf.close()
	pid := cmd.Process.Pid
	ready()
	if got := treeOf(pid, &lf); len(got) != 4 || got[0] != pid {
		t.Errorf("three threads forked one child each: the tree is %v, want the leader %d and three children", got, pid)
	}
	io.WriteString(in, "next\n")
	ready()
	got := treeOf(pid, &lf)
	if len(got) != 6 || slices.Compare(got[:1], []int{pid}) != 0 {
		t.Errorf("after those threads ended and two new ones forked: the tree is %v, want the leader %d and five children", got, pid)
	}
	if want := tree(pid); !slices.Equal(sorted(got), sorted(want)) {
		t.Errorf("through the held files %v, by path %v", got, want)
	}
}

func sorted(s []int) []int {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// compileC builds the C program src (with -pthread) into the test's
// temporary folder and returns its path; the test is skipped where there is
// no C compiler.
func compileC(t *testing.T, name, src string) string {
	t.Helper()
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no cc")
	}
	dir := t.TempDir()
	file, bin := filepath.Join(dir, name+".c"), filepath.Join(dir, name)
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(cc, "-O1", "-pthread", "-o", bin, file).CombinedOutput(); err != nil {
		t.Skipf("cc: %v: %s", err, out)
	}
	return bin
}
