package engine

import (
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"gomoku-arena/rules"
)

// A RESTART not answered OK starts the engine afresh and costs nothing,
// whatever came before it: a game with moves, a game in which the engine
// never moved (its INFO lines still unanswered, so an answer that names
// nothing might be about them), a game it lost on time (killed), or one in
// which its last command went unanswered.
func TestRestartNotOKStartsAfresh(t *testing.T) {
	t.Parallel()
	replies := []string{"unknown", "error", "silent", "exit"}
	befores := []struct {
		name string
		game func(t *testing.T, e *Engine)
	}{
		{"after moves", func(t *testing.T, e *Engine) {
			g := newGame(t, e, 15)
			g.play(e, 3, generous)
		}},
		{"after a game it never moved in", func(t *testing.T, e *Engine) {
			newGame(t, e, 15)
		}},
		{"after INFO lines queued and never sent", func(t *testing.T, e *Engine) {
			newGame(t, e, 15)
			e.QueueInfo(Info{"time_left", "1000"})
		}},
		{"after INFO lines sent between games", func(t *testing.T, e *Engine) {
			newGame(t, e, 15)
			e.SendInfo(Info{"folder", "/nowhere"})
		}},
	}
	for _, reply := range replies {
		for _, before := range befores {
			t.Run(reply+"/"+before.name, func(t *testing.T) {
				t.Parallel()
				spec := faultySpec("restart=" + reply)
				spec.StartTimeout = 2 * time.Second // silence waits this long at most, then START gets as long again
				e, err := Start(spec)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { e.Close() })
				before.game(t, e)
				pid := e.Pid()
				if err := e.NewGame(15, []Info{{"rule", "0"}}, time.Time{}); err != nil {
					t.Fatalf("NewGame after RESTART answered %s: %v", reply, err)
				}
				if e.Pid() == pid {
					t.Errorf("RESTART answered %s: the same process plays on", reply)
				}
				if r := e.Begin(in(generous)); r.Fault != "" {
					t.Fatalf("first move of the new game: %+v", r)
				}
			})
		}
	}
}

// An ERROR about an INFO line that comes just before RESTART's OK does not
// cost the engine its process.
func TestRestartOKAfterAnInfoError(t *testing.T) {
	t.Parallel()
	e := startFaulty(t, "info-error", "info-delay=50ms")
	if err := e.NewGame(15, []Info{{"rule_name", "freestyle"}}, in(generous)); err != nil {
		t.Fatal(err)
	}
	pid := e.Pid()
	if err := e.NewGame(15, []Info{{"rule_name", "freestyle"}}, in(generous)); err != nil {
		t.Fatal(err)
	}
	if e.Pid() != pid {
		t.Error("restarted as a new process though RESTART was answered OK")
	}
}

// An engine that goes on with its search for a moment after its move line
// (Rapfi clears its "thinking" flag only after printing the move, and
// drops the first word of a command read before) costs at most one
// dropped command in the arbiter's life, and loses nothing: the arbiter
// sees the engine name the word after the command word, writes the
// command again (a dropped move request at once, a dropped INFO line with
// the next request), and settles the program's engines from then on,
// frozen between moves or not. On probation (its first commands) it is
// found finishing its answer before it drops anything. The arbiter's side
// answers at once, so that every command lands inside the engine's window
// unless settled.
func TestDroppedCommandsAreWrittenAgainAndLearned(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name      string
		freeze    bool
		info      bool // INFO time_left before each request: it is what is dropped
		probation bool // settled on its first commands
	}{
		{"request dropped", false, false, false},
		{"INFO dropped", false, true, false},
		{"frozen between moves", true, true, false},
		{"learned on probation", false, true, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// A program of its own (habits are learned by program and
			// arguments), on two tables: the second learns from the first.
			spec := faultySpec("linger=1ms", "say="+t.Name())
			spec.Limits.FreezeIdle = tt.freeze
			var mu sync.Mutex
			var sent []string
			spec.Transcript = func(_ int, out bool, line string) {
				if out {
					mu.Lock()
					sent = append(sent, line)
					mu.Unlock()
				}
			}
			drops, again := 0, 0
			for table := range 2 {
				e, err := Start(spec)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { e.Close() })
				if !tt.probation {
					e.commands = probation
				}
				newGame(t, e, 15)
				r := e.Begin(in(generous))
				for i := range 8 {
					if r.Fault != "" {
						t.Fatalf("table %d, move %d: %+v", table, i+1, r)
					}
					for _, n := range r.Notes {
						if strings.HasPrefix(n, "UNKNOWN") {
							drops++
						}
						if strings.Contains(n, "written again") {
							again++
						}
					}
					e.Freeze()
					e.Thaw()
					if tt.info {
						e.QueueInfo(Info{"time_left", strconv.Itoa(100000 - i)})
					}
					r = e.Turn(rules.Point{X: i, Y: 0}, in(generous))
				}
				if r.Fault != "" {
					t.Fatalf("table %d, last move: %+v", table, r)
				}
			}
			// On probation the habit is mostly learned before any drop, but
			// whether a look catches the engine finishing its answer
			// depends on the scheduler (a loaded machine delays the
			// lingering thread past the look): one drop, written again and
			// learned, is what any engine may cost.
			if drops > 1 {
				t.Errorf("the engine dropped %d commands; the arbiter is to learn the habit at the first", drops)
			}
			if drops > 0 && again == 0 {
				t.Errorf("a command was dropped and not written again")
			}
			t.Logf("%d dropped, %d written again; %d lines sent", drops, again, len(sent))
		})
	}
}

// An engine that keeps searching after its move and refuses the next
// request meanwhile ("BAD COMMAND TURN 8,4 IN SEARCH MODE") is asked again
// once it has settled, its think time counted from the first asking, and
// plays on.
func TestRefusedRequestIsAskedAgain(t *testing.T) {
	t.Parallel()
	for _, freeze := range []bool{false, true} {
		t.Run("freeze="+map[bool]string{false: "off", true: "on"}[freeze], func(t *testing.T) {
			t.Parallel()
			spec := faultySpec("search-on=300ms")
			spec.Limits.FreezeIdle = freeze
			e, err := Start(spec)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { e.Close() })
			newGame(t, e, 15)
			if r := e.Begin(in(generous)); r.Fault != "" {
				t.Fatal(r)
			}
			e.Freeze()
			e.Thaw()
			r := e.Turn(rules.Point{X: 0, Y: 0}, in(generous))
			if r.Fault != "" {
				t.Fatalf("reply: %+v", r)
			}
			if !hasNote(r, "written again") {
				t.Logf("the engine had settled before the request went out: %q", r.Notes)
			}
		})
	}
}

// A line that only mentions the request is not a refusal; a refusal names
// it and says so.
func TestRejects(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		line, cmd string
		want      bool
	}{
		{"BAD COMMAND TURN 8,4 IN SEARCH MODE", "TURN 8,4\n", true},
		{"ERROR busy: turn 8,4", "TURN 8,4\n", true},
		{"BAD COMMAND TURN 8,5 IN SEARCH MODE", "TURN 8,4\n", false},
		{"got TURN 8,4", "TURN 8,4\n", false},
		{"UNKNOWN command BOARD", "BOARD\n7,7,1\nDONE\n", true},
		{"unexpected", "BEGIN\n", false},
	} {
		if got := rejects(tt.line, []byte(tt.cmd)); got != tt.want {
			t.Errorf("rejects(%q, %q) = %v, want %v", tt.line, tt.cmd, got, tt.want)
		}
	}
}

// An engine that answers START just in time is not then lost to the ABOUT
// and INFO lines that follow: they have time of their own. (Under load,
// AIWine took over 8 s to answer START in a sandbox; the INFO lines were
// then written under what was left of START's 10 s, and the game forfeited
// as "engine is not reading its input".)
func TestStartJustInTime(t *testing.T) {
	t.Parallel()
	e := startFaulty(t, "slow-start=2s", "silent-about")
	infos := []Info{{"timeout_turn", "1000"}, {"rule", "0"}}
	if err := e.NewGame(15, infos, time.Now().Add(2500*time.Millisecond)); err != nil {
		t.Fatalf("START answered in time, then: %v", err)
	}
	if r := e.Begin(in(generous)); r.Fault != "" {
		t.Fatal(r)
	}
}

// A dropped command is an ERROR or UNKNOWN naming the word after a command
// word and not the command word itself; a value named (Rapfi reads the
// value of an INFO key it does not know as a command), or a line naming
// the command too, is not.
func TestDroppedLine(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		text, wire string
		want       int
	}{
		{"Unknown command: TIME_LEFT", "INFO time_left 1234\nTURN 7,7\n", 0},
		{"Unknown command: 1234", "INFO time_left 1234\nTURN 7,7\n", -1},
		{"Unknown command: 7,7", "INFO time_left 1234\nTURN 7,7\n", 20},
		{"Unknown command: 7,7,1", "BOARD\n7,7,1\n8,8,2\nDONE\n", 0},
		{"Unknown command: FREESTYLE", "INFO rule_name freestyle\n", -1},
		{"unknown INFO key time_left", "INFO time_left 1234\n", -1},
		{"Unknown command: 15", "START 15\n", 0},
		{"Unknown command: 17,7", "TURN 7,7\n", -1},
		{"no game started", "TURN 7,7\n", -1},
	} {
		if got := droppedLine(tt.text, []byte(tt.wire)); got != tt.want {
			t.Errorf("droppedLine(%q, %q) = %d, want %d", tt.text, tt.wire, got, tt.want)
		}
	}
}
