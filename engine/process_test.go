package engine

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// wantNamespaces, when set, is the namespaces every engine of this run must
// get (TestUnprivilegedEngines sets it for the run it starts).
const wantNamespaces = "ENGINE_TEST_NAMESPACES"

// TestEngineDeathTakesItsHelpers kills the engine process alone, as its
// Pdeathsig does when the arbiter is SIGKILLed, and finds its helper gone
// too: the kernel ends a PID namespace with its process 1.
func TestEngineDeathTakesItsHelpers(t *testing.T) {
	e := startFaulty(t, "spawn-child")
	newGame(t, e, 15)
	r := e.Begin(in(generous))
	child := 0
	for _, n := range r.Notes {
		if s, ok := strings.CutPrefix(n, "MESSAGE child pid "); ok {
			child, _ = strconv.Atoi(s)
		}
	}
	ns := e.current().ns
	t.Logf("namespaces: %s (uid %d)", ns, os.Getuid())
	if want := os.Getenv(wantNamespaces); want != "" && ns.String() != want && (ns != noNS || userNamespaces()) {
		t.Fatalf("the engine runs with namespaces %s, want %s", ns, want)
	}
	if ns == noNS {
		t.Skip("the kernel lets this user make no PID namespace: an engine's helpers outlive it (doc.go)")
	}
	// The reported pid must be the helper's as the arbiter sees it, or the
	// test would watch some other process.
	if cmd, _ := os.ReadFile("/proc/" + strconv.Itoa(child) + "/cmdline"); !strings.Contains(string(cmd), "sleep=10m") {
		t.Fatalf("child pid %d is not the engine's helper: %q (notes %q)", child, cmd, r.Notes)
	}
	if err := syscall.Kill(e.Pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for end := in(3 * time.Second); !procGone(child); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			syscall.Kill(child, syscall.SIGKILL)
			t.Fatalf("the helper %d outlived its engine", child)
		}
	}
}

// TestUnprivilegedEngines runs this package's tests again as an ordinary
// user (nobody), where engines get a user namespace for their PID
// namespace. It needs root to change user; an ordinary user's own run of
// the tests covers it.
func TestUnprivilegedEngines(t *testing.T) {
	if os.Getuid() != 0 || os.Getenv(wantNamespaces) != "" {
		t.Skip("needs root, to run the tests as nobody")
	}
	const nobody = 65534
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// A copy nobody may run (the go tool's build folder is root's alone),
	// and a folder of its own for temporary files.
	dir, err := os.MkdirTemp("", "engine-unprivileged-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	tmp := filepath.Join(dir, "tmp")
	bin := filepath.Join(dir, "engine.test")
	if err := copyFile(self, bin); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(tmp, nobody, nobody); err != nil {
		t.Skip("no user nobody here (a user namespace without it?):", err)
	}
	args := []string{"-test.count=1", "-test.v"}
	if testing.Short() {
		args = append(args, "-test.short")
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "TMPDIR=" + tmp, "HOME=" + tmp, wantNamespaces + "=" + userPidNS.String()}
	if h, err := buildHostile(); err == nil {
		cmd.Env = append(cmd.Env, hostileEnv+"="+h)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	out, err := cmd.CombinedOutput()
	if _, exited := err.(*exec.ExitError); err != nil && !exited {
		t.Skip("cannot run the tests as nobody:", err)
	}
	if strings.Contains(string(out), "--- SKIP: TestEngineDeathTakesItsHelpers") {
		t.Skipf("nobody may not make a user namespace here:\n%s", grepLines(out, "namespace"))
	}
	if err != nil {
		t.Fatalf("the tests as nobody: %v\n%s", err, out)
	}
	t.Logf("as nobody: %s", grepLines(out, "namespaces: "))
	t.Logf("as nobody, skipped:\n%s", grepLines(out, "--- SKIP"))
}

// userNamespaces reports whether this user may start a process in a PID
// namespace inside a user namespace.
func userNamespaces() bool {
	c := exec.Command("/proc/self/exe", "-test.run=^$")
	c.Env = []string{}
	c.SysProcAttr = userPidNS.sysProcAttr()
	return c.Run() == nil
}

func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}

// grepLines is the lines of out that contain s.
func grepLines(out []byte, s string) string {
	var lines []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, s) {
			lines = append(lines, strings.TrimSpace(l))
		}
	}
	return strings.Join(lines, "\n")
}
