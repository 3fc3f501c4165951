package engine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"gomoku-arena/rules"
)

const (
	short    = 300 * time.Millisecond // deadline for requests expected to time out
	generous = time.Minute            // deadline for requests expected to succeed, however busy the machine
)

func faultySpec(args ...string) Spec {
	// Writes too get a generous deadline: on a busy machine an engine may
	// not read its INFO lines within the default second.
	return Spec{Name: "faulty", Command: "builtin:faulty", Args: args, StartTimeout: generous, WriteTimeout: generous, CloseGrace: 300 * time.Millisecond}
}

// startFaulty starts the faulty engine with args; it is closed after the test.
func startFaulty(t *testing.T, args ...string) *Engine {
	t.Helper()
	e, err := Start(faultySpec(args...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func in(d time.Duration) time.Time { return time.Now().Add(d) }

// game drives one game: the arbiter's side plays the first empty point from
// the top-left corner; the engine moves first. It stops at the first fault.
type game struct {
	size    int
	stones  map[rules.Point]int // 1 engine's, 2 arbiter's
	replies []Reply
}

func newGame(t *testing.T, e *Engine, size int) *game {
	t.Helper()
	if err := e.NewGame(size, []Info{{"timeout_turn", "1000"}, {"rule", "1"}}, in(generous)); err != nil {
		t.Fatalf("NewGame: %v", err)
	}
	return &game{size: size, stones: map[rules.Point]int{}}
}

// play requests moves until n replies or a fault; deadline is per move.
func (g *game) play(e *Engine, n int, deadline time.Duration) {
	for len(g.replies) < n {
		var r Reply
		if len(g.replies) == 0 {
			r = e.Begin(in(deadline))
		} else {
			opp := g.empty()
			g.stones[opp] = 2
			r = e.Turn(opp, in(deadline))
		}
		g.replies = append(g.replies, r)
		if r.Fault != "" {
			return
		}
		if _, taken := g.stones[r.Move]; !taken {
			g.stones[r.Move] = 1
		}
	}
}

func (g *game) empty() rules.Point {
	for y := range g.size {
		for x := range g.size {
			if _, taken := g.stones[rules.Point{X: x, Y: y}]; !taken {
				return rules.Point{X: x, Y: y}
			}
		}
	}
	panic("board full")
}

func onBoard(p rules.Point, size int) bool { return p.X >= 0 && p.Y >= 0 && p.X < size && p.Y < size }

func hasNote(r Reply, substr string) bool {
	for _, n := range r.Notes {
		if strings.Contains(n, substr) {
			return true
		}
	}
	return false
}

// groupGone waits (bounded) for every process of group pgid to be gone.
func groupGone(t *testing.T, pgid int) {
	t.Helper()
	for end := in(3 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		err := syscall.Kill(-pgid, 0)
		if errors.Is(err, syscall.ESRCH) {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("process group %d still exists (kill: %v)", pgid, err)
		}
	}
}

// procGone reports whether pid has ended (a zombie counts as ended).
func procGone(pid int) bool {
	if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] == 'Z'
}

// TestFaults plays a game against each fault and checks the reply at the
// faulty move, and that every move before it was correct.
func TestFaults(t *testing.T) {
	t.Parallel()
	type want struct {
		fault  Fault
		move   *rules.Point // the exact move, if set
		check  func(t *testing.T, g *game, r Reply, e *Engine)
		detail string // substring of Detail
	}
	pt := func(x, y int) *rules.Point { return &rules.Point{X: x, Y: y} }
	tests := []struct {
		name  string
		args  []string
		moves int // replies to request
		at    int // 1-based reply checked against want; earlier ones must be legal moves
		want  want
	}{
		{"clean", nil, 8, 8, want{}},
		{"crash", []string{"crash-at=2"}, 5, 2, want{fault: FaultExit, detail: "exit status 3"}},
		{"crash at first move", []string{"crash-at=1"}, 5, 1, want{fault: FaultExit, detail: "exit status 3"}},
		{"hang", []string{"hang-at=2"}, 5, 2, want{fault: FaultTimeout}},
		{"deaf", []string{"deaf-at=2"}, 5, 2, want{fault: FaultTimeout}},
		{"exit after move: the move counts", []string{"exit-after-move=2"}, 2, 2, want{}},
		{"exit after move: then exit", []string{"exit-after-move=2"}, 5, 3, want{fault: FaultExit, detail: "exit status 0"}},
		{"illegal", []string{"illegal-at=3"}, 3, 3, want{check: func(t *testing.T, g *game, r Reply, _ *Engine) {
			if g.stones[r.Move] == 0 {
				t.Errorf("illegal-at: %v is empty", r.Move)
			}
		}}},
		{"off board", []string{"offboard-at=2"}, 2, 2, want{move: pt(99, 99)}},
		{"negative", []string{"negative-at=2"}, 2, 2, want{move: pt(-1, 3)}},
		{"malformed", []string{"malformed-at=2"}, 4, 2, want{fault: FaultMalformed, detail: `"7,"`, check: func(t *testing.T, _ *game, r Reply, _ *Engine) {
			if r.Line != "7," {
				t.Errorf("Line = %q", r.Line)
			}
		}}},
		{"garbage", []string{"garbage"}, 6, 6, want{check: func(t *testing.T, g *game, r Reply, _ *Engine) {
			for i, r := range g.replies {
				if !hasNote(r, "warning: unexpected line") || !hasNote(r, "ERROR unsolicited") {
					t.Errorf("reply %d: junk not noted: %q", i+1, r.Notes)
				}
			}
		}}},
		{"messages are bounded", []string{"messages=100"}, 3, 3, want{check: func(t *testing.T, g *game, r Reply, _ *Engine) {
			if len(r.Notes) != maxNotes+1 || !strings.HasPrefix(r.Notes[0], "MESSAGE depth 1 ") ||
				!strings.Contains(r.Notes[maxNotes], "36 more notes") {
				t.Errorf("%d notes: first %q last %q", len(r.Notes), r.Notes[0], r.Notes[len(r.Notes)-1])
			}
		}}},
		{"stderr flood", []string{"stderr-flood=5000000"}, 3, 3, want{check: func(t *testing.T, _ *game, _ Reply, e *Engine) {
			if got := e.Stderr(); len(got) == 0 || len(got) > stderrLines {
				t.Errorf("Stderr() kept %d lines", len(got))
			}
		}}},
		{"10 MB line", []string{"long-line=10000000"}, 2, 2, want{check: func(t *testing.T, _ *game, r Reply, _ *Engine) {
			if !hasNote(r, "truncated") {
				t.Errorf("long line not noted: %q", r.Notes)
			}
			for _, n := range r.Notes {
				if len(n) > maxNoteLen+len("…") {
					t.Errorf("note of %d bytes", len(n))
				}
			}
		}}},
		{"suggest", []string{"suggest"}, 4, 4, want{check: func(t *testing.T, _ *game, r Reply, _ *Engine) {
			if !hasNote(r, "SUGGEST "+r.Move.String()) {
				t.Errorf("suggestion not noted: %q", r.Notes)
			}
		}}},
		{"think time is measured", []string{"think=50ms"}, 2, 2, want{check: func(t *testing.T, g *game, r Reply, _ *Engine) {
			// The engine's 50 ms start when it reads the request, which
			// may be a moment before the arbiter stamps the end of its
			// write: Elapsed can fall just short of 50 ms, never far.
			for i, r := range g.replies {
				if r.Elapsed < 25*time.Millisecond {
					t.Errorf("reply %d: Elapsed %v, engine thought 50ms", i+1, r.Elapsed)
				}
			}
		}}},
		{"suggest with messages and garbage", []string{"suggest", "messages=3", "garbage"}, 4, 4, want{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := startFaulty(t, tt.args...)
			g := newGame(t, e, 15)
			if tt.want.fault == FaultTimeout {
				// Only the move that hangs meets the short deadline: the
				// ones before it are answered, however late on a busy machine.
				g.play(e, tt.at-1, generous)
				g.play(e, tt.moves, short)
			} else {
				g.play(e, tt.moves, generous)
			}
			if len(g.replies) < tt.at {
				t.Fatalf("game ended after %d replies: last %+v", len(g.replies), g.replies[len(g.replies)-1])
			}
			for i, r := range g.replies[:tt.at-1] {
				if r.Fault != "" || !onBoard(r.Move, 15) {
					t.Fatalf("reply %d before the fault: %+v", i+1, r)
				}
			}
			r := g.replies[tt.at-1]
			w := tt.want
			if r.Fault != w.fault {
				t.Fatalf("reply %d: fault %q (%s), want %q; notes %q", tt.at, r.Fault, r.Detail, w.fault, r.Notes)
			}
			if w.fault == "" && w.move == nil && w.check == nil && !onBoard(r.Move, 15) {
				t.Errorf("reply %d: move %v off board", tt.at, r.Move)
			}
			if w.move != nil && r.Move != *w.move {
				t.Errorf("reply %d: move %v, want %v", tt.at, r.Move, *w.move)
			}
			if !strings.Contains(r.Detail, w.detail) {
				t.Errorf("reply %d: detail %q, want %q in it", tt.at, r.Detail, w.detail)
			}
			if w.check != nil {
				w.check(t, g, r, e)
			}
		})
	}
}

// Moves must be legal in a clean game; the tracked board of the faulty engine
// must agree with ours.
func TestCleanGameIsLegal(t *testing.T) {
	t.Parallel()
	e := startFaulty(t)
	g := newGame(t, e, 7)
	g.play(e, 24, generous) // 24 + 24 stones on 49 points
	seen := map[rules.Point]bool{}
	for i, r := range g.replies {
		if r.Fault != "" || !onBoard(r.Move, 7) || seen[r.Move] {
			t.Fatalf("reply %d: %+v", i+1, r)
		}
		if r.Elapsed <= 0 {
			t.Errorf("reply %d: Elapsed %v", i+1, r.Elapsed)
		}
		seen[r.Move] = true
	}
}

func TestNewGameErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		args     []string
		deadline time.Duration
		check    func(t *testing.T, err error)
	}{
		{"refusal", []string{"refuse-start"}, generous, func(t *testing.T, err error) {
			var r *Refusal
			if !errors.As(err, &r) || r.Message != "cannot play" || r.Engine != "faulty" {
				t.Errorf("err = %v, want a refusal", err)
			}
		}},
		{"silent", []string{"silent-start"}, short, func(t *testing.T, err error) {
			var f *FaultError
			if !errors.As(err, &f) || f.Fault != FaultTimeout {
				t.Errorf("err = %v, want a timeout", err)
			}
		}},
		{"too slow", []string{"slow-start=5s"}, short, func(t *testing.T, err error) {
			var f *FaultError
			if !errors.As(err, &f) || f.Fault != FaultTimeout {
				t.Errorf("err = %v, want a timeout", err)
			}
		}},
		{"slow but in time", []string{"slow-start=100ms"}, generous, func(t *testing.T, err error) {
			if err != nil {
				t.Error(err)
			}
		}},
		{"bad size", nil, generous, func(t *testing.T, err error) {
			var r *Refusal
			if !errors.As(err, &r) {
				t.Errorf("err = %v, want a refusal", err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := startFaulty(t, tt.args...)
			size := 15
			if tt.name == "bad size" {
				size = 1000
			}
			tt.check(t, e.NewGame(size, nil, in(tt.deadline)))
		})
	}
}

func TestStartMissingProgram(t *testing.T) {
	t.Parallel()
	_, err := Start(Spec{Name: "alpha", Command: "./alpha-does-not-exist"})
	if err == nil || err.Error() != `engine "alpha": command "./alpha-does-not-exist": no such file or directory` ||
		!errors.Is(err, os.ErrNotExist) {
		t.Errorf("err = %v", err)
	}
	_, err = Start(Spec{Name: "beta", Command: "pbrain-surely-not-in-path"})
	if err == nil || !strings.HasPrefix(err.Error(), `engine "beta": command "pbrain-surely-not-in-path": `) {
		t.Errorf("err = %v", err)
	}
}

func TestRestart(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		args       []string
		samePid    bool
		spoilGame1 bool // the first game ends in a crash
		killGame1  bool // the first game ends in Kill after a hang
	}{
		{"RESTART in place", nil, true, false, false},
		{"UNKNOWN to RESTART: new process", []string{"unknown-restart"}, false, false, false},
		{"after a crash: new process", []string{"crash-at=3"}, false, true, false},
		{"after Kill: new process", []string{"hang-at=3"}, false, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := startFaulty(t, tt.args...)
			g := newGame(t, e, 15)
			wait := generous
			if tt.killGame1 {
				wait = short
			}
			g.play(e, 2, wait)
			pid := e.Pid()
			if tt.spoilGame1 || tt.killGame1 {
				g.play(e, 3, wait)
				if last := g.replies[len(g.replies)-1]; last.Fault == "" {
					t.Fatalf("game 1 did not fail: %+v", last)
				}
				if tt.killGame1 {
					e.Kill()
					if e.Pid() != 0 {
						t.Errorf("Pid after Kill = %d", e.Pid())
					}
				}
			}
			g2 := newGame(t, e, 15)
			g2.play(e, 2, generous)
			for i, r := range g2.replies {
				if r.Fault != "" {
					t.Fatalf("game 2 reply %d: %+v", i+1, r)
				}
			}
			if got := e.Pid() == pid; got != tt.samePid {
				t.Errorf("same process: %v, want %v", got, tt.samePid)
			}
			if !tt.samePid {
				groupGone(t, pid)
			}
		})
	}
}

// waiting reports whether output is waiting to be read: in the pipe, read
// into the line reader's buffer, or kept by the idle drainer.
func (s *stdout) waiting() bool {
	s.acquire()
	defer s.release()
	n := 0
	s.src.rc.Control(func(fd uintptr) { n, _ = unix.IoctlGetInt(int(fd), unix.TIOCINQ) })
	s.q.mu.Lock()
	queued := len(s.q.lines) - s.q.head
	s.q.mu.Unlock()
	return n > 0 || s.lr.buffered() || queued > 0
}

// A line that arrives between requests (here a move sent twice) is reported
// as late, never taken as the answer to the next request. (A late line that
// arrives after the next command is written cannot be told from an answer.)
func TestLateLine(t *testing.T) {
	t.Parallel()
	e := startFaulty(t, "double-at=1")
	newGame(t, e, 15)
	first := e.Begin(in(generous))
	if first.Fault != "" {
		t.Fatal(first)
	}
	out := e.current().out
	for end := in(generous); ; time.Sleep(time.Millisecond) {
		if out.waiting() {
			break
		}
		if time.Now().After(end) {
			t.Fatal("the second copy never arrived")
		}
	}
	r := e.Turn(rules.Point{X: 0, Y: 0}, in(generous))
	if r.Fault != "" || r.Move == first.Move || !hasNote(r, `warning: late line "7,7"`) {
		t.Errorf("reply after a doubled move: %+v", r)
	}
}

func TestBoard(t *testing.T) {
	t.Parallel()
	e := startFaulty(t)
	newGame(t, e, 15)
	stones := []Stone{{rules.Point{X: 7, Y: 7}, 2}, {rules.Point{X: 8, Y: 8}, 1}, {rules.Point{X: 6, Y: 6}, 2}, {rules.Point{X: 7, Y: 6}, 3}}
	r := e.Board(stones, in(generous))
	if r.Fault != "" || !onBoard(r.Move, 15) {
		t.Fatalf("%+v", r)
	}
	for _, s := range stones {
		if s.Point == r.Move {
			t.Errorf("engine played on %v, which BOARD filled", r.Move)
		}
	}
	// TURN continues from the BOARD position.
	r2 := e.Turn(rules.Point{X: 0, Y: 0}, in(generous))
	if r2.Fault != "" || r2.Move == r.Move {
		t.Errorf("Turn after Board: %+v", r2)
	}
}

func TestAbout(t *testing.T) {
	t.Parallel()
	e := startFaulty(t, "messages=2")
	a, err := e.About(in(generous))
	if err != nil || a.Name != "faulty" || a.Version != "1.0" || a.Author != "gomoku-arena" || a.Country != "CZ" {
		t.Errorf("About = %+v, %v", a, err)
	}
}

// NewGame asks ABOUT once, after the engine's first START; an engine that
// does not answer it only costs the short wait, and still plays.
func TestIdentityAfterFirstGame(t *testing.T) {
	t.Parallel()
	e := startFaulty(t)
	if id := e.Identity(); id.Raw != "" {
		t.Errorf("identity before any game: %+v", id)
	}
	if err := e.NewGame(15, nil, in(generous)); err != nil {
		t.Fatal(err)
	}
	if id := e.Identity(); id.Name != "faulty" || id.Version != "1.0" {
		t.Errorf("identity after the first START: %+v", id)
	}

	// A program that ignores ABOUT: the game starts all the same.
	mute, err := Start(Spec{Name: "mute", Command: "/bin/sh", StartTimeout: 2 * time.Second, CloseGrace: 100 * time.Millisecond,
		Args: []string{"-c", "while read -r l; do case \"$l\" in START*) echo OK;; BEGIN) echo 7,7;; esac; done"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mute.Close() })
	if err := mute.NewGame(15, nil, in(generous)); err != nil {
		t.Fatalf("NewGame of an engine ignoring ABOUT: %v", err)
	}
	if r := mute.Begin(in(generous)); r.Fault != "" || r.Move != (rules.Point{X: 7, Y: 7}) {
		t.Errorf("first move after an unanswered ABOUT: %+v", r)
	}
	if id := mute.Identity(); id.Raw != "" {
		t.Errorf("identity of an engine ignoring ABOUT: %+v", id)
	}
}

// The transcript sees every command written and every line read, in order
// per direction and each request before its answer, with the process id.
func TestTranscript(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var lines []string
	spec := Spec{Name: "faulty", Command: "builtin:faulty", Args: []string{"messages=1"}, StartTimeout: generous,
		Transcript: func(pid int, sent bool, line string) {
			dir := "<"
			if sent {
				dir = ">"
			}
			mu.Lock()
			lines = append(lines, fmt.Sprintf("%d %s %s", pid, dir, line))
			mu.Unlock()
		}}
	e, err := Start(spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	if err := e.NewGame(15, []Info{{"timeout_turn", "1000"}}, in(generous)); err != nil {
		t.Fatal(err)
	}
	r := e.Begin(in(generous))
	if r.Fault != "" {
		t.Fatal(r.Fault, r.Detail)
	}
	pid := e.Pid()
	mu.Lock()
	got := strings.Join(lines, "\n")
	mu.Unlock()
	for _, want := range []string{
		fmt.Sprintf("%d > START 15", pid), fmt.Sprintf("%d < OK", pid),
		fmt.Sprintf("%d > ABOUT", pid), fmt.Sprintf("%d > INFO timeout_turn 1000", pid),
		fmt.Sprintf("%d > BEGIN", pid), fmt.Sprintf("%d < MESSAGE depth 1", pid),
		fmt.Sprintf("%d < %d,%d", pid, r.Move.X, r.Move.Y),
	} {
		if !strings.Contains(got, want) {
			t.Errorf("transcript lacks %q:\n%s", want, got)
		}
	}
	if begin, move := strings.Index(got, fmt.Sprintf("%d > BEGIN", pid)), strings.Index(got, fmt.Sprintf("%d < %d,%d", pid, r.Move.X, r.Move.Y)); begin > move {
		t.Errorf("the move is transcribed before the BEGIN it answers:\n%s", got)
	}
}

// A game's INFO lines cost no write of their own: NewGame writes nothing
// after START's (or RESTART's) answer, and the lines go out ahead of the
// next command, in order. Lines queued for a process that was then killed
// never reach the next one, which hears START first.
func TestGameInfosGoWithTheNextCommand(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var sent []string
	spec := Spec{Name: "faulty", Command: "builtin:faulty", StartTimeout: generous,
		Transcript: func(pid int, out bool, line string) {
			if out {
				mu.Lock()
				sent = append(sent, fmt.Sprintf("%d %s", pid, line))
				mu.Unlock()
			}
		}}
	e, err := Start(spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	since := func(n int) []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), sent[n:]...)
	}
	infos := []Info{{"timeout_turn", "1000"}, {"rule", "0"}}
	mark := 0
	for game, first := range []string{"START 15", "RESTART"} {
		if err := e.NewGame(15, infos, in(generous)); err != nil {
			t.Fatal(err)
		}
		pid := e.Pid()
		got := since(mark)
		if len(got) == 0 || got[0] != fmt.Sprintf("%d %s", pid, first) {
			t.Fatalf("game %d: written %q, want %s first", game, got, first)
		}
		for _, l := range got {
			if strings.Contains(l, " INFO ") {
				t.Errorf("game %d: NewGame wrote %q itself, not with the next command: %q", game, l, got)
			}
		}
		mark += len(got)
		if r := e.Begin(in(generous)); r.Fault != "" {
			t.Fatal(r.Fault, r.Detail)
		}
		got, want := since(mark), []string{fmt.Sprintf("%d INFO timeout_turn 1000", pid), fmt.Sprintf("%d INFO rule 0", pid), fmt.Sprintf("%d BEGIN", pid)}
		if !slices.Equal(got, want) {
			t.Errorf("game %d: written with the first request %q, want %q", game, got, want)
		}
		mark += len(got)
	}
	// A game the engine never moved in, its process then killed.
	if err := e.NewGame(15, infos, in(generous)); err != nil {
		t.Fatal(err)
	}
	e.Kill()
	mark = len(since(0))
	if err := e.NewGame(15, nil, in(generous)); err != nil {
		t.Fatal(err)
	}
	if r := e.Begin(in(generous)); r.Fault != "" {
		t.Fatal(r.Fault, r.Detail)
	}
	for _, l := range since(mark) {
		if strings.Contains(l, " INFO ") {
			t.Errorf("a fresh process was sent %q, queued for the one before it: %q", l, since(mark))
		}
	}
}

func TestSendInfoAndZeroDeadline(t *testing.T) {
	t.Parallel()
	e := startFaulty(t)
	if err := e.NewGame(15, nil, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if err := e.SendInfo(Info{"time_left", "1000"}, Info{"max_memory", "0"}); err != nil {
		t.Fatal(err)
	}
	if r := e.Begin(time.Time{}); r.Fault != "" {
		t.Errorf("Begin with a zero deadline: %+v", r)
	}
}

// An engine that stops reading its input must not block a write forever.
func TestWriteDeadline(t *testing.T) {
	t.Parallel()
	e := startFaulty(t, "deaf-at=1")
	newGame(t, e, 15)
	e.spec.WriteTimeout = short // the deadline under test: the game's own INFO lines are not
	if r := e.Begin(in(short)); r.Fault != FaultTimeout {
		t.Fatalf("Begin: %+v", r)
	}
	big := Info{"folder", strings.Repeat("x", 1<<20)} // far beyond a pipe buffer
	var f *FaultError
	if err := e.SendInfo(big); !errors.As(err, &f) || f.Fault != FaultTimeout {
		t.Errorf("SendInfo to a deaf engine: %v", err)
	}
}

func TestCloseKillsEverything(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		kill bool // Kill instead of Close
	}{
		{"clean", nil, false},
		{"ignore END", []string{"ignore-end"}, false},
		{"hung", []string{"hang-at=1"}, false},
		{"spawned child", []string{"spawn-child"}, false},
		{"spawned child, ignore END", []string{"spawn-child", "ignore-end"}, false},
		{"Kill with spawned child", []string{"spawn-child"}, true},
		{"after crash, child lingers", []string{"spawn-child", "crash-at=1"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := startFaulty(t, tt.args...)
			newGame(t, e, 15)
			r := e.Begin(in(short))
			// A crash ends the wait though the child holds stdout open: the
			// leader's exit (its pidfd) ends the poll, the exchange lingers.
			if slices.Contains(tt.args, "crash-at=1") && r.Fault != FaultExit {
				t.Errorf("the crash read as %q (%s), want %q", r.Fault, r.Detail, FaultExit)
			}
			child := 0
			for _, n := range r.Notes {
				if s, ok := strings.CutPrefix(n, "MESSAGE child pid "); ok {
					child, _ = strconv.Atoi(s)
				}
			}
			if strings.Contains(tt.name, "child") && child == 0 {
				t.Fatalf("no child pid in notes %q", r.Notes)
			}
			pid := e.Pid()
			start := time.Now()
			if tt.kill {
				e.Kill()
			} else if err := e.Close(); err != nil {
				t.Error(err)
			}
			// Close ends within its grace and a reap, not after the engine
			// (which ignores END, or hangs) decides to go: the bound is
			// loose, as a loaded machine delays the reap by seconds.
			if took := time.Since(start); took > e.spec.CloseGrace+10*time.Second {
				t.Errorf("Close took %v", took)
			}
			groupGone(t, pid)
			if child != 0 && !procGone(child) {
				t.Errorf("child %d survived", child)
			}
			if err := e.Close(); err != nil {
				t.Errorf("second Close: %v", err)
			}
		})
	}
}

func TestWorkingDirectory(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "alpha", "work")
	spec := faultySpec()
	spec.Dir = dir
	e, err := Start(spec)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Errorf("Dir not created: %v", err)
	}
	e.Close()
	if _, err := os.Stat(dir); err != nil {
		t.Errorf("a given Dir must survive Close: %v", err)
	}

	e, err = Start(faultySpec())
	if err != nil {
		t.Fatal(err)
	}
	tmp := e.Dir()
	if _, err := os.Stat(tmp); err != nil {
		t.Fatal(err)
	}
	e.Close()
	if _, err := os.Stat(tmp); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("owned temp dir not removed: %v", err)
	}
}

func BenchmarkTurnRoundTrip(b *testing.B) {
	e, err := Start(faultySpec())
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	const size = 100 // the faulty engine accepts up to 100: long games without restarts
	if err := e.NewGame(size, nil, in(generous)); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if i == 4000 {
			b.StopTimer()
			if err := e.NewGame(size, nil, in(generous)); err != nil {
				b.Fatal(err)
			}
			i = 0
			b.StartTimer()
		}
		r := e.Turn(rules.Point{X: i % size, Y: size - 1 - i/size}, in(generous))
		if r.Fault != "" {
			b.Fatal(r)
		}
		i++
	}
}
