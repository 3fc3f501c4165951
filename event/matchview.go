package event

import (
	"slices"

	"gomoku-arena/clock"
	"gomoku-arena/results/rating"
	"gomoku-arena/rules"
	"gomoku-arena/schedule"
)

// MatchView is what a front end prints of a match, read from it: the
// engines' names and the schedule's settings (the tallies come with each
// Update and Encounters). It is a copy: changing it changes nothing of
// the match.
type MatchView struct {
	Names                          []string // the engines', as the records write them
	Clocks                         []clock.Control
	Engines                        []EntrantView // as they will be started, in Names' order
	Rule                           string        // its name
	Size, Concurrency, MoveCap     int
	Games, Rounds                  int
	Gauntlet, LoseOnly, FatalError bool
	Pairs                          bool   // each opening twice, colours exchanged
	Order, Transform               string // of the openings
	Seed                           uint64 // of the openings' order and transform; 0 chosen when run
	CGomokuCli                     bool   // dealt and written as c-gomoku-cli does
	SPRT                           *rating.SPRT
	SPRTModel                      string
}

// EntrantView is one engine of a match as its settings built it
// (EngineSettings.Entrant): what a front end shows, and its tests read, of
// the entrant the arbiter will start.
type EntrantView struct {
	Name, Command string
	Args          []string
	Dir           string   // "" for the match's folder's engines/NAME, chosen when run
	Env           []string // added to the arena's
	Files         []string // declared beside the program (engine.Spec.Files)
	// The limits held (0 none): memory and hard memory in bytes, processes.
	Memory, HardMemory     int64
	Processes              int
	Clock                  clock.Control
	Infos                  []Info // told before every game, each key once
	BoardMode, Swap2Colors bool
}

// View is the match as a front end prints it.
func (m *Match) View() MatchView {
	p, d := m.Plan, m.Plan.Director
	v := MatchView{Size: d.Size, Concurrency: d.Concurrency, MoveCap: d.MoveCap, Games: p.Games, Rounds: p.Rounds,
		Gauntlet: p.Gauntlet, LoseOnly: p.LoseOnly, FatalError: p.FatalError, Pairs: p.Suite.Pairs,
		Order: p.Suite.Order.String(), Transform: p.Suite.Transform.String(), Seed: p.Suite.Seed,
		CGomokuCli: p.Suite.Style == schedule.StyleCGomokuCli}
	if d.Rule != nil {
		v.Rule = d.Rule.Name()
	}
	if p.SPRT != nil {
		t := *p.SPRT
		v.SPRT, v.SPRTModel = &t, p.SPRTModel()
	}
	for _, e := range d.Entrants {
		v.Names, v.Clocks = append(v.Names, e.Spec.Name), append(v.Clocks, e.Clock)
		l := e.Spec.Limits
		v.Engines = append(v.Engines, EntrantView{Name: e.Spec.Name, Command: e.Spec.Command, Args: slices.Clone(e.Spec.Args),
			Dir: e.Spec.Dir, Env: slices.Clone(e.Spec.Env), Files: slices.Clone(e.Spec.Files), Memory: l.Memory, HardMemory: l.HardMemory, Processes: l.Processes,
			Clock: e.Clock, Infos: slices.Clone(e.Infos), BoardMode: e.BoardMode, Swap2Colors: e.Swap2Colors})
	}
	return v
}

// A Deal is one game of a match's schedule as dealt before play: its
// number, its engines by name, and its opening's stones.
type Deal struct {
	Number       int
	Black, White string
	Opening      []rules.Point
}

// Deals are the match's games in the order of play, as its schedule deals
// them (what c-gomoku-cli's files name; a front end can list them).
func (m *Match) Deals() []Deal {
	_, fixtures := m.Plan.Schedule()
	ents := m.Plan.Director.Entrants
	deals := make([]Deal, len(fixtures))
	for i, f := range fixtures {
		deals[i] = Deal{Number: f.Number, Black: ents[f.Black].Spec.Name, White: ents[f.White].Spec.Name, Opening: slices.Clone(f.Opening)}
	}
	return deals
}

// Name is the match's name in its records ("match", "gomoku-cli").
func (m *Match) Name() string { return m.Plan.Director.Event }

// GamesPlayed is how many games the match has counted so far.
func (m *Match) GamesPlayed() int { return m.Plan.Played() }

// Ratings are the match's Bradley–Terry ratings (schedule.Match.Ratings):
// the list, and the virtual draws per pair a sweep made it take.
func (m *Match) Ratings() (rating.RatingList, float64, error) { return m.Plan.Ratings() }

// Validate refuses a match whose settings do not fit together, before
// anything is played.
func (m *Match) Validate() error { return m.Plan.Validate() }

// Rename names engine i name where name is not empty (c-gomoku-cli's
// engines without name= take the name they answer to ABOUT), then tells
// apart names shared (UniqueNames).
func (m *Match) Rename(names []string) {
	ents := m.Plan.Director.Entrants
	for i, n := range names {
		if n != "" && i < len(ents) {
			ents[i].Spec.Name = n
		}
	}
	UniqueNames(ents)
}
