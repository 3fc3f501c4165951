package schedule

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"gomoku-arena/arbiter"
	"gomoku-arena/pairing"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// Checking a journal against the schedule. Each record is already
// consistent with itself (the journal replays its moves, results/journal);
// what the schedule adds is who played whom, in which round, as which
// game, with which colour. The schedule is the one Run plays: the round
// robin's fixed rounds, the Swiss rounds paired from the records before
// them (the same pairRound), the match's pairs (Match.Replay). A record the
// schedule does not give is refused, naming the game: a journal whose
// colours were exchanged would move a win to the other entrant.

// CheckOpening refuses a record whose opening is not the one the schedule
// dealt its fixture f: the game's first stones are the dealt stones as
// placed (the suite's symmetry included), each marked as the opening's, and
// without an opening procedure no other stone is. A game replaced by
// another of the same entrants and colours but another opening is refused
// here, where names alone would take it.
func CheckOpening(rec *record.Record, f arbiter.Fixture, proc rules.Procedure) error {
	var played []rules.Point
	for _, m := range rec.Moves {
		if !m.Opening {
			break
		}
		played = append(played, m.Point)
	}
	dealt := f.Opening
	switch {
	case len(played) < len(dealt) || !slices.Equal(played[:len(dealt)], dealt):
		return fmt.Errorf("opening %s, but the schedule deals game %d %s", stones(played), f.Number, stones(dealt))
	case proc == rules.NoProcedure && len(played) > len(dealt):
		return fmt.Errorf("opening %s, but the schedule deals game %d %s and the event has no opening procedure", stones(played), f.Number, stones(dealt))
	}
	return nil
}

// stones writes an opening as "[7,7 8,8]", "none" when empty.
func stones(ps []rules.Point) string {
	if len(ps) == 0 {
		return "none"
	}
	var b strings.Builder
	for i, p := range ps {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(p.String())
	}
	return "[" + b.String() + "]"
}

// ScheduleCheck follows a tournament's journal record by record, in the
// journal's order, and refuses the first record the schedule does not
// give. It pairs each Swiss round once, when its first record arrives, so
// following a growing journal costs its new records.
type ScheduleCheck struct {
	t     *Tournament
	names map[string]int
	all   []*record.Record // checked so far
	// The round being checked: its fixtures by number, its byes by entrant,
	// and what of it the journal holds.
	round   int
	paired  map[int][]pairing.Pairing // Swiss rounds paired so far
	games   map[int]arbiter.Fixture   // round robin: every round's
	byes    map[arbiter.Key]bool      // scheduled byes (arbiter.Key{Round: round, Number: entrant})
	seen    map[arbiter.Key]bool      // games (arbiter.Key{Round: round, Number: number}) and byes (arbiter.Key{Round: round, Number: -1-entrant}) journaled
	due     int                       // games and byes of the current Swiss round
	got     int                       // of them journaled
	number  int                       // Swiss games numbered before the current round
	current []arbiter.Fixture         // the current Swiss round's games
	inRound []*record.Record          // the current Swiss round's records so far
	// extended: the current round was paired as the last of a shorter
	// event (one extended after it).
	extended bool
	// The arbiter's decisions (decide): every game laid out so far by
	// number (a round robin's are games), the latest record of each game
	// journaled, and the games voided and not yet replayed.
	laid   map[int]arbiter.Fixture
	played map[int]*record.Record
	voided map[int]bool
	// out maps each withdrawn entrant to the round it left from.
	out map[int]int
}

// CheckSchedule returns a check of the tournament's journal, to be fed its
// records in order (Add).
func (t *Tournament) CheckSchedule() (*ScheduleCheck, error) {
	c := &ScheduleCheck{t: t, names: t.names(), paired: map[int][]pairing.Pairing{}, byes: map[arbiter.Key]bool{}, seen: map[arbiter.Key]bool{},
		laid: map[int]arbiter.Fixture{}, played: map[int]*record.Record{}, voided: map[int]bool{}, out: map[int]int{}}
	if t.Format == pairing.SwissFormat {
		return c, nil
	}
	sched, err := t.Schedule() // the one schedule: mini-matches included
	if err != nil {
		return nil, err
	}
	c.games = map[int]arbiter.Fixture{}
	for _, f := range t.fixtures(sched, 0) {
		c.games[f.Number] = f
		c.laid[f.Number] = f
	}
	for _, round := range sched {
		for _, p := range round {
			if p.White == pairing.Bye {
				c.byes[arbiter.Key{Round: p.Round, Number: p.Black}] = true
			}
		}
	}
	return c, nil
}

// Resume checks the records of a journal, in journal order, against the
// schedule; called again, it checks the records that follow. Run then
// plays on from them, in the rounds they paired.
func (t *Tournament) Resume(done []*record.Record) error {
	if t.check == nil {
		c, err := t.CheckSchedule()
		if err != nil {
			return err
		}
		t.check = c
	}
	if t.broken == nil {
		t.broken = t.check.Add(done...)
	}
	return t.broken
}

// Add checks records that follow those added before, in journal order.
func (c *ScheduleCheck) Add(recs ...*record.Record) error {
	for _, rec := range recs {
		if err := c.add(rec); err != nil {
			if rec.IsGame() {
				return fmt.Errorf("round %d game %d (%s vs %s): %w", rec.Round, rec.Game, rec.Black, rec.White, err)
			}
			return fmt.Errorf("round %d: %s of %q: %w", rec.Round, rec.End, rec.Black, err)
		}
		c.all = append(c.all, rec)
		if e, ok := c.names[rec.Black]; ok && rec.End == record.Withdrawn {
			if _, seen := c.out[e]; !seen {
				c.out[e] = rec.Round
			}
		}
	}
	return nil
}

func (c *ScheduleCheck) add(rec *record.Record) error {
	t := c.t
	if _, ok := c.names[rec.Black]; !ok {
		return fmt.Errorf("%q is not an entrant of the event", rec.Black)
	}
	if rec.Round < 1 {
		return fmt.Errorf("rounds are numbered from 1")
	}
	if rec.End == record.Decided {
		return c.decide(rec)
	}
	if f, ok := c.laid[rec.Game]; ok && c.voided[rec.Game] && rec.IsGame() && rec.Round < c.round {
		// The replay of a game voided after its round: played by the next
		// run, whichever round the event is in by then.
		return c.replay(rec, f)
	}
	if t.Format != pairing.SwissFormat {
		switch {
		case rec.End == record.Withdrawn:
			return c.addFixedWithdrawal(rec)
		case rec.End == record.ByeEnd:
			return c.addBye(rec)
		}
		f, ok := c.games[rec.Game]
		if !ok {
			return fmt.Errorf("the schedule has %d games", len(c.games))
		}
		if withdrawnIn(c.out, f.Round, f.Black, f.White) {
			return errors.New("an entrant of this game was withdrawn before it (schedule/withdraw.go)")
		}
		return c.addGame(rec, f)
	}
	if rec.Round > t.Rounds {
		return fmt.Errorf("the event has %d rounds", t.Rounds)
	}
	if rec.End == record.Withdrawn {
		// Journaled before the round it names is paired, after the round
		// before it is complete (Tournament.withdrawals).
		if rec.Round != c.round+1 || c.got < c.due {
			return fmt.Errorf("a withdrawal is journaled between rounds, before the round it names (the journal is in round %d)", c.round)
		}
		return nil
	}
	if rec.Round < c.round {
		return fmt.Errorf("journaled after round %d began; a Swiss round starts once the round before it is complete", c.round)
	}
	for rec.Round > c.round {
		if c.got < c.due {
			return fmt.Errorf("round %d is not complete (%d of its %d games and byes journaled); the next round is paired from all of it", c.round, c.got, c.due)
		}
		if err := c.pair(c.round + 1); err != nil {
			return err
		}
	}
	err := c.addToRound(rec)
	if err != nil && !c.extended && c.round < t.Rounds {
		// An event extended (-extend) after this round paired it as its
		// last: the Dutch system's final round differs (topscorers).
		if c.pairAs(c.round, c.round) == nil && c.replayRound() == nil {
			c.extended = true
			if err = c.addToRound(rec); err == nil {
				c.inRound = append(c.inRound, rec)
				return nil
			}
		}
		c.pairAs(c.round, t.Rounds)
		c.replayRound()
	}
	if err == nil {
		c.inRound = append(c.inRound, rec)
	}
	return err
}

// addToRound checks a game or bye of the current Swiss round.
func (c *ScheduleCheck) addToRound(rec *record.Record) error {
	if rec.End == record.ByeEnd {
		return c.addBye(rec)
	}
	n := rec.Game - c.number
	if n < 1 || n > len(c.current) {
		return fmt.Errorf("round %d has games %d to %d", c.round, c.number+1, c.number+len(c.current))
	}
	return c.addGame(rec, c.current[n-1])
}

// pair pairs Swiss round r from the records so far, as Run pairs it.
func (c *ScheduleCheck) pair(r int) error {
	c.number += len(c.current)
	c.inRound, c.extended = nil, false
	return c.pairAs(r, c.t.Rounds)
}

// pairAs pairs Swiss round r as the round of an event of the given rounds,
// and makes it the current round, none of its records seen.
func (c *ScheduleCheck) pairAs(r, rounds int) error {
	ps, _, err := c.t.pairRound(r, rounds, c.all)
	if err != nil {
		return fmt.Errorf("round %d: %w", r, err)
	}
	for k := range c.byes {
		if k.Round == r {
			delete(c.byes, k)
		}
	}
	for k := range c.seen {
		if k.Round == r {
			delete(c.seen, k)
		}
	}
	c.paired[r] = ps
	c.current = c.t.fixtures([][]pairing.Pairing{ps}, c.number)
	for _, f := range c.current {
		c.laid[f.Number] = f
	}
	c.round, c.due, c.got = r, len(ps), 0
	for _, p := range ps {
		if p.White == pairing.Bye {
			c.byes[arbiter.Key{Round: r, Number: p.Black}] = true
		}
	}
	return nil
}

// replayRound checks the current round's records again, after it was
// paired anew.
func (c *ScheduleCheck) replayRound() error {
	for _, rec := range c.inRound {
		if err := c.addToRound(rec); err != nil {
			return err
		}
	}
	return nil
}

func (c *ScheduleCheck) addBye(rec *record.Record) error {
	e := c.names[rec.Black]
	if !c.byes[arbiter.Key{Round: rec.Round, Number: e}] {
		return fmt.Errorf("the schedule gives %s no bye in round %d", rec.Black, rec.Round)
	}
	k := arbiter.Key{Round: rec.Round, Number: -1 - e}
	if c.seen[k] {
		return errors.New("journaled twice")
	}
	c.seen[k] = true
	c.got++
	return nil
}

func (c *ScheduleCheck) addGame(rec *record.Record, f arbiter.Fixture) error {
	if err := c.t.Director.CheckRecord(rec, f); err != nil {
		return err
	}
	if !c.t.OpeningsUnknown {
		if err := CheckOpening(rec, f, c.t.Director.Procedure); err != nil {
			return err
		}
	}
	k := arbiter.Key{Round: rec.Round, Number: rec.Game}
	if c.seen[k] {
		return errors.New("journaled twice")
	}
	c.seen[k] = true
	c.got++
	c.played[rec.Game] = rec
	delete(c.voided, rec.Game)
	return nil
}

// replay takes the replay of a game voided after its round was complete.
func (c *ScheduleCheck) replay(rec *record.Record, f arbiter.Fixture) error {
	if err := c.t.Director.CheckRecord(rec, f); err != nil {
		return err
	}
	c.seen[arbiter.Key{Round: rec.Round, Number: rec.Game}] = true
	c.played[rec.Game] = rec
	delete(c.voided, rec.Game)
	return nil
}

// decide checks the arbiter's decision on a game (record.Decision) against
// the schedule: the game is one the schedule laid out, in the round and
// between the entrants the decision names (as its journaled record names
// them, colours included); a correction or a void rules on a game whose
// result is journaled, an adjudication on one of the round being played
// (or voided) that has none. A void makes its game unplayed again: its
// round is not complete until the replay is journaled, unless it was
// complete before (the replay is then taken whenever it comes).
func (c *ScheduleCheck) decide(rec *record.Record) error {
	d := rec.Decision
	if d == nil {
		return errors.New("a decision line carries no decision")
	}
	if err := d.Check(); err != nil {
		return err
	}
	f, ok := c.laid[rec.Game]
	if !ok {
		return fmt.Errorf("no game %d is scheduled yet", rec.Game)
	}
	k := arbiter.Key{Round: f.Round, Number: f.Number}
	if old := c.played[rec.Game]; old != nil && c.seen[k] {
		if rec.Round != old.Round || rec.Black != old.Black || rec.White != old.White {
			return fmt.Errorf("game %d was played in round %d as %s (black) vs %s (white)", rec.Game, old.Round, old.Black, old.White)
		}
	} else {
		probe := *rec // the line names the game; the event's settings are the schedule's
		probe.Rule, probe.Size, probe.Procedure = c.t.Director.Rule.Name(), c.t.Director.Size, ""
		if p := c.t.Director.Procedure; p != rules.NoProcedure {
			probe.Procedure = p.String()
		}
		if err := c.t.Director.CheckRecord(&probe, f); err != nil {
			return err
		}
	}
	switch {
	case d.Kind == record.Adjudicate && c.seen[k]:
		return fmt.Errorf("game %d has a result: correct it or void it; an adjudication is for a game not finished", rec.Game)
	case d.Kind == record.Adjudicate && c.t.Format == pairing.SwissFormat && f.Round != c.round && !c.voided[rec.Game]:
		return fmt.Errorf("game %d is in round %d; a Swiss adjudicates a game of the round being played (%d)", rec.Game, f.Round, c.round)
	case d.Kind != record.Adjudicate && !c.seen[k]:
		return fmt.Errorf("game %d has no result to %s", rec.Game, d.Kind)
	}
	inRound := c.t.Format != pairing.SwissFormat || f.Round == c.round && !c.voided[rec.Game]
	switch d.Kind {
	case record.Void:
		c.seen[k] = false
		c.voided[rec.Game] = true
		if inRound {
			c.got--
		}
	case record.Adjudicate:
		c.seen[k] = true
		if c.voided[rec.Game] && c.t.Format == pairing.SwissFormat && f.Round != c.round {
			inRound = false
		}
		delete(c.voided, rec.Game)
		if inRound {
			c.got++
		}
	}
	return nil
}

// Paired is the pairing of Swiss round r as the check paired it, when the
// journal holds records of that round.
func (c *ScheduleCheck) Paired(r int) ([]pairing.Pairing, bool) {
	ps, ok := c.paired[r]
	return ps, ok
}

// Laid names the game the schedule gives the number game, among the rounds
// laid out so far (a Swiss's as far as the records paired them): its round
// and its entrants as the journal names them (its record's colours when
// one is journaled).
func (c *ScheduleCheck) Laid(game int) (round int, black, white string, ok bool) {
	f, ok := c.laid[game]
	if !ok {
		return 0, "", "", false
	}
	if rec := c.played[game]; rec != nil {
		return rec.Round, rec.Black, rec.White, true
	}
	return f.Round, c.t.Director.Entrants[f.Black].Spec.Name, c.t.Director.Entrants[f.White].Spec.Name, true
}

// addFixedWithdrawal checks a withdrawal from an event with a fixed
// schedule: journaled once, from the round of the entrant's first game
// without a result (schedule/withdraw.go).
func (c *ScheduleCheck) addFixedWithdrawal(rec *record.Record) error {
	e := c.names[rec.Black]
	if from, ok := c.out[e]; ok {
		return fmt.Errorf("%s was already withdrawn from round %d", rec.Black, from)
	}
	from, err := c.t.withdrawnFrom(e, c.all)
	if err != nil {
		return err
	}
	if from == 0 || rec.Round != from {
		return fmt.Errorf("a withdrawal takes effect from the round of the entrant's first game without a result (%d; 0: none left)", from)
	}
	return nil
}

// Complete is the last Swiss round whose games and byes are all journaled
// among the records added (0: none).
func (c *ScheduleCheck) Complete() int {
	if c.got >= c.due {
		return c.round
	}
	return c.round - 1
}
