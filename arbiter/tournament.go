package arbiter

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"gomoku-arena/pairing"
	"gomoku-arena/results/record"
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
	// ByePoints is what a Swiss bye scores, for pairing as for standings:
	// 1, 0.5 or 0; nil means a win.
	ByePoints *float64
	// Openings, when set, are assigned one per pairing of two entrants, so
	// the games of a pair with colours exchanged share their opening. They
	// rotate across the whole event in an order the Seed shuffles (see
	// openingOf).
	Openings [][]rules.Point
	Seed     uint64
	// Notice, if set, hears about decisions a person should know of.
	Notice func(string)
	// RoundDone, if set, is called after each Swiss round with every record
	// so far (to write the TRF report).
	RoundDone func(round int, all []*record.Record) error
}

// Run plays every fixture not in done. finished is called with each newly
// finished game, and with each bye, to journal it, before either engine
// plays again. Notice, if set, hears about decisions a person should know
// of (a Swiss round with no legal pairing).
func (t *Tournament) Run(drain, abort context.Context, done []*record.Record, finished func(*record.Record) error) error {
	all := append([]*record.Record(nil), done...)
	t.Director.Finished = func(rec *record.Record) error {
		all = append(all, rec)
		return finished(rec)
	}
	if t.Format == pairing.SwissFormat {
		return t.runSwiss(drain, abort, &all)
	}
	sched, err := pairing.Schedule(t.Format, len(t.Entrants))
	if err != nil {
		return err
	}
	if err := t.journalByes(sched, all); err != nil {
		return err
	}
	return t.Play(drain, abort, remaining(t.fixtures(sched, 0), all))
}

// journalByes records the byes of the given rounds that the journal lacks.
func (t *Tournament) journalByes(rounds [][]pairing.Pairing, done []*record.Record) error {
	have := map[Key]bool{}
	for _, r := range done {
		if r.End == record.ByeEnd {
			have[Key{r.Round, t.index(r.Black)}] = true
		}
	}
	for _, round := range rounds {
		for _, p := range round {
			if p.White != pairing.Bye || have[Key{p.Round, p.Black}] {
				continue
			}
			now := time.Now()
			rec := &record.Record{Event: t.Event, Round: p.Round, Rule: t.Rule.Name(), Size: t.Size,
				Black: t.Entrants[p.Black].Spec.Name, Winner: rules.Black, End: record.ByeEnd, Start: now, Finish: now}
			if err := t.Director.Finished(rec); err != nil {
				return err
			}
		}
	}
	return nil
}

func (t *Tournament) index(name string) int {
	for i, e := range t.Entrants {
		if e.Spec.Name == name {
			return i
		}
	}
	return -1
}

// Fixtures lists every game of a format whose schedule is known in advance.
func (t *Tournament) Fixtures() ([]Fixture, error) {
	sched, err := pairing.Schedule(t.Format, len(t.Entrants))
	if err != nil {
		return nil, err
	}
	return t.fixtures(sched, 0), nil
}

// fixtures numbers the games of the rounds from first+1 on. The pairings of
// the event before these rounds are counted by first too: a format that
// pairs round by round (the Swiss) plays one game per pairing.
func (t *Tournament) fixtures(sched [][]pairing.Pairing, first int) []Fixture {
	var fs []Fixture
	pairIndex := map[[2]int]int{}
	for _, round := range sched {
		for _, p := range round {
			if p.White == pairing.Bye {
				continue
			}
			f := Fixture{Round: p.Round, Number: first + len(fs) + 1, Black: p.Black, White: p.White}
			if len(t.Openings) > 0 {
				key := [2]int{min(p.Black, p.White), max(p.Black, p.White)}
				i, ok := pairIndex[key]
				if !ok {
					i = first + len(pairIndex)
					pairIndex[key] = i
				}
				f.Opening = t.openingOf(i)
			}
			fs = append(fs, f)
		}
	}
	return fs
}

// openingOf is the opening of the event's pairing u (counted from 0 in the
// order of play). The openings are dealt in passes: each pass is the whole
// list in an order shuffled by the seed and the pass number, so every
// opening is played once before any is played again (as evenly as the
// number of pairings allows), and which board, round or entrant gets which
// opening is left to the seed, never to the list's order (an outer-open
// list starts in the corner). It depends on nothing but the openings, the
// seed and u, so a resumed event deals what the first run dealt.
func (t *Tournament) openingOf(u int) []rules.Point {
	n := len(t.Openings)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	rng := rand.New(rand.NewPCG(t.Seed, uint64(u/n)))
	rng.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
	return t.Openings[order[u%n]]
}

// remaining drops the fixtures that have a record.
func remaining(fs []Fixture, done []*record.Record) []Fixture {
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

// runSwiss pairs and plays one round at a time. Each round is paired from
// the records of the rounds before it, so a resumed event pairs every round
// exactly as it did the first time.
func (t *Tournament) runSwiss(drain, abort context.Context, all *[]*record.Record) error {
	players := make([]pairing.SwissPlayer, len(t.Entrants))
	for i := range players {
		players[i].ID = i
	}
	opt := pairing.SwissOptions{Rounds: t.Rounds, ByePoints: t.ByePoints}
	number := 0
	for r := 1; r <= t.Rounds; r++ {
		history := t.SwissHistory(*all, r)
		ps, err := pairing.PairSwiss(players, history, r, opt)
		if errors.Is(err, pairing.ErrNoLegalPairing) {
			var relax pairing.Relaxation
			ps, relax, err = pairing.PairSwissFallback(players, history, r, opt)
			if err == nil && t.Notice != nil {
				t.Notice(fmt.Sprintf("round %d: no pairing satisfies the Dutch system's absolute criteria; paired with the documented fallback (%v)", r, relax))
			}
		}
		if err != nil {
			return fmt.Errorf("round %d: %w", r, err)
		}
		round := []pairing.Pairing{}
		for _, p := range ps {
			p.Round = r
			round = append(round, p)
		}
		if err := t.journalByes([][]pairing.Pairing{round}, *all); err != nil {
			return err
		}
		fs := t.fixtures([][]pairing.Pairing{round}, number)
		number += len(fs)
		if err := t.Play(drain, abort, remaining(fs, *all)); err != nil {
			return err
		}
		if drain.Err() != nil || abort.Err() != nil {
			return nil
		}
		if t.RoundDone != nil {
			if err := t.RoundDone(r, *all); err != nil {
				return err
			}
		}
	}
	return nil
}

// SwissHistory is what the Swiss pairing needs to know of the rounds before
// round r. A refusal is the only game not played over the board; a crash, a
// time loss or an illegal move is a played loss.
func (t *Tournament) SwissHistory(all []*record.Record, r int) []pairing.SwissGame {
	var h []pairing.SwissGame
	for _, rec := range all {
		if rec.Round >= r {
			continue
		}
		g := pairing.SwissGame{Round: rec.Round, Black: t.index(rec.Black), White: pairing.Bye, Score: rec.Score()}
		if rec.End != record.ByeEnd {
			g.White = t.index(rec.White)
			g.Forfeit = rec.End == record.Refusal
		}
		h = append(h, g)
	}
	return h
}
