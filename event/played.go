package event

import (
	"time"

	"gomoku-arena/arbiter"
	"gomoku-arena/event/identity"
	"gomoku-arena/event/outputs"
	"gomoku-arena/internal/config"
	"gomoku-arena/rules"
)

// Played are the settings an event or a match plays under, read back from
// what a front end built: the same fields whichever front end gave them
// (an event file, arena match's or arena check's flags, c-gomoku-cli's
// tokens), with every default applied, so that front ends can be held to
// one value and one default and can print what is played without
// reaching into the arbiter's or the schedule's types.
type Played struct {
	Rule    string
	Size    int
	MoveCap int // 0: none
	// StartTimeout is the director's, or where it gives none each
	// engine's own (engine.Spec.StartWithin) of the first entrant.
	StartTimeout time.Duration
	Concurrency  int
	Lifetime     config.Lifetime
	Procedure    rules.Procedure
	Openings     int // openings in the list dealt; 0: the empty board
	Confinement  Confinement
	Entrants     []identity.Entrant // as event.json keeps them
	Outputs      Outputs
}

// Outputs are where what is played is written: the folder (event.json,
// the journal, and the games as Records says), and the files every game
// is appended to; "" for none.
type Outputs struct {
	Folder  string
	Records outputs.Records // with a folder
	PGN     string
	SGF     string
	Msg     string
	Log     string // every line to and from the engines
	Samples string // the training positions' file
}

// playedBy reads d back (what every front end's director holds).
func playedBy(d *arbiter.Director, openings int, c Confinement) Played {
	p := Played{Rule: d.Rule.Name(), Size: d.Size, MoveCap: d.MoveCap, StartTimeout: d.StartTimeout, Concurrency: d.Concurrency,
		Procedure: d.Procedure, Openings: openings, Confinement: c}
	switch d.Lifetime {
	case arbiter.LifetimePair:
		p.Lifetime = config.LifetimePair
	case arbiter.LifetimeGame:
		p.Lifetime = config.LifetimeGame
	}
	for i, a := range d.Entrants {
		if i == 0 && p.StartTimeout == 0 {
			p.StartTimeout = a.Spec.StartWithin()
		}
		p.Entrants = append(p.Entrants, entrantOf(a))
	}
	return p
}

// Played are the settings the event plays under.
func (ev *Event) Played() Played {
	p := playedBy(ev.t.Director, len(ev.t.Openings), ev.s.Confinement)
	p.Outputs = Outputs{Folder: ev.Folder(), Records: outputs.RecordsFiles}
	return p
}

// Played are the settings the match plays under.
func (m *Match) Played() Played {
	p := playedBy(m.Plan.Director, len(m.Plan.Suite.Openings), m.Confinement)
	p.Outputs = Outputs{Folder: m.Folder(), PGN: m.PGN, SGF: m.SGF, Msg: m.Msg, Log: m.Log, Samples: m.SampleFile()}
	if p.Outputs.Folder != "" {
		p.Outputs.Records = m.Records
	}
	return p
}
