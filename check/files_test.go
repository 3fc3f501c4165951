package check

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gomoku-arena/arbiter"
	"gomoku-arena/engine"
)

// A declared folder holding a link to a folder outside it, and a declared
// path that is itself a link, are shown resolved and warned of; a plain
// declared file is shown with its resolved path.
func TestFilesShowsResolvedPaths(t *testing.T) {
	dir := t.TempDir()
	pkg := filepath.Join(dir, "pkg")
	weights := filepath.Join(pkg, "weights")
	elsewhere := filepath.Join(dir, "elsewhere")
	os.MkdirAll(weights, 0o755)
	os.MkdirAll(elsewhere, 0o755)
	os.WriteFile(filepath.Join(pkg, "config.toml"), []byte("x"), 0o644)
	os.Symlink(elsewhere, filepath.Join(weights, "more"))
	os.Symlink(elsewhere, filepath.Join(pkg, "data"))
	sb := &engine.Sandbox{Show: []string{filepath.Join(pkg, "config.toml"), weights, filepath.Join(pkg, "data")}}
	c := newChecker(context.Background(), arbiter.Entrant{Spec: engine.Spec{Name: "e", Sandbox: sb}}, Settings{})
	c.filesFinding()
	f := merge(c.findings["files"])
	if f.Verdict != Warn {
		t.Errorf("verdict %s, want warn", f.Verdict)
	}
	for _, want := range []string{
		"declared " + filepath.Join(pkg, "config.toml") + " resolves to " + filepath.Join(pkg, "config.toml"),
		"holds the link " + filepath.Join(weights, "more") + ", which resolves to " + elsewhere + ", outside it",
		"declared " + filepath.Join(pkg, "data") + " is a link: it resolves to " + elsewhere,
	} {
		if !strings.Contains(f.Seen, want) {
			t.Errorf("files finding %q\nlacks %q", f.Seen, want)
		}
	}
}
