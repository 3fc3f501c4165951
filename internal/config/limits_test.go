package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// Clock values past what the protocol carries overflowed into negative
// budgets (match = "2562047h" with a tolerance of an hour: Black lost on
// time "within -2562047h…"); a negative start_timeout was taken.
func TestDurationBounds(t *testing.T) {
	cases := []struct{ name, edit, to, want string }{
		{"huge match", `match = "20m"`, `match = "2562047h"`, `t.toml:7: clock.match: 2562047h0m0s is longer than 596h31m23.647s`},
		{"huge tolerance", `tolerance = "1s"`, `tolerance = "600h"`, `t.toml:8: clock.tolerance: 600h0m0s is longer than`},
		{"huge engine clock", `match = "10m"`, `match = "1000h"`, `t.toml:21: engine[1].clock.match: 1000h0m0s is longer than`},
		{"negative start timeout", `concurrency = 2`, "concurrency = 2\nstart_timeout = \"-1s\"", `t.toml:5: start_timeout: negative duration -1s`},
		{"huge start timeout", `concurrency = 2`, "concurrency = 2\nstart_timeout = \"2562047h\"", `t.toml:5: start_timeout: 2562047h0m0s is longer than`},
		// Numbers that made the arbiter die (issue 27): thread exhaustion,
		// out of memory, a schedule with no end.
		{"thousands of games at once", `concurrency = 2`, "concurrency = 10000", `t.toml:4: concurrency: 10000: want 1 to 1024`},
		{"games at once past memory", `concurrency = 2`, "concurrency = 100000000000", `t.toml:4: concurrency: 100000000000: want 1 to 1024`},
		{"rounds without end", `concurrency = 2`, "concurrency = 2\nrounds = 1000000000000000001", `t.toml:5: rounds: 1000000000000000001: want 0 (the default) to 999`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(good, tc.edit, tc.to, 1)
			_, err := Parse("t.toml", []byte(src))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v\nwant it to contain %q", err, tc.want)
			}
		})
	}
	src := strings.Replace(good, `match = "20m"`, `match = "596h31m23.647s"`, 1)
	if _, err := Parse("t.toml", []byte(src)); err != nil {
		t.Errorf("the longest match time: %v", err)
	}
}

// A 32 KB file of nested inline tables made the TOML parser exhaust 4 GiB.
// Files too deep or too large are refused before the parser sees them, at
// the line where the bound is passed.
func TestShapeBounds(t *testing.T) {
	deep := func(open, close string, n int) string {
		return strings.Repeat(open, n) + "1" + strings.Repeat(close, n)
	}
	cases := []struct{ name, src, want string }{
		{"32 KB of inline tables", "name = \"x\"\nx = " + deep("{a=", "}", 8000) + "\n", `t.toml:2: nested deeper than 8 levels`},
		{"inline tables over lines", "x = [\n" + strings.Repeat("{a=[\n", 9) + "1" + strings.Repeat("]}", 9) + "]\n", `t.toml:5: nested deeper`},
		{"arrays", "x = " + deep("[", "]", 17) + "\n", `t.toml:1: nested deeper`},
		{"dotted key", "\n" + strings.Repeat("a.", 2000) + "b = 1\n", `t.toml:2: nested deeper`},
		{"header", "[" + strings.Repeat("a.", 16) + "b]\n", `t.toml:1: nested deeper`},
		{"header and key", "[a.a.a.b]\nc.c.c.d = {e = 1}\n", `t.toml:2: nested deeper`},
		{"engine clock", "[[engine]]\nclock = {match = {a = {b = {c = {d = {e = 1}}}}}}\n", `t.toml:2: nested deeper`},
		{"array of tables", "[[" + strings.Repeat("a.", 15) + "b]]\n", `t.toml:1: nested deeper`},
		{"too large", "# " + strings.Repeat("x", MaxBytes) + "\n", `t.toml: larger than 2097152 bytes (2048 KiB)`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("t.toml", []byte(tc.src))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %.300v\nwant it to contain %q", err, tc.want)
			}
		})
	}
	big := filepath.Join(t.TempDir(), "big.toml")
	if err := os.WriteFile(big, []byte(strings.Repeat("# padding\n", MaxBytes/5)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(big); err == nil || !strings.Contains(err.Error(), big+": larger than") {
		t.Errorf("Load of a file twice the bound: %v", err)
	}
}

// Brackets, dots and quotes inside strings and comments are text, not
// nesting: a config full of them within the bounds is read.
func TestShapeIgnoresStringsAndComments(t *testing.T) {
	src := strings.Replace(good, `command = "builtin:greedy"`, `command = "builtin:greedy"
clock = {match = "1m", tolerance = "1s"} # the deepest form a config has: 4 levels`, 1)
	src = strings.Replace(src, `concurrency = 2`, `concurrency = 2 # [[[[[[[[[[[[[[[[[[ {{{{{{{{{{{{{{{{{{
output = "a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s"
seed = 1
"quoted.key.with.dots.a.b.c.d.e.f.g.h.i.j.k.l" = 1`, 1)
	src = strings.Replace(src, `args = ["seed=3"]`, `args = ["seed=3", '[[[[[[[[[[[[[[[[[[', """
{{{{{{{{{{{{{{{{{{ \""" [[[[[[[[[[[[[[[[[[[
""", '''
'{{{{{{{{{{{{{{{{{{{{''', "\"[[[[[[[[[[[[[[[[[[[["]`, 1)
	_, err := Parse("t.toml", []byte(src))
	if err == nil || !strings.Contains(err.Error(), `unknown key`) {
		t.Fatalf("err = %v, want only the unknown quoted key refused", err)
	}
	src = strings.Replace(src, `"quoted.key.with.dots.a.b.c.d.e.f.g.h.i.j.k.l" = 1`, ``, 1)
	if _, err := Parse("t.toml", []byte(src)); err != nil {
		t.Fatal(err)
	}
}

// depth is how many tables and arrays hold the deepest value of v.
func depth(v any) int {
	d := 0
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			d = max(d, 1+depth(e))
		}
	case []map[string]any:
		for _, e := range x {
			d = max(d, 2+depth(e)-1)
		}
	case []any:
		for _, e := range x {
			d = max(d, 1+depth(e))
		}
	}
	return d
}

// Whatever checkShape lets through nests no deeper than MaxDepth once
// parsed: the scanner never undercounts what the parser builds.
func FuzzShape(f *testing.F) {
	for _, s := range []string{good, "a.b.c = [[1], {d.e = [{f = 2}]}]", "[[a.b]]\nc.d = {e = [1, [2, {f = 3}]]}",
		"x = \"\"\"\n[[[\n\"\"\"\ny = [ # c\n [1],\n]\n", "'k.l' = {m = '''{'''}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 || checkShape("f.toml", []byte(src)) != nil {
			return
		}
		var v map[string]any
		if _, err := toml.Decode(src, &v); err != nil {
			return
		}
		if d := depth(v); d > MaxDepth {
			t.Fatalf("accepted %q: parsed depth %d", src, d)
		}
	})
}

// A round robin's schedule grows with the square of its entrants and is
// laid out before the first game: one too big is refused when read.
func TestScheduleSizeBound(t *testing.T) {
	var b strings.Builder
	b.WriteString("name = \"t\"\nformat = \"round-robin\"\n")
	for i := range 3000 {
		fmt.Fprintf(&b, "[[engine]]\nname = \"e%d\"\ncommand = \"builtin:random\"\n", i)
	}
	_, err := Parse("t.toml", []byte(b.String()))
	if err == nil || !strings.Contains(err.Error(), "3000 engines in a round-robin event make 4498500 games, more than the 4194304") {
		t.Fatalf("err = %v", err)
	}
	if _, err := Parse("t.toml", []byte(strings.Replace(b.String(), "round-robin", "swiss", 1))); err != nil {
		t.Errorf("a Swiss of 3000: %v", err)
	}
}
