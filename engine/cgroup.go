package engine

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// An engine's cgroups: the kernel's own bookkeeping of its processes, which
// a process cannot leave and which its children are born into. They give
// the process limit (pids.max) that holds for root too, and the freezer,
// which stops every process of the engine at once, including one being
// created while the freeze happens, and resumes them at once. The arbiter
// makes them beside its own cgroup where it may (as root, or where a
// cgroup v2 subtree is delegated to its user): cgroup v1 (one hierarchy per
// controller, /sys/fs/cgroup/pids and /sys/fs/cgroup/freezer) or v2 (one
// hierarchy at /sys/fs/cgroup, or /sys/fs/cgroup/unified beside v1; the
// freezer is its cgroup.freeze, which every cgroup has).

// cgroups are the cgroups made for one engine process.
type cgroups struct {
	dirs   []string // removed once its processes are gone
	pids   string   // the folder with pids.max, or ""
	freeze string   // freezer.state (v1) or cgroup.freeze (v2), or ""
}

// cgroupMount is where hierarchy name is mounted: a v1 controller, or "" for
// v2; "" when it is not.
func cgroupMount(name string) string {
	var st unix.Statfs_t
	if name != "" {
		p := "/sys/fs/cgroup/" + name
		if unix.Statfs(p, &st) == nil && st.Type == unix.CGROUP_SUPER_MAGIC {
			return p
		}
		return ""
	}
	for _, p := range []string{"/sys/fs/cgroup", "/sys/fs/cgroup/unified"} {
		if unix.Statfs(p, &st) == nil && st.Type == unix.CGROUP2_SUPER_MAGIC {
			return p
		}
	}
	return ""
}

// ownCgroup is the arbiter's own cgroup in the v1 hierarchy of controller,
// or in v2 for "".
func ownCgroup(controller string) (string, bool) {
	self, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", false
	}
	for _, line := range strings.Split(strings.TrimSpace(string(self)), "\n") {
		f := strings.SplitN(line, ":", 3)
		if len(f) != 3 {
			continue
		}
		if controller == "" && f[0] == "0" && f[1] == "" ||
			controller != "" && f[0] != "0" && strings.Contains(","+f[1]+",", ","+controller+",") {
			return f[2], true
		}
	}
	return "", false
}

// makeCgroup makes the folder for the engine led by pid in controller's
// hierarchy ("" for v2).
func makeCgroup(controller string, pid int) (string, error) {
	mount := cgroupMount(controller)
	own, ok := ownCgroup(controller)
	if mount == "" || !ok {
		what := "cgroup v2"
		if controller != "" {
			what = "cgroup v1 " + controller + " controller"
		}
		return "", fmt.Errorf("no %s here", what)
	}
	guardCgroups()
	cg := filepath.Join(mount, own, fmt.Sprintf("%s%s-%d", cgroupPrefix, arbiterTag(), pid))
	if err := os.Mkdir(cg, 0o755); err != nil {
		return "", err
	}
	return cg, nil
}

// newCgroups makes the cgroups l asks for, for the engine led by pid, and
// moves pid into them. The process limit and the freezer come each from
// the first place that has them: v1 (pids, freezer), then v2.
func newCgroups(pid int, l Limits) (*cgroups, error) {
	cg := &cgroups{}
	v2 := ""
	get := func(controller, file string) (string, error) {
		if dir, err := makeCgroup(controller, pid); err == nil {
			cg.dirs = append(cg.dirs, dir)
			return dir, nil
		}
		if v2 == "" {
			dir, err := makeCgroup("", pid)
			if err != nil {
				return "", err
			}
			cg.dirs, v2 = append(cg.dirs, dir), dir
		}
		if _, err := os.Stat(filepath.Join(v2, file)); err != nil {
			return "", err
		}
		return v2, nil
	}
	var errs []error
	if l.Processes > 0 {
		dir, err := get("pids", "pids.max")
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, "pids.max"), []byte(strconv.Itoa(l.Processes)), 0o644)
		}
		if err == nil {
			cg.pids = dir
		}
		errs = append(errs, err)
	}
	if l.FreezeIdle {
		dir, err := get("freezer", "cgroup.freeze")
		if err == nil {
			if dir == v2 {
				cg.freeze = filepath.Join(dir, "cgroup.freeze")
			} else {
				cg.freeze = filepath.Join(dir, "freezer.state")
			}
		}
		errs = append(errs, err)
	}
	if err := cg.join(pid); err != nil {
		cg.remove()
		return nil, err
	}
	return cg, errors.Join(errs...)
}

// join moves pid into the engine's cgroups.
func (cg *cgroups) join(pid int) error {
	for _, dir := range cg.dirs {
		err := os.WriteFile(filepath.Join(dir, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0o644)
		if err != nil && !errors.Is(err, unix.ESRCH) {
			return err
		}
	}
	return nil
}

// setFrozen freezes or thaws the engine's cgroup and waits (briefly) until
// the kernel says every process is frozen.
func (cg *cgroups) setFrozen(frozen bool) error {
	v1 := strings.HasSuffix(cg.freeze, "freezer.state")
	val := map[[2]bool]string{{true, true}: "FROZEN", {true, false}: "THAWED", {false, true}: "1", {false, false}: "0"}[[2]bool{v1, frozen}]
	if err := os.WriteFile(cg.freeze, []byte(val), 0o644); err != nil {
		return err
	}
	if !frozen {
		return nil
	}
	for end := time.Now().Add(100 * time.Millisecond); time.Now().Before(end); time.Sleep(100 * time.Microsecond) {
		if v1 {
			if b, _ := os.ReadFile(cg.freeze); strings.TrimSpace(string(b)) == "FROZEN" {
				return nil
			}
		} else if ok, _ := fieldIs(filepath.Join(filepath.Dir(cg.freeze), "cgroup.events"), "frozen", "1"); ok {
			return nil
		}
	}
	return nil // still freezing: the kernel finishes it without us
}

func fieldIs(file, key, want string) (bool, error) {
	b, err := os.ReadFile(file)
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, key+" "); ok {
			return strings.TrimSpace(v) == want, err
		}
	}
	return false, err
}

// remove removes the cgroups once their processes are gone (a frozen v1
// cgroup must be thawed first for its killed processes to die).
func (cg *cgroups) remove() {
	if cg == nil {
		return
	}
	if cg.freeze != "" {
		_ = cg.setFrozen(false)
	}
	for _, dir := range cg.dirs {
		if !removeCgroup(dir, 100*time.Millisecond) {
			go removeCgroup(dir, 10*time.Second) // zombies not yet reaped hold it
		}
	}
}

// removeCgroup removes the cgroup folder dir once its last tasks have left,
// trying for up to wait.
func removeCgroup(dir string, wait time.Duration) bool {
	for end := time.Now().Add(wait); ; time.Sleep(2 * time.Millisecond) {
		err := os.Remove(dir)
		if err == nil || errors.Is(err, os.ErrNotExist) {
			return true
		}
		if time.Now().After(end) {
			return false
		}
	}
}

var freezerProbe struct {
	sync.Once
	what string
	err  error
}

// Freezer says how Limits.FreezeIdle freezes engines on this machine: the
// cgroup freezer it uses, or why there is none, in which case engines are
// frozen by SIGSTOP to each of their processes, which an engine that keeps
// starting new processes can dodge (the arbiter should say so).
func Freezer() (string, error) {
	freezerProbe.Do(func() {
		cg, err := newCgroups(os.Getpid()+1<<22, Limits{FreezeIdle: true}) // a name no engine has; no process moved in
		if cg != nil {
			defer cg.remove()
		}
		switch {
		case err != nil:
			freezerProbe.err = fmt.Errorf("no cgroup freezer (%v)", err)
		case strings.HasSuffix(cg.freeze, "freezer.state"):
			freezerProbe.what = "the cgroup v1 freezer"
		default:
			freezerProbe.what = "the cgroup v2 freezer"
		}
	})
	return freezerProbe.what, freezerProbe.err
}

// kill sends SIGKILL to every process in the engine's cgroups and thaws
// them, so that frozen ones die too.
func (cg *cgroups) kill() {
	if cg == nil {
		return
	}
	for _, dir := range cg.dirs {
		b, _ := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil && pid > 0 {
				_ = unix.Kill(pid, unix.SIGKILL)
			}
		}
	}
	if cg.freeze != "" {
		_ = cg.setFrozen(false)
	}
}

// A frozen process does not die of SIGKILL (cgroup v1) until it is thawed,
// and the arbiter that froze it may itself be killed (SIGKILL, the OOM
// killer, a machine's job scheduler) while it is frozen: Pdeathsig and the
// end of its PID namespace then leave it frozen for ever, holding its
// memory. So engine cgroups carry their arbiter in their name
// (gomoku-engine-NS.PID-ENGINE: the arbiter's PID namespace and process
// id), and two things end what a dead arbiter left:
//
//   - its watchdog, a small shell started with the first cgroup, outside
//     the arbiter's process group and session, which waits for the end of
//     a pipe that only the arbiter holds; however the arbiter ends, the
//     pipe closes, and the watchdog kills every process of the arbiter's
//     engine cgroups, thaws them and removes them;
//   - the next arbiter on the machine, which before making its first
//     cgroup does the same for any engine cgroup of an arbiter of its PID
//     namespace that is no longer running (a watchdog killed with its
//     arbiter: a whole service's cgroup ended at once, say).

// cgroupPrefix begins the name of every engine cgroup.
const cgroupPrefix = "gomoku-engine-"

// arbiterTag is this arbiter in its engines' cgroup names: its PID
// namespace and its process id.
func arbiterTag() string {
	return fmt.Sprintf("%d.%d", pidNamespace(), os.Getpid())
}

// pidNamespace is the inode of this process's PID namespace (0 when it
// cannot be read).
func pidNamespace() uint64 {
	var st unix.Stat_t
	if unix.Stat("/proc/self/ns/pid", &st) != nil {
		return 0
	}
	return st.Ino
}

// cgroupParents are the folders engine cgroups are made in: the arbiter's
// own cgroup in the v1 pids and freezer hierarchies and in v2, where they
// are mounted.
func cgroupParents() []string {
	var ps []string
	for _, c := range []string{"pids", "freezer", ""} {
		mount := cgroupMount(c)
		own, ok := ownCgroup(c)
		if mount != "" && ok {
			ps = append(ps, filepath.Join(mount, own))
		}
	}
	return ps
}

var guard sync.Once

// guardCgroups, before the first engine cgroup is made, ends what dead
// arbiters left and starts this arbiter's watchdog.
func guardCgroups() {
	guard.Do(func() {
		parents := cgroupParents()
		endOrphans(parents)
		startWatchdog(parents)
	})
}

// watchdog is the shell that ends this arbiter's engine cgroups once the
// arbiter is gone: its standard input is a pipe only the arbiter writes,
// read to its end. $1 is the arbiter's tag, the rest the parent folders.
// A killed process still frozen dies when thawed; the rounds, until none
// is left, catch a process that forked while being killed, and folders its
// zombies held.
const watchdog = `trap '' HUP INT QUIT TERM PIPE
while read -r _; do :; done
tag=$1; shift
for round in 1 2 3 4 5; do
	found=
	for parent; do
		for g in "$parent"/` + cgroupPrefix + `"$tag"-*; do
			[ -d "$g" ] || continue
			found=1
			[ -f "$g/cgroup.kill" ] && echo 1 > "$g/cgroup.kill"
			while read -r p; do kill -9 "$p"; done < "$g/cgroup.procs"
			[ -f "$g/freezer.state" ] && echo THAWED > "$g/freezer.state"
			[ -f "$g/cgroup.freeze" ] && echo 0 > "$g/cgroup.freeze"
			rmdir "$g"
		done 2>/dev/null
	done
	[ -n "$found" ] || break
	sleep 1
done
`

// startWatchdog starts the watchdog of this arbiter's cgroups in parents.
// Without /bin/sh there is none: the next arbiter's endOrphans is left.
// The arbiter's end of the watchdog's input is a bare descriptor, never
// written and never closed (an *os.File's finalizer could close it): the
// kernel closes it when the arbiter ends, however it ends.
func startWatchdog(parents []string) {
	var fds [2]int
	if err := unix.Pipe2(fds[:], unix.O_CLOEXEC); err != nil { // the arbiter's end reaches no other process
		return
	}
	r := os.NewFile(uintptr(fds[0]), "watchdog")
	defer r.Close()
	cmd := exec.Command("/bin/sh", append([]string{"-c", watchdog, "arena-watchdog", arbiterTag()}, parents...)...)
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // no group signal (^C, kill -- -PGID) reaches it
	if err := cmd.Start(); err != nil {
		unix.Close(fds[1])
		return
	}
	go cmd.Wait()
}

// endOrphans ends the engine cgroups in parents that an arbiter of this
// PID namespace left when it died: their arbiter no longer runs (a process
// id taken since by another process keeps them: they stay until that one
// ends and another arbiter starts).
func endOrphans(parents []string) {
	ns := strconv.FormatUint(pidNamespace(), 10)
	for _, parent := range parents {
		ents, _ := os.ReadDir(parent)
		for _, e := range ents {
			rest, ok := strings.CutPrefix(e.Name(), cgroupPrefix+ns+".")
			if !ok || !e.IsDir() {
				continue
			}
			arb, _, _ := strings.Cut(rest, "-")
			pid, err := strconv.Atoi(arb)
			if err != nil || pid <= 0 || pid == os.Getpid() || !errors.Is(unix.Kill(pid, 0), unix.ESRCH) {
				continue
			}
			endCgroup(filepath.Join(parent, e.Name()))
		}
	}
}

// endCgroup kills every process of the cgroup dir, thaws it so that the
// frozen ones die, and removes it.
func endCgroup(dir string) {
	write := func(file, val string) { // only a file the kernel made: cgroup.kill is v2's, from 5.14
		if f, err := os.OpenFile(filepath.Join(dir, file), os.O_WRONLY, 0); err == nil {
			f.WriteString(val)
			f.Close()
		}
	}
	write("cgroup.kill", "1") // frozen ones too
	b, _ := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
	for _, f := range strings.Fields(string(b)) {
		if pid, err := strconv.Atoi(f); err == nil && pid > 0 {
			_ = unix.Kill(pid, unix.SIGKILL)
		}
	}
	write("freezer.state", "THAWED")
	write("cgroup.freeze", "0")
	go removeCgroup(dir, 10*time.Second)
}
