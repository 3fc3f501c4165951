package event

import (
	"time"

	"gomoku-arena/arbiter"
	"gomoku-arena/engine"
	"gomoku-arena/event/outputs"
	"gomoku-arena/internal/config"
	"gomoku-arena/results/rating"
	"gomoku-arena/schedule"
)

// MatchSetup are an authors' match's settings, typed, as arena match's
// flags and c-gomoku-cli's tokens give them (each front end keeps its own
// words): the settings every event and match has (Settings: the rule, the
// board, the engines, the openings, the confinement, the folder), and the
// match's own schedule, statistics and files. Match is the front door that
// turns them into a match, so a front end parses and prints and builds
// nothing of the arbiter's or the schedule's itself.
type MatchSetup struct {
	Settings
	// Games per pair of engines, Rounds of the whole schedule.
	Games, Rounds int
	Gauntlet      bool // the first engine against each other, not a round robin
	LoseOnly      bool // with Gauntlet: the files collect only the first engine's losses
	FatalError    bool // the first forfeit stops the match
	SPRT          *rating.SPRT
	// The openings (Settings.Openings...) are dealt in Order with Seed,
	// under Transform, each played twice with the colours exchanged
	// (Pairs).
	Order     schedule.Order     // ParseOrder
	Transform schedule.Transform // ParseTransform
	Pairs     bool
	// CGomokuCli deals, colours, and writes PGN, SGF and messages as
	// c-gomoku-cli does (schedule.StyleCGomokuCli); RuleCode is its rule
	// number for its SGF.
	CGomokuCli bool
	RuleCode   string
	Shard      schedule.Shard // TaskShard
	SyncEvery  time.Duration
	// PGN, SGF, Msg and Log are files every game is appended to (the
	// folder of event.json, the journal and the games is Settings.Out).
	PGN, SGF, Msg, Log string
	Records            outputs.Records
	Sample             *outputs.Sampling
}

// ParseOrder reads an opening order's name: sequential, random, passes.
func ParseOrder(s string) (schedule.Order, error) { return schedule.ParseOrder(s) }

// ParseTransform reads an opening transform's name: none, cycle, random.
func ParseTransform(s string) (schedule.Transform, error) { return schedule.ParseTransform(s) }

// The vocabulary front ends print, as event gives it to them: an INFO line
// (its key and value), an engine's answer to ABOUT, a pair of a match's
// engines with its tallies.
type (
	Info      = engine.Info
	About     = engine.About
	Encounter = schedule.Encounter
)

// DefaultStartTimeout is the start timeout of an engine whose settings
// give none, for front ends to name in their help: it is applied in one
// place, engine.Spec.StartWithin.
const DefaultStartTimeout = engine.DefaultStartTimeout

// Match is the match of s: its entrants built (EngineSettings.Entrant),
// its schedule, its openings loaded (an error names the list and the line).
func (s MatchSetup) Match() (*Match, error) {
	m := NewMatch(s.Name, s.Rule, s.Size)
	d := m.Plan.Director
	d.Entrants = Entrants(s.Engines)
	for _, e := range s.Engines {
		m.files = append(m.files, e.Files)
	}
	s.direct(d)
	p := m.Plan
	p.Games, p.Rounds, p.Gauntlet, p.LoseOnly, p.FatalError, p.SPRT, p.Shard = s.Games, s.Rounds, s.Gauntlet, s.LoseOnly, s.FatalError, s.SPRT, s.Shard
	p.Suite = schedule.Suite{Order: s.Order, Seed: s.Seed, Transform: s.Transform, Pairs: s.Pairs}
	if s.CGomokuCli {
		p.Suite.Style, m.FileStyle = schedule.StyleCGomokuCli, schedule.StyleCGomokuCli
	}
	m.RuleCode = s.RuleCode
	m.Out, m.PGN, m.SGF, m.Msg, m.Log = s.Out, s.PGN, s.SGF, s.Msg, s.Log
	m.Records, m.Sample, m.SyncEvery, m.Confinement = s.Records, s.Sample, s.SyncEvery, s.Confinement
	if err := p.Suite.Validate(); err != nil {
		return nil, err
	}
	if s.Openings != "" || s.RuleOpenings {
		if err := m.LoadOpenings(s.Openings, s.OpeningsFormat, s.Policy); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// lifetime is the director's process lifetime for the settings' word.
func lifetime(l config.Lifetime) arbiter.Lifetime {
	switch l {
	case config.LifetimePair:
		return arbiter.LifetimePair
	case config.LifetimeGame:
		return arbiter.LifetimeGame
	}
	return arbiter.LifetimeReuse
}
