package record

// The JSON form of a record is a file format: the journal holds one record
// per line, and other tools (the live page, merge, rating tools) read it.
// docs/FORMATS.md documents every field; change a field only with a new
// Format and a reader for the old one.
//
// Each record carries its own "format" so that every journal line stands
// alone: a journal written before versions and continued by this arena holds
// lines of both formats, and journals can be concatenated.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"gomoku-arena/rules"
)

// Format is the version of the record format this arena writes. Format 1 is
// the unversioned form written before it (Go field names, durations in
// nanoseconds, colours as numbers), which is still read.
const Format = 2

// DecisionFormat is the format of a journal line carrying the arbiter's
// decision (Record.Decision): format 2 with the "decision" object. Lines
// without one stay in Format, so that an older arena still reads every game
// of a journal, and refuses (rather than ignores) a decision it cannot
// apply.
const DecisionFormat = 3

// Winner values in the JSON form.
const (
	winnerBlack = "black"
	winnerWhite = "white"
	winnerNone  = "none" // a draw
)

// plainRecord and plainMove carry the fields tagged in record.go as they are,
// without the methods below (which would recurse).
type (
	plainRecord Record
	plainMove   Move
)

// recordJSON is a record as written: the version first, the converted
// fields after the tagged ones.
type recordJSON struct {
	Format int `json:"format"`
	plainRecord
	Setup       []moveJSON `json:"setup,omitempty"`
	SetupToMove string     `json:"setup_to_move,omitempty"`
	Moves       []moveJSON `json:"moves"`
	Winner      string     `json:"winner"`
}

// moveJSON is a move as written. A point is [x, y], 0-based from the top
// left as the protocol sends it; it is absent for a line that was not a move.
type moveJSON struct {
	Point   *[2]int `json:"point,omitempty"`
	Color   string  `json:"color"`
	ThinkMS int64   `json:"think_ms"`
	LeftMS  int64   `json:"left_ms"`
	plainMove
	Captured [][2]int `json:"captured,omitempty"`
}

// MarshalJSON writes r in the current Format. It refuses what UnmarshalJSON
// would refuse, so that nothing is written that cannot be read back. (A
// value receiver: a Record inside another value is written this way too.)
func (r Record) MarshalJSON() ([]byte, error) {
	if err := checkEnd(r.End); err != nil {
		return nil, err
	}
	if (r.End == Decided) != (r.Decision != nil) {
		return nil, errors.New(`a "decision" line, and only one, carries a decision`)
	}
	out := recordJSON{Format: Format, plainRecord: plainRecord(r), Moves: make([]moveJSON, len(r.Moves))}
	switch r.Winner {
	case rules.Black:
		out.Winner = winnerBlack
	case rules.White:
		out.Winner = winnerWhite
	case rules.Empty:
		out.Winner = winnerNone
	default:
		return nil, fmt.Errorf("winner %v", r.Winner)
	}
	for i, m := range r.Moves {
		mj, err := m.wire()
		if err != nil {
			return nil, fmt.Errorf("move %d: %w", i+1, err)
		}
		out.Moves[i] = mj
	}
	for i, m := range r.Setup {
		mj, err := m.wire()
		if err != nil {
			return nil, fmt.Errorf("setup stone %d: %w", i+1, err)
		}
		out.Setup = append(out.Setup, mj)
	}
	if r.SetupToMove != rules.Empty {
		out.SetupToMove = r.SetupToMove.String()
	}
	if r.Decision != nil {
		out.Format = DecisionFormat
	}
	return marshal(out)
}

// marshal writes v as JSON on one line, engines' lines keeping their < > &
// as written (json.Marshal would write \u003c), for people reading a
// journal.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// UnmarshalJSON reads a record of the current Format or of format 1, and
// refuses any other version, an unknown field, a colour other than "black"
// or "white", and an end this arena does not know. It checks the form, not
// the game: whether the moves lead to the result is the rules' to say.
func (r *Record) UnmarshalJSON(b []byte) error {
	var probe struct {
		Format json.RawMessage `json:"format"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		return err
	}
	if len(probe.Format) == 0 {
		if err := r.unmarshalV1(b); err != nil {
			return fmt.Errorf("no \"format\" field, so read as format 1 (the unversioned form): %w", err)
		}
		return nil
	}
	v, err := strconv.Atoi(string(probe.Format))
	if err != nil || v != Format && v != DecisionFormat {
		return fmt.Errorf("format %s is not one this arena reads (it reads formats %d and %d, and format 1 lines without a \"format\" field); was it written by a newer arena?", probe.Format, Format, DecisionFormat)
	}
	var in recordJSON
	if err := strict(b, &in); err != nil {
		return err
	}
	rec := Record(in.plainRecord)
	switch in.Winner {
	case winnerBlack:
		rec.Winner = rules.Black
	case winnerWhite:
		rec.Winner = rules.White
	case winnerNone:
		rec.Winner = rules.Empty
	default:
		return fmt.Errorf("winner %q: want %q, %q or %q", in.Winner, winnerBlack, winnerWhite, winnerNone)
	}
	if in.Moves == nil {
		return errors.New(`no "moves" field`)
	}
	for i, mj := range in.Moves {
		m, err := mj.move()
		if err != nil {
			return fmt.Errorf("move %d: %w", i+1, err)
		}
		rec.Moves = append(rec.Moves, m)
	}
	for i, mj := range in.Setup {
		m, err := mj.move()
		if err != nil {
			return fmt.Errorf("setup stone %d: %w", i+1, err)
		}
		rec.Setup = append(rec.Setup, m)
	}
	if in.SetupToMove != "" {
		var err error
		if rec.SetupToMove, err = parseColor(in.SetupToMove); err != nil {
			return fmt.Errorf("setup_to_move: %w", err)
		}
	}
	if err := checkEnd(rec.End); err != nil {
		return err
	}
	if (v == DecisionFormat) != (rec.Decision != nil) || (rec.End == Decided) != (rec.Decision != nil) {
		return fmt.Errorf(`format %d with end %q: a "decision" line (format %d) carries a decision, and no other line does`, v, rec.End, DecisionFormat)
	}
	*r = rec
	r.emptyListsNil()
	return nil
}

// wire is m in its JSON form.
func (m Move) wire() (moveJSON, error) {
	if m.Color != rules.Black && m.Color != rules.White {
		return moveJSON{}, fmt.Errorf("color %v", m.Color)
	}
	mj := moveJSON{Color: m.Color.String(), ThinkMS: m.Think.Milliseconds(), LeftMS: m.Left.Milliseconds(), plainMove: plainMove(m)}
	if m.Raw == "" {
		mj.Point = &[2]int{m.Point.X, m.Point.Y}
	}
	for _, p := range m.Captured {
		mj.Captured = append(mj.Captured, [2]int{p.X, p.Y})
	}
	return mj, nil
}

// move reads a move's JSON form.
func (mj moveJSON) move() (Move, error) {
	m := Move(mj.plainMove)
	var err error
	if m.Color, err = parseColor(mj.Color); err != nil {
		return Move{}, err
	}
	switch {
	case mj.Point == nil && m.Raw == "":
		return Move{}, errors.New(`no "point" and no "raw" line`)
	case mj.Point != nil && m.Raw != "":
		return Move{}, errors.New(`both a "point" and a "raw" line`)
	case mj.Point != nil:
		m.Point = rules.Point{X: mj.Point[0], Y: mj.Point[1]}
	}
	if mj.ThinkMS < 0 {
		return Move{}, fmt.Errorf("negative think_ms %d", mj.ThinkMS)
	}
	m.Think, m.Left = msDuration(mj.ThinkMS), msDuration(mj.LeftMS)
	for _, p := range mj.Captured {
		m.Captured = append(m.Captured, rules.Point{X: p[0], Y: p[1]})
	}
	return m, nil
}

// MarshalJSON writes a move in its declared form (as in a record), so that
// a move marshalled on its own is never Go's encoding of the struct.
func (m Move) MarshalJSON() ([]byte, error) {
	mj, err := m.wire()
	if err != nil {
		return nil, err
	}
	return marshal(mj)
}

// UnmarshalJSON reads a move in its declared form, strictly.
func (m *Move) UnmarshalJSON(b []byte) error {
	var mj moveJSON
	if err := strict(b, &mj); err != nil {
		return err
	}
	v, err := mj.move()
	if err != nil {
		return err
	}
	if len(v.Captured) == 0 {
		v.Captured = nil
	}
	*m = v
	return nil
}

// emptyListsNil makes an empty list read the same as an absent one (the
// writer omits empty lists).
func (r *Record) emptyListsNil() {
	if len(r.Messages) == 0 {
		r.Messages = nil
	}
	if len(r.Stderr) == 0 {
		r.Stderr = nil
	}
	for i := range r.Moves {
		if len(r.Moves[i].Captured) == 0 {
			r.Moves[i].Captured = nil
		}
	}
}

// strict decodes b into v, refusing unknown fields and trailing data.
func strict(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return err
	}
	if d.More() {
		return errors.New("more than one JSON value")
	}
	return nil
}

func parseColor(s string) (rules.Color, error) {
	switch s {
	case "black":
		return rules.Black, nil
	case "white":
		return rules.White, nil
	}
	return rules.Empty, fmt.Errorf("color %q: want \"black\" or \"white\"", s)
}

func checkEnd(t Termination) error {
	if !slices.Contains(terminations, t) {
		return fmt.Errorf("end %q is not a termination this arena knows", t)
	}
	return nil
}

// Format 1: the unversioned records written before formats were declared,
// Go's encoding of the struct as it then was. Frozen; read only.
type (
	recordV1 struct {
		Event         string
		Round, Game   int
		Rule          string
		Size          int
		Black, White  string
		BlackAbout    string
		WhiteAbout    string
		Moves         []moveV1
		Winner        rules.Color
		End           Termination
		Detail        string
		Start, Finish time.Time
		Messages      []string
	}
	moveV1 struct {
		Point       rules.Point
		Color       rules.Color
		Think, Left time.Duration // nanoseconds
		Opening     bool
		Raw         string
		Captured    []rules.Point
	}
)

func (r *Record) unmarshalV1(b []byte) error {
	var in recordV1
	if err := strict(b, &in); err != nil {
		return err
	}
	if in.Winner > rules.White {
		return fmt.Errorf("field Winner %d: want 0 (none), 1 (black) or 2 (white)", in.Winner)
	}
	rec := Record{
		Event: in.Event, Round: in.Round, Game: in.Game, Rule: in.Rule, Size: in.Size, Black: in.Black, White: in.White,
		BlackAbout: in.BlackAbout, WhiteAbout: in.WhiteAbout, Winner: in.Winner, End: in.End, Detail: in.Detail,
		Start: in.Start, Finish: in.Finish, Messages: in.Messages,
	}
	for i, m := range in.Moves {
		if m.Color != rules.Black && m.Color != rules.White {
			return fmt.Errorf("move %d: Color %d: want 1 (black) or 2 (white)", i+1, m.Color)
		}
		if m.Think < 0 {
			return fmt.Errorf("move %d: negative Think %d ns", i+1, m.Think)
		}
		rec.Moves = append(rec.Moves, Move{Point: m.Point, Color: m.Color, Think: m.Think, Left: m.Left,
			Opening: m.Opening, Raw: m.Raw, Captured: m.Captured})
	}
	if err := checkEnd(rec.End); err != nil {
		return err
	}
	if rec.End == Decided {
		return errors.New("a format 1 line carries no decision")
	}
	*r = rec
	r.emptyListsNil()
	return nil
}
