// Package verify lays out the schedule an event.json describes (the
// tournament's or the match's, its entrants by name) and checks a journal
// against it. A folder's journal is believed only once it tells a story
// its event could have produced. Each line is checked by itself when it is
// read (results/journal: the moves replay to the result); Journal then
// checks the records against the schedule event.json gives: every game's
// round, number, entrants and colours, every bye and withdrawal (the
// tournament's ScheduleCheck, the match's Replay). Continuing an event,
// `arena standings`, `arena merge`, `arena rate` and the live page all
// check through here. The games the schedule still plans (PlannedGames)
// and a match's tally without engines (Tally) are read from it too.
package verify

import (
	"fmt"

	"gomoku-arena/arbiter"
	"gomoku-arena/engine"
	"gomoku-arena/event/identity"
	"gomoku-arena/internal/bounds"
	"gomoku-arena/pairing"
	"gomoku-arena/results/rating"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
	"gomoku-arena/schedule"
)

// Journal checks a journal's records, in journal order, against the
// schedule of the event or match id describes.
func Journal(id *identity.Identity, done []*record.Record) error {
	c, err := NewCheck(id)
	if err != nil {
		return err
	}
	return c.Add(done...)
}

// Check is Journal for a journal that grows (a folder being served):
// it is fed the records as they come, and each costs its own check (a
// Swiss round is paired once, when its first record arrives).
type Check struct {
	s schedule.Schedule // resumed record by record, never run
}

// NewCheck is the check of the journal of the event or match id
// describes, from its first record.
func NewCheck(id *identity.Identity) (*Check, error) {
	var s schedule.Schedule
	var err error
	switch id.Kind {
	case identity.KindEvent:
		s, err = Tournament(id)
	case identity.KindMatch:
		s, err = Match(id)
	default:
		return nil, fmt.Errorf("event.json: kind %q is neither %q nor %q", id.Kind, identity.KindEvent, identity.KindMatch)
	}
	if err != nil {
		return nil, err
	}
	return &Check{s: s}, nil
}

// Add checks the records that follow those added before. Once a record is
// refused, every later Add says so again: nothing after it is believed.
func (c *Check) Add(recs ...*record.Record) error { return c.s.Resume(recs) }

// directorOf is the part of the event's director an identity gives: the
// entrants by name, the rule, the board, the opening procedure.
func directorOf(id *identity.Identity) (*arbiter.Director, error) {
	rule, err := rules.ByName(id.Rule)
	if err != nil {
		return nil, fmt.Errorf("event.json: %w", err)
	}
	proc, err := rules.ParseProcedure(id.OpeningProcedure)
	if err != nil {
		return nil, fmt.Errorf("event.json: opening_procedure: %w", err)
	}
	d := &arbiter.Director{Event: id.Name, Rule: rule, Size: id.Size, Procedure: proc, Concurrency: 1}
	for _, e := range id.Engines {
		d.Entrants = append(d.Entrants, arbiter.Entrant{Spec: engine.Spec{Name: e.Name}})
	}
	return d, nil
}

// Tournament is the tournament an identity describes, enough to lay out
// its schedule: what schedule.Tournament pairs by.
func Tournament(id *identity.Identity) (*schedule.Tournament, error) {
	d, err := directorOf(id)
	if err != nil {
		return nil, err
	}
	format, err := pairing.ParseFormat(id.Pairing)
	if err != nil || format == pairing.FormatAuto {
		return nil, fmt.Errorf("event.json: pairing %q is not a format", id.Pairing)
	}
	// The bounds the config's are (internal/config): a folder's
	// event.json is outside input too.
	n := len(d.Entrants)
	if id.Rounds < 0 || id.Rounds > pairing.MaxRounds {
		return nil, fmt.Errorf("event.json: rounds: %d is not 0 to %d", id.Rounds, pairing.MaxRounds)
	}
	if id.OpeningsPerPairing < 0 || id.OpeningsPerPairing > bounds.MaxOpeningsPerPairing {
		return nil, fmt.Errorf("event.json: openings_per_pairing: %d is not 0 to %d", id.OpeningsPerPairing, bounds.MaxOpeningsPerPairing)
	}
	perPairing := max(1, 2*id.OpeningsPerPairing) // a mini-match's games
	if format != pairing.SwissFormat && n > 1 && n-1 > bounds.MaxGames/n/perPairing {
		return nil, fmt.Errorf("event.json: %d engines in a %s event make more than the %d games one event may hold", n, format, bounds.MaxGames)
	}
	t := &schedule.Tournament{Director: d, Format: format, Rounds: id.Rounds, ByePoints: id.ByePoints,
		Seed: uint64(id.Seed), WithdrawAfter: id.WithdrawAfter, OpeningsPerPairing: id.OpeningsPerPairing}
	if id.OpeningSuite == nil {
		t.OpeningsUnknown = true // format 1 (Identity.Unchecked)
	} else if t.Openings, err = id.OpeningSuite.Stones(); err != nil {
		return nil, err
	}
	if len(t.Openings) < id.OpeningsPerPairing && !t.OpeningsUnknown {
		return nil, fmt.Errorf("event.json: openings_per_pairing %d, but opening_suite holds %d openings", id.OpeningsPerPairing, len(t.Openings))
	}
	return t, nil
}

// setSuite sets s to the opening suite of a match's event.json: its list, its
// order, transform and style. A format 1 file has no list: the schedule
// deals no openings, as before, and Replay compares none.
func setSuite(id *identity.Identity, s *schedule.Suite) error {
	if id.OpeningSuite == nil {
		return nil
	}
	list, err := id.OpeningSuite.Stones()
	if err != nil {
		return err
	}
	for _, stones := range list {
		s.Openings = append(s.Openings, rules.Opening{Stones: stones})
	}
	if s.Order, err = schedule.ParseOrder(id.Match.Order); err != nil {
		return fmt.Errorf("event.json: match.order: %w", err)
	}
	if s.Transform, err = schedule.ParseTransform(id.Match.Transform); err != nil {
		return fmt.Errorf("event.json: match.transform: %w", err)
	}
	switch id.Match.Style {
	case "":
	case schedule.StyleCGomokuCli.String():
		s.Style = schedule.StyleCGomokuCli
	default:
		return fmt.Errorf("event.json: match.style %q: want %q or none", id.Match.Style, schedule.StyleCGomokuCli)
	}
	return nil
}

// Match is the match an identity describes, enough to lay out its
// schedule and count its games: entrants by name, games, rounds, pairs, the
// shard, the SPRT and the opening suite (format 2 on).
func Match(id *identity.Identity) (*schedule.Match, error) {
	s := id.Match
	if s == nil {
		return nil, fmt.Errorf("event.json: an authors' match without its settings (match)")
	}
	d, err := directorOf(id)
	if err != nil {
		return nil, err
	}
	m := &schedule.Match{Director: d, Games: s.Games, Rounds: s.Rounds, Gauntlet: s.Gauntlet, Suite: schedule.Suite{Pairs: s.Pairs, Seed: s.Seed}}
	if err := setSuite(id, &m.Suite); err != nil {
		return nil, err
	}
	m.OpeningsUnknown = id.OpeningSuite == nil
	if s.SPRT != nil {
		m.SPRT = &rating.SPRT{Elo0: s.SPRT.Elo0, Elo1: s.SPRT.Elo1, Alpha: s.SPRT.Alpha, Beta: s.SPRT.Beta, Model: s.SPRT.Model}
	}
	if s.Shard != "" {
		if m.Shard, err = schedule.ParseShard(s.Shard); err != nil {
			return nil, fmt.Errorf("event.json: %w", err)
		}
	}
	if len(m.Director.Entrants) < 2 || m.Games < 1 || m.Rounds < 1 {
		return nil, fmt.Errorf("event.json: a match of %d engines, %d games, %d rounds cannot be laid out", len(m.Director.Entrants), m.Games, m.Rounds)
	}
	if schedule.ScheduleGames(len(m.Director.Entrants), m.Games, m.Rounds, m.Gauntlet) < 0 {
		return nil, fmt.Errorf("event.json: a match of %d engines, %d games, %d rounds has more than the %d games one match lays out", len(m.Director.Entrants), m.Games, m.Rounds, bounds.MaxGames)
	}
	return m, nil
}
