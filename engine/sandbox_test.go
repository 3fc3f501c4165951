package engine

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// probe is a shell engine that reports what it can see and do in MESSAGE
// lines while answering START, then plays 7,7 (ignoring anything else,
// ABOUT included).
const probe = `#!/bin/sh
read cmd
try() { if eval "$2" >/dev/null 2>&1; then echo "MESSAGE $1 yes"; else echo "MESSAGE $1 no"; fi; }
try write-own 'echo x > own.txt'
try write-outside 'echo x > "$OUTSIDE/leak.txt"'
try read-outside 'cat "$OUTSIDE/public.txt"'
try see-hidden 'test -n "$(ls -A "$HIDDEN")"'
try write-tmp 'echo x > /tmp/t'
if [ -n "$SANDBOXED" ]; then # unconfined, these would write on the machine
try write-root 'echo x > /x-leak'
try write-dev 'echo x > /dev/x-leak'
fi
try network 'test "$(grep -c : /proc/net/dev)" -gt 1'
try see-arbiter 'test -d /proc/$ARBITER'
echo OK
while read cmd; do case "$cmd" in BEGIN*) echo 7,7; break;; esac; done
read cmd
`

func TestSandboxConfinesTheEngine(t *testing.T) {
	bw, err := Bwrap()
	if err != nil {
		t.Skip(err)
	}
	// Not under /tmp, which the sandbox replaces with its own.
	root, err := os.MkdirTemp("/var/tmp", "sandbox-test-")
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	own, outside, hidden := filepath.Join(root, "own"), filepath.Join(root, "outside"), filepath.Join(root, "others")
	for _, d := range []string{own, outside, hidden} {
		os.MkdirAll(d, 0o755)
	}
	os.WriteFile(filepath.Join(outside, "public.txt"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(hidden, "secret.txt"), []byte("x"), 0o644)
	prog := filepath.Join(root, "bin", "probe.sh")
	os.MkdirAll(filepath.Dir(prog), 0o755)
	os.WriteFile(prog, []byte(probe), 0o755)
	env := []string{"OUTSIDE=" + outside, "HIDDEN=" + hidden, "ARBITER=" + strconv.Itoa(os.Getpid())}

	want := map[string]string{"write-own": "yes", "write-outside": "no", "read-outside": "no",
		"see-hidden": "no", "write-tmp": "yes", "network": "no", "see-arbiter": "no",
		"write-root": "no", "write-dev": "no"}
	unconfined := map[string]string{"write-outside": "yes", "read-outside": "yes", "see-hidden": "yes", "see-arbiter": "yes"}
	for _, sandboxed := range []bool{true, false} {
		spec := Spec{Name: "probe", Command: prog, Dir: own, Env: env, StartTimeout: generous}
		if sandboxed {
			spec.Sandbox = &Sandbox{Bwrap: bw, Hide: []string{hidden}}
			spec.Env = append(spec.Env, "SANDBOXED=1")
		}
		e, err := Start(spec)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.NewGame(15, nil, in(generous)); err != nil {
			t.Fatal(err)
		}
		r := e.Begin(in(generous))
		e.Close()
		if r.Fault != "" {
			t.Fatalf("sandboxed=%v: %v %s %v", sandboxed, r.Fault, r.Detail, e.Stderr())
		}
		got := map[string]string{}
		for _, n := range r.Notes {
			if f := strings.Fields(strings.TrimPrefix(n, "MESSAGE ")); len(f) == 2 {
				got[f[0]] = f[1]
			}
		}
		for k, v := range want {
			if !sandboxed {
				if u, ok := unconfined[k]; !ok || got[k] == u {
					continue // the test itself is able to tell
				}
				t.Errorf("unconfined: %s = %s, want %s (the probe cannot tell)", k, got[k], unconfined[k])
				continue
			}
			if got[k] != v {
				t.Errorf("sandboxed: %s = %q, want %s", k, got[k], v)
			}
		}
		os.Remove(filepath.Join(outside, "leak.txt"))
	}
}

// TestSandboxRefusesSystemWorkingFolders: a working directory that would
// make a system folder writable is refused before anything starts.
func TestSandboxRefusesSystemWorkingFolders(t *testing.T) {
	s := &Sandbox{Bwrap: "bwrap"} // Check starts nothing
	for _, dir := range []string{"/", "/etc/gomoku-engine", "/usr"} {
		err := s.Check(Spec{Name: "x", Command: "/bin/sh", Dir: dir})
		if err == nil || !strings.Contains(err.Error(), "writable") {
			t.Errorf("working directory %s: %v", dir, err)
		}
	}
	if err := s.Check(Spec{Name: "x", Command: "/bin/sh", Dir: t.TempDir()}); err != nil {
		t.Error(err)
	}
}
