package schedule

import (
	"context"
	"errors"
	"fmt"

	"gomoku-arena/arbiter"
	"gomoku-arena/internal/bounds"
	"gomoku-arena/results/rating"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// Authors' matches: engines meet in encounters (pairs of engines), each
// playing the same openings with the colours alternating, and every
// encounter keeps a running tally from its first engine's point of view.
// Games finish out of order (several run at once), so the tally pairs a
// game with its twin whichever finishes first.

// Match is an authors' match. Every encounter plays Games games per round,
// for Rounds rounds: all pairs of entrants in a round robin, or with
// Gauntlet the first entrant against each other. Schedule lays the match
// out; Run plays it through the Director.
type Match struct {
	Director *arbiter.Director // plays the fixtures
	Games    int               // per encounter and round
	Rounds   int               // the whole schedule is played this many times
	Gauntlet bool
	Suite    Suite
	// OpeningsUnknown: the Suite's openings are not the ones the journal's
	// games were dealt from (an event.json of format 1 did not record
	// them), so Replay does not compare openings.
	OpeningsUnknown bool
	// SPRT, if set, stops the match as soon as it decides (two entrants).
	SPRT *rating.SPRT
	// LoseOnly collects only the games the first entrant lost (see
	// MatchGame.Collect).
	LoseOnly bool
	// FatalError stops the match at the first crash, time loss or refusal.
	FatalError bool
	// Shard, when not the whole match, restricts Run to the shard's share
	// of the schedule (shard.go). A shard's own games never decide the
	// SPRT: the batch's merged games do (event package).
	Shard Shard
	// Counted, if set, hears of every game Run plays as it was counted
	// (its encounter's tally, the SPRT's decision), after it is journaled.
	Counted func(MatchGame) error

	encounters []*Encounter
	fixtures   []arbiter.Fixture
	places     []place // per fixture, by Number-1
	played     int
	fatal      bool
	halted     bool         // a replayed game decided the SPRT or was fatal
	broken     error        // a record Replay refused: Run plays nothing
	replayed   map[int]bool // fixture numbers counted by Replay
	units      []int        // per fixture, by Number-1: its pair's (or game's) number, from 0 (shard.go)
}

// Encounter is one pair of entrants of a match and its tally so far, from
// the first entrant's point of view.
type Encounter struct {
	First, Second int // entrants, by index
	WDL           rating.WDL
	// Penta counts the finished game pairs, when the suite pairs games.
	Penta rating.Pentanomial
	// Decision is the SPRT's, once it decided; Continue before.
	Decision rating.Decision

	twin map[int]float64 // pair number -> the first entrant's score in the pair's game that finished first
}

// place is a fixture's place in the schedule: its encounter and the index
// of its deal (of the game within the encounter; under StyleCGomokuCli,
// within the match), which pairs games that share an opening.
type place struct {
	enc *Encounter
	k   int
}

// MatchGame is a finished game as the match counted it.
type MatchGame struct {
	Record    *record.Record
	Encounter *Encounter
	Score     float64 // the encounter's first entrant's: 1, ½ or 0
	Played    int     // games counted in the match so far, this one included
	// Decided: this game brought the encounter's SPRT to a decision
	// (Encounter.Decision), and the match stops starting games.
	Decided bool
	// Fatal: under FatalError, this is the first game lost by a crash, on
	// time or by a refusal, and the match stops starting games.
	Fatal bool
	// Collect: the game belongs in the files that collect games; under
	// LoseOnly only the games the first entrant lost do.
	Collect bool
}

// MaxGames bounds the games one match or batch lays out (see bounds).
const MaxGames = bounds.MaxGames

// ScheduleGames is the number of games a match of these settings lays out,
// or -1 when it is more than MaxGames (however much more: no product here
// overflows).
func ScheduleGames(entrants, games, rounds int, gauntlet bool) int {
	enc := entrants - 1
	if !gauntlet {
		if entrants > MaxGames {
			return -1
		}
		enc = entrants * (entrants - 1) / 2
	}
	n := 1
	for _, k := range []int{enc, games, rounds} {
		if k < 0 || (k > 0 && n > MaxGames/k) {
			return -1
		}
		n *= k
	}
	return n
}

// sweepPrior is the number of virtual draws per pair of entrants that keeps
// a rating list finite after a sweep.
const sweepPrior = 2

// Validate checks the match's consistency before anything is played. A
// setting of the match's that cannot be used is a *bounds.SettingError,
// naming the setting as an event file's key does (size,
// opening_procedure, concurrency, move_cap) or as the match's own (games,
// rounds), so that each front end can say where it was given; the rules
// are the ones an event file is held to (rules.CheckSize,
// rules.Procedure.Check, bounds.CheckConcurrency, bounds.CheckMoveCap),
// not copies.
func (m *Match) Validate() error {
	d := m.Director
	if err := rules.CheckSize(d.Rule, d.Size); err != nil {
		return &bounds.SettingError{Setting: "size", Problem: err.Error()}
	}
	if err := d.Procedure.Check(d.Rule, d.Size); err != nil {
		return &bounds.SettingError{Setting: "opening_procedure", Problem: err.Error()}
	}
	if err := m.Shard.Validate(); err != nil {
		return err
	}
	for _, err := range []error{bounds.CheckConcurrency(d.Concurrency), bounds.CheckMoveCap(d.MoveCap)} {
		if err != nil {
			return err
		}
	}
	switch {
	case len(d.Entrants) < 2:
		return errors.New("want at least two engines")
	case m.Games < 1:
		return &bounds.SettingError{Setting: "games", Problem: fmt.Sprintf("%d: must be at least 1", m.Games)}
	case m.Rounds < 1:
		return &bounds.SettingError{Setting: "rounds", Problem: fmt.Sprintf("%d: must be at least 1", m.Rounds)}
	case ScheduleGames(len(d.Entrants), m.Games, m.Rounds, m.Gauntlet) < 0:
		return fmt.Errorf("%d engines, %d games per pair and %d rounds make more than %d games, the most one match lays out", len(d.Entrants), m.Games, m.Rounds, MaxGames)
	}
	if m.SPRT != nil {
		if len(m.Director.Entrants) != 2 {
			return fmt.Errorf("an SPRT compares two engines, not %d", len(m.Director.Entrants))
		}
		if err := m.SPRT.Validate(); err != nil {
			return err
		}
		if m.SPRT.Pentanomial() && !m.Suite.Pairs {
			return fmt.Errorf("the %s SPRT model counts game pairs: play each opening twice (or use model trinomial)", m.SPRTModel())
		}
	}
	return nil
}

// SPRTModel is the SPRT's model, normalized when unset.
func (m *Match) SPRTModel() string {
	if m.SPRT == nil || m.SPRT.Model == "" {
		return rating.ModelNormalized
	}
	return m.SPRT.Model
}

// Schedule lays the match out with empty tallies: for every round,
// encounter by encounter, Games games with the colours alternating. Game k
// of an encounter takes the suite's k-th deal, so every encounter plays the
// same openings, and with Suite.Pairs games 2j and 2j+1 are a pair. Under
// Suite.Style StyleCGomokuCli the deals and colours are c-gomoku-cli's
// instead (Style), and a pair is two consecutive games of the match.
func (m *Match) Schedule() ([]*Encounter, []arbiter.Fixture) {
	m.encounters, m.fixtures, m.places = nil, nil, nil
	m.played, m.fatal, m.halted, m.replayed = 0, false, false, map[int]bool{}
	n := len(m.Director.Entrants)
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			if m.Gauntlet && a > 0 {
				break
			}
			m.encounters = append(m.encounters, &Encounter{First: a, Second: b, twin: map[int]float64{}})
		}
	}
	cgc := m.Suite.Style == StyleCGomokuCli
	dealt := m.Games * m.Rounds
	if cgc {
		dealt *= len(m.encounters)
	}
	deals := m.Suite.Deal(dealt, m.Director.Size)
	for r := 0; r < m.Rounds; r++ {
		for _, e := range m.encounters {
			for g := 0; g < m.Games; g++ {
				// k: the game's deal; second: the first entrant has White.
				k := r*m.Games + g
				second := k%2 == 1
				if cgc {
					k, second = len(m.fixtures), g%2 == 1
				}
				f := arbiter.Fixture{Number: len(m.fixtures) + 1, Black: e.First, White: e.Second}
				if deals != nil {
					f.Opening = deals[k].Opening.Stones
					// c-gomoku-cli gives the first move after the opening,
					// not Black, to the first entrant (game.cpp, play).
					second = second != (cgc && len(f.Opening)%2 == 1)
				}
				if second {
					f.Black, f.White = e.Second, e.First
				}
				m.places = append(m.places, place{e, k})
				m.fixtures = append(m.fixtures, f)
			}
		}
	}
	m.layUnits()
	return m.encounters, m.fixtures
}

// Run plays the schedule (laid out by Schedule, or now), less the games
// Resume replayed. finished is called with every finished game before it
// counts (to journal it: a game the journal lacks is not part of the
// match); Counted, if set, after, with the game as counted. An error from
// either stops the match. Once an SPRT decides or a fatal error happens no
// new game starts; the games in progress finish and are counted.
// Cancelling drain or abort works as in Director.Play.
func (m *Match) Run(drain, abort context.Context, finished func(*record.Record) error) error {
	if m.fixtures == nil {
		m.Schedule()
	}
	if m.broken != nil {
		return m.broken
	}
	stopped, stop := context.WithCancel(drain)
	defer stop()
	if m.halted {
		return nil
	}
	m.Director.Finished = func(rec *record.Record) error {
		if err := finished(rec); err != nil {
			return err
		}
		g := m.count(rec)
		if m.Counted != nil {
			if err := m.Counted(g); err != nil {
				return err
			}
		}
		if g.Decided || g.Fatal {
			stop()
		}
		return nil
	}
	var left []arbiter.Fixture
	for _, f := range m.fixtures {
		if !m.replayed[f.Number] && m.inShard(f.Number) {
			left = append(left, f)
		}
	}
	return m.Director.Play(stopped, abort, left)
}

// Replay counts the games of an interrupted match (its journal, in the
// order the games finished) as they were counted when they finished, so
// that Run plays only the rest and the match ends as it would have
// uninterrupted. A record that is not a game of this schedule (CheckRecord:
// its entrants, colours, rule, size and procedure), or a game twice, is an
// error. Call it after Schedule and before Run.
func (m *Match) Replay(done []*record.Record) ([]MatchGame, error) {
	if m.broken != nil {
		return nil, m.broken
	}
	if m.fixtures == nil {
		m.Schedule()
	}
	var out []MatchGame
	for _, rec := range done {
		if rec.Game < 1 || rec.Game > len(m.fixtures) {
			m.broken = fmt.Errorf("game %d is not in the match's schedule of %d games", rec.Game, len(m.fixtures))
			return out, m.broken
		}
		if m.replayed[rec.Game] {
			m.broken = fmt.Errorf("game %d is recorded twice", rec.Game)
			return out, m.broken
		}
		if !m.inShard(rec.Game) {
			m.broken = fmt.Errorf("game %d belongs to shard %d/%d, not to this shard %s", rec.Game, m.ShardOf(rec.Game, m.Shard.Count), m.Shard.Count, m.Shard)
			return out, m.broken
		}
		err := m.Director.CheckRecord(rec, m.fixtures[rec.Game-1])
		if err == nil && !m.OpeningsUnknown {
			err = CheckOpening(rec, m.fixtures[rec.Game-1], m.Director.Procedure)
		}
		if err != nil {
			m.broken = fmt.Errorf("game %d (%s vs %s): %w", rec.Game, rec.Black, rec.White, err)
			return out, m.broken
		}
		m.replayed[rec.Game] = true
		g := m.count(rec)
		if g.Decided || g.Fatal {
			m.halted = true
		}
		out = append(out, g)
	}
	return out, nil
}

// Resume is Replay for a schedule's user that needs no tally of the games
// replayed.
func (m *Match) Resume(done []*record.Record) error {
	_, err := m.Replay(done)
	return err
}

// Played is the number of games counted so far.
func (m *Match) Played() int { return m.played }

// count adds a finished game to its encounter's tally and applies the
// stopping rules.
func (m *Match) count(rec *record.Record) MatchGame {
	p := m.places[rec.Game-1]
	e := p.enc
	// By name, not by the fixture's colours: Swap2 and the RIF opening may
	// have given the first entrant the other colour.
	first := rec.Score()
	if rec.Black != m.Director.Entrants[e.First].Spec.Name {
		first = 1 - first
	}
	if rec.End == record.DoubleForfeit {
		// Neither engine started: the game says nothing of either's
		// strength, so it weighs as a draw, the same for both.
		first = 0.5
	}
	e.WDL.Add(first)
	if m.Suite.Pairs {
		pair := p.k / 2
		if other, ok := e.twin[pair]; ok {
			e.Penta.Add(other, first)
			delete(e.twin, pair)
		} else {
			e.twin[pair] = first
		}
	}
	m.played++
	g := MatchGame{Record: rec, Encounter: e, Score: first, Played: m.played,
		Collect: !m.LoseOnly || (e.First == 0 && first == 0)}
	if m.SPRT != nil && m.Shard.Whole() && e.Decision == rating.Continue {
		e.Decision = m.SPRT.Decide(e.WDL, e.Penta)
		g.Decided = e.Decision != rating.Continue
	}
	if m.FatalError && !m.fatal {
		switch rec.End {
		case record.Crash, record.Time, record.Refusal, record.DoubleForfeit:
			m.fatal, g.Fatal = true, true
		}
	}
	return g
}

// Points is the first entrant's score: a point a win, half a draw.
func (e *Encounter) Points() float64 { return float64(e.WDL.W) + float64(e.WDL.D)/2 }

// Stats is the encounter's statistics: over game pairs when the suite
// pairs games (and a pair has finished), else over single games.
func (e *Encounter) Stats() rating.MatchStats {
	if e.Penta.Pairs() > 0 {
		return e.Penta.Stats()
	}
	return e.WDL.Stats()
}

// Ratings fits the Bradley–Terry rating list of the games counted so far:
// the first entrant at 0 in a gauntlet, else a mean of 0. A sweep makes
// maximum likelihood infinite; the list is then fitted with prior virtual
// draws per pair of entrants, else prior is 0.
func (m *Match) Ratings() (list rating.RatingList, prior float64, err error) {
	names := make([]string, len(m.Director.Entrants))
	for i, e := range m.Director.Entrants {
		names[i] = e.Spec.Name
	}
	var games []rating.RatedGame
	for _, e := range m.encounters {
		for _, n := range []struct {
			count int
			score float64
		}{{e.WDL.W, 1}, {e.WDL.D, 0.5}, {e.WDL.L, 0}} {
			for range n.count {
				games = append(games, rating.RatedGame{First: e.First, Second: e.Second, Score: n.score})
			}
		}
	}
	opt := rating.RatingOptions{}
	if m.Gauntlet {
		opt.Anchor = names[0]
	}
	list, err = rating.RateBradleyTerry(names, games, opt)
	if errors.Is(err, rating.ErrInfiniteRatings) {
		opt.Prior = sweepPrior
		list, err = rating.RateBradleyTerry(names, games, opt)
	}
	return list, opt.Prior, err
}
