package engine

import "fmt"

// Fault says why a request got no move.
type Fault string

const (
	FaultTimeout   Fault = "timeout"   // no answer by the deadline (or the engine did not read its input)
	FaultExit      Fault = "exit"      // the process died or closed its stdout
	FaultMalformed Fault = "malformed" // a line that starts like a move but is not two integers
)

// Refusal is NewGame's error when the engine answers START with ERROR (or
// UNKNOWN): it will not play this game.
type Refusal struct {
	Engine  string
	Message string // the engine's text after ERROR
}

func (r *Refusal) Error() string {
	return fmt.Sprintf("engine %q refused the game: %s", r.Engine, r.Message)
}

// FaultError is the error of a call that is not a move request (START,
// RESTART, ABOUT) when the engine timed out or exited.
type FaultError struct {
	Engine string
	Op     string // the command, e.g. "START 15"
	Fault  Fault
	Detail string
}

func (e *FaultError) Error() string {
	s := fmt.Sprintf("engine %q: %s: %s", e.Engine, e.Op, e.Fault)
	if e.Detail != "" {
		s += " (" + e.Detail + ")"
	}
	return s
}
