package pairing

import (
	"fmt"
	"slices"
	"testing"
)

// TestTightDecisionsMatchTrials pairs random events twice per round, once
// with the generation order decided on the tight graph and once by the
// weighted trials alone, and wants the same pairing: the trials are exact by
// construction (each one a maximum-weight matching with the decision
// imposed), so any difference is a wrong tight-graph decision.
func TestTightDecisionsMatchTrials(t *testing.T) {
	events := 40
	if testing.Short() {
		events = 12
	}
	for ev := range events {
		n := 9 + (ev*37)%140
		rounds := 5 + ev%7
		s := newSim(t, n, rounds, uint64(9000+ev))
		if ev%3 == 0 {
			s.forfeits = 0.05
		}
		for r := 1; r <= rounds; r++ {
			fast, errFast := PairSwiss(s.players, s.history, r, s.opt)
			tightOff = true
			slow, errSlow := PairSwiss(s.players, s.history, r, s.opt)
			tightOff = false
			if (errFast == nil) != (errSlow == nil) {
				t.Fatalf("event %d (%d players) round %d: errors differ: %v / %v", ev, n, r, errFast, errSlow)
			}
			if errFast != nil {
				break
			}
			if !slices.Equal(fast, slow) {
				t.Fatalf("event %d (%d players) round %d: tight graph and trials pair differently:\n tight  %v\n trials %v", ev, n, r, fmtPairs(fast), fmtPairs(slow))
			}
			s.pairAndPlay(r)
		}
	}
}

func fmtPairs(ps []Pairing) string {
	var out []string
	for _, p := range ps {
		out = append(out, fmt.Sprintf("%d-%d", p.Black, p.White))
	}
	return fmt.Sprint(out)
}
