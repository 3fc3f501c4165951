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
	// DoubleForfeit: neither engine started the game (each refused it,
	// crashed or timed out at START). Both lose, 0-0, and the game counts as
	// not played: a double forfeit, TRF "-"/"-". Winner is Empty.
	DoubleForfeit Termination = "double forfeit"
	// Withdrawn is not a game: Black left the event and is not paired from
	// Round on (White is ""; Detail says why). See arbiter.Withdrawal.
	Withdrawn Termination = "withdrawn"
)

// terminations are the ends a record may carry (Aborted never is journaled).
var terminations = []Termination{Five, CaptureWin, FullBoard, MoveCap, Time, Illegal, Forbidden, Crash, Refusal, MemoryLimit, Disconnect, ByeEnd, DoubleForfeit, Withdrawn, Decided, Adjudicated, Forfeited}

// IsGame reports whether a record is a game between two engines, rather
// than a bye, a withdrawal or the arbiter's decision.
func (r *Record) IsGame() bool { return r.End != ByeEnd && r.End != Withdrawn && r.End != Decided }

// Forfeit reports whether the loser lost by a fault rather than on the board.
func (t Termination) Forfeit() bool {
	switch t {
	case Time, Illegal, Crash, Refusal, MemoryLimit, Disconnect, DoubleForfeit, Forfeited:
		return true
	}
	return false
}

// Move is one stone of a record: a stone the game played, or one it
// received and refused (Refused says why). A refused move's Color is the
// side that sent it, the side that lost by it (in an opening procedure that
// may differ from the colour the stone would have had). Its JSON form is
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
	// Refused is why the game did not play this stone: a rule's reason
	// ("occupied", "forbidden 3-3"), RefusedLate, RefusedMemory,
	// RefusedMalformed, or an opening procedure's reason. Empty for a stone
	// the game played. Refused stones come last in a record.
	Refused string `json:"refused,omitempty"`
}

// Record is everything one game leaves behind. Every stone the game played
// is a move; every stone it received and refused (illegal, too late,
// breaking an opening rule) follows them, marked Refused with the reason.
// docs/records.md is the reference; its JSON form (a journal line) is
// declared in json.go and docs/FORMATS.md.
type Record struct {
	Event string `json:"event"`
	Round int    `json:"round"` // 1-based; 0 outside a tournament
	Game  int    `json:"game"`  // 1-based index of the game in the event or match
	Rule  string `json:"rule"`
	Size  int    `json:"size"`
	// Procedure is the opening procedure the game began with ("swap2",
	// "rif"), empty for none.
	Procedure string `json:"opening_procedure,omitempty"`
	Black     string `json:"black"` // engine names
	White     string `json:"white"`
	// BlackAbout and WhiteAbout are the engines' answers to ABOUT (program,
	// version, author), as sent, when they gave one.
	BlackAbout string `json:"black_about,omitempty"`
	WhiteAbout string `json:"white_about,omitempty"`
	// Setup is the position a record starts from instead of the empty
	// board, stones placed at once (SGF AB/AW, as problem collections and
	// opening books write positions; Point and Color only), and SetupToMove
	// the side that plays first from it (set alone, White starts on the
	// empty board). The arena's own games have neither.
	Setup       []Move      `json:"-"`
	SetupToMove rules.Color `json:"-"`
	Moves       []Move      `json:"-"`
	Winner      rules.Color `json:"-"` // Empty for a draw
	End         Termination `json:"end"`
	Detail      string      `json:"detail,omitempty"` // e.g. "occupied 7,7", "exit status 2"
	Start       time.Time   `json:"start"`
	Finish      time.Time   `json:"finish"`
	// Messages are the engines' MESSAGE/ERROR lines and protocol warnings,
	// bounded, each prefixed with the engine's name.
	Messages []string `json:"messages,omitempty"`
	// Stderr is the last lines (bounded, oldest first) that the engine at
	// fault wrote to its standard error, kept when it lost by a forfeit
	// (crash, time, illegal move, refusal, memory): its own last words.
	Stderr []string `json:"stderr,omitempty"`
	// Decision is the arbiter's ruling a Decided line carries (decision.go);
	// nil on every other line. Lines that carry one are of DecisionFormat.
	Decision *Decision `json:"decision,omitempty"`
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
