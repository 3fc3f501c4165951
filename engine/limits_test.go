package engine

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
)

// noteWith returns the first note of r that starts with prefix.
func noteWith(r Reply, prefix string) (string, bool) {
	for _, n := range r.Notes {
		if strings.HasPrefix(n, prefix) {
			return n, true
		}
	}
	return "", false
}

func TestMemoryLimitSeesAHog(t *testing.T) {
	const limit = 64 << 20
	cases := []struct {
		name string
		args []string
		over bool
	}{
		{"plain", nil, false},
		{"hog", []string{"hog=120000000"}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			spec := faultySpec(tc.args...)
			spec.Limits.Memory = limit
			e, err := Start(spec)
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			g := newGame(t, e, 15)
			g.play(e, 1, generous)
			if r := g.replies[0]; r.Fault != "" {
				t.Fatalf("move: %v %s", r.Fault, r.Detail)
			}
			used, procs := e.Memory()
			over, detail := e.CheckMemory()
			t.Logf("memory %d MiB in %d processes; over=%v %s", used>>20, procs, over, detail)
			if over != tc.over || procs < 1 {
				t.Fatalf("over = %v (%s), want %v", over, detail, tc.over)
			}
		})
	}
}

func TestHardMemoryLimitStopsAHog(t *testing.T) {
	if raceDetector {
		t.Skip("the race runtime alone exceeds a 150 MiB data limit")
	}
	spec := faultySpec("hog=300000000")
	spec.Limits.HardMemory = 150 << 20
	e, err := Start(spec)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	g := newGame(t, e, 15)
	g.play(e, 1, generous)
	if r := g.replies[0]; r.Fault != FaultExit {
		t.Fatalf("a 300 MB hog under a 150 MiB RLIMIT_DATA answered %v %q %s", r.Fault, r.Line, r.Detail)
	}
}

// pondered plays one move and returns the engine's "pondered Nms" report,
// after the engine has been idle (frozen or not) for idle.
func pondered(t *testing.T, e *Engine, g *game, idle time.Duration, freeze bool) int {
	t.Helper()
	if freeze {
		e.Freeze()
	}
	time.Sleep(idle)
	e.Thaw()
	g.play(e, len(g.replies)+1, generous)
	r := g.replies[len(g.replies)-1]
	n, ok := noteWith(r, "MESSAGE pondered ")
	if r.Fault != "" || !ok {
		t.Fatalf("move: %v %s %v", r.Fault, r.Detail, r.Notes)
	}
	ms, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(n, "MESSAGE pondered "), "ms"))
	if err != nil {
		t.Fatal(n)
	}
	return ms
}

func TestFreezeStopsPondering(t *testing.T) {
	spec := faultySpec("ponder")
	spec.Limits.FreezeIdle = true
	e, err := Start(spec)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	g := newGame(t, e, 15)
	g.play(e, 1, generous)
	const idle = 400 * time.Millisecond
	free := pondered(t, e, g, idle, false)
	frozen := pondered(t, e, g, idle, true)
	t.Logf("pondered %dms idle and free, %dms idle and frozen", free, frozen)
	if free < 100 {
		t.Skipf("the engine hardly ran in %v even unfrozen (%dms): machine too busy to tell", idle, free)
	}
	if frozen*4 > free {
		t.Errorf("frozen engine pondered %dms, free one %dms", frozen, free)
	}
}

func TestFreezeIsOffUnlessAsked(t *testing.T) {
	e := startFaulty(t, "ponder")
	g := newGame(t, e, 15)
	g.play(e, 1, generous)
	if free := pondered(t, e, g, 300*time.Millisecond, true); free == 0 {
		t.Errorf("Freeze stopped an engine whose limits do not ask for it")
	}
}

// alive reports which of pids still run (zombies do not count).
func alive(pids []int) []int {
	var out []int
	for _, pid := range pids {
		st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err == nil && !strings.Contains(string(st), ") Z ") {
			out = append(out, pid)
		}
	}
	return out
}

func TestForkBombIsBoundedAndCleanedUp(t *testing.T) {
	cases := []struct {
		name  string
		limit int
	}{
		{"no limit", 0},
		{"process limit", 16},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			spec := faultySpec("fork-bomb=200")
			spec.Limits.Processes = tc.limit
			e, err := Start(spec)
			if err != nil {
				t.Fatal(err)
			}
			g := newGame(t, e, 15)
			g.play(e, 1, generous)
			r := g.replies[0]
			msg, _ := noteWith(r, "MESSAGE forked")
			var made int
			if _, err := fmt.Sscanf(msg, "MESSAGE forked %d of", &made); err != nil || r.Fault != "" {
				t.Fatalf("move: %v %s; notes %v", r.Fault, r.Detail, r.Notes)
			}
			pids := tree(e.Pid())
			if tc.limit > 0 && made > tc.limit && os.Geteuid() == 0 && (e.current().cg == nil || e.current().cg.pids == "") {
				e.Close()
				t.Skip("root ignores RLIMIT_NPROC and no pids cgroup could be made here")
			}
			t.Logf("%s; %d processes in the tree", msg, len(pids))
			switch {
			case tc.limit == 0 && made != 200:
				t.Errorf("forked %d of 200 without a limit", made)
			case tc.limit > 0 && made > tc.limit:
				t.Errorf("forked %d with a limit of %d more processes", made, tc.limit)
			}
			e.Close()
			time.Sleep(50 * time.Millisecond)
			if left := alive(pids); len(left) > 0 {
				t.Errorf("%d processes of the engine survive Close: %v", len(left), left)
				for _, pid := range left {
					syscall.Kill(pid, syscall.SIGKILL)
				}
			}
		})
	}
}

// cpuTicks is process pid's user + system time, in clock ticks.
func cpuTicks(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
	u, _ := strconv.Atoi(f[11])
	s, _ := strconv.Atoi(f[12])
	return u + s
}

// The cgroup v2 freezer (cgroup.freeze, and cgroup.events to know it is
// done), which Freeze uses on machines without the v1 freezer, stops a
// spinning process and lets it go again: exercised here in the v2
// hierarchy whatever the machine's Freeze would choose.
func TestTheCgroupV2FreezerStopsAndResumes(t *testing.T) {
	spin := exec.Command("sh", "-c", "while :; do :; done")
	if err := spin.Start(); err != nil {
		t.Skipf("no sh: %v", err)
	}
	var cg *cgroups
	defer func() { spin.Process.Kill(); spin.Wait(); cg.remove() }() // emptied first, the cgroup goes at once
	pid := spin.Process.Pid
	dir, err := makeCgroup("", pid)
	if err != nil {
		t.Skipf("no cgroup v2 folder could be made here: %v", err)
	}
	cg = &cgroups{dirs: []string{dir}, freeze: filepath.Join(dir, "cgroup.freeze")}
	if err := cg.join(pid); err != nil {
		t.Skipf("the process could not join %s: %v", dir, err)
	}
	ran := func() int { // ticks run in 300 ms
		t0 := cpuTicks(t, pid)
		time.Sleep(300 * time.Millisecond)
		return cpuTicks(t, pid) - t0
	}
	if free := ran(); free < 3 {
		t.Skipf("the spinning process ran %d ticks in 300 ms unfrozen: machine too busy to tell", free)
	}
	if err := cg.setFrozen(true); err != nil {
		t.Fatal(err)
	}
	if ok, _ := fieldIs(filepath.Join(dir, "cgroup.events"), "frozen", "1"); !ok {
		t.Errorf("cgroup.events does not say frozen after setFrozen")
	}
	if frozen := ran(); frozen > 1 {
		t.Errorf("a frozen process ran %d ticks in 300 ms", frozen)
	}
	if err := cg.setFrozen(false); err != nil {
		t.Fatal(err)
	}
	if thawed := ran(); thawed < 3 {
		t.Errorf("a thawed process ran %d ticks in 300 ms", thawed)
	}
}
