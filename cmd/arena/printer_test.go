package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gomoku-arena/event"
	"gomoku-arena/results/rating"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
	"gomoku-arena/schedule"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares got with testdata/NAME, or with -update rewrites it.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update to write it)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

// aRun is what a printer hears of a small event: two games at once, one
// line of the front end's own between them.
func aRun(p printer) {
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	p.Observe(event.Began{Name: "golden", Total: 3})
	p.Observe(event.GameStarted{Round: 1, Number: 1, Black: "alpha", White: "beta"})
	p.Observe(event.GameStarted{Round: 1, Number: 2, Black: "gamma", White: "delta"})
	p.Observe(event.MovePlayed{Round: 1, Number: 1, Stones: 1, Black: 59 * time.Second, White: time.Minute})
	p.Observe(event.MovePlayed{Round: 1, Number: 2, Stones: 2, Black: 58 * time.Second, White: 57 * time.Second})
	p.Observe(event.GameFinished{Record: &record.Record{Round: 1, Game: 1, Black: "alpha", White: "beta", Winner: rules.Black,
		End: record.Five, Moves: make([]record.Move, 9), Start: start, Finish: start.Add(1500 * time.Millisecond)}})
	p.println("a line of the front end's own")
	p.Observe(event.GameFinished{Record: &record.Record{Round: 1, Game: 2, Black: "gamma", White: "delta", Winner: rules.White,
		End: record.Crash, Detail: "exit status 134:  engine.c:42:\tassertion failed", Moves: make([]record.Move, 4), Start: start, Finish: start.Add(250 * time.Millisecond)}})
	p.Observe(event.GameFinished{Record: &record.Record{Game: 3, Black: "alpha", White: "gamma", End: record.MoveCap,
		Moves: make([]record.Move, 100), Start: start, Finish: start.Add(time.Minute)}})
	p.close()
}

// The two output styles, and the plain one without game lines (-quiet):
// what each prints of the same run.
func TestPrinterStyles(t *testing.T) {
	describe := func(g event.GameStarted) string { return g.Black + " vs " + g.White }
	tick := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	clock := func() time.Time { tick = tick.Add(time.Second); return tick }
	for _, tc := range []struct {
		name string
		p    func(*bytes.Buffer) printer
	}{
		{"plain.golden", func(b *bytes.Buffer) printer { return newPrinter(b, false, describe) }},
		{"quiet.golden", func(b *bytes.Buffer) printer { return newPrinter(b, true, describe) }},
		{"terminal.golden", func(b *bytes.Buffer) printer {
			return &terminal{plain: plain{w: b}, describe: describe, now: clock, running: map[gameKey]*inPlay{}}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			aRun(tc.p(&b))
			golden(t, tc.name, b.Bytes())
		})
	}
}

// The stats line the README promises is parseable: fields separated by two
// spaces.
func TestStatsLine(t *testing.T) {
	p := namedPlan(t, true, &rating.SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: rating.ModelNormalized}, "new", "old")
	e := &schedule.Encounter{First: 0, Second: 1, WDL: rating.WDL{W: 13, D: 3, L: 4}, Penta: rating.Pentanomial{0, 1, 2, 3, 4}}
	var b bytes.Buffer
	b.WriteString(p.statsLine(e) + "\n")
	p = namedPlan(t, false, nil, "new", "old")
	b.WriteString(p.statsLine(e) + "\n")
	b.WriteString(p.statsLine(&schedule.Encounter{First: 1, Second: 0}) + "\n")
	golden(t, "stats.golden", b.Bytes())
}

// The status line is for terminals: /dev/null, a character device too, gets
// the plain lines; a pseudo-terminal gets the status line.
func TestTerminalIsATty(t *testing.T) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if isTerminal(null) {
		t.Error("/dev/null taken for a terminal")
	}
	pty, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal to check the other way: %v", err)
	}
	defer pty.Close()
	if !isTerminal(pty) {
		t.Error("a pseudo-terminal not taken for a terminal")
	}
}

// screen is what a terminal shows of out: a carriage return goes back to
// the start of the line, ESC [ K erases from there to its end.
func screen(out string) []string {
	lines := []string{""}
	col := 0
	for i := 0; i < len(out); i++ {
		cur := &lines[len(lines)-1]
		switch {
		case out[i] == '\r':
			col = 0
		case out[i] == '\n':
			lines = append(lines, "")
			col = 0
		case strings.HasPrefix(out[i:], "\x1b[K"):
			*cur = (*cur)[:col]
			i += 2
		default:
			if col < len(*cur) {
				*cur = (*cur)[:col] + string(out[i]) + (*cur)[col+1:]
			} else {
				*cur += string(out[i])
			}
			col++
		}
	}
	return lines
}

// A notice (a remote entrant disconnected, an entrant withdrawn) goes to
// stderr, which shares the terminal with the status line on stdout: it
// gets a line of its own, and the status line comes back below it.
func TestNoticeGetsItsOwnLine(t *testing.T) {
	var b bytes.Buffer
	tick := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	p := &terminal{plain: plain{w: &b}, describe: func(g event.GameStarted) string { return g.Black + " vs " + g.White },
		now: func() time.Time { tick = tick.Add(time.Second); return tick }, running: map[gameKey]*inPlay{}}
	v := eventView{printer: p, stdout: &b, stderr: &b}
	v.Observe(event.Began{Name: "e", Total: 4})
	v.Observe(event.GameStarted{Round: 1, Number: 1, Black: "alpha", White: "beta"})
	v.Observe(event.Notice{Text: "round 2: beta is withdrawn: failed to start 3 games in a row"})
	got := screen(b.String())
	want := []string{"arena: round 2: beta is withdrawn: failed to start 3 games in a row", "0/4 finished  running: alpha vs beta"}
	if !slices.Equal(got, want) {
		t.Errorf("the terminal shows\n%q\nwant\n%q", got, want)
	}
}

// A game adjudicated while it is played leaves the status line's running
// games when the adjudication is journaled (the event stops it).
func TestAdjudicatedGameLeavesTheStatusLine(t *testing.T) {
	var b bytes.Buffer
	tick := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	p := &terminal{plain: plain{w: &b}, describe: func(g event.GameStarted) string { return g.Black + " vs " + g.White },
		now: func() time.Time { tick = tick.Add(time.Second); return tick }, running: map[gameKey]*inPlay{}}
	p.Observe(event.Began{Name: "e", Total: 4})
	p.Observe(event.GameStarted{Round: 1, Number: 1, Black: "alpha", White: "beta"})
	p.Observe(event.GameStarted{Round: 1, Number: 2, Black: "gamma", White: "delta"})
	p.Observe(event.DecisionJournaled{Line: &record.Record{Round: 1, Game: 1, End: record.Decided,
		Decision: &record.Decision{Kind: record.Adjudicate, Result: "1/2-1/2", Reason: "a dead draw"}}})
	got := screen(b.String())
	if want := "0/4 finished  running: gamma vs delta"; len(got) == 0 || got[len(got)-1] != want {
		t.Errorf("the terminal shows\n%q\nwant its last line %q", got, want)
	}
}
