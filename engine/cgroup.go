package engine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
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
	cg := filepath.Join(mount, own, fmt.Sprintf("gomoku-engine-%d", pid))
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
