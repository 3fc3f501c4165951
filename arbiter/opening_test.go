package arbiter

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"gomoku-arena/clock"
	"gomoku-arena/engine"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// scripted starts /bin/sh as an engine that answers START and RESTART with
// OK, RIFPROBE with probe, and every request (BEGIN, TURN, and each block
// ending in DONE: BOARD, SWAP2BOARD, the RIF commands) with the next of
// answers, one line each; "" stays silent, and "!cmd" runs cmd instead.
func scripted(t *testing.T, name, probe string, answers ...string) *engine.Engine {
	t.Helper()
	var sb strings.Builder
	fmt.Fprintf(&sb, "n=0\nwhile read -r line; do\n case \"$line\" in\n START*|RESTART) echo OK;;\n ABOUT) echo 'name=\"%s\"';;\n RIFPROBE) echo '%s';;\n BEGIN|TURN*|DONE)\n  n=$((n+1))\n  case $n in\n", name, probe)
	for i, a := range answers {
		switch {
		case strings.HasPrefix(a, "!"): // a shell command
			fmt.Fprintf(&sb, "   %d) %s;;\n", i+1, a[1:])
		case a != "":
			fmt.Fprintf(&sb, "   %d) echo '%s';;\n", i+1, a)
		}
	}
	sb.WriteString("  esac;;\n esac\ndone\n")
	e, err := engine.Start(engine.Spec{Name: name, Command: "/bin/sh", Args: []string{"-c", sb.String()},
		StartTimeout: startTimeout, WriteTimeout: startTimeout, CloseGrace: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeAndCheckGone(t, e) })
	return e
}

func ruleNamed(t *testing.T, name string) rules.Rule {
	t.Helper()
	r, err := rules.ByName(name)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Swap2 between bundled engines: the game is played to its end, the
// stones are the engines' own (not opening stones), and the record names
// Black and White as the procedure settled them.
func TestSwap2GameBetweenBundledEngines(t *testing.T) {
	for seed := 1; seed <= 2; seed++ {
		g := Game{Rule: ruleNamed(t, "freestyle"), Size: 15, Procedure: rules.Swap2Procedure, Number: seed}
		a, b := start(t, "search", "time=30"), start(t, "greedy")
		pa, pb := player(a, fast), player(b, fast)
		pb.Swap2Colors = seed == 2
		rec := mustPlay(t, context.Background(), g, pa, pb)
		if rec.End != record.Five && rec.End != record.FullBoard {
			t.Fatalf("seed %d: ended %s: %s\n%v", seed, rec.End, rec.Detail, rec.Messages)
		}
		replay(t, rec)
		if rec.Moves[0].Opening || len(rec.Moves) < 4 {
			t.Errorf("the first stones are not the engines': %+v", rec.Moves[:1])
		}
		settled := ""
		for _, m := range rec.Messages {
			if strings.HasPrefix(m, "arbiter: swap2: ") && strings.Contains(m, "plays Black") {
				settled = m
			}
		}
		want := fmt.Sprintf("arbiter: swap2: %s plays Black, %s White", rec.Black, rec.White)
		if settled != want {
			t.Errorf("record names %s (Black) and %s (White); the procedure said %q", rec.Black, rec.White, settled)
		}
	}
}

// Colours follow the swap: the second player takes Black, so the first
// player is White and plays move 4; its occupied move 4 loses as White.
func TestSwap2SwapMovesTheNames(t *testing.T) {
	g := Game{Rule: ruleNamed(t, "freestyle"), Size: 15, Procedure: rules.Swap2Procedure}
	first := scripted(t, "first", "UNKNOWN", "7,7 8,7 9,9", "8,7")
	second := scripted(t, "second", "UNKNOWN", "SWAP")
	rec := mustPlay(t, context.Background(), g, player(first, fast), player(second, fast))
	if rec.Black != "second" || rec.White != "first" {
		t.Fatalf("Black %q White %q, want second and first", rec.Black, rec.White)
	}
	if rec.End != record.Illegal || rec.Winner != rules.Black || !strings.Contains(rec.Detail, "occupied") {
		t.Errorf("%s %v %q, want the first player (White) to lose with an occupied move 4", rec.End, rec.Winner, rec.Detail)
	}
	if len(rec.Moves) != 4 || rec.Moves[3].Color != rules.White {
		t.Errorf("moves %+v", rec.Moves)
	}
	// The first player's three stones were charged to its own clock.
	if m := rec.Moves[0]; m.Think <= 0 || m.Left >= fast.Match || m.Left != fast.Match-m.Think {
		t.Errorf("first stone: think %v, left %v of %v", m.Think, m.Left, fast.Match)
	}
}

func TestSwap2Forfeits(t *testing.T) {
	quick := clock.Control{Match: 5 * time.Second, Turn: 800 * time.Millisecond, Tolerance: 200 * time.Millisecond, Hang: 5 * time.Second}
	for _, c := range []struct {
		name          string
		first, second []string
		loser         string
		end           record.Termination
		detail        string
	}{
		{"two stones to the empty board", []string{"7,7 8,7"}, nil, "first", record.Illegal, "wrong number of stones"},
		{"swap to the empty board", []string{"SWAP"}, nil, "first", record.Illegal, "swap not allowed"},
		{"occupied", []string{"7,7 8,7 7,7"}, nil, "first", record.Illegal, "occupied"},
		{"off board", []string{"7,7 8,7 15,15"}, nil, "first", record.Illegal, "off board"},
		{"garbage stone", []string{"7,7 8,7 9,"}, nil, "first", record.Illegal, "malformed"},
		{"three stones at the choice", []string{"7,7 8,7 9,9"}, []string{"1,1 2,2 3,3"}, "second", record.Illegal, "wrong number of stones"},
		{"occupied at the choice", []string{"7,7 8,7 9,9"}, []string{"8,7"}, "second", record.Illegal, "occupied"},
		{"two stones at the last choice", []string{"7,7 8,7 9,9", "1,1 2,2"}, []string{"1,14 2,14"}, "first", record.Illegal, "wrong number of stones"},
		{"timeout", []string{"7,7 8,7 9,9"}, []string{""}, "second", record.Time, "SWAP2BOARD"},
		{"late past the tolerance", []string{"!sleep 1.5; echo '7,7 8,7 9,9'"}, nil, "first", record.Time, "no answer to SWAP2BOARD within"},
		{"unknown command", []string{"UNKNOWN command SWAP2BOARD"}, nil, "first", record.Refusal, "SWAP2BOARD"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := Game{Rule: ruleNamed(t, "freestyle"), Size: 15, Procedure: rules.Swap2Procedure}
			first := scripted(t, "first", "UNKNOWN", c.first...)
			second := scripted(t, "second", "UNKNOWN", c.second...)
			rec := mustPlay(t, context.Background(), g, player(first, quick), player(second, quick))
			if rec.End != c.end || rec.WinnerName() == c.loser || rec.WinnerName() == "" || !strings.Contains(rec.Detail, c.detail) {
				t.Errorf("%s, winner %q, %q; want %s lost by %s with %q", rec.End, rec.WinnerName(), rec.Detail, c.loser, c.end, c.detail)
			}
			replay(t, rec) // the record keeps the answer's stones and replays to the forfeit
		})
	}
}

// The RIF procedure between bundled engines that take part in it.
func TestRIFGameBetweenBundledEngines(t *testing.T) {
	g := Game{Rule: ruleNamed(t, "renju"), Size: 15, Procedure: rules.RIFProcedure, Number: 1,
		Opening: rules.RIFOpenings[0].Stones(15)}
	rec := mustPlay(t, context.Background(), g, player(start(t, "search", "time=30"), fast), player(start(t, "greedy"), fast))
	if rec.End != record.Five && rec.End != record.Forbidden && rec.End != record.FullBoard {
		t.Fatalf("ended %s: %s\n%v", rec.End, rec.Detail, rec.Messages)
	}
	replay(t, rec)
	msgs := strings.Join(rec.Messages, "\n")
	for _, want := range []string{"arbiter: rif: search opens with", "offers 5th moves", "chooses"} {
		if !strings.Contains(msgs, want) {
			t.Errorf("messages lack %q:\n%s", want, msgs)
		}
	}
	if rec.Moves[0].Opening {
		t.Error("moves 1-3 recorded as arbiter's opening stones")
	}
	if _, ok := rules.IdentifyRIFOpening(15, []rules.Point{rec.Moves[0].Point, rec.Moves[1].Point, rec.Moves[2].Point}); !ok {
		t.Errorf("moves 1-3 are no canonical opening: %+v", rec.Moves[:3])
	}
}

// random does not take part in the extension: the game starts from the
// list opening, or without one from the canonical opening of its pair.
func TestRIFFallsBackToTheList(t *testing.T) {
	for _, c := range []struct {
		opening []rules.Point
		number  int
		want    string
	}{
		{rules.RIFOpenings[3].Stones(15), 1, "Kagetsu"},
		{nil, 4, "Keigetsu"}, // games 3 and 4 play the 2nd canonical opening
	} {
		g := Game{Rule: ruleNamed(t, "renju"), Size: 15, Procedure: rules.RIFProcedure, Number: c.number, Opening: c.opening}
		rec := mustPlay(t, context.Background(), g, player(start(t, "greedy"), fast), player(start(t, "random", "seed=3"), fast))
		replay(t, rec)
		if rec.Black != "greedy" || !rec.Moves[0].Opening || !rec.Moves[2].Opening || rec.Moves[3].Opening {
			t.Errorf("Black %q, moves %+v", rec.Black, rec.Moves[:4])
		}
		o, _ := rules.IdentifyRIFOpening(15, []rules.Point{rec.Moves[0].Point, rec.Moves[1].Point, rec.Moves[2].Point})
		if o.Name != c.want {
			t.Errorf("game %d started from %v, want %s", c.number, o, c.want)
		}
		msgs := strings.Join(rec.Messages, "\n")
		if !strings.Contains(msgs, "random does not take part in the RIF extension") {
			t.Errorf("no fallback note:\n%s", msgs)
		}
	}
}

// Scripted RIF games: a swap moves the names, symmetric offers lose, an
// unoffered choice loses.
func TestRIFProcedureChecks(t *testing.T) {
	quick := clock.Control{Match: 5 * time.Second, Turn: 800 * time.Millisecond, Tolerance: 200 * time.Millisecond, Hang: 5 * time.Second}
	for _, c := range []struct {
		name          string
		first, second []string
		black         string
		loser         string
		end           record.Termination
		detail        string
	}{
		// Kansei, White's 4th on its axis: 6,3 and 8,3 mirror each other.
		{"symmetric offers", []string{"7,7 7,6 7,5", "6,3 8,3"}, []string{"7,4"}, "first", "first", record.Illegal, "symmetric"},
		{"move 3 outside the 5x5", []string{"7,7 7,6 10,7"}, nil, "first", "first", record.Illegal, "central 5x5"},
		{"an unoffered choice", []string{"7,7 7,6 7,5", "6,3 9,3"}, []string{"7,4", "1,1"}, "first", "second", record.Illegal, "not one of the offered"},
		// The second player swaps, the first (now White) plays move 4 as an
		// ordinary move, the second offers and the first chooses badly.
		{"a swap", []string{"7,7 7,6 7,5", "7,4", "0,0"}, []string{"SWAP", "6,3 9,3"}, "second", "first", record.Illegal, "not one of the offered"},
		{"no answer to the swap", []string{"7,7 7,6 7,5"}, []string{""}, "first", "second", record.Time, "RIFSWAP"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := Game{Rule: ruleNamed(t, "renju"), Size: 15, Procedure: rules.RIFProcedure}
			first := scripted(t, "first", "OK", c.first...)
			second := scripted(t, "second", "OK", c.second...)
			rec := mustPlay(t, context.Background(), g, player(first, quick), player(second, quick))
			if rec.Black != c.black {
				t.Errorf("Black is %q, want %q", rec.Black, c.black)
			}
			if rec.End != c.end || rec.WinnerName() == c.loser || rec.WinnerName() == "" || !strings.Contains(rec.Detail, c.detail) {
				t.Errorf("%s, winner %q, %q; want %s lost by %s with %q\n%v", rec.End, rec.WinnerName(), rec.Detail, c.loser, c.end, c.detail, rec.Messages)
			}
			replay(t, rec)
		})
	}
}

// An engine that answers INFO keys it does not know with an ERROR, the way
// Rapfi does ("ERROR Unknown command: FREESTYLE" for INFO rule_name
// freestyle), and slowly, so the ERROR comes after the next command has been
// written, is never charged for it: through every opening procedure and in
// both modes the game is played to its end, with the ERROR noted.
func TestStrayErrorAfterInfoIsNoAnswer(t *testing.T) {
	for _, proc := range []rules.Procedure{rules.NoProcedure, rules.Swap2Procedure, rules.RIFProcedure} {
		for _, board := range []bool{false, true} {
			t.Run(fmt.Sprintf("procedure=%v/board=%v", proc, board), func(t *testing.T) {
				t.Parallel()
				rule := "freestyle"
				if proc == rules.RIFProcedure {
					rule = "renju"
				}
				g := Game{Rule: ruleNamed(t, rule), Size: 15, Procedure: proc, Number: 1}
				// The event asks for rule_name; the rule itself would not send it.
				asks := []engine.Info{{Key: "rule_name", Value: rule}}
				rapfi := &Player{Engine: start(t, "faulty", "info-error", "info-delay=30ms", "rif"), Clock: fast, BoardMode: board, Infos: asks}
				other := &Player{Engine: start(t, "faulty", "rif"), Clock: fast, BoardMode: board}
				for _, order := range [][2]*Player{{rapfi, other}, {other, rapfi}} {
					rec := mustPlay(t, context.Background(), g, order[0], order[1])
					msgs := strings.Join(rec.Messages, "\n")
					if rec.End != record.Five && rec.End != record.Forbidden && rec.End != record.FullBoard {
						t.Fatalf("ended %s: %s\n%s", rec.End, rec.Detail, msgs)
					}
					if want := "ERROR Unknown command: " + strings.ToUpper(rule); !strings.Contains(msgs, want) {
						t.Errorf("the stray ERROR is not noted (%q):\n%s", want, msgs)
					}
					if proc == rules.RIFProcedure && !strings.Contains(msgs, "offers 5th moves") {
						t.Errorf("the RIF procedure was not played:\n%s", msgs)
					}
				}
			})
		}
	}
}
