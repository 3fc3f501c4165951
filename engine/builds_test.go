package engine

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The build chosen for a rule and size, as the Gomocup judge chooses it.
func TestChooseBuilds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		builds []string
		rule   string
		size   string
		is64   bool
		want   []string
	}{
		{"rule and size first", []string{"pbrain-x", "pbrain-x_renju", "pbrain-x_renju-15", "pbrain-x_15"}, "renju", "15", true, []string{"pbrain-x_renju-15"}},
		{"then rule", []string{"pbrain-x", "pbrain-x_renju", "pbrain-x_15"}, "renju", "15", true, []string{"pbrain-x_renju"}},
		{"then size", []string{"pbrain-x", "pbrain-x_standard", "pbrain-x_15"}, "renju", "15", true, []string{"pbrain-x_15"}},
		{"then a build that names neither", []string{"pbrain-x", "pbrain-x_standard", "pbrain-x_20"}, "renju", "15", true, []string{"pbrain-x"}},
		{"another rule or size never, while one fits", []string{"pbrain-x_freestyle-20", "pbrain-x_renju-15", "pbrain-x_15"}, "freestyle", "15", true, []string{"pbrain-x_15"}},
		{"nothing fits: all count alike", []string{"pbrain-x_renju"}, "freestyle", "15", true, []string{"pbrain-x_renju"}},
		{"64-bit marks are set aside, then preferred", []string{"pbrain-x_freestyle", "pbrain-x_freestyle_64"}, "freestyle", "15", true, []string{"pbrain-x_freestyle_64"}},
		{"on a 32-bit machine the other", []string{"pbrain-x_freestyle", "pbrain-x_freestyle_64"}, "freestyle", "15", false, []string{"pbrain-x_freestyle"}},
		{"-64 and 64 too", []string{"pbrain-x_renju-64", "pbrain-x64"}, "renju", "20", true, []string{"pbrain-x_renju-64"}},
		{"extension and case", []string{"PBRAIN-X_RENJU-15.EXE", "pbrain-x.exe"}, "renju", "15", true, []string{"PBRAIN-X_RENJU-15.EXE"}},
		{"a tie is reported", []string{"pbrain-a", "pbrain-b"}, "freestyle", "15", true, []string{"pbrain-a", "pbrain-b"}},
	}
	for _, tt := range tests {
		if got := chooseBuilds(tt.builds, tt.rule, tt.size, tt.is64); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %v", tt.name, got)
		}
	}
	for code, want := range map[int]string{0: "freestyle", 1: "standard", 4: "renju", 8: "caro", 9: "caro", 5: "renju"} {
		if got := gomocupRuleName(code); got != want {
			t.Errorf("rule code %d: %s, want %s", code, got, want)
		}
	}
}

// A command naming a folder runs the build the folder holds for the rule
// and size; a folder that cannot be used is an error naming it.
func TestGomocupBuild(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mk := func(name string, mode os.FileMode) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	mk("pbrain-x_renju-15", 0o755)
	mk("pbrain-x", 0o755)
	mk("pbrain-x_freestyle", 0o644) // not executable: not a build
	mk("README.txt", 0o644)
	for _, tt := range []struct {
		code, size int
		want       string
	}{{4, 15, "pbrain-x_renju-15"}, {0, 15, "pbrain-x"}, {4, 20, "pbrain-x"}} {
		got, err := GomocupBuild(dir, tt.code, tt.size)
		if err != nil || got != filepath.Join(dir, tt.want) {
			t.Errorf("rule %d size %d: %q, %v; want %s", tt.code, tt.size, got, err, tt.want)
		}
	}
	if got, err := GomocupBuild("builtin:greedy", 0, 15); got != "builtin:greedy" || err != nil {
		t.Errorf("a builtin: %q %v", got, err)
	}
	prog := filepath.Join(dir, "pbrain-x")
	if got, err := GomocupBuild(prog, 0, 15); got != prog || err != nil {
		t.Errorf("a program: %q %v", got, err)
	}

	empty := t.TempDir()
	mk2 := func(name string) {
		if err := os.WriteFile(filepath.Join(empty, name), nil, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := GomocupBuild(empty, 0, 15); err == nil || !strings.Contains(err.Error(), "folder "+empty+" holds no pbrain-* program") {
		t.Errorf("empty folder: %v", err)
	}
	mk2("pbrain-a")
	mk2("pbrain-b")
	if _, err := GomocupBuild(empty, 0, 15); err == nil || !strings.Contains(err.Error(), "pbrain-a and pbrain-b fit rule freestyle and size 15 equally") {
		t.Errorf("a tie: %v", err)
	}
}
