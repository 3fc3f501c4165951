package faulty

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

func TestMainSessions(t *testing.T) {
	tests := []struct {
		name string
		args []string
		in   string
		out  string
		code int
	}{
		{"plays from the centre", nil, "START 15\nINFO rule 1\nBEGIN\nTURN 6,6\nEND\n", "OK\n7,7\n7,6\n", ExitOK},
		{"CRLF input", nil, "START 15\r\nBEGIN\r\n", "OK\n7,7\n", ExitOK},
		{"board", nil, "START 5\nBOARD\n2,2,2\n1,1,1\nDONE\n", "OK\n2,1\n", ExitOK},
		{"restart clears", nil, "START 5\nBEGIN\nRESTART\nBEGIN\n", "OK\n2,2\nOK\n2,2\n", ExitOK},
		{"about", nil, "ABOUT\n", `name="faulty", version="1.0", author="gomoku-arena", country="CZ"` + "\n", ExitOK},
		{"unknown command", nil, "FOO\n", "UNKNOWN command FOO\n", ExitOK},
		{"move before START", nil, "BEGIN\n", "ERROR no START\n", ExitOK},
		{"crash", []string{"crash-at=2"}, "START 15\nBEGIN\nTURN 0,0\nTURN 1,1\n", "OK\n7,7\n", ExitCrash},
		{"hang keeps reading", []string{"hang-at=1"}, "START 15\nBEGIN\nABOUT\nEND\n", "OK\n" + `name="faulty", version="1.0", author="gomoku-arena", country="CZ"` + "\n", ExitOK},
		{"illegal", []string{"illegal-at=2"}, "START 15\nBEGIN\nTURN 0,0\n", "OK\n7,7\n0,0\n", ExitOK},
		{"off board", []string{"offboard-at=1"}, "START 15\nBEGIN\n", "OK\n99,99\n", ExitOK},
		{"negative", []string{"negative-at=1"}, "START 15\nBEGIN\n", "OK\n-1,3\n", ExitOK},
		{"malformed", []string{"malformed-at=1"}, "START 15\nBEGIN\n", "OK\n7,\n", ExitOK},
		{"double", []string{"double-at=1"}, "START 15\nBEGIN\n", "OK\n7,7\n7,7\n", ExitOK},
		{"exit after move", []string{"exit-after-move=1"}, "START 15\nBEGIN\nTURN 0,0\n", "OK\n7,7\n", ExitOK},
		{"refuse", []string{"refuse-start"}, "START 15\n", "ERROR cannot play\n", ExitOK},
		{"silent", []string{"silent-start"}, "START 15\n", "", ExitOK},
		{"unknown restart", []string{"unknown-restart"}, "START 15\nRESTART\n", "OK\nUNKNOWN RESTART is not supported\n", ExitOK},
		{"suggest", []string{"suggest"}, "START 15\nBEGIN\nPLAY 3,3\n", "OK\nSUGGEST 7,7\n3,3\n", ExitOK},
		{"messages", []string{"messages=2"}, "START 15\nBEGIN\n", "OK\nMESSAGE depth 1 eval -1 pv 7,7 8,8\nMESSAGE depth 2 eval 2 pv 7,7 8,8\n7,7\n", ExitOK},
		{"long line", []string{"long-line=5"}, "START 15\nBEGIN\n", "OK\nxxxx\n7,7\n", ExitOK},
		{"bad argument", []string{"crash-at=0"}, "", "", ExitUsage},
		{"unknown argument", []string{"explode"}, "", "", ExitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := Main(tt.args, strings.NewReader(tt.in), &out, &errOut)
			if code != tt.code || out.String() != tt.out {
				t.Errorf("exit %d, output %q (stderr %q); want %d, %q", code, out.String(), errOut.String(), tt.code, tt.out)
			}
		})
	}
}

func TestStderrFlood(t *testing.T) {
	var out, errOut bytes.Buffer
	Main([]string{"stderr-flood=1000"}, strings.NewReader("START 15\nBEGIN\n"), &out, &errOut)
	if errOut.Len() != 1000 || out.String() != "OK\n7,7\n" {
		t.Errorf("stderr %d bytes, stdout %q", errOut.Len(), out.String())
	}
}

func TestAssert(t *testing.T) {
	var out, errOut bytes.Buffer
	code := Main([]string{"assert-at=2"}, strings.NewReader("START 15\nBEGIN\nTURN 0,0\nTURN 1,1\n"), &out, &errOut)
	lines := strings.Split(strings.TrimSuffix(errOut.String(), "\n"), "\n")
	if code != ExitAbort || out.String() != "OK\n7,7\n" || len(lines) != 3 ||
		lines[2] != "faulty: engine.c:42: brain_turn: Assertion `move 2 < 0' failed." {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
}

// Every argument Usage lists is one the engine takes.
func TestUsageListsArguments(t *testing.T) {
	n := 0
	for _, l := range strings.Split(Usage, "\n") {
		f := strings.Fields(l)
		if len(f) == 0 || !strings.HasPrefix(l, "  ") || strings.HasPrefix(l, "   ") || !regexp.MustCompile(`^[a-z][a-z0-9-]*(=[A-Z]+)?$`).MatchString(f[0]) {
			continue
		}
		arg := f[0]
		key, val, has := strings.Cut(arg, "=")
		if has {
			val = map[string]string{"K": "3", "N": "2", "BYTES": "10", "DURATION": "1ms", "TEXT": "hi", "REPLY": "unknown"}[val]
			arg = key + "=" + val
		}
		if _, err := parseArgs([]string{arg}); err != nil {
			t.Errorf("Usage lists %q, which the engine refuses: %v", f[0], err)
		}
		n++
	}
	if n < 30 {
		t.Errorf("Usage lists %d arguments", n)
	}
}
