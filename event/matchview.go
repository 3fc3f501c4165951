package event

import (
	"gomoku-arena/clock"
	"gomoku-arena/results/rating"
)

// MatchView is what a front end prints of a match, read from it: the
// engines' names and the schedule's settings (the tallies come with each
// Update and Encounters). It is a copy: changing it changes nothing of
// the match.
type MatchView struct {
	Names                          []string // the engines', as the records write them
	Clocks                         []clock.Control
	Size, Concurrency, MoveCap     int
	Games, Rounds                  int
	Gauntlet, LoseOnly, FatalError bool
	Pairs                          bool   // each opening twice, colours exchanged
	Order, Transform               string // of the openings
	SPRT                           *rating.SPRT
	SPRTModel                      string
}

// View is the match as a front end prints it.
func (m *Match) View() MatchView {
	p, d := m.Plan, m.Plan.Director
	v := MatchView{Size: d.Size, Concurrency: d.Concurrency, MoveCap: d.MoveCap, Games: p.Games, Rounds: p.Rounds,
		Gauntlet: p.Gauntlet, LoseOnly: p.LoseOnly, FatalError: p.FatalError, Pairs: p.Suite.Pairs,
		Order: p.Suite.Order.String(), Transform: p.Suite.Transform.String()}
	if p.SPRT != nil {
		t := *p.SPRT
		v.SPRT, v.SPRTModel = &t, p.SPRTModel()
	}
	for _, e := range d.Entrants {
		v.Names, v.Clocks = append(v.Names, e.Spec.Name), append(v.Clocks, e.Clock)
	}
	return v
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
