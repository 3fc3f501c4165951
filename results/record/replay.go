package record

import (
	"fmt"
	"slices"
	"strings"

	"gomoku-arena/rules"
)

// Replaying is how a record is checked: its accepted stones are played
// through the rule's own Play, from the empty board, and what the stones say
// (a five, a capture win, a full board, an illegal stone) is set against what
// the record says (Winner, End). It is the one replay of the project: `arena
// rules` shows it, the journal refuses a line it contradicts, the arbiter
// marks an opening's captures with it, and the live page finds a finished
// game's winning row on its board.

// Replayed is a record played through its rule.
type Replayed struct {
	// Position is the game after every accepted stone.
	Position *rules.Position
	// Captured holds, per move of the record, the stones the rule removed
	// with it (nil for a refused move).
	Captured [][]rules.Point
	// Over says the stones themselves end the game: the last accepted stone
	// made a five, won by captures or filled the board (End Five, CaptureWin
	// or FullBoard), or the first refused stone is one the rule refuses
	// (End Illegal or Forbidden). Winner is then the rule's winner, Reason
	// its reason and At the index of that move.
	Over   bool
	Winner rules.Color
	End    Termination
	Reason rules.Reason
	At     int
	// Refused is the index of the first refused move, or -1.
	Refused int
}

// Refusal reasons the arbiter writes into Move.Refused for stones it
// received but did not play; a rule's own reasons (rules.Occupied,
// rules.Forbidden33, ...) are written as they are.
const (
	RefusedLate      = "too late"                              // the stone came after the mover's time ran out
	RefusedMemory    = "over the memory limit"                 // the mover used too much memory making it
	RefusedMalformed = "malformed"                             // the line was not a move (Raw holds it)
	RefusedWith      = "in an answer refused at another stone" // a stone of an opening answer refused for another of its stones
	RefusedAnswer    = "opening answer not allowed"            // an opening-procedure answer refused as a whole
)

// ReplayError is a move that breaks the rule, or follows the end.
type ReplayError struct {
	Index   int  // 0-based index of the move in the record
	Move    Move // the move
	Problem string
}

func (e *ReplayError) Error() string {
	return fmt.Sprintf("move %d (%s %s): %s", e.Index+1, e.Move.Color, describe(&e.Move, 0), e.Problem)
}

// refused reports whether m is a stone the game did not accept. A malformed
// line (Raw) is always one, whatever Refused says.
func (m *Move) refused() bool { return m.Refused != "" || m.Raw != "" }

// Replay plays rec's accepted moves under rule from the empty board. It
// fails when the moves themselves break the rule: a stone after the game was
// over, a stone on an occupied point or off the board in mid-game, a stone of
// the wrong colour, an accepted stone after a refused one, or captures that
// differ from the rule's (checked only when the record marks captures at all:
// psq and other tools' SGF carry none). An accepted-looking last stone that
// the rule refuses (an occupied, forbidden or off-board final stone, as
// renju records and older records write it) is read as refused.
func Replay(rec *Record, rule rules.Rule) (*Replayed, error) {
	pos, err := start(rec, rule)
	if err != nil {
		return nil, err
	}
	rp := &Replayed{Position: pos, Captured: make([][]rules.Point, len(rec.Moves)), At: -1, Refused: -1}
	marks := false
	for _, m := range rec.Moves {
		marks = marks || len(m.Captured) > 0
	}
	size := rec.Size
	for i := range rec.Moves {
		m := &rec.Moves[i]
		bad := func(format string, a ...any) error {
			return &ReplayError{Index: i, Move: *m, Problem: fmt.Sprintf(format, a...)}
		}
		if m.Color != rules.Black && m.Color != rules.White {
			return nil, bad("no colour")
		}
		if m.refused() {
			if rp.Refused < 0 {
				rp.Refused = i
				if isRuleReason(m.Refused) && !rp.Over {
					rp.judgeRefused(rule, m, i)
				}
			}
			continue
		}
		if rp.Refused >= 0 {
			return nil, bad("played after the refused move %d", rp.Refused+1)
		}
		if rp.Over {
			return nil, bad("follows the end of the game at move %d (%s)", rp.At+1, rp.Reason)
		}
		if m.Color != pos.ToMove() {
			return nil, bad("%s is to move", pos.ToMove())
		}
		v := rule.Play(pos, m.Point) // an illegal stone is never placed (rules.Verdict)
		if v.Illegal {
			if i == len(rec.Moves)-1 {
				rp.Refused = i
				rp.setOver(v, i)
				continue
			}
			return nil, bad("%s, and more moves follow", v.Reason)
		}
		rp.Captured[i] = v.Captured
		if marks && !samePoints(m.Captured, v.Captured) {
			return nil, bad("the record marks captures %s, the rule captures %s",
				pointList(m.Captured, size), pointList(v.Captured, size))
		}
		if v.Over {
			rp.setOver(v, i)
		}
	}
	return rp, nil
}

// start is the position rec starts from: the empty board, or its setup.
func start(rec *Record, rule rules.Rule) (*rules.Position, error) {
	if len(rec.Setup) == 0 && rec.SetupToMove == rules.Empty {
		return rules.NewPosition(rec.Size)
	}
	if rule.Name() == "pente" || rule.Name() == "keryo-pente" {
		return nil, fmt.Errorf("a %s position given by setup stones says nothing of the stones each side has captured, which decide the game: refused", rule.Name())
	}
	var black, white []rules.Point
	for _, m := range rec.Setup {
		switch m.Color {
		case rules.Black:
			black = append(black, m.Point)
		case rules.White:
			white = append(white, m.Point)
		default:
			return nil, fmt.Errorf("setup stone %v has no colour", m.Point)
		}
	}
	return rules.SetupPosition(rec.Size, black, white, rec.SetupToMove)
}

// judgeRefused asks the rule about a stone refused for a rule's reason: when
// the rule refuses it too, the stones themselves end the game there.
func (rp *Replayed) judgeRefused(rule rules.Rule, m *Move, i int) {
	probe := rp.Position.Clone()
	if v := rule.Play(probe, m.Point); v.Illegal {
		rp.setOver(v, i)
	}
}

func (rp *Replayed) setOver(v rules.Verdict, i int) {
	rp.Over, rp.Winner, rp.Reason, rp.At = true, v.Winner, v.Reason, i
	switch {
	case v.Reason == rules.Forbidden33 || v.Reason == rules.Forbidden44 || v.Reason == rules.ForbiddenOverline:
		rp.End = Forbidden
	case v.Illegal:
		rp.End = Illegal
	case v.Reason == rules.CaptureWin:
		rp.End = CaptureWin
	case v.Reason == rules.FullBoard:
		rp.End = FullBoard
	default:
		rp.End = Five
	}
}

// Verify replays rec under rule and checks that the result it states (Winner
// and End) is the one its moves lead to. What it can prove is in
// docs/records.md: a five, a capture win, a full board and a stone the rule
// refuses are replayed; a forfeit off the board (time, crash, refusal,
// memory, an opening-procedure answer) is taken as stated, but never for the
// side that already won on the board, never after a stone the rule judges a
// win, and a time loss in the game proper is always the side to move's. A
// record from another tool that states no termination is checked only on
// the winner it names, when the stones end the game.
func Verify(rec *Record, rule rules.Rule) (*Replayed, error) {
	rp, err := Replay(rec, rule)
	if err != nil {
		return nil, err
	}
	return rp, rp.check(rec)
}

// MarkCaptures sets every accepted stone's Captured to what the rule removes
// with it, opening stones included. The arbiter calls it on a game's opening
// once it is settled (its stones were judged by rules.Setup or an opening
// procedure, which keep no record of captures); every later stone takes its
// captures from the rule's verdict as it is played.
func MarkCaptures(rec *Record, rule rules.Rule) error {
	saved := make([][]rules.Point, len(rec.Moves))
	for i := range rec.Moves {
		saved[i], rec.Moves[i].Captured = rec.Moves[i].Captured, nil
	}
	rp, err := Replay(rec, rule)
	if err != nil {
		for i := range rec.Moves {
			rec.Moves[i].Captured = saved[i]
		}
		return err
	}
	for i := range rec.Moves {
		rec.Moves[i].Captured = rp.Captured[i]
	}
	return nil
}

// check sets the stated result against the replayed one.
func (rp *Replayed) check(rec *Record) error {
	stated := stateResult(rec.Winner, rec.End)
	fail := func(format string, a ...any) error {
		return fmt.Errorf("the record says %s, but %s", stated, fmt.Sprintf(format, a...))
	}
	var sender rules.Color // who sent the first refused move
	if rp.Refused >= 0 {
		sender = rec.Moves[rp.Refused].Color
	}
	stonesSay := func() string {
		return fmt.Sprintf("the stones say %s (move %d, %s)", stateResult(rp.Winner, rp.End), rp.At+1, rp.Reason)
	}
	switch rec.End {
	case "":
		// Another tool's record: only a winner it names can be checked.
		if rp.Over && rec.Winner != rules.Empty && rec.Winner != rp.Winner {
			return fail("%s", stonesSay())
		}
		return nil
	case ByeEnd:
		if len(rec.Moves) > 0 || rec.White != "" || rec.Winner != rules.Black {
			return fmt.Errorf("a bye has Black alone, winning, and no moves")
		}
		return nil
	case DoubleForfeit:
		if len(rec.Moves) > 0 || rec.Winner != rules.Empty {
			return fmt.Errorf("a double forfeit has no moves and no winner")
		}
		return nil
	case Aborted:
		if rec.Winner != rules.Empty {
			return fmt.Errorf("an aborted game has no winner, this one names %s", rec.Winner)
		}
		return nil
	case Five, CaptureWin, FullBoard:
		if !rp.Over {
			return fail("no move ends the game on the board")
		}
		if rp.End != rec.End || rp.Winner != rec.Winner {
			return fail("%s", stonesSay())
		}
		if rp.Refused >= 0 {
			return fail("move %d was received after the end", rp.Refused+1)
		}
		return nil
	case MoveCap:
		if rp.Over {
			return fail("%s", stonesSay())
		}
		if rec.Winner != rules.Empty {
			return fail("a move cap is a draw")
		}
		return nil
	case Illegal, Forbidden, Time, Crash, Refusal, MemoryLimit, Disconnect:
	default:
		return fmt.Errorf("unknown termination %q", rec.End)
	}
	// A forfeit.
	if rec.Winner == rules.Empty {
		return fail("a forfeit has a winner")
	}
	if rp.Over && rp.End != Illegal && rp.End != Forbidden {
		return fail("%s", stonesSay())
	}
	if rp.Refused >= 0 && rec.Winner != sender.Opponent() {
		return fail("the refused move %d was sent by %s", rp.Refused+1, sender)
	}
	switch rec.End {
	case Illegal, Forbidden:
		if rp.Refused < 0 {
			return fail("no move of the record is refused")
		}
		if rp.Over && rp.End != rec.End {
			return fail("%s", stonesSay())
		}
		if r := rec.Moves[rp.Refused].Refused; !rp.Over && isRuleReason(r) {
			return fail("the rule accepts move %d, refused as %q", rp.Refused+1, r)
		}
	case Time:
		if rp.Over {
			return fail("%s", stonesSay())
		}
		if rp.Refused < 0 && rec.Procedure == "" && rec.Winner != rp.Position.ToMove().Opponent() {
			return fail("%s was to move, not %s", rp.Position.ToMove(), rec.Winner.Opponent())
		}
	default: // crash, refusal, memory, disconnect: any engine can fail at any time
		if rp.Over {
			return fail("%s", stonesSay())
		}
	}
	return nil
}

// isRuleReason reports whether a refusal reason is one the rules give.
func isRuleReason(r string) bool {
	switch rules.Reason(r) {
	case rules.OffBoard, rules.Occupied, rules.OutsideOuterZone, rules.Forbidden33, rules.Forbidden44,
		rules.ForbiddenOverline, rules.PenteCentre, rules.PenteTournamentRule:
		return true
	}
	return false
}

// stateResult says a result in words: "black wins (five)", "a draw (full board)".
func stateResult(w rules.Color, end Termination) string {
	s := "a draw"
	if w != rules.Empty {
		s = w.String() + " wins"
	}
	if end == "" {
		if w == rules.Empty {
			return "no result"
		}
		return s
	}
	return s + " (" + string(end) + ")"
}

// describe names a move's point for messages in protocol coordinates (an
// off-board point has no other form), or the raw line when it had no point.
func describe(m *Move, size int) string {
	if m.Raw != "" {
		return fmt.Sprintf("%q", m.Raw)
	}
	return rules.Protocol.Format(m.Point, size)
}

func samePoints(a, b []rules.Point) bool {
	if len(a) != len(b) {
		return false
	}
	less := func(p, q rules.Point) int {
		if p.Y != q.Y {
			return p.Y - q.Y
		}
		return p.X - q.X
	}
	a, b = slices.Clone(a), slices.Clone(b)
	slices.SortFunc(a, less)
	slices.SortFunc(b, less)
	return slices.Equal(a, b)
}

func pointList(ps []rules.Point, size int) string {
	if len(ps) == 0 {
		return "none"
	}
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = rules.Protocol.Format(p, size)
	}
	return strings.Join(s, " ")
}
