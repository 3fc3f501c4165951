package engine

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// fdsArbiterEnv makes the test binary an arbiter that inherited
// descriptors from its parent (TestMain): it runs the hostile engine,
// which tries descriptors 3..64, and prints what the engine reported.
const fdsArbiterEnv = "ENGINE_TEST_FDS_ARBITER"

// fdsArbiter is the arbiter of TestInheritedDescriptorsStayWithTheArbiter:
// "none" or "bwrap" is how it runs the engine.
func fdsArbiter(how string) int {
	spec := Spec{Name: "fds", Command: os.Getenv(hostileEnv), Args: []string{"fds=64"}, StartTimeout: generous}
	dir, err := os.MkdirTemp("", "engine-fds-")
	if err != nil {
		fmt.Println(err)
		return 1
	}
	defer os.RemoveAll(dir)
	spec.Dir = dir
	if how == "bwrap" {
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
	defer e.Close()
	if err := e.NewGame(15, nil, in(generous)); err != nil {
		fmt.Println(err)
		return 1
	}
	r := e.Begin(in(generous))
	if r.Fault != "" {
		fmt.Println(r.Fault, r.Detail, e.Stderr())
		return 1
	}
	for _, n := range r.Notes {
		fmt.Println(n)
	}
	return 0
}

// TestInheritedDescriptorsStayWithTheArbiter: an arbiter started as
// `arena run EVENT.toml 9<secret 5<>secret` holds the secret at descriptors
// 5 (read-write) and 9; the hostile engine it starts tries every
// descriptor and finds neither, unconfined or under bubblewrap, and the
// secret is unchanged.
func TestInheritedDescriptorsStayWithTheArbiter(t *testing.T) {
	prog := hostile(t)
	for _, how := range []string{"none", "bwrap"} {
		t.Run(how, func(t *testing.T) {
			secret := t.TempDir() + "/secret.txt"
			const content = "the organizer's secret"
			if err := os.WriteFile(secret, []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			ro, err := os.Open(secret)
			if err != nil {
				t.Fatal(err)
			}
			defer ro.Close()
			rw, err := os.OpenFile(secret, os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer rw.Close()
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), fdsArbiterEnv+"="+how, hostileEnv+"="+prog)
			cmd.ExtraFiles = []*os.File{nil, nil, rw, nil, nil, nil, ro} // descriptors 5 and 9
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("arbiter: %v\n%s", err, out)
			}
			if s, ok := strings.CutPrefix(string(out), "skip: "); ok {
				t.Skip(strings.TrimSpace(s))
			}
			t.Logf("what the engine found:\n%s", out)
			if !strings.Contains(string(out), "MESSAGE fds tried 3-64") {
				t.Fatalf("the engine did not try the descriptors:\n%s", out)
			}
			for _, l := range strings.Split(string(out), "\n") {
				if strings.Contains(l, secret) || strings.Contains(l, content) {
					t.Errorf("the engine reached the arbiter's inherited descriptor: %s", l)
				}
			}
			if b, _ := os.ReadFile(secret); string(b) != content {
				t.Errorf("the engine wrote through an inherited descriptor: the secret holds %q", b)
			}
		})
	}
}
