package config

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The config is a leaf: it reads and checks files with the game's
// vocabulary and the shared bounds, and never imports what runs engines or
// plays games (engine, arbiter, schedule, event, remote, internal/bundled),
// so that reading a file does not pull them in. What only those can check
// is checked by event, at the file's line (Event.ErrAt).
func TestConfigImportsOnlyTheVocabulary(t *testing.T) {
	allowed := []string{"gomoku-arena/rules", "gomoku-arena/clock", "gomoku-arena/pairing", "gomoku-arena/results/standings",
		"gomoku-arena/internal/mode", "gomoku-arena/internal/bounds"}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		ast, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range ast.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(path, "gomoku-arena/") && !slices.Contains(allowed, path) {
				t.Errorf("%s imports %s: the config imports only %s", f, path, strings.Join(allowed, ", "))
			}
		}
	}
}
