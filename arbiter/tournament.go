package arbiter

import (
	"context"
	"fmt"

	"gomoku-arena/pairing"
	"gomoku-arena/results"
	"gomoku-arena/rules"
)

// Tournament plays a whole event: it turns the format into fixtures, skips
// the games already finished (a resumed event), and hands the rest to the
// Director. A tournament is a pure function of its settings and the results
// so far, so resuming is just running it again with the journal's records.
type Tournament struct {
	*Director
	Format pairing.Format // resolved, never auto
	Rounds int            // Swiss rounds
	// Openings, when set, are assigned one per pairing of two entrants, so
	// the games of a pair with colours exchanged share their opening.
	Openings [][]rules.Point
}

// Run plays every fixture not in done. finished is called with each newly
// finished game (to journal it) before either engine plays again.
func (t *Tournament) Run(drain, abort context.Context, done []*results.Record, finished func(*results.Record) error) error {
	t.Director.Finished = finished
	if t.Format == pairing.SwissFormat {
		return t.runSwiss(drain, abort, done, finished)
	}
	sched, err := pairing.Schedule(t.Format, len(t.Entrants))
	if err != nil {
		return err
	}
	fixtures := t.fixtures(sched)
	return t.Play(drain, abort, remaining(fixtures, done))
}

// Fixtures lists every game of a format whose schedule is known in advance.
func (t *Tournament) Fixtures() ([]Fixture, error) {
	sched, err := pairing.Schedule(t.Format, len(t.Entrants))
	if err != nil {
		return nil, err
	}
	return t.fixtures(sched), nil
}

func (t *Tournament) fixtures(sched [][]pairing.Pairing) []Fixture {
	var fs []Fixture
	pairIndex := map[[2]int]int{}
	for _, round := range sched {
		for _, p := range round {
			if p.White == pairing.Bye {
				continue
			}
			f := Fixture{Round: p.Round, Number: len(fs) + 1, Black: p.Black, White: p.White}
			if len(t.Openings) > 0 {
				key := [2]int{min(p.Black, p.White), max(p.Black, p.White)}
				i, ok := pairIndex[key]
				if !ok {
					i = len(pairIndex)
					pairIndex[key] = i
				}
				f.Opening = t.Openings[i%len(t.Openings)]
			}
			fs = append(fs, f)
		}
	}
	return fs
}

// remaining drops the fixtures that have a record.
func remaining(fs []Fixture, done []*results.Record) []Fixture {
	have := map[Key]bool{}
	for _, r := range done {
		have[KeyOf(r)] = true
	}
	var out []Fixture
	for _, f := range fs {
		if !have[Key{f.Round, f.Number}] {
			out = append(out, f)
		}
	}
	return out
}

func (t *Tournament) runSwiss(drain, abort context.Context, done []*results.Record, finished func(*results.Record) error) error {
	return fmt.Errorf("swiss pairing is not available yet: %d entrants need a Swiss; use format = \"round-robin\"", len(t.Entrants))
}
