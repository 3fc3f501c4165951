package pairing

import (
	"reflect"
	"testing"
)

// MiniMatches repeats each round's pairs in 2N rounds, numbered on, colours
// exchanged every other round, byes kept.
func TestMiniMatches(t *testing.T) {
	got := MiniMatches(RoundRobin(3), 1)
	want := [][]Pairing{
		{{Round: 1, Black: 1, White: 2}, {Round: 1, Black: 0, White: Bye}},
		{{Round: 2, Black: 2, White: 1}, {Round: 2, Black: 0, White: Bye}},
	}
	if !reflect.DeepEqual(got[:2], want) {
		t.Errorf("first mini-match\n%v\nwant\n%v", got[:2], want)
	}
	if len(got) != 6 {
		t.Errorf("%d rounds, want 3 rounds of 2 games", len(got))
	}
	for i, r := range MiniMatches(RoundRobin(10), 12) {
		if len(r) != 5 || r[0].Round != i+1 {
			t.Fatalf("round %d: %v", i+1, r)
		}
	}
}
