package engine

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// DefaultMaxMemory is Gomocup's memory limit, used by events that set none
// (Limits.OrGomocup, the one place it is applied).
const DefaultMaxMemory = 350 << 20

// OrGomocup is l with Gomocup's memory limit (DefaultMaxMemory) where it
// holds none: what an event holds an engine to by default, and what
// arena check judges an engine by that is held to and told none. It is
// the one place that default is applied.
func (l Limits) OrGomocup() Limits {
	if l.Memory <= 0 {
		l.Memory = DefaultMaxMemory
	}
	return l
}

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
// To that is added what it holds in its own /tmp and /dev/shm, which are
// tmpfs kept in memory (tmpfs.go). A single-process engine is thus measured
// by its peak, as Gomocup does. A helper that came and went between two
// measurements is not seen; the kernel-enforced HardMemory is the safeguard
// for that.
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
	// every user (cgroup.go). Otherwise RLIMIT_NPROC is set to its user's
	// current count of threads plus Processes, which the kernel does not
	// apply to root.
	Processes int
	// FreezeIdle makes Freeze stop the engine's processes while the
	// opponent is on move, so it cannot think on the opponent's time: each
	// process is sent SIGSTOP, and where the arbiter may make a cgroup (as
	// root, say), the kernel's cgroup freezer also stops them all, new ones
	// included (cgroup.go); without it an engine that keeps starting new
	// processes can dodge the freeze (Freezer says which applies).
	FreezeIdle bool
}

// tree lists the engine's processes: the leader and every descendant, by
// the children files of each thread (in a PID namespace the leader is its
// init, so orphans inside stay in its tree). Best effort: a process may
// fork or exit while it is read.
//
// Its cost is bounded whatever the engine spawns, since the arbiter reads
// it after every move: at most treeProcs processes, and of each process
// the children of its first treeThreads threads (a single-threaded one is
// two small reads). A helper forked by a later thread of a process with
// more threads than that is not seen here; the engine's cgroup, process
// group and PID namespace still hold it (freeze, kill), and HardMemory
// bounds its memory.
func tree(leader int) []int { return treeOf(leader, nil) }

// treeOf is tree, the leader's files read through own (held open, see
// leaderFiles) when it is not nil: what the arbiter reads after every move
// costs it a pread(2) a file.
func treeOf(leader int, own *leaderFiles) []int {
	lk := lookers.Get().(*looker)
	defer lookers.Put(lk)
	pids := []int{leader}
	seen := map[int]bool{leader: true}
	add := func(children []byte) {
		for _, f := range bytes.Fields(children) {
			if c, err := strconv.Atoi(string(f)); err == nil && !seen[c] && len(pids) < treeProcs {
				seen[c] = true
				pids = append(pids, c)
			}
		}
	}
	for i := 0; i < len(pids) && len(pids) < treeProcs; i++ {
		pid := strconv.Itoa(pids[i])
		if i == 0 && own != nil {
			if _, threads := statFields(own.read(lk, pid, leaderStat)); threads > 1 {
				own.threadChildren(lk, pid, threads, treeThreads, add)
			} else {
				add(own.read(lk, pid, leaderChildren))
			}
			continue
		}
		tids := []string{pid}
		if _, threads := statFields(lk.read("/proc/", pid, "/task/", pid, "/stat")); threads > 1 {
			tids = taskIDs(pid, treeThreads)
		}
		for _, t := range tids {
			add(lk.read("/proc/", pid, "/task/", t, "/children"))
		}
	}
	return pids
}

const (
	treeProcs   = 512
	treeThreads = 16
)

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
	pids := treeOf(p.pid, &p.leader)
	for _, pid := range pids {
		hwm, ok := statusKB(pid, "VmHWM")
		if !ok {
			continue // gone, or a zombie
		}
		procs++
		peak = max(peak, hwm)
		// One process's Pss is at most its resident set, at most its
		// peak: smaps_rollup, whose cost grows with the process's
		// mappings (a stack for each thread), is read only where
		// processes share pages.
		if len(pids) == 1 {
			continue
		}
		if n, ok := rollupKB(pid, "Pss"); ok {
			pss += n
		} else {
			pss += hwm
		}
	}
	return max(peak, pss) + privateTmpUse(pids), procs
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

// Freeze stops every process of the engine when Limits.FreezeIdle is set:
// SIGSTOP to its group and to each process of its tree (which also reaches
// helpers that left the group) stops them at once, and where the engine has
// a cgroup, the kernel's cgroup freezer then stops whatever that missed, such
// as a process being forked meanwhile (the freezer alone takes milliseconds
// to start on cgroup v1, during which the engine would run on). Thaw resumes
// it. Both are idempotent.
func (e *Engine) Freeze() {
	if !e.spec.Limits.FreezeIdle {
		return
	}
	e.setFrozen(true)
}

// Thaw resumes a frozen engine. The arbiter thaws an engine before writing
// its move request, so the think time, which starts once the request is
// written, never includes the freeze.
func (e *Engine) Thaw() { e.setFrozen(false) }

func (e *Engine) setFrozen(freeze bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	p := e.p
	if p == nil || p.frozen == freeze || !p.alive() {
		return
	}
	p.frozen = freeze
	freezer := p.cg != nil && p.cg.freeze != ""
	if freeze {
		signalTree(p.pid, syscall.SIGSTOP)
		if freezer {
			// A process that got away from the cgroup before the engine
			// was put in it (none should) is brought back first.
			for _, pid := range treeOf(p.pid, &p.leader) {
				_ = p.cg.join(pid)
			}
			_ = p.cg.setFrozen(true)
		}
		return
	}
	if freezer {
		_ = p.cg.setFrozen(false)
	}
	signalTree(p.pid, syscall.SIGCONT)
}

// signalTree sends sig to the process group leader leads and to each
// process of its tree.
func signalTree(leader int, sig syscall.Signal) {
	_ = syscall.Kill(-leader, sig)
	for _, pid := range tree(leader) {
		_ = syscall.Kill(pid, sig)
	}
}

// applyLimits sets the kernel limits on every process of p. It runs at
// spawn and again before START is written, so a sandbox launcher's child
// (forked after the first call) is covered too.
func applyLimits(p *proc, l Limits) error {
	if l.HardMemory <= 0 && l.Processes <= 0 && !l.FreezeIdle {
		return nil
	}
	// The cgroups are made once, at spawn, and every process of the engine
	// is moved in again on the second call (descendants are born in them).
	if (l.Processes > 0 || l.FreezeIdle) && !p.cgTried {
		p.cgTried = true
		p.cg, _ = newCgroups(p.pid, l) // what it could not make falls back below
	}
	pids := treeOf(p.pid, &p.leader)
	if p.cg != nil {
		for _, pid := range pids {
			if err := p.cg.join(pid); err != nil {
				return fmt.Errorf("cgroup: %w", err)
			}
		}
	}
	// The process limit is chosen once: a second call may not raise
	// RLIMIT_NPROC, which an ordinary user cannot.
	if l.Processes > 0 && (p.cg == nil || p.cg.pids == "") && p.nproc == 0 {
		if p.ns == userPidNS {
			p.nproc = uint64(l.Processes) // counted in its user namespace only
		} else {
			p.nproc = uint64(userTasks(os.Getuid()) + l.Processes)
		}
	}
	nproc := p.nproc
	for _, pid := range pids {
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
