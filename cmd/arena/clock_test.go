package main

import (
	"strings"
	"testing"
)

// Clock values that overflowed into negative budgets, and a negative
// start timeout, are usage errors of arena match, as in a config.
func TestMatchRefusesClocksPastTheBound(t *testing.T) {
	for _, c := range []struct {
		flags []string
		want  string
	}{
		{[]string{"-tc", "2562047h", "-tolerance", "1h"}, "clock match: 2562047h0m0s is longer than 596h31m23.647s"},
		{[]string{"-hang", "600h"}, "clock hang: 600h0m0s is longer than"},
		{[]string{"-start-timeout", "-1s"}, "-start-timeout: negative duration"},
	} {
		args := append(append([]string{"match"}, c.flags...), "builtin:random", "builtin:greedy")
		out, errOut, code := runArena(t, args...)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, want %d and %q\n%s%s", c.flags, code, exitUsage, c.want, out, errOut)
		}
	}
}
