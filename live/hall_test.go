package live

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"gomoku-arena/event"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// The hall screen shows what engines meant to show: control characters
// from an engine (ESC, BEL, an OSC title, a bidirectional override) in its
// lines, its ABOUT and a forfeit's detail are sent to the page as escapes,
// never raw; and an engine's refusal of the arena's extension INFO key
// (Rapfi's "ERROR Unknown command: OUTER-OPEN" for INFO rule_name
// outer-open) is not shown at all, live or in a replay.
func TestHallScreenShowsOnlyWhatEnginesMeant(t *testing.T) {
	s := newState()
	s.Rule, s.Size = "outer-open", 15
	s.Entrants = []Entrant{{Name: "a"}, {Name: "b"}}
	at := time.Unix(1000, 0)
	s.started(event.GameStarted{Round: 1, Number: 1, Black: "a", White: "b"}, at)
	d := s.moved(event.MovePlayed{Round: 1, Number: 1, Stones: 1, Move: record.Move{Point: rules.Point{X: 3, Y: 3}, Color: rules.Black},
		Notes: []string{"ERROR Unknown command: OUTER-OPEN", "MESSAGE depth 3 \x1b[31mscore\x07 \x1b]0;owned\x07", "ERROR out of memory"}}, at)
	if d == nil {
		t.Fatal("no delta")
	}
	s.about("a", "name=\"Penta\x1b[1mZen\x07\", author=\"\u202eevil\"")
	rec := &record.Record{Event: "e", Round: 1, Game: 2, Rule: "outer-open", Size: 15, Black: "a", White: "b", Winner: rules.White, End: record.Crash,
		Detail: "exit\x1b[2J", Messages: []string{"a: ERROR unknown INFO key rule_name", "a: MESSAGE \x1b[5mhi"}}
	out, err := json.Marshal(struct {
		S *State
		D *moveDelta
		R Replay
	}{s, d, replayOf(rec)})
	if err != nil {
		t.Fatal(err)
	}
	js := string(out)
	for _, raw := range []string{`\u001b`, `\u0007`, "\u202e", "\x1b", "\a"} {
		if strings.Contains(js, raw) {
			t.Errorf("the page is sent a raw control character (%s): %s", raw, js)
		}
	}
	for _, want := range []string{`a: MESSAGE depth 3 \\x1b[31mscore\\x07`, `Penta\\x1b[1mZen\\x07`, `exit\\x1b[2J`, "a: ERROR out of memory"} {
		if !strings.Contains(js, want) {
			t.Errorf("no %s in %s", want, js)
		}
	}
	if strings.Contains(js, "OUTER-OPEN") || strings.Contains(js, "rule_name") {
		t.Errorf("an engine's refusal of the extension reaches the hall: %s", js)
	}
}

// The games list follows the arbiter's decisions as the event journals
// them: a corrected game shows its new result, a voided one goes.
func TestGamesListFollowsDecisions(t *testing.T) {
	s := newState()
	s.Entrants = []Entrant{{Name: "a"}, {Name: "b"}}
	g1 := &record.Record{Round: 1, Game: 1, Rule: "freestyle", Size: 15, Black: "a", White: "b", Winner: rules.Black, End: record.Five}
	g2 := &record.Record{Round: 1, Game: 2, Rule: "freestyle", Size: 15, Black: "b", White: "a", Winner: rules.Black, End: record.Five}
	s.finished(g1)
	s.finished(g2)
	corrected := *g1
	corrected.Winner, corrected.End = rules.White, record.Adjudicated
	s.decided(event.DecisionJournaled{Line: &record.Record{Round: 1, Game: 1, End: record.Decided}, Game: &corrected})
	s.decided(event.DecisionJournaled{Line: &record.Record{Round: 1, Game: 2, End: record.Decided}})
	if len(s.Games) != 1 || s.Games[0].Number != 1 || s.Games[0].Result != "0-1" || s.Games[0].End != "adjudicated" || s.Finished != 1 {
		t.Errorf("games after a correction of game 1 and a void of game 2: %+v (finished %d)", s.Games, s.Finished)
	}
}

// A game adjudicated while it is played leaves the boards in play when the
// adjudication is journaled (the event stops it), and shows as adjudicated.
func TestAGameAdjudicatedInPlayLeavesTheBoards(t *testing.T) {
	s := newState()
	s.Entrants = []Entrant{{Name: "a"}, {Name: "b"}}
	s.started(event.GameStarted{Round: 1, Number: 3, Black: "a", White: "b"}, time.Now())
	ruled := &record.Record{Round: 1, Game: 3, Rule: "freestyle", Size: 15, Black: "a", White: "b", End: record.Adjudicated}
	s.decided(event.DecisionJournaled{Line: &record.Record{Round: 1, Game: 3, End: record.Decided}, Game: ruled})
	if len(s.Running) != 0 {
		t.Errorf("game 3 is still shown in play after its adjudication: %+v", s.Running)
	}
	if len(s.Games) != 1 || s.Games[0].Number != 3 || s.Games[0].End != "adjudicated" || s.Finished != 1 {
		t.Errorf("games after game 3's adjudication: %+v (finished %d)", s.Games, s.Finished)
	}
}
