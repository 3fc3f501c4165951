package brains

import (
	"fmt"
	"strings"
	"testing"

	arena "gomoku-arena/engine"
	"gomoku-arena/rules"
)

// answer parses an opening answer and checks that its stones are legal on
// top of the block.
func answer(t *testing.T, rule rules.Rule, line string, block []rules.Point) (bool, []rules.Point) {
	t.Helper()
	swap, stones, isAnswer, ok := arena.ParseOpeningAnswer(line)
	if !isAnswer || !ok {
		t.Fatalf("%q is no opening answer", line)
	}
	if _, err := rules.Setup(rule, 15, append(append([]rules.Point(nil), block...), stones...)); err != nil {
		t.Fatalf("%q on %v: %v", line, block, err)
	}
	return swap, stones
}

func TestSwap2Answers(t *testing.T) {
	for _, name := range []string{"greedy", "search", "random"} {
		e := startEngine(t, name, "seed=1", "time=50")
		e.send("START 15\nINFO rule_name freestyle\n")
		e.read()
		free, _ := rules.ByName("freestyle")

		e.send("SWAP2BOARD\nDONE\n")
		if _, stones := answer(t, free, e.read(), nil); len(stones) != 3 {
			t.Errorf("%s: %d stones to the empty board", name, len(stones))
		}
		// Three Black stones in a row with White far off: Black is ahead,
		// so the engine takes Black.
		e.send("SWAP2BOARD\n7,7\n0,0\n8,7\nDONE\n")
		if swap, _ := answer(t, free, e.read(), nil); !swap {
			t.Errorf("%s: stayed White against two Black stones in a row", name)
		}
		// White ahead (colour fields given): the engine stays White.
		e.send("SWAP2BOARD\n0,0,1\n7,7,2\n14,14,1\n8,7,2\n1,14,1\nDONE\n")
		block := []rules.Point{{X: 0, Y: 0}, {X: 7, Y: 7}, {X: 14, Y: 14}, {X: 8, Y: 7}, {X: 1, Y: 14}}
		if swap, stones := answer(t, free, e.read(), block); swap || len(stones) != 1 {
			t.Errorf("%s: swapped or placed %d stones when White is ahead with 5 stones", name, len(stones))
		}
	}
}

func TestRIFExtension(t *testing.T) {
	renju, _ := rules.ByName("renju")
	e := startEngine(t, "search", "time=50")
	e.send("START 15\nINFO rule 4\nRIFPROBE\n")
	e.read()
	if got := e.read(); got != "OK" {
		t.Fatalf("RIFPROBE: %q", got)
	}
	e.send("RIFOPEN\nDONE\n")
	_, open := answer(t, renju, e.read(), nil)
	r, _ := rules.NewRIF(renju, 15)
	if err := r.Place(open); err != nil {
		t.Fatalf("moves 1-3 %v: %v", open, err)
	}
	e.send("RIFSWAP\n7,7,1\n7,6,2\n8,6,1\nDONE\n") // Kagetsu: Black is ahead
	if swap, _ := answer(t, renju, e.read(), nil); !swap {
		t.Error("did not swap on Kagetsu")
	}
	// Kansei with White's 4th on the axis: the offers must not mirror.
	kansei := []rules.Point{{X: 7, Y: 7}, {X: 7, Y: 6}, {X: 7, Y: 5}, {X: 7, Y: 4}}
	e.send("RIFOFFER\n7,7,1\n7,6,2\n7,5,1\n7,4,2\nDONE\n")
	line := e.read()
	_, offers := answer(t, renju, line, nil)
	r, _ = rules.NewRIF(renju, 15)
	r.Place(kansei[:3])
	r.Swap(false)
	r.Fourth(kansei[3])
	if len(offers) != 2 {
		t.Fatalf("offers %q", line)
	}
	if err := r.Offer(offers[0], offers[1]); err != nil {
		t.Fatalf("offers %q: %v", line, err)
	}
	e.send("RIFCHOOSE " + offers[0].String() + " " + offers[1].String() + "\n7,7,1\n7,6,2\n7,5,1\n7,4,2\nDONE\n")
	_, chosen := answer(t, renju, e.read(), kansei)
	if len(chosen) != 1 || (chosen[0] != offers[0] && chosen[0] != offers[1]) {
		t.Errorf("chose %v of %v", chosen, offers)
	}

	rnd := startEngine(t, "random")
	rnd.send("START 15\nRIFPROBE\nRIFOPEN\nDONE\n")
	rnd.read()
	for i := 0; i < 2; i++ {
		if got := rnd.read(); !strings.HasPrefix(got, "UNKNOWN") {
			t.Errorf("random takes part in the RIF extension: %q", got)
		}
	}
}

// Every bundled engine answers SWAP2BOARD (and RIFOPEN, where it probes
// RIF) on every rule and board where the arena offers the procedure, with
// stones the rule takes: outer-open on 15×15 keeps the first stone off the
// centre, and "ERROR no opening fits a 15x15 board" was the answer.
func TestOpeningProceduresOnEveryRuleAndBoard(t *testing.T) {
	for _, ruleName := range rules.Names() {
		rule, err := rules.ByName(ruleName)
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range []int{15, 19, 20} {
			if rules.CheckSize(rule, size) != nil || rules.Swap2Procedure.Check(rule, size) != nil {
				continue
			}
			for _, name := range []string{"greedy", "search", "random"} {
				e := startEngine(t, name, "seed=1", "time=50")
				e.send(fmt.Sprintf("START %d\nINFO rule %d\nINFO rule_name %s\n", size, rule.Code(), ruleName))
				e.read()
				e.send("SWAP2BOARD\nDONE\n")
				line := e.read()
				_, stones, isAnswer, ok := arena.ParseOpeningAnswer(line)
				if !isAnswer || !ok || len(stones) != 3 {
					t.Errorf("%s, %s on %d×%d: SWAP2BOARD answered %q", name, ruleName, size, size, line)
					continue
				}
				if _, err := rules.Setup(rule, size, stones); err != nil {
					t.Errorf("%s, %s on %d×%d: %q: %v", name, ruleName, size, size, line, err)
				}
			}
		}
	}
}
