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
	Disconnect  Termination = "disconnect"     // forfeit: a remote engine's entrant stayed away too long or too often (package remote)
	Aborted     Termination = "aborted"        // the arbiter stopped the game; not a result, never journaled
	ByeEnd      Termination = "bye"            // not a game: Black sat the round out (White is "")
)

// terminations are the ends a record may carry (Aborted never is journaled).
var terminations = []Termination{Five, CaptureWin, FullBoard, MoveCap, Time, Illegal, Forbidden, Crash, Refusal, MemoryLimit, Disconnect, ByeEnd}

// Forfeit reports whether the loser lost by a fault rather than on the board.
func (t Termination) Forfeit() bool {
	switch t {
	case Time, Illegal, Crash, Refusal, MemoryLimit, Disconnect:
		return true
	}
	return false
}

// Move is one stone (or one rejected move) of a record. Its JSON form is
// declared in json.go and docs/FORMATS.md: fields tagged "-" here are
// converted there (points, colours, durations in milliseconds).
type Move struct {
	Point rules.Point `json:"-"`
	Color rules.Color `json:"-"`
	// Think is the wall time from sending the request to receiving the move;
	// zero for opening stones placed by the arbiter.
	Think time.Duration `json:"-"`
	// Left is the mover's clock after the move (zero when untimed).
	Left time.Duration `json:"-"`
	// Opening marks stones placed by the arbiter from an opening, not played
	// by an engine.
	Opening bool `json:"opening,omitempty"`
	// Raw is the engine's line when it was not a well-formed move; Point is
	// then meaningless.
	Raw string `json:"raw,omitempty"`
	// Captured lists stones this move removed (pente).
	Captured []rules.Point `json:"-"`
}

// Record is everything one game leaves behind. The last move of a game lost
// by an illegal or forbidden move is that move, kept with the reason. Its
// JSON form (a journal line) is declared in json.go and docs/FORMATS.md.
type Record struct {
	Event string `json:"event"`
	Round int    `json:"round"` // 1-based; 0 outside a tournament
	Game  int    `json:"game"`  // 1-based index of the game in the event or match
	Rule  string `json:"rule"`
	Size  int    `json:"size"`
	Black string `json:"black"` // engine names
	White string `json:"white"`
	// BlackAbout and WhiteAbout are the engines' answers to ABOUT (program,
	// version, author), as sent, when they gave one.
	BlackAbout string      `json:"black_about,omitempty"`
	WhiteAbout string      `json:"white_about,omitempty"`
	Moves      []Move      `json:"-"`
	Winner     rules.Color `json:"-"` // Empty for a draw
	End        Termination `json:"end"`
	Detail     string      `json:"detail,omitempty"` // e.g. "occupied 7,7", "exit status 2"
	Start      time.Time   `json:"start"`
	Finish     time.Time   `json:"finish"`
	// Messages are the engines' MESSAGE/ERROR lines and protocol warnings,
	// bounded, each prefixed with the engine's name.
	Messages []string `json:"messages,omitempty"`
	// Stderr is the last lines (bounded, oldest first) that the engine at
	// fault wrote to its standard error, kept when it lost by a forfeit
	// (crash, time, illegal move, refusal, memory): its own last words.
	Stderr []string `json:"stderr,omitempty"`
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
	switch r.Winner {
	case rules.Black:
		return 1
	case rules.White:
		return 0
	}
	return 0.5
}

// ResultString is the result in SGF's RE form: "B+", "W+T", "W+F", "0".
// Time forfeits end in T, other forfeits in F.
func (r *Record) ResultString() string {
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
