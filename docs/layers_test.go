package docs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// layerLine is one line of the "## Layers" list of architecture.md:
// "- L3: arbiter (one game and the director), ...".
var layerLine = regexp.MustCompile(`^- L(\d+):(.*)$`)

// aside is a parenthesised remark after a package's name.
var aside = regexp.MustCompile(`\([^)]*\)`)

// layers reads the "## Layers" section of the Markdown page md: each
// package's layer, by its path relative to the module. The layers must be
// listed bottom first, L0, L1, ..., each package once.
func layers(md string) (map[string]int, error) {
	layer := map[string]int{}
	in, found, next := false, false, 0
	for n, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "## ") {
			in = l == "## Layers"
			found = found || in
			continue
		}
		m := layerLine.FindStringSubmatch(l)
		if !in || m == nil {
			continue
		}
		if k, _ := strconv.Atoi(m[1]); k != next {
			return nil, fmt.Errorf("line %d: L%d, want L%d (bottom first, one line a layer)", n+1, k, next)
		}
		for _, p := range strings.Split(aside.ReplaceAllString(m[2], ""), ",") {
			p = strings.Trim(strings.TrimSpace(p), "`")
			if p == "" {
				return nil, fmt.Errorf("line %d: an empty package name", n+1)
			}
			if k, dup := layer[p]; dup {
				return nil, fmt.Errorf("line %d: %s is already in L%d", n+1, p, k)
			}
			layer[p] = next
		}
		next++
	}
	switch {
	case !found:
		return nil, errors.New(`no "## Layers" heading`)
	case next == 0:
		return nil, errors.New(`"## Layers" lists no layer ("- L0: rules, ...")`)
	}
	return layer, nil
}

// goPackage is what the test reads of `go list -json`.
type goPackage struct {
	ImportPath string
	Imports    []string
	Module     *struct{ Path string }
}

// modulePackages lists the module's packages with `go list -json ./...`
// run from the module's root (the folder above docs/).
func modulePackages(t *testing.T) []goPackage {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("needs the go command on PATH to list the packages and their imports:", err)
	}
	cmd := exec.Command(gobin, "list", "-json", "./...")
	cmd.Dir = ".."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -json ./...: %v\n%s", err, stderr.String())
	}
	var pkgs []goPackage
	for d := json.NewDecoder(bytes.NewReader(out)); ; {
		var p goPackage
		if err := d.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("go list -json ./...: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// Every package of the module stands on a layer of architecture.md's list,
// and imports nothing of a higher layer: dependencies point down. Only a
// package's own code counts (go list's Imports); its tests may use what
// stands above it.
func TestDependenciesPointDown(t *testing.T) {
	md, err := os.ReadFile("architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	layer, err := layers(string(md))
	if err != nil {
		t.Fatalf("architecture.md: %v", err)
	}
	pkgs := modulePackages(t)
	if len(pkgs) == 0 || pkgs[0].Module == nil {
		t.Fatal("go list -json ./... names no package of a module")
	}
	module := pkgs[0].Module.Path
	rel := func(path string) (string, bool) { return strings.CutPrefix(path, module+"/") }
	seen := map[string]bool{}
	for _, p := range pkgs {
		name, _ := rel(p.ImportPath)
		seen[name] = true
		at, ok := layer[name]
		if !ok {
			t.Errorf("%s is in no layer: add it to a line of ## Layers in docs/architecture.md", name)
			continue
		}
		for _, imp := range p.Imports {
			dep, ours := rel(imp)
			if k, known := layer[dep]; ours && known && k > at {
				t.Errorf("%s (L%d) imports %s (L%d): a package may import only its own layer or lower", name, at, dep, k)
			}
		}
	}
	var stale []string
	for p := range layer {
		if !seen[p] {
			stale = append(stale, p)
		}
	}
	slices.Sort(stale)
	for _, p := range stale {
		t.Errorf("## Layers in docs/architecture.md names %s, which is no package of %s", p, module)
	}
}

// The layer list is read as written: bottom first, remarks in parentheses
// left out, and a list out of order or naming a package twice refused.
func TestLayersList(t *testing.T) {
	md := "# A\n\n## Layers\n\nprose\n\n- L0: rules, `pairing`\n- L1: arbiter (one game, the director), engine\n\n## Next\n- L2: live\n"
	got, err := layers(md)
	want := map[string]int{"rules": 0, "pairing": 0, "arbiter": 1, "engine": 1}
	if err != nil || !maps.Equal(got, want) {
		t.Errorf("layers = %v, %v; want %v", got, err, want)
	}
	for _, bad := range []string{
		"## Layers\n- L1: rules\n",
		"## Layers\n- L0: rules\n- L1: rules\n",
		"## Layers\n- L0: rules,\n",
		"## Layers\nnone\n",
		"## Other\n- L0: rules\n",
	} {
		if l, err := layers(bad); err == nil {
			t.Errorf("%q read as %v", bad, l)
		}
	}
}

// The command line parses and prints: it stands on event, which builds the
// entrants, matches and events, and imports none of the packages that
// play (arbiter), run engines (engine) or decide the games (schedule).
func TestCommandStandsOnEvent(t *testing.T) {
	pkgs := modulePackages(t)
	if len(pkgs) == 0 || pkgs[0].Module == nil {
		t.Fatal("go list -json ./... names no package of a module")
	}
	module := pkgs[0].Module.Path
	for _, p := range pkgs {
		if p.ImportPath != module+"/cmd/arena" {
			continue
		}
		for _, imp := range p.Imports {
			for _, below := range []string{"arbiter", "engine", "schedule"} {
				if imp == module+"/"+below {
					t.Errorf("cmd/arena imports %s: what it needs of it goes through event", below)
				}
			}
		}
		return
	}
	t.Fatal("no package cmd/arena")
}
