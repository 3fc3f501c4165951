package engine

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"gomoku-arena/internal/proctest"
)

// freezeArbiterEnv makes the test binary an arbiter (TestMain) that
// starts two engines with FreezeIdle, plays a move with each and freezes
// them, saying each stage on stdout, then either waits ("hold") or
// freezes and thaws them without end ("cycle"), until it is killed.
const freezeArbiterEnv = "ENGINE_TEST_FREEZE_ARBITER"

func freezeArbiter(how string) int {
	sandbox, mode, _ := strings.Cut(how, ",")
	var es []*Engine
	fmt.Println("starting")
	for i := range 2 {
		spec := faultySpec("ponder")
		spec.Name = fmt.Sprintf("frozen%d", i)
		spec.Limits.FreezeIdle = true
		dir, err := os.MkdirTemp("", "engine-frozen-")
		if err != nil {
			fmt.Println(err)
			return 1
		}
		spec.Dir = dir
		if sandbox == "bwrap" {
			bw, err := Bwrap()
			if err != nil {
				fmt.Println("skip:", err)
				return 0
			}
			spec.Sandbox = &Sandbox{Bwrap: bw}
		}
		e, err := Start(spec)
		if err != nil {
			fmt.Println(err)
			return 1
		}
		if err := e.NewGame(15, nil, in(generous)); err != nil {
			fmt.Println(err)
			return 1
		}
		if r := e.Begin(in(generous)); r.Fault != "" {
			fmt.Println(r.Fault, r.Detail)
			return 1
		}
		es = append(es, e)
	}
	fmt.Println("started")
	for _, e := range es {
		e.Freeze()
	}
	fmt.Println("frozen")
	for mode == "cycle" {
		for _, e := range es {
			e.Thaw()
			e.Freeze()
		}
	}
	select {}
}

// TestFrozenEnginesDieWithTheArbiter kills (SIGKILL) an arbiter whose
// engines run with FreezeIdle, at several instants: while they start,
// once they played, while they are frozen, and at an arbitrary moment
// while they are frozen and thawed over and over; unconfined and under
// bubblewrap. No engine process may be left, frozen or not.
func TestFrozenEnginesDieWithTheArbiter(t *testing.T) {
	what, err := Freezer()
	if err != nil {
		t.Skipf("no cgroup freezer here, nothing stays frozen (engines are stopped by SIGSTOP, which SIGKILL ends): %v", err)
	}
	t.Logf("freezer: %s", what)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, sandbox := range []string{"none", "bwrap"} {
		for _, at := range []string{"starting", "started", "frozen", "cycle"} {
			t.Run(sandbox+"/"+at, func(t *testing.T) {
				if sandbox == "bwrap" {
					if _, err := Bwrap(); err != nil {
						t.Skip(err)
					}
				}
				mode, stage := "hold", at
				if at == "cycle" {
					mode, stage = "cycle", "frozen"
				}
				cmd := startArbiter(t, self, sandbox+","+mode, stage)
				if at == "cycle" {
					time.Sleep(300 * time.Millisecond) // somewhere in the freezing and thawing
				}
				cmd.Process.Signal(syscall.SIGKILL)
				cmd.Wait()
				proctest.WaitNoEngines(t, self)
				for _, p := range proctest.Engines(self) { // leave none to the next test
					var pid int
					fmt.Sscanf(p, "%d:", &pid)
					thawAndKill(pid)
				}
			})
		}
	}
}

// TestNextArbiterEndsFrozenOrphans: an arbiter SIGKILLed with its
// watchdog (a whole service's processes killed at once) leaves its engines
// frozen; the next arbiter on the machine ends them before it makes its
// first cgroup.
func TestNextArbiterEndsFrozenOrphans(t *testing.T) {
	if _, err := Freezer(); err != nil {
		t.Skipf("no cgroup freezer here, nothing stays frozen: %v", err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	first := startArbiter(t, self, "none,hold", "frozen")
	tag := fmt.Sprintf(".%d", first.Process.Pid)
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		b, _ := os.ReadFile("/proc/" + d.Name() + "/cmdline")
		args := strings.Split(string(b), "\x00")
		if len(args) > 4 && args[3] == "arena-watchdog" && strings.HasSuffix(args[4], tag) {
			var pid int
			fmt.Sscan(d.Name(), &pid)
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	first.Process.Signal(syscall.SIGKILL)
	first.Wait()
	time.Sleep(time.Second)
	left := proctest.Engines(self)
	if len(left) == 0 {
		t.Fatal("the first arbiter's engines died with it and its watchdog: nothing left to test")
	}
	second := startArbiter(t, self, "none,hold", "started")
	defer second.Wait()
	defer second.Process.Signal(syscall.SIGKILL)
	for _, p := range left {
		var pid int
		fmt.Sscanf(p, "%d:", &pid)
		for i := 0; i < 100 && syscall.Kill(pid, 0) == nil && !zombie(pid); i++ {
			time.Sleep(20 * time.Millisecond)
		}
		if syscall.Kill(pid, 0) == nil && !zombie(pid) {
			t.Errorf("the next arbiter left the dead one's engine %s", p)
			thawAndKill(pid)
		}
	}
}

func zombie(pid int) bool {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	return strings.Contains(string(b), ") Z ")
}

// startArbiter starts the test binary as freezeArbiter with how and waits
// until it says stage.
func startArbiter(t *testing.T, self, how, stage string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(self, "-test.run=^$")
	cmd.Env = append(os.Environ(), freezeArbiterEnv+"="+how)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(out)
	for lines.Scan() && lines.Text() != stage {
		if strings.HasPrefix(lines.Text(), "skip:") {
			cmd.Process.Kill()
			cmd.Wait()
			t.Skip(lines.Text())
		}
	}
	go io.Copy(io.Discard, out)
	return cmd
}

// thawAndKill ends process pid of a failed test, frozen or not.
func thawAndKill(pid int) {
	syscall.Kill(pid, syscall.SIGKILL)
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cgroup", pid))
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.SplitN(l, ":", 3); len(f) == 3 && strings.Contains(f[1], "freezer") {
			os.WriteFile("/sys/fs/cgroup/freezer"+f[2]+"/freezer.state", []byte("THAWED"), 0o644)
		}
	}
}
