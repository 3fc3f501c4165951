package event

import (
	"slices"
	"testing"

	"gomoku-arena/results/rating"
	"gomoku-arena/rules"
)

// A front end prints a match from its view, which is a copy: changing it
// changes nothing of the match; Rename names engines as c-gomoku-cli's
// ABOUT answers do, names shared told apart.
func TestMatchViewIsACopy(t *testing.T) {
	rule, err := rules.ByName("freestyle")
	if err != nil {
		t.Fatal(err)
	}
	s := MatchSetup{Settings: Settings{Name: "m", Rule: rule, Size: 15, Engines: []EngineSettings{{Name: "a", Command: "builtin:greedy"}, {Name: "b", Command: "builtin:random"}}},
		Games: 2, Rounds: 1, Pairs: true, SPRT: &rating.SPRT{Elo1: 5, Alpha: 0.05, Beta: 0.05}}
	m, err := s.Match()
	if err != nil {
		t.Fatal(err)
	}
	v := m.View()
	if !slices.Equal(v.Names, []string{"a", "b"}) || v.Games != 2 || !v.Pairs || v.SPRT == nil || v.SPRT.Elo1 != 5 || len(v.Clocks) != 2 {
		t.Fatalf("view %+v", v)
	}
	if v.Rule != "freestyle" || len(v.Engines) != 2 || v.Engines[1].Command != "builtin:random" {
		t.Errorf("view %+v", v)
	}
	if d := m.Deals(); len(d) != 2 || d[0].Black != "a" || d[0].White != "b" || d[1].Black != "b" || d[1].White != "a" {
		t.Errorf("deals %+v, want a pair with the colours exchanged", d)
	}
	v.Names[0], v.SPRT.Elo1, v.Engines[0].Name = "x", 99, "x"
	if w := m.View(); w.Names[0] != "a" || w.SPRT.Elo1 != 5 || w.Engines[0].Name != "a" {
		t.Errorf("changing the view changed the match: %+v", w)
	}
	m.Rename([]string{"", "a"})
	if got := m.View().Names; !slices.Equal(got, []string{"a#1", "a#2"}) {
		t.Errorf("renamed: %v", got)
	}
}
