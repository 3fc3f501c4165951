package main

import (
	"gomoku-arena/event/rulings"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWithdrawCommand(t *testing.T) {
	dir := t.TempDir()
	ident := `{"format": 1, "kind": "event", "name": "w", "rule": "freestyle", "size": 15, "opening_procedure": "none", "pairing": "swiss", "rounds": 3, "engines": [{"name": "alpha"}, {"name": "beta"}]}`
	if err := os.WriteFile(filepath.Join(dir, "event.json"), []byte(ident), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runArena(t, "withdraw", "-reason", "asked", dir, "beta")
	if code != exitOK || !strings.Contains(out, "beta will be withdrawn") {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	qs, err := rulings.ReadWithdrawalRequests(filepath.Join(dir, rulings.WithdrawalFile))
	if err != nil || len(qs) != 1 || qs[0].Engine != "beta" || qs[0].Reason != "asked" {
		t.Fatalf("request file: %+v, %v", qs, err)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"withdraw", dir, "gamma"}, exitError, `no engine "gamma"`},
		{[]string{"withdraw", dir}, exitUsage, "want FOLDER and NAME"},
		{[]string{"withdraw", t.TempDir(), "beta"}, exitError, "not an event folder"},
	} {
		out, errOut, code := runArena(t, tc.args...)
		if code != tc.code || !strings.Contains(out+errOut, tc.want) {
			t.Errorf("%v: exit %d, want %d; %s%s", tc.args, code, tc.code, out, errOut)
		}
	}
	// Asked twice: refused, nothing written.
	if out, errOut, code := runArena(t, "withdraw", dir, "beta"); code != exitError || !strings.Contains(out+errOut, "already requested") {
		t.Errorf("second request: exit %d: %s%s", code, out, errOut)
	}
	if qs, _ := rulings.ReadWithdrawalRequests(filepath.Join(dir, rulings.WithdrawalFile)); len(qs) != 1 {
		t.Errorf("the refused request was written: %+v", qs)
	}
	rr := t.TempDir()
	os.WriteFile(filepath.Join(rr, "event.json"), []byte(`{"format": 1, "kind": "event", "name": "rr", "rule": "freestyle", "size": 15, "opening_procedure": "none", "pairing": "round-robin", "engines": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}`), 0o644)
	if out, errOut, code := runArena(t, "withdraw", rr, "a"); code != exitOK || !strings.Contains(out+errOut, "a will be withdrawn") {
		t.Errorf("round robin: exit %d: %s%s", code, out, errOut)
	}
}

// A Swiss event that has played its last round has no round left to
// withdraw anyone from: the request is refused, at every call, and nothing
// is written.
func TestWithdrawFromAFinishedEventIsRefused(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "swiss.toml")
	src := `name = "finished swiss"
rule = "freestyle"
size = 9
format = "swiss"
rounds = 2
output = "out"
[clock]
match = "20s"
[[engine]]
name = "a"
command = "builtin:greedy"
[[engine]]
name = "b"
command = "builtin:random"
args = ["seed=1"]
[[engine]]
name = "c"
command = "builtin:random"
args = ["seed=2"]
[[engine]]
name = "d"
command = "builtin:random"
args = ["seed=3"]
`
	if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := runArena(t, "run", "-quiet", "-no-check", cfg); code != exitOK {
		t.Fatalf("run: exit %d: %s%s", code, out, errOut)
	}
	folder := filepath.Join(dir, "out")
	for range 2 {
		out, errOut, code := runArena(t, "withdraw", folder, "b")
		if code != exitError || !strings.Contains(out+errOut, "last round") || strings.Contains(out, "will be withdrawn") {
			t.Errorf("exit %d: %s%s", code, out, errOut)
		}
	}
	if _, err := os.Stat(filepath.Join(folder, rulings.WithdrawalFile)); !os.IsNotExist(err) {
		t.Errorf("a refused withdrawal wrote %s (%v)", rulings.WithdrawalFile, err)
	}
}
