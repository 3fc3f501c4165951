package engine

import (
	"strings"
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
// drops the first word of a command read before) gets the next command
// whole: the arbiter lets it settle first, frozen in between or not.
func TestCommandsWaitForTheEngineToSettle(t *testing.T) {
	t.Parallel()
	for _, freeze := range []bool{false, true} {
		name := "running"
		if freeze {
			name = "frozen between moves"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			spec := faultySpec("linger=1ms")
			spec.Limits.FreezeIdle = freeze
			e, err := Start(spec)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { e.Close() })
			newGame(t, e, 15)
			r := e.Begin(in(generous))
			for i := range 6 {
				if r.Fault != "" {
					t.Fatalf("move %d: %+v", i+1, r)
				}
				for _, n := range r.Notes {
					if strings.Contains(strings.ToLower(n), "time_left") {
						t.Fatalf("move %d: the engine read INFO time_left in pieces: %q", i+1, n)
					}
				}
				e.Freeze()
				e.Thaw()
				e.QueueInfo(Info{"time_left", "100000"})
				r = e.Turn(rules.Point{X: i, Y: 0}, in(generous))
			}
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
