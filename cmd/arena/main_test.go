package main

import (
	"flag"
	"reflect"
	"strings"
	"testing"
)

// People type flags after the arguments as often as before them; everything
// after `--` is an argument, flags or not (arena connect URL -- ENGINE -x).
func TestFlagsAnywhere(t *testing.T) {
	cases := []struct {
		name string
		args []string
		addr string
		n    int
		rest []string
	}{
		{"flags first", []string{"-addr", ":1", "-n", "2", "a", "b"}, ":1", 2, []string{"a", "b"}},
		{"flags last", []string{"a", "b", "-addr", ":1", "-n", "2"}, ":1", 2, []string{"a", "b"}},
		{"flags between", []string{"a", "-addr=:1", "b", "-n", "2"}, ":1", 2, []string{"a", "b"}},
		{"after --", []string{"a", "-n", "2", "--", "engine", "-addr", "x"}, "", 2, []string{"a", "engine", "-addr", "x"}},
		{"a lone dash is an argument", []string{"-", "-n", "3"}, "", 3, []string{"-"}},
		{"no arguments", []string{"-n", "4"}, "", 4, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs := flag.NewFlagSet("t", flag.ContinueOnError)
			addr := fs.String("addr", "", "")
			n := fs.Int("n", 0, "")
			if err := parseInterleaved(fs, tc.args); err != nil {
				t.Fatal(err)
			}
			if *addr != tc.addr || *n != tc.n || !reflect.DeepEqual(fs.Args(), tc.rest) && len(fs.Args())+len(tc.rest) > 0 {
				t.Errorf("addr %q n %d args %q, want %q %d %q", *addr, *n, fs.Args(), tc.addr, tc.n, tc.rest)
			}
		})
	}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(nil)
	if err := parseInterleaved(fs, []string{"a", "-nope"}); err == nil {
		t.Error("an unknown flag after an argument was accepted")
	}
}

// The README writes `arena match E1 E2 -games 2`: the flags after the engines
// are read, not taken for engines.
func TestMatchFlagsAfterEngines(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := runArena(t, "match", "builtin:greedy", "builtin:random", "-games", "2", "-tc", "10s", "-out", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	if n := strings.Count("\n"+out, "\ngame "); n != 2 {
		t.Errorf("%d games played, want 2:\n%s", n, out)
	}
}
