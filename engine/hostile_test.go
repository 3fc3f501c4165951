package engine

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// hostileEnv names a ready-built hostile engine (the tests run again as
// nobody use the one built by the first run).
const hostileEnv = "ENGINE_TEST_HOSTILE"

var hostileBuild struct {
	sync.Once
	dir, path string
	err       error
}

// hostile is the path of the hostile engine (testdata/hostile), built once
// per test run into a folder anyone may read.
func hostile(t *testing.T) string {
	t.Helper()
	p, err := buildHostile()
	if err != nil {
		t.Skipf("cannot build testdata/hostile (needs the go tool): %v", err)
	}
	return p
}

func buildHostile() (string, error) {
	if p := os.Getenv(hostileEnv); p != "" {
		return p, nil
	}
	hostileBuild.Do(func() {
		goTool, err := exec.LookPath("go")
		if err != nil {
			hostileBuild.err = &buildError{err, "no go tool on PATH"}
			return
		}
		dir, err := os.MkdirTemp("", "engine-hostile-")
		if err != nil {
			hostileBuild.err = err
			return
		}
		hostileBuild.dir = dir
		os.Chmod(dir, 0o755)
		path := filepath.Join(dir, "bin", "pbrain-hostile")
		cmd := exec.Command(goTool, "build", "-o", path, "./testdata/hostile")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			hostileBuild.err = &buildError{err, string(out)}
			return
		}
		os.Chmod(filepath.Dir(path), 0o755)
		hostileBuild.path = path
	})
	return hostileBuild.path, hostileBuild.err
}

type buildError struct {
	err error
	out string
}

func (b *buildError) Error() string { return b.err.Error() + ": " + b.out }

// removeHostile removes the built hostile engine (TestMain).
func removeHostile() {
	if hostileBuild.dir != "" {
		os.RemoveAll(hostileBuild.dir)
	}
}
