package event

import (
	"time"

	"gomoku-arena/arbiter"
	"gomoku-arena/clock"
	"gomoku-arena/event/identity"
)

func millis(d time.Duration) int64 { return d.Milliseconds() }

// clockOfControl is what event.json keeps of a clock.
func clockOfControl(c clock.Control) identity.Clock {
	return identity.Clock{MatchMS: millis(c.Match), TurnMS: millis(c.Turn), IncrementMS: millis(c.Increment),
		ToleranceMS: millis(c.Tolerance), HangMS: millis(c.Hang)}
}

// entrantOf is what event.json keeps of an arbiter entrant.
func entrantOf(a arbiter.Entrant) identity.Entrant {
	e := identity.Entrant{Name: a.Spec.Name, Command: a.Spec.Command, Args: a.Spec.Args, Env: a.Spec.Env,
		BoardMode: a.BoardMode, Swap2Colors: a.Swap2Colors, Clock: clockOfControl(a.Clock),
		MaxMemoryBytes: a.Spec.Limits.Memory, HardMemoryBytes: a.Spec.Limits.HardMemory, MaxProcesses: a.Spec.Limits.Processes}
	e.Info = append(e.Info, a.Infos...) // a copy: the entrant's may change
	return e
}
