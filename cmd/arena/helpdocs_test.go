package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The README's command table and arena's commands are the same list, and
// every command in it explains itself (-h).
func TestReadmeTableListsEveryCommand(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	// a row: | `arena NAME ...` | what it does |
	row := regexp.MustCompile("(?m)^\\|\\s*`arena ([a-z][a-z0-9-]*)")
	var table []string
	for _, m := range row.FindAllStringSubmatch(string(b), -1) {
		table = append(table, m[1])
	}
	if len(table) == 0 {
		t.Fatal("README.md has no command table (rows | `arena NAME ...` | ... |)")
	}
	for _, name := range table {
		if _, ok := commands[name]; !ok {
			t.Errorf("README.md's table lists `arena %s`, a command arena does not know", name)
			continue
		}
		out, errOut, code := runArena(t, name, "-h")
		if code != exitOK || !strings.HasPrefix(out, "usage: arena "+name+" ") || errOut != "" {
			t.Errorf("arena %s -h: exit %d, stdout %.60q, stderr %q; want its usage on stdout", name, code, out, errOut)
		}
	}
	for _, name := range commandNames() {
		if name != "help" && !slices.Contains(table, name) {
			t.Errorf("arena knows %q, README.md's command table does not list it", name)
		}
	}
}

// docCommand finds a command line in the docs, `arena NAME ...` up to the end of
// its code span, table cell or line, a shell comment or the `--` that ends
// arena's flags (what follows belongs to an engine).
var docCommand = regexp.MustCompile("(?:^|[^\\w/-])arena ([a-z][a-z0-9-]*)([^`|#\\n]*)")

// flagWord is a flag as a command line writes it: -name, -name=value or --name.
var flagWord = regexp.MustCompile(`(?:^|\s)--?([a-z][a-z0-9-]*)`)

// Every flag the README or a docs page writes on an arena command line is one
// that command's -h explains. Only command lines are read (`arena NAME` and
// the flags after it on the same line), not flags named in prose, which may
// belong to another program.
func TestDocumentedFlagsAreInHelp(t *testing.T) {
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, "../../README.md")
	help := map[string]string{}
	checked := 0
	for _, page := range pages {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			for _, m := range docCommand.FindAllStringSubmatch(line, -1) {
				name, rest := m[1], m[2]
				if _, ok := commands[name]; !ok || name == "help" || name == "engine" {
					continue // `arena COMMAND -h`, or an engine's own options
				}
				if j := strings.Index(rest, " -- "); j >= 0 {
					rest = rest[:j]
				}
				if _, ok := help[name]; !ok {
					out, _, _ := runArena(t, name, "-h")
					help[name] = out
				}
				for _, f := range flagWord.FindAllStringSubmatch(rest, -1) {
					if f[1] == "h" || f[1] == "help" {
						continue
					}
					checked++
					if !regexp.MustCompile(`(?m)(^|\s)-` + regexp.QuoteMeta(f[1]) + `([^a-z0-9-]|$)`).MatchString(help[name]) {
						t.Errorf("%s:%d: `arena %s -%s`: arena %s -h has no flag -%s", filepath.Base(page), i+1, name, f[1], name, f[1])
					}
				}
			}
		}
	}
	if checked < 10 {
		t.Errorf("only %d flags found on arena command lines in the docs: is the pattern still right?", checked)
	}
	t.Logf("%d flags on arena command lines checked", checked)
}
