// Package docs holds the arena's documentation; its test keeps the README a
// short map whose every relative link, and every link of the pages it points
// to, resolves, and whose example event is a file the arena accepts.
package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gomoku-arena/internal/config"
)

var link = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// pages are the README and every Markdown page under docs/.
func pages(t *testing.T) []string {
	t.Helper()
	ps, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"../README.md"}, ps...)
}

func TestReadmeIsAMap(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 16<<10 {
		t.Errorf("README.md is %d bytes: at most 16 KiB, the rest belongs in docs/", len(b))
	}
	// The two commands come first, before any other block.
	first := strings.Index(string(b), "```sh\n")
	if first < 0 || !strings.HasPrefix(string(b)[first+6:], "go run ./cmd/arena run configs/demo.toml") {
		t.Error("README.md does not open with the demo command")
	}
	if !strings.Contains(string(b), "\ngo test -short -timeout 30m ./...") {
		t.Error("README.md does not give the test command")
	}
}

// The README's complete event is one the arena accepts as written.
func TestReadmeEventParses(t *testing.T) {
	b, _ := os.ReadFile("../README.md")
	s := string(b)
	i := strings.Index(s, "```toml\n")
	if i < 0 {
		t.Fatal("README.md shows no event config")
	}
	s = s[i+len("```toml\n"):]
	s = s[:strings.Index(s, "```")]
	// Its engines' programs, as the organizer would have them beside it.
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "engines", "rapfi"), 0o755)
	for _, name := range []string{"rapfi/pbrain-rapfi", "rapfi/config.toml", "pbrain-blupig"} {
		if err := os.WriteFile(filepath.Join(dir, "engines", name), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ev, err := config.Parse(filepath.Join(dir, "club.toml"), []byte(s))
	if err != nil {
		t.Fatal(err)
	}
	if len(ev.Engines) < 7 {
		t.Errorf("the example has %d engines; the text says eight", len(ev.Engines))
	}
}

func TestRelativeLinksResolve(t *testing.T) {
	for _, p := range pages(t) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(b), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := p
			if file != "" {
				path = filepath.Join(filepath.Dir(p), file)
				if _, err := os.Stat(path); err != nil {
					t.Errorf("%s: link %q: %v", p, target, err)
					continue
				}
			}
			if anchor != "" && strings.HasSuffix(path, ".md") && !hasAnchor(t, path, anchor) {
				t.Errorf("%s: link %q: %s has no heading with that anchor", p, target, path)
			}
		}
	}
}

// hasAnchor says whether a heading of the Markdown file at path has the
// anchor GitHub gives it: lower case, spaces to dashes, punctuation dropped.
func hasAnchor(t *testing.T, path, anchor string) bool {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.ToLower(strings.TrimSpace(strings.TrimLeft(l, "#")))
		var a strings.Builder
		for _, r := range h {
			switch {
			case r == ' ':
				a.WriteRune('-')
			case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
				a.WriteRune(r)
			}
		}
		if a.String() == anchor {
			return true
		}
	}
	return false
}
