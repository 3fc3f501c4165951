package record

import (
	"time"

	"gomoku-arena/rules"
)

// Termination says how a game ended, in the vocabulary of the records.
type Termination string

const (
	Five        Termination = "five"           // a winning row under the rule
	CaptureWin  Termination = "captures"       // pente: enough stones captured
	FullBoard   Termination = "full board"     // draw
	MoveCap     Termination = "move cap"       // draw by the configured move limit
	Time        Termination = "time"           // forfeit: the clock ran out
	Illegal     Termination = "illegal move"   // forfeit: off board, occupied, malformed, outside a zone
	Forbidden   Termination = "forbidden move" // renju: Black's 3-3, 4-4 or overline
	Crash       Termination = "crash"          // forfeit: the engine process died or closed its output
	Refusal     Termination = "refusal"        // forfeit: the engine refused the game (ERROR to START) or never answered it
	MemoryLimit Termination = "memory"         // forfeit: the engine's processes used more memory than allowed
	Aborted     Termination = "aborted"        // the arbiter stopped the game; not a result, never journaled
	ByeEnd      Termination = "bye"            // not a game: Black sat the round out (White is "")
	// DoubleForfeit: neither engine started the game (each refused it,
	// crashed or timed out at START). Both lose, 0-0, and the game counts as
	// not played: a double forfeit, TRF "-"/"-". Winner is Empty.
	DoubleForfeit Termination = "double forfeit"
	// Withdrawn is not a game: Black left the event and is not paired from
	// Round on (White is ""; Detail says why). See arbiter.Withdrawal.
	Withdrawn Termination = "withdrawn"
)

// IsGame reports whether a record is a game between two engines, rather
// than a bye or a withdrawal.
func (r *Record) IsGame() bool { return r.End != ByeEnd && r.End != Withdrawn }

// Forfeit reports whether the loser lost by a fault rather than on the board.
func (t Termination) Forfeit() bool {
	switch t {
	case Time, Illegal, Crash, Refusal, MemoryLimit, DoubleForfeit:
		return true
	}
	return false
}

// Move is one stone (or one rejected move) of a record.
type Move struct {
	Point rules.Point
	Color rules.Color
	// Think is the wall time from sending the request to receiving the move;
	// zero for opening stones placed by the arbiter.
	Think time.Duration
	// Left is the mover's clock after the move (zero when untimed).
	Left time.Duration
	// Opening marks stones placed by the arbiter from an opening, not played
	// by an engine.
	Opening bool
	// Raw is the engine's line when it was not a well-formed move; Point is
	// then meaningless.
	Raw string `json:",omitempty"`
	// Captured lists stones this move removed (pente).
	Captured []rules.Point `json:",omitempty"`
}

// Record is everything one game leaves behind. The last move of a game lost
// by an illegal or forbidden move is that move, kept with the reason.
type Record struct {
	Event string
	Round int // 1-based; 0 outside a tournament
	Game  int // 1-based index of the game in the event or match
	Rule  string
	Size  int
	Black string // engine names
	White string
	// BlackAbout and WhiteAbout are the engines' answers to ABOUT (program,
	// version, author), as sent, when they gave one.
	BlackAbout string `json:",omitempty"`
	WhiteAbout string `json:",omitempty"`
	Moves      []Move
	Winner     rules.Color // Empty for a draw
	End        Termination
	Detail     string `json:",omitempty"` // e.g. "occupied 7,7", "exit status 2"
	Start      time.Time
	Finish     time.Time
	// Messages are the engines' MESSAGE/ERROR lines and protocol warnings,
	// bounded, each prefixed with the engine's name.
	Messages []string `json:",omitempty"`
}

// WinnerName is the name of the engine that won, or "" for a draw.
func (r *Record) WinnerName() string {
	switch r.Winner {
	case rules.Black:
		return r.Black
	case rules.White:
		return r.White
	}
	return ""
}

// Score is Black's score: 1, ½ or 0.
func (r *Record) Score() float64 {
	b, _ := r.Points()
	return b
}

// Points are each side's points: 1-0, ½-½, 0-1, or 0-0 for a double
// forfeit.
func (r *Record) Points() (black, white float64) {
	switch {
	case r.End == DoubleForfeit:
		return 0, 0
	case r.Winner == rules.Black:
		return 1, 0
	case r.Winner == rules.White:
		return 0, 1
	}
	return 0.5, 0.5
}

// ResultString is the result in SGF's RE form: "B+", "W+T", "W+F", "0",
// "Void" (a double forfeit: no result). Time forfeits end in T, other
// forfeits in F.
func (r *Record) ResultString() string {
	if r.End == DoubleForfeit {
		return "Void"
	}
	var s string
	switch r.Winner {
	case rules.Black:
		s = "B+"
	case rules.White:
		s = "W+"
	default:
		return "0"
	}
	switch {
	case r.End == Time:
		s += "T"
	case r.End.Forfeit():
		s += "F"
	}
	return s
}
