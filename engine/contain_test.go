package engine

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// messages runs the hostile engine with the attacks args under spec's
// settings for one move and returns its MESSAGE lines, keyed by their
// first two words ("env SLACK_TOKEN").
func messages(t *testing.T, spec Spec, args ...string) map[string]string {
	t.Helper()
	spec.Args = args
	if spec.StartTimeout == 0 {
		spec.StartTimeout = generous
	}
	e, err := Start(spec)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if err := e.NewGame(15, nil, in(generous)); err != nil {
		t.Fatal(err)
	}
	r := e.Begin(in(generous))
	if r.Fault != "" {
		t.Fatalf("%v %s %v", r.Fault, r.Detail, e.Stderr())
	}
	got := map[string]string{}
	for _, n := range r.Notes {
		f := strings.SplitN(strings.TrimPrefix(n, "MESSAGE "), " ", 3)
		if len(f) == 3 {
			got[f[0]+" "+f[1]] = f[2]
		} else if len(f) == 2 {
			got[f[0]+" "+f[1]] = ""
		}
	}
	return got
}

// TestEngineEnvironmentIsDeclared: a secret in the arbiter's environment
// (the organizer's shell) is not in an engine's /proc/self/environ, under
// either sandbox setting; what the engine's settings add is.
func TestEngineEnvironmentIsDeclared(t *testing.T) {
	t.Setenv("SLACK_TOKEN", "xoxb-organizer-secret")
	prog := hostile(t)
	for _, sandboxed := range []bool{false, true} {
		name := map[bool]string{false: "none", true: "bwrap"}[sandboxed]
		t.Run(name, func(t *testing.T) {
			spec := Spec{Name: "env", Command: prog, Dir: t.TempDir(), Env: []string{"ENGINE_THREADS=2"}}
			if sandboxed {
				bw, err := Bwrap()
				if err != nil {
					t.Skip(err)
				}
				spec.Sandbox = &Sandbox{Bwrap: bw}
			}
			got := messages(t, spec, "env=SLACK_TOKEN", "env=ENGINE_THREADS", "env=PATH")
			want := map[string]string{"env SLACK_TOKEN": "no", "env ENGINE_THREADS": "yes", "env PATH": "yes"}
			for k, v := range want {
				if got[k] != v {
					t.Errorf("%s: %q, want %s", k, got[k], v)
				}
			}
		})
	}
}

// An unconfined root engine is started from the mover, a thread that moved
// to the engine's mount namespace (its own /tmp) and then goes home: while
// the engine runs, every thread of the arbiter is in the arbiter's mount
// namespace, with its working directory, even after the arbiter changed
// it. A thread left away would start the next engine, or serve another
// goroutine, from elsewhere.
func TestAnEngineStartLeavesNoThreadAway(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root: an ordinary user's unconfined engine shares the machine's /tmp and /dev/shm (docs/security.md)")
	}
	first, err := Start(Spec{Name: "cat", Command: "cat", StartTimeout: generous})
	if err != nil {
		t.Fatal(err)
	}
	first.Close()
	t.Chdir(t.TempDir()) // after the mover's first job
	e, err := Start(Spec{Name: "cat", Command: "cat", StartTimeout: generous})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if p := e.current(); p.ns != pidNS || privateTmpRefused.Load() {
		t.Skipf("the engine got no mount namespace of its own here (%v)", p.ns)
	}
	ns, err := os.Readlink("/proc/self/ns/mnt")
	if err != nil {
		t.Skip(err)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if theirs, err := os.Readlink(fmt.Sprintf("/proc/%d/ns/mnt", e.Pid())); err != nil || theirs == ns {
		t.Fatalf("the engine's mount namespace: %q (%v), the arbiter's %q", theirs, err, ns)
	}
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range tasks {
		dir := "/proc/self/task/" + task.Name()
		if got, err := os.Readlink(dir + "/ns/mnt"); err == nil && got != ns {
			t.Errorf("thread %s is in mount namespace %s, the arbiter's is %s", task.Name(), got, ns)
		}
		if got, err := os.Readlink(dir + "/cwd"); err == nil && got != wd {
			t.Errorf("thread %s works in %s, the arbiter in %s", task.Name(), got, wd)
		}
	}
}

// TestUnconfinedEngineCannotFillRAM runs a hostile engine unconfined as
// root that writes a file into every filesystem kept in memory it can
// reach (/dev, a tmpfs /sys/fs/cgroup, /run...): each is read-only to it,
// but for its own /tmp and /dev/shm, which count as its memory; and
// nothing it wrote is left once it is gone.
func TestUnconfinedEngineCannotFillRAM(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root: an ordinary user's unconfined engine shares the machine's /tmp and /dev/shm (docs/security.md)")
	}
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		t.Skip(err)
	}
	const fill = 1 << 20
	var targets []string
	for _, line := range strings.Split(string(b), "\n") {
		mp, opts, fstype, ok := parseMountInfo(line)
		if !ok || !strings.HasPrefix(opts, "rw") || fstype != "tmpfs" && fstype != "devtmpfs" && fstype != "ramfs" || !isDir(mp) {
			continue
		}
		if !slices.Contains(targets, mp) && !within(mp, "/tmp") {
			targets = append(targets, mp)
		}
	}
	if !slices.Contains(targets, "/tmp") {
		targets = append(targets, "/tmp")
	}
	var args []string
	for _, mp := range targets {
		args = append(args, fmt.Sprintf("fill=%s:%d", mp, fill))
	}
	e, r := firstMoveInOwnNS(t, Spec{Name: "ram", Command: hostile(t), Args: args, Dir: t.TempDir(), StartTimeout: generous})
	defer e.Close()
	used, _ := e.Memory()
	e.Close()
	var files []string
	for _, n := range r.Notes {
		var file string
		var wrote int64
		if _, err := fmt.Sscanf(n, "MESSAGE fill %s wrote %d", &file, &wrote); err != nil {
			continue
		}
		own := slices.ContainsFunc(privateTmpFolders, func(d string) bool { return within(file, d) })
		switch {
		case own && wrote != fill:
			t.Errorf("%s: wrote %d of %d bytes into its own tmpfs", file, wrote, fill)
		case !own && wrote > 0:
			t.Errorf("%s: an unconfined engine wrote %d bytes into a filesystem kept in memory", file, wrote)
		}
		files = append(files, file)
	}
	if len(files) != len(targets) {
		t.Fatalf("%d fills reported for %d targets: %q", len(files), len(targets), r.Notes)
	}
	if used < 2*fill {
		t.Errorf("memory %d bytes: its /tmp and /dev/shm (%d bytes) are not counted", used, 2*fill)
	}
	for _, f := range files {
		if st, err := os.Stat(f); err == nil && !st.IsDir() {
			os.Remove(f)
			t.Errorf("%s outlives the engine", f)
		}
	}
}

// TestUnconfinedWorkingFolderInRAM: a working folder that lies in a
// filesystem kept in memory (made read-only to an unconfined root engine)
// stays writable to its engine: it is the engine's own.
func TestUnconfinedWorkingFolderInRAM(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root (the read-only filesystems are made for a root engine)")
	}
	dir, err := os.MkdirTemp("/dev", "engine-work-") // devtmpfs
	if err != nil {
		t.Skip(err)
	}
	defer os.RemoveAll(dir)
	own := dir + "/own.txt"
	os.WriteFile(own, []byte("x\n"), 0o644)
	spec := Spec{Name: "ram-dir", Command: hostile(t), Dir: dir, StartTimeout: generous}
	got := messages(t, spec, "write="+own, "write=/dev/null")
	if got["write "+own] != "yes" || got["write /dev/null"] != "yes" {
		t.Errorf("the engine cannot write its own working folder in /dev, or /dev/null: %q", got)
	}
}

// TestUnconfinedPrivateFolders: an unconfined root engine sees the
// machine's /tmp (programs and their folders may lie there) but not its
// /dev/shm, the shared memory of other processes: that one is a fresh
// tmpfs of its own. What it writes in its own scratch folder, by a
// relative path, stays in its tmpfs: counted as its memory, never in the
// machine's folder.
func TestUnconfinedPrivateFolders(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root: an ordinary user's unconfined engine shares the machine's /tmp and /dev/shm (docs/security.md)")
	}
	var seen []string
	for _, d := range privateTmpFolders {
		f, err := os.CreateTemp(d, "machine-")
		if err != nil {
			t.Skip(err)
		}
		f.WriteString("the machine's\n")
		f.Close()
		defer os.Remove(f.Name())
		seen = append(seen, f.Name())
	}
	const fill = 4 << 20
	e, r := firstMoveInOwnNS(t, Spec{Name: "own", Command: hostile(t), StartTimeout: generous,
		Args: []string{"read=" + seen[0], "read=" + seen[1], fmt.Sprintf("fill=.:%d", fill)}})
	defer e.Close()
	got := strings.Join(r.Notes, "\n")
	for i, want := range []string{"yes", "no"} {
		if !strings.Contains(got, fmt.Sprintf("MESSAGE read %s %s", seen[i], want)) {
			t.Errorf("read %s: want %s, got %q", seen[i], want, r.Notes)
		}
	}
	if !strings.Contains(got, fmt.Sprintf("wrote %d", fill)) {
		t.Fatalf("the engine could not write its scratch folder: %q", r.Notes)
	}
	if ents, err := os.ReadDir(e.Dir()); err != nil || len(ents) != 0 {
		t.Errorf("the machine's folder %s holds %d entries (%v): the engine's scratch files are not in its tmpfs", e.Dir(), len(ents), err)
	}
	if used, _ := e.Memory(); used < fill {
		t.Errorf("memory %d bytes: the %d bytes in its scratch folder are not counted", used, fill)
	}
}

// firstMoveInOwnNS starts spec's engine, skips the test unless it got a
// mount namespace of its own (root, and the kernel allowed it), and has it
// play its first move (its attacks). The caller closes the engine.
func firstMoveInOwnNS(t *testing.T, spec Spec) (*Engine, Reply) {
	t.Helper()
	e, err := Start(spec)
	if err != nil {
		t.Fatal(err)
	}
	if p := e.current(); p.ns != pidNS || privateTmpRefused.Load() {
		e.Close()
		t.Skipf("the engine got no mount namespace of its own here (%v)", p.ns)
	}
	if err := e.NewGame(15, nil, in(generous)); err != nil {
		e.Close()
		t.Fatal(err)
	}
	r := e.Begin(in(generous))
	if r.Fault != "" {
		e.Close()
		t.Fatalf("%v %s %v", r.Fault, r.Detail, e.Stderr())
	}
	return e, r
}
