package engine

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"gomoku-arena/rules"
)

func TestParseOpeningAnswer(t *testing.T) {
	for _, c := range []struct {
		in             string
		swap           bool
		stones         []rules.Point
		answer, parsed bool
	}{
		{"SWAP", true, nil, true, true},
		{" swap\r", true, nil, true, true},
		{"7,7 8,7 9,9", false, pts(7, 7, 8, 7, 9, 9), true, true},
		{"7,7, 8,7", false, pts(7, 7, 8, 7), true, true},
		{"8,8", false, pts(8, 8), true, true},
		{"-1,3", false, pts(-1, 3), true, true},
		{"7,7 8,", false, nil, true, false},
		{"7,7 8,x", false, nil, true, false},
		{"99999999999999999999,1", false, nil, true, false},
		{"hello", false, nil, false, false},
		{"SWAPPED", false, nil, false, false},
		{"", false, nil, false, false},
	} {
		swap, stones, answer, ok := ParseOpeningAnswer(c.in)
		if swap != c.swap || !reflect.DeepEqual(stones, c.stones) || answer != c.answer || ok != c.parsed {
			t.Errorf("%q: %v %v %v %v, want %v %v %v %v", c.in, swap, stones, answer, ok, c.swap, c.stones, c.answer, c.parsed)
		}
	}
}

func FuzzParseOpeningAnswer(f *testing.F) {
	for _, s := range []string{"SWAP", "7,7 8,7 9,9", "7,7 8,", "-1,-1", "1,2,3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		swap, stones, answer, ok := ParseOpeningAnswer(s)
		if ok && !answer {
			t.Fatal("parsed but not an answer")
		}
		if swap && len(stones) > 0 {
			t.Fatal("swap with stones")
		}
		if len(stones) > 8 {
			t.Fatalf("%d stones", len(stones))
		}
	})
}

// scripted starts /bin/sh as an engine that answers START with OK, echoes
// every line of an opening block back as a MESSAGE, and answers each DONE
// with the next of answers (a line per answer; "" stays silent).
func scripted(t *testing.T, answers ...string) *Engine {
	t.Helper()
	var sb strings.Builder
	sb.WriteString("n=0\nwhile read -r line; do\n case \"$line\" in\n START*) echo OK;;\n ABOUT) echo 'name=\"scripted\"';;\n RIFPROBE) echo UNKNOWN command;;\n DONE)\n  n=$((n+1))\n  case $n in\n")
	for i, a := range answers {
		sb.WriteString("   " + string(rune('1'+i)) + ") printf '%s\\n' '" + a + "';;\n")
	}
	sb.WriteString("  esac;;\n *) echo \"MESSAGE got $line\";;\n esac\ndone\n")
	e, err := Start(Spec{Name: "script", Command: "/bin/sh", Args: []string{"-c", sb.String()}, StartTimeout: 2 * time.Second, CloseGrace: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	if err := e.NewGame(15, nil, time.Time{}); err != nil {
		t.Fatal(err)
	}
	return e
}

func TestSwap2BoardExchange(t *testing.T) {
	e := scripted(t, "7,7 8,7 9,9", "MESSAGE thinking\nstray words\nSWAP", "7,7 8,", "ERROR Unknown command SWAP2BOARD", "")
	soon := func() time.Time { return time.Now().Add(2 * time.Second) }

	r := e.Swap2Board(nil, false, soon())
	if r.Fault != "" || !reflect.DeepEqual(r.Stones, pts(7, 7, 8, 7, 9, 9)) {
		t.Fatalf("empty board: %+v", r)
	}
	r = e.Swap2Board(pts(7, 7, 8, 7, 9, 9), true, soon())
	if r.Fault != "" || !r.Swap {
		t.Fatalf("three stones: %+v", r)
	}
	notes := strings.Join(r.Notes, "\n")
	for _, want := range []string{"got SWAP2BOARD", "got 7,7,1", "got 8,7,2", "got 9,9,1", "MESSAGE thinking", `unexpected line "stray words"`} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	r = e.Swap2Board(pts(7, 7, 8, 7, 9, 9), false, soon())
	if r.Fault != FaultMalformed {
		t.Errorf("half a stone: %+v", r)
	}
	if strings.Contains(strings.Join(r.Notes, "\n"), "7,7,1") {
		t.Errorf("colour field sent though colors is off: %v", r.Notes)
	}
	r = e.Swap2Board(nil, false, soon())
	if r.Fault != FaultUnsupported {
		t.Errorf("ERROR Unknown command: %+v", r)
	}
	r = e.Swap2Board(nil, false, time.Now().Add(100*time.Millisecond))
	if r.Fault != FaultTimeout {
		t.Errorf("silence: %+v", r)
	}
}

func TestRIFProbeAndCommands(t *testing.T) {
	e := scripted(t, "7,7 7,6 8,6")
	if ok, _ := e.RIFProbe(time.Now().Add(time.Second)); ok {
		t.Error("UNKNOWN to RIFPROBE counted as support")
	}
	r := e.RIFChoose(pts(7, 7, 7, 6, 8, 6, 9, 9), [2]rules.Point{{X: 3, Y: 3}, {X: 4, Y: 4}}, time.Now().Add(2*time.Second))
	if r.Fault != "" || len(r.Stones) != 3 {
		t.Fatalf("%+v", r)
	}
	notes := strings.Join(r.Notes, "\n")
	for _, want := range []string{"got RIFCHOOSE 3,3 4,4", "got 9,9,2"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
}

func pts(xy ...int) []rules.Point {
	var out []rules.Point
	for i := 0; i+1 < len(xy); i += 2 {
		out = append(out, rules.Point{X: xy[i], Y: xy[i+1]})
	}
	return out
}

func TestNamesCommand(t *testing.T) {
	for _, tc := range []struct {
		text, cmd string
		want      bool
	}{
		{"Unknown command: SWAP2BOARD", "SWAP2BOARD\n0,0\nDONE\n", true},
		{"unknown command swap2board", "SWAP2BOARD\nDONE\n", true},
		{"Unknown command: FREESTYLE", "SWAP2BOARD\nDONE\n", false},
		{"RESTART not supported", "START 15\n", false},
		{"START: size 15 too large", "START 15\n", true},
		{"RIFOPENED", "RIFOPEN\nDONE\n", false},
		{"bad RIFCHOOSE", "RIFCHOOSE 7,7 8,8\nDONE\n", true},
		{"", "ABOUT\n", false},
	} {
		if got := namesCommand(tc.text, []byte(tc.cmd)); got != tc.want {
			t.Errorf("namesCommand(%q, %q) = %v", tc.text, tc.cmd, got)
		}
	}
}

// After INFO lines, an ERROR that names another word is not the answer to
// RIFPROBE, SWAP2BOARD or ABOUT (it answers an INFO line); one that names
// the command is.
func TestStrayErrorIsNotTheAnswer(t *testing.T) {
	t.Parallel()
	infos := []Info{{Key: "rule_name", Value: "freestyle"}, {Key: "colour", Value: "blue"}}
	e := startFaulty(t, "info-error", "info-delay=50ms", "rif")
	if err := e.NewGame(15, infos, in(generous)); err != nil {
		t.Fatal(err)
	}
	if ok, _ := e.RIFProbe(in(generous)); !ok {
		t.Error("RIFPROBE taken as refused")
	}
	if err := e.NewGame(15, infos, in(generous)); err != nil {
		t.Fatal(err)
	}
	r := e.Swap2Board(nil, false, in(generous))
	if r.Fault != "" || len(r.Stones) != 3 {
		t.Errorf("SWAP2BOARD after INFO: %+v", r)
	}
	if !strings.Contains(strings.Join(r.Notes, "\n"), "ERROR Unknown command: FREESTYLE") {
		t.Errorf("the stray ERROR is not noted: %q", r.Notes)
	}
	if err := e.SendInfo(infos...); err != nil {
		t.Fatal(err)
	}
	if a, err := e.About(in(generous)); err != nil || a.Name != "faulty" {
		t.Errorf("ABOUT after INFO: %+v, %v", a, err)
	}

	plain := startFaulty(t, "info-error", "info-delay=50ms")
	if err := plain.NewGame(15, infos, in(generous)); err != nil {
		t.Fatal(err)
	}
	if ok, _ := plain.RIFProbe(in(generous)); ok {
		t.Error("UNKNOWN command RIFPROBE taken as OK")
	}
}
