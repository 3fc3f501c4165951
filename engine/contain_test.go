package engine

import (
	"os"
	"path/filepath"
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

// sameFile reports whether a and b name one file.
func sameFile(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

var _ = filepath.Join
