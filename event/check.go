package event

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"gomoku-arena/arbiter"
	"gomoku-arena/check"
	"gomoku-arena/engine"
	"gomoku-arena/event/identity"
)

// Begun reports whether the event's output folder already holds the event
// (its event.json): `arena run` checks the entrants only before a new
// event, not when it continues one.
func (ev *Event) Begun() bool {
	_, err := os.Stat(filepath.Join(ev.out, identity.File))
	return !errors.Is(err, os.ErrNotExist)
}

// CheckSettings are the event's settings as package check takes them
// (Settings.CheckSettings).
func (ev *Event) CheckSettings() check.Settings { return ev.s.CheckSettings() }

// Check checks the event's entrants under s, the event's settings
// (CheckSettings) with the caller's concurrency, (package check) and
// returns their reports in the config's order; done hears of each as it
// is made. Remote entrants cannot be checked from here: their reports say
// so. With beforeRun, as `arena run` checks before a new event, the
// arena's own engines (builtin:NAME: the bundled playing engines, checked
// by its tests, and the faulty engine, whose faults are chosen) and the
// remote entrants are left out: an event of bundled engines, the demo
// among them, starts as fast as it did.
func (ev *Event) Check(ctx context.Context, s check.Settings, beforeRun bool, done func(check.Report)) []check.Report {
	var ents []arbiter.Entrant
	var remote []string
	for i, e := range ev.s.Engines {
		ent := ev.t.Director.Entrants[i]
		switch {
		case beforeRun && (e.Remote || engine.BuiltinName(ent.Spec.Command) != ""):
			continue
		case e.Remote:
			remote = append(remote, e.Name)
			continue
		}
		if e.Dir == "" { // the event's own: EventSettings.engines
			// The event's own folder for the engine is made when the event
			// claims its output folder: the check runs in a temporary one.
			ent.Spec.Dir = ""
		}
		ent.Spec.Transcript = nil
		ents = append(ents, ent)
	}
	reps := check.Entrants(ctx, ents, s, done)
	for _, name := range remote {
		r := check.Report{Engine: name, Findings: []check.Finding{{Check: "start", Verdict: check.Warn,
			Seen: "a remote entrant: not checked here", Remedy: "its author runs arena check on its own machine, under these settings"}}}
		if done != nil {
			done(r)
		}
		reps = append(reps, r)
	}
	return reps
}
