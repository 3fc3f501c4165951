package live

import (
	"slices"
	"testing"
	"time"

	"gomoku-arena/event"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// The page shows the captures and forbidden points the arbiter sent with
// each move, as sent: it rebuilds no board and judges no point itself (the
// forbidden point below is not one the stones make; the page shows it
// because the arbiter said so, and shows none when the arbiter sends none).
func TestMovesShowWhatTheArbiterSent(t *testing.T) {
	s := newState()
	s.Rule, s.Size = "renju", 15
	at := time.Unix(1000, 0)
	s.started(event.GameStarted{Round: 1, Number: 1, Black: "a", White: "b"}, at)
	d := s.opened(event.OpeningPlaced{Round: 1, Number: 1, Stones: []record.Move{
		{Point: rules.Point{X: 7, Y: 7}, Color: rules.Black, Opening: true},
		{Point: rules.Point{X: 8, Y: 8}, Color: rules.White, Opening: true}},
		Forbidden: []rules.Point{{X: 0, Y: 14}}}, at)
	if d == nil || !slices.Equal(d.Forbidden, [][2]int{{0, 14}}) || d.ToMove != "black" {
		t.Fatalf("after the opening: %+v", d)
	}
	d = s.moved(event.MovePlayed{Round: 1, Number: 1, Stones: 3,
		Move: record.Move{Point: rules.Point{X: 9, Y: 9}, Color: rules.Black, Captured: []rules.Point{{X: 8, Y: 8}}}}, at)
	g := s.running(1, 1)
	if d == nil || d.Forbidden != nil || g.Forbidden != nil {
		t.Fatalf("White to move, none sent: delta %v, game %v", d.Forbidden, g.Forbidden)
	}
	if !slices.Equal(g.Moves[2].Captured, [][2]int{{8, 8}}) {
		t.Fatalf("captures: %v", g.Moves[2].Captured)
	}
	d = s.moved(event.MovePlayed{Round: 1, Number: 1, Stones: 4,
		Move: record.Move{Point: rules.Point{X: 1, Y: 1}, Color: rules.White}}, at)
	if d.ToMove != "black" || d.Forbidden != nil || g.Forbidden != nil {
		t.Fatalf("Black to move, none sent: delta %v, game %v", d.Forbidden, g.Forbidden)
	}
}

// The page is a BoardObserver, alone or beside others: an event asks the
// arbiter for forbidden points for it, and for no one else.
func TestHubDrawsBoards(t *testing.T) {
	var plain event.Observers = []event.Observer{event.Observers{}}
	if plain.DrawsBoards() {
		t.Error("observers without a page draw boards")
	}
	if !(event.Observers{plain, NewHub()}).DrawsBoards() {
		t.Error("a page beside another observer does not draw boards")
	}
}
