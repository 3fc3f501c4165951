package schedule

import (
	"fmt"
	"strings"
	"testing"

	"gomoku-arena/arbiter"
	"gomoku-arena/engine"
	"gomoku-arena/pairing"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// paperTournament is a tournament of n entrants named e0, e1, ... that is
// only checked, never played.
func paperTournament(n int, format pairing.Format, rounds int) *Tournament {
	rule, _ := rules.ByName("freestyle")
	d := &arbiter.Director{Rule: rule, Size: 15, Concurrency: 1}
	for i := range n {
		d.Entrants = append(d.Entrants, arbiter.Entrant{Spec: engine.Spec{Name: fmt.Sprintf("e%d", i)}})
	}
	return &Tournament{Director: d, Format: format, Rounds: rounds}
}

// gameOf is fixture f as a journal records it: Black won by a five (the
// moves are results/journal's to check, not the schedule's).
func gameOf(t *Tournament, f arbiter.Fixture) *record.Record {
	return &record.Record{Round: f.Round, Game: f.Number, Rule: "freestyle", Size: 15,
		Black: t.Director.Entrants[f.Black].Spec.Name, White: t.Director.Entrants[f.White].Spec.Name, Winner: rules.Black, End: record.Five}
}

func byeOf(t *Tournament, p pairing.Pairing) *record.Record {
	return &record.Record{Round: p.Round, Rule: "freestyle", Size: 15, Black: t.Director.Entrants[p.Black].Spec.Name, Winner: rules.Black, End: record.ByeEnd}
}

// roundRobinJournal is every record of a round robin of n, byes first as
// Run journals them.
func roundRobinJournal(t *Tournament) []*record.Record {
	sched, _ := pairing.Schedule(t.Format, len(t.Director.Entrants))
	var recs []*record.Record
	for _, round := range sched {
		for _, p := range round {
			if p.White == pairing.Bye {
				recs = append(recs, byeOf(t, p))
			}
		}
	}
	fs, _ := t.Fixtures()
	for _, f := range fs {
		recs = append(recs, gameOf(t, f))
	}
	return recs
}

// swissJournal plays a Swiss on paper: each round paired as Run pairs it,
// its byes then its games journaled, Black winning every game.
func swissJournal(t *Tournament) []*record.Record {
	var all []*record.Record
	number := 0
	for r := 1; r <= t.Rounds; r++ {
		ps, _, err := t.pairRound(r, t.Rounds, all)
		if err != nil {
			panic(err)
		}
		for _, p := range ps {
			if p.White == pairing.Bye {
				all = append(all, byeOf(t, p))
			}
		}
		fs := t.fixtures([][]pairing.Pairing{ps}, number)
		number += len(fs)
		for _, f := range fs {
			all = append(all, gameOf(t, f))
		}
	}
	return all
}

func exchanged(rec *record.Record) *record.Record {
	c := *rec
	c.Black, c.White = rec.White, rec.Black
	return &c
}

func with(recs []*record.Record, i int, rec *record.Record) []*record.Record {
	out := append([]*record.Record(nil), recs...)
	out[i] = rec
	return out
}

// The journal's story is the schedule's: a record with other colours,
// another round, another game number, an unscheduled bye or withdrawal, or
// a Swiss round journaled before the one before it is complete is refused.
func TestScheduleCheckRefusesWhatTheScheduleDoesNotGive(t *testing.T) {
	rr := paperTournament(5, pairing.RoundRobinFormat, 0)
	rrJournal := roundRobinJournal(rr)
	sw := paperTournament(7, pairing.SwissFormat, 3)
	swJournal := swissJournal(sw)
	firstGame := func(recs []*record.Record, round int) int {
		for i, r := range recs {
			if r.IsGame() && r.Round == round {
				return i
			}
		}
		panic("no game")
	}
	lastOf := func(recs []*record.Record, round int) int {
		k := -1
		for i, r := range recs {
			if r.Round == round {
				k = i
			}
		}
		return k
	}
	g := firstGame(rrJournal, 1)
	s2 := firstGame(swJournal, 2)
	tests := []struct {
		name string
		t    *Tournament
		recs []*record.Record
		want string // "" accepts
	}{
		{"a round robin as played", rr, rrJournal, ""},
		{"a round robin half played, out of order", rr, []*record.Record{rrJournal[9], rrJournal[3], rrJournal[0]}, ""},
		{"a Swiss as played", sw, swJournal, ""},
		{"a Swiss stopped in round 2", sw, swJournal[:s2+1], ""},
		// Its last round paired as the last (topscorers), then extended.
		// (Of 8 entrants, the final round 3 pairs otherwise than a round 3 of 5.)
		{"a Swiss of 3 rounds extended to 5", paperTournament(8, pairing.SwissFormat, 5), swissJournal(paperTournament(8, pairing.SwissFormat, 3)), ""},
		{"round robin colours exchanged", rr, with(rrJournal, g, exchanged(rrJournal[g])), "the schedule has game"},
		{"Swiss colours exchanged", sw, with(swJournal, s2, exchanged(swJournal[s2])), "the schedule has game"},
		{"another round", rr, with(rrJournal, g, func() *record.Record { c := *rrJournal[g]; c.Round++; return &c }()), "the schedule plays game"},
		{"a game beyond the schedule", rr, append([]*record.Record{}, func() *record.Record { c := *rrJournal[g]; c.Game = 999; return &c }()), "the schedule has 10 games"},
		{"a stranger", rr, with(rrJournal, g, func() *record.Record { c := *rrJournal[g]; c.White = "z"; return &c }()), "the schedule has game"},
		{"another rule", rr, with(rrJournal, g, func() *record.Record { c := *rrJournal[g]; c.Rule = "renju"; return &c }()), `rule "renju"`},
		{"a bye the schedule does not give", rr, []*record.Record{{Round: 1, Black: "e1", Rule: "freestyle", Size: 15, Winner: rules.Black, End: record.ByeEnd}}, "no bye"},
		{"a round robin withdrawal from a round that is not its first without a result", rr, []*record.Record{{Round: 2, Black: "e1", End: record.Withdrawn}}, "a withdrawal takes effect from the round of the entrant's first game without a result (1;"},
		{"a Swiss round before the last is complete", sw, append(append([]*record.Record{}, swJournal[:lastOf(swJournal, 1)]...), swJournal[s2]), "round 1 is not complete"},
		{"a Swiss round beyond the event", sw, append(append([]*record.Record{}, swJournal...), func() *record.Record { c := *swJournal[s2]; c.Round = 4; return &c }()), "the event has 3 rounds"},
		{"a withdrawal in the middle of a round", sw, append(append([]*record.Record{}, swJournal[:s2+1]...), &record.Record{Round: 3, Black: "e1", End: record.Withdrawn}), "between rounds"},
		{"a withdrawal that changes a round already paired", sw, append(append(append([]*record.Record{}, swJournal[:lastOf(swJournal, 1)+1]...),
			&record.Record{Round: 2, Black: swJournal[s2].Black, End: record.Withdrawn}), swJournal[lastOf(swJournal, 1)+1:]...), "the schedule"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := tc.t.CheckSchedule()
			if err == nil {
				err = c.Add(tc.recs...)
			}
			switch {
			case tc.want == "" && err != nil:
				t.Fatal(err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// BenchmarkVerifySchedule checks the journal of a finished paper Swiss:
// what resume, arena standings and the live page pay once per journal
// (each round paired once, from the records before it).
func BenchmarkVerifySchedule(b *testing.B) {
	for _, n := range []int{100, 1000} {
		sw := paperTournament(n, pairing.SwissFormat, 9)
		j := swissJournal(sw)
		b.Run(fmt.Sprintf("swiss-%d-9rounds", n), func(b *testing.B) {
			for b.Loop() {
				c, err := sw.CheckSchedule()
				if err == nil {
					err = c.Add(j...)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	rr := paperTournament(100, pairing.DoubleRoundRobinFormat, 0)
	j := roundRobinJournal(rr)
	b.Run("double-round-robin-100", func(b *testing.B) {
		for b.Loop() {
			c, err := rr.CheckSchedule()
			if err == nil {
				err = c.Add(j...)
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}
