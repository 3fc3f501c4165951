package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gomoku-arena/arbiter"
)

func TestWithdrawCommand(t *testing.T) {
	dir := t.TempDir()
	event := `{"format": 1, "kind": "event", "name": "w", "pairing": "swiss", "engines": [{"name": "alpha"}, {"name": "beta"}]}`
	if err := os.WriteFile(filepath.Join(dir, "event.json"), []byte(event), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runArena(t, "withdraw", "-reason", "asked", dir, "beta")
	if code != exitOK || !strings.Contains(out, "beta will be withdrawn") {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	qs, err := arbiter.ReadWithdrawalRequests(filepath.Join(dir, arbiter.WithdrawalFile))
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
	rr := t.TempDir()
	os.WriteFile(filepath.Join(rr, "event.json"), []byte(`{"format": 1, "kind": "event", "name": "rr", "pairing": "round-robin", "engines": [{"name": "a"}]}`), 0o644)
	if out, errOut, code := runArena(t, "withdraw", rr, "a"); code != exitError || !strings.Contains(out+errOut, "Swiss events") {
		t.Errorf("round robin: exit %d: %s%s", code, out, errOut)
	}
}
