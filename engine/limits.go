package engine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// DefaultMaxMemory is Gomocup's memory limit, used by events that set none.
const DefaultMaxMemory = 350 << 20

// Limits are what an engine may use. The zero value limits nothing.
//
// An engine's "memory" is the larger of two figures over its processes (the
// engine and every descendant: with a PID namespace all the processes in
// it, otherwise those still reachable through the process tree):
//
//   - the peak resident set (VmHWM in /proc/PID/status) of its largest
//     process: the physical memory that process has ever held, code and
//     libraries included, even if it freed it before the measurement;
//   - the proportional set size (Pss in /proc/PID/smaps_rollup) summed over
//     its processes now: resident memory with pages shared by k processes
//     counted 1/k each, so helpers count what they add, and forked copies
//     do not count their parent's pages again.
//
// A single-process engine is thus measured by its peak, as Gomocup does. A
// helper that came and went between two measurements is not seen; the
// kernel-enforced HardMemory is the safeguard for that.
type Limits struct {
	// Memory is checked by the arbiter after every move (CheckMemory); an
	// engine over it forfeits. 0 means none.
	Memory int64
	// HardMemory, if set, is RLIMIT_DATA on every process of the engine:
	// allocations past it fail inside the engine (it usually crashes). It
	// counts private writable memory, not the address space (Go and Java
	// reserve gigabytes they never touch, so RLIMIT_AS would stop them at
	// start).
	HardMemory int64
	// Processes, if set, bounds the engine's processes and threads (a
	// sandbox launcher counts too). Where the arbiter may make a pids cgroup
	// (cgroup v1, or v2 with the pids controller delegated; as root, say),
	// the engine runs in its own with pids.max = Processes, which holds for
	// every user. Otherwise RLIMIT_NPROC is set to its user's current count
	// of threads plus Processes, which the kernel does not apply to root.
	Processes int
	// FreezeIdle makes Freeze stop the engine's processes (SIGSTOP) while
	// the opponent is on move, so it cannot think on the opponent's time.
	FreezeIdle bool
}

// tree lists the engine's processes: the leader and every descendant, by
// the children files of each thread (in a PID namespace the leader is its
// init, so orphans inside stay in its tree). Best effort: a process may
// fork or exit while it is read.
func tree(leader int) []int {
	pids := []int{leader}
	seen := map[int]bool{leader: true}
	for i := 0; i < len(pids) && len(pids) < 100000; i++ {
		base := "/proc/" + strconv.Itoa(pids[i]) + "/task/"
		tasks, err := os.ReadDir(base)
		if err != nil {
			continue
		}
		for _, t := range tasks {
			b, err := os.ReadFile(base + t.Name() + "/children")
			if err != nil {
				continue
			}
			for _, f := range strings.Fields(string(b)) {
				if c, err := strconv.Atoi(f); err == nil && !seen[c] {
					seen[c] = true
					pids = append(pids, c)
				}
			}
		}
	}
	return pids
}

// statusKB reads a "Key: N kB" field of /proc/PID/status.
func statusKB(pid int, key string) (int64, bool) {
	return fieldKB("/proc/"+strconv.Itoa(pid)+"/status", key)
}

func fieldKB(file, key string) (int64, bool) {
	b, err := os.ReadFile(file)
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, key+":"); ok {
			n, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n << 10, err == nil
		}
	}
	return 0, false
}

// Memory is the engine's memory now, as Limits defines it (bytes), and the
// number of its processes; 0, 0 when no process runs.
func (e *Engine) Memory() (bytes int64, procs int) {
	p := e.current()
	if p == nil || !p.alive() {
		return 0, 0
	}
	var peak, pss int64
	for _, pid := range tree(p.pid) {
		hwm, ok := statusKB(pid, "VmHWM")
		if !ok {
			continue // gone, or a zombie
		}
		procs++
		peak = max(peak, hwm)
		if n, ok := rollupKB(pid, "Pss"); ok {
			pss += n
		} else {
			pss += hwm
		}
	}
	return max(peak, pss), procs
}

// rollupKB reads a "Key: N kB" field of /proc/PID/smaps_rollup.
func rollupKB(pid int, key string) (int64, bool) {
	return fieldKB("/proc/"+strconv.Itoa(pid)+"/smaps_rollup", key)
}

// CheckMemory measures the engine and says whether it is over
// Limits.Memory, with a detail for the record.
func (e *Engine) CheckMemory() (over bool, detail string) {
	limit := e.spec.Limits.Memory
	if limit <= 0 {
		return false, ""
	}
	used, procs := e.Memory()
	if used <= limit {
		return false, ""
	}
	return true, fmt.Sprintf("%s in %d processes, limit %s", mib(used), procs, mib(limit))
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// Limits are the engine's limits from its Spec.
func (e *Engine) Limits() Limits { return e.spec.Limits }

// Freeze stops every process of the engine (SIGSTOP to its group and to
// each process of its tree, which also reaches helpers that left the group)
// when Limits.FreezeIdle is set. Thaw resumes it. Both are idempotent.
func (e *Engine) Freeze() {
	if !e.spec.Limits.FreezeIdle {
		return
	}
	e.signalAll(syscall.SIGSTOP, true)
}

// Thaw resumes a frozen engine (SIGCONT). The arbiter thaws an engine
// before writing its move request, so the think time, which starts once the
// request is written, never includes the freeze.
func (e *Engine) Thaw() { e.signalAll(syscall.SIGCONT, false) }

func (e *Engine) signalAll(sig syscall.Signal, freeze bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	p := e.p
	if p == nil || p.frozen == freeze || !p.alive() {
		return
	}
	p.frozen = freeze
	_ = syscall.Kill(-p.pid, sig)
	for _, pid := range tree(p.pid) {
		_ = syscall.Kill(pid, sig)
	}
}

// applyLimits sets the kernel limits on every process of p. It runs at
// spawn and again before START is written, so a sandbox launcher's child
// (forked after the first call) is covered too.
func applyLimits(p *proc, l Limits) error {
	if l.HardMemory <= 0 && l.Processes <= 0 {
		return nil
	}
	// The process limit is chosen once: a second call may not raise
	// RLIMIT_NPROC, which an ordinary user cannot.
	if l.Processes > 0 && p.cgroup == "" && p.nproc == 0 {
		if cg, err := pidsCgroup(p.pid, l.Processes); err == nil {
			p.cgroup = cg // its descendants are born in it
		} else if p.ns == userPidNS {
			p.nproc = uint64(l.Processes) // counted in its user namespace only
		} else {
			p.nproc = uint64(userTasks(os.Getuid()) + l.Processes)
		}
	}
	nproc := p.nproc
	for _, pid := range tree(p.pid) {
		if l.HardMemory > 0 {
			r := unix.Rlimit{Cur: uint64(l.HardMemory), Max: uint64(l.HardMemory)}
			if err := unix.Prlimit(pid, unix.RLIMIT_DATA, &r, nil); err != nil && !errors.Is(err, syscall.ESRCH) {
				return fmt.Errorf("hard memory limit: %w", err)
			}
		}
		if nproc > 0 {
			r := unix.Rlimit{Cur: nproc, Max: nproc}
			if err := unix.Prlimit(pid, unix.RLIMIT_NPROC, &r, nil); err != nil && !errors.Is(err, syscall.ESRCH) {
				return fmt.Errorf("process limit: %w", err)
			}
		}
	}
	return nil
}

// userTasks counts the threads of all processes of uid, which is what
// RLIMIT_NPROC compares with its limit.
func userTasks(uid int) int {
	n := 0
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
		if err != nil {
			continue
		}
		var owner, threads = -1, 1
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "Uid:"); ok {
				if f := strings.Fields(v); len(f) > 0 {
					owner, _ = strconv.Atoi(f[0])
				}
			}
			if v, ok := strings.CutPrefix(line, "Threads:"); ok {
				threads, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
		if owner == uid {
			n += threads
		}
	}
	return n
}

// pidsCgroup makes a pids cgroup limited to max tasks, beside the arbiter's
// own, and moves pid into it (children it makes afterwards are born in it).
func pidsCgroup(pid, max int) (string, error) {
	self, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", err
	}
	var base string
	for _, line := range strings.Split(strings.TrimSpace(string(self)), "\n") {
		f := strings.SplitN(line, ":", 3)
		switch {
		case len(f) != 3:
		case f[0] != "0" && strings.Contains(","+f[1]+",", ",pids,"): // v1
			base = filepath.Join("/sys/fs/cgroup/pids", f[2])
		case f[0] == "0" && f[1] == "" && base == "": // v2
			if c, err := os.ReadFile("/sys/fs/cgroup/cgroup.controllers"); err == nil && strings.Contains(string(c), "pids") {
				base = filepath.Join("/sys/fs/cgroup", f[2])
			}
		}
	}
	if base == "" {
		return "", errors.New("no pids cgroup")
	}
	cg := filepath.Join(base, fmt.Sprintf("gomoku-engine-%d", pid))
	if err := os.Mkdir(cg, 0o755); err != nil {
		return "", err
	}
	for _, w := range [][2]string{{"pids.max", strconv.Itoa(max)}, {"cgroup.procs", strconv.Itoa(pid)}} {
		if err := os.WriteFile(filepath.Join(cg, w[0]), []byte(w[1]), 0o644); err != nil {
			os.Remove(cg)
			return "", err
		}
	}
	return cg, nil
}

// removeCgroup removes an engine's cgroup once its processes are gone.
func removeCgroup(cg string) {
	if cg == "" {
		return
	}
	for i := 0; i < 50 && os.Remove(cg) != nil; i++ {
		time.Sleep(2 * time.Millisecond) // the last tasks are still leaving
	}
}
