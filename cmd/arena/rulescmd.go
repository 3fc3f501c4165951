package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

func runRules(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("rules", "[flags] POSITION",
		"Shows what a position means under a rule: the board, whose move it is, the result if the game\n"+
			"is over, and under renju Black's forbidden points with their kinds. POSITION is a sequence of\n"+
			"points in the -notation (pos: h8i8i11, columns a.. from the left, rows from the top; renju:\n"+
			"H8 I8 I11, columns A.. with I, row 1 at the bottom; go: the same without I) or an .sgf or\n"+
			".psq record, whose rule and size are used unless given. Every point is printed in the same\n"+
			"notation, so whatever is printed can be typed back; -json gives each point in every notation.\n"+
			"A record is replayed to its result: refused stones are shown with their reasons, and a\n"+
			"result its moves contradict is an error (exit 1) after the position is shown.", stdout)
	ruleName := fs.String("rule", "", "rule (default: the record's, or outer-open): "+strings.Join(rules.Names(), ", "))
	size := fs.Int("size", 0, "board size (default: the record's, or the rule's)")
	asJSON := fs.Bool("json", false, "print JSON for tools")
	notationName := fs.String("notation", "pos", "notation of the points read and printed: pos, renju or go (Outer-Open's own lettering)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%w: want one POSITION, got %d arguments", errUsage, fs.NArg())
	}
	notation, err := rules.ParseNotation(*notationName)
	if err != nil || notation != rules.Pos && notation != rules.Renju && notation != rules.GoLetters {
		return fmt.Errorf("%w: -notation %q: want pos, renju or go", errUsage, *notationName)
	}
	arg := fs.Arg(0)
	var rec *record.Record
	switch ext := strings.ToLower(filepath.Ext(arg)); ext {
	case ".sgf", ".psq":
		f, err := os.Open(arg)
		if err != nil {
			return err
		}
		defer f.Close()
		read := record.ReadSGF
		if ext == ".psq" {
			read = record.ReadPSQ
		}
		if rec, err = read(f, arg); err != nil {
			return err
		}
		if *size != 0 && *size != rec.Size {
			return fmt.Errorf("%w: -size %d, but %s is a %dx%d record", errUsage, *size, arg, rec.Size, rec.Size)
		}
		if *ruleName == "" {
			if rec.Rule == "" {
				// A .psq (and an SGF without RU) carries no rule: judging it
				// under a guessed one would report wins and fouls that are not.
				return fmt.Errorf("%w: %s names no rule: say which with -rule (%s)", errUsage, arg, strings.Join(rules.Names(), ", "))
			}
			if _, err := rules.ByName(rec.Rule); err != nil {
				return fmt.Errorf("%s: the record's rule %q is not one the arena knows: say which with -rule (%s)", arg, rec.Rule, strings.Join(rules.Names(), ", "))
			}
			*ruleName = rec.Rule
		}
	default:
		if *ruleName == "" {
			*ruleName = "outer-open"
		}
		r, err := rules.ByName(*ruleName)
		if err != nil {
			return fmt.Errorf("%w: -rule: %v", errUsage, err)
		}
		if *size == 0 {
			*size = r.DefaultSize()
		}
		stones, err := rules.ParsePoints(arg, *size, notation)
		if err != nil {
			return fmt.Errorf("position %q: %w", arg, err)
		}
		rec = &record.Record{Size: *size}
		for i, p := range stones {
			rec.Moves = append(rec.Moves, record.Move{Point: p, Color: []rules.Color{rules.Black, rules.White}[i%2]})
		}
		arg = "position"
	}
	if *ruleName == "" {
		*ruleName = "outer-open"
	}
	rule, err := rules.ByName(*ruleName)
	if err != nil {
		return fmt.Errorf("%w: -rule: %v", errUsage, err)
	}
	if err := rules.CheckSize(rule, rec.Size); err != nil {
		return fmt.Errorf("%s: %w", arg, err)
	}
	rec.Rule = rule.Name()
	rp, mismatch := record.Verify(rec, rule)
	if rp == nil {
		var re *record.ReplayError
		if errors.As(mismatch, &re) {
			return fmt.Errorf("%s: move %d (%s %s): %s", arg, re.Index+1, re.Move.Color, pointName(re.Move, rec.Size, notation), re.Problem)
		}
		return fmt.Errorf("%s: %w", arg, mismatch)
	}
	a := analyse(rule, rec, rp, notation)
	if *asJSON {
		if mismatch != nil {
			a.Disagreement = mismatch.Error()
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(a); err != nil {
			return err
		}
	} else {
		a.print(stdout)
	}
	if mismatch != nil {
		return fmt.Errorf("%s: THE RECORD DISAGREES WITH ITS MOVES: %w", arg, mismatch)
	}
	return nil
}

// analysis is what `arena rules` says about a position.
type analysis struct {
	Rule   string `json:"rule"`
	Size   int    `json:"size"`
	Stones int    `json:"stones"` // stones on the board
	ToMove string `json:"to_move,omitempty"`
	Over   bool   `json:"over"`
	// Winner and Reason are what the stones say: the rule's verdict on them.
	Winner   string `json:"winner,omitempty"`
	Reason   string `json:"reason,omitempty"`
	LastMove *point `json:"last_move,omitempty"`
	// Recorded is the result a record states, when it states one.
	Recorded     string `json:"recorded,omitempty"`
	Detail       string `json:"detail,omitempty"`
	Disagreement string `json:"disagreement,omitempty"`
	// Refused are the stones the game received and did not play.
	Refused   []refused   `json:"refused,omitempty"`
	Captures  [2]int      `json:"captures"` // by Black, by White
	Forbidden []forbidden `json:"forbidden,omitempty"`
	Notation  string      `json:"notation"`
	Board     []string    `json:"board"` // rows from the top: X black, O white, . empty
	pos       *rules.Position
	notation  rules.Notation
	marks     map[rules.Point]byte
}

// point is one point in every notation the command reads or prints, and as
// internal x,y (0-based, x from the left, y from the top).
type point struct {
	Pos   string `json:"pos"`
	Renju string `json:"renju"`
	Go    string `json:"go"`
	X     int    `json:"x"`
	Y     int    `json:"y"`
}

func newPoint(p rules.Point, size int) *point {
	return &point{rules.Pos.Format(p, size), rules.Renju.Format(p, size), rules.GoLetters.Format(p, size), p.X, p.Y}
}

type forbidden struct {
	Point *point `json:"point"`
	Kind  string `json:"kind"`
}

type refused struct {
	Color  string `json:"color"` // the side that sent it
	Point  *point `json:"point,omitempty"`
	Line   string `json:"line,omitempty"` // the engine's line, when it was not a point
	Reason string `json:"reason"`
}

// pointName writes a move's point in notation n, the raw line when it had
// none, and a point off the board as its protocol x,y in parentheses (which
// no notation reads as a point).
func pointName(m record.Move, size int, n rules.Notation) string {
	if m.Raw != "" {
		return fmt.Sprintf("%q", m.Raw)
	}
	return n.Format(m.Point, size)
}

func analyse(rule rules.Rule, rec *record.Record, rp *record.Replayed, n rules.Notation) *analysis {
	size := rec.Size
	p := rp.Position
	a := &analysis{Rule: rule.Name(), Size: size, Stones: p.Board.Stones(rules.Black) + p.Board.Stones(rules.White), pos: p, notation: n, Notation: n.String(),
		marks: map[rules.Point]byte{}}
	if rec.End != "" || rec.Winner != rules.Empty {
		a.Recorded = resultWords(rec.Winner, string(rec.End))
		a.Detail = rec.Detail
	}
	for i := max(rp.Refused, 0); rp.Refused >= 0 && i < len(rec.Moves); i++ {
		m := rec.Moves[i]
		r := refused{Color: m.Color.String(), Reason: m.Refused}
		if r.Reason == "" {
			r.Reason = string(rp.Reason) // a final stone the rule refuses, kept as a move
		}
		switch {
		case m.Raw != "":
			r.Line = m.Raw
		case p.Board.In(m.Point):
			r.Point = newPoint(m.Point, size)
		default:
			r.Line = rules.Protocol.Format(m.Point, size)
		}
		a.Refused = append(a.Refused, r)
	}
	if rp.Over {
		a.Over, a.Reason = true, string(rp.Reason)
		a.Winner = "draw"
		if rp.Winner != rules.Empty {
			a.Winner = rp.Winner.String()
		}
		if m := rec.Moves[rp.At]; m.Raw == "" && p.Board.In(m.Point) {
			a.LastMove = newPoint(m.Point, size)
		}
	} else if rec.End == "" || rec.End == record.MoveCap {
		a.ToMove = p.ToMove().String()
	}
	if !a.Over && rule.Name() == "renju" {
		for _, f := range rules.ForbiddenPoints(p) {
			a.Forbidden = append(a.Forbidden, forbidden{newPoint(f.Point, size), string(f.Reason)})
			a.marks[f.Point] = map[rules.Reason]byte{rules.Forbidden33: '3', rules.Forbidden44: '4', rules.ForbiddenOverline: '6'}[f.Reason]
		}
	}
	a.Captures = [2]int{p.Captures[rules.Black], p.Captures[rules.White]}
	for y := 0; y < size; y++ {
		var row strings.Builder
		for x := 0; x < size; x++ {
			row.WriteByte(".XO"[p.Board.At(rules.Point{X: x, Y: y})])
		}
		a.Board = append(a.Board, row.String())
	}
	return a
}

func resultWords(w rules.Color, end string) string {
	s := "draw"
	if w != rules.Empty {
		s = w.String()
	}
	if end != "" {
		s += " (" + end + ")"
	}
	return s
}

// labels are a notation's column letters and row numbers, index by x and y.
func labels(n rules.Notation, size int) (cols, rows []string) {
	for i := 0; i < size; i++ {
		c := n.Format(rules.Point{X: i, Y: size - 1}, size)
		r := n.Format(rules.Point{X: 0, Y: i}, size)
		cols = append(cols, strings.TrimRight(c, "0123456789"))
		rows = append(rows, strings.TrimLeft(r, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"))
	}
	return cols, rows
}

func (a *analysis) print(w io.Writer) {
	n := a.notation
	// Outer-Open's rule text letters its zone without I (A..H, J..P): show
	// that lettering too, at the bottom and on the right.
	second := n
	if a.Rule == "outer-open" && n != rules.GoLetters {
		second = rules.GoLetters
	}
	cols, rows := labels(n, a.Size)
	cols2, rows2 := labels(second, a.Size)
	header := func(cols []string) string {
		s := "   "
		for _, c := range cols {
			s += fmt.Sprintf("%2s", c)
		}
		return s
	}
	fmt.Fprintln(w, header(cols))
	for y, row := range a.Board {
		fmt.Fprintf(w, "%3s", rows[y])
		for x := range row {
			c := row[x]
			if m, ok := a.marks[rules.Point{X: x, Y: y}]; ok {
				c = m
			}
			fmt.Fprintf(w, " %c", c)
		}
		fmt.Fprintf(w, " %s\n", rows2[y])
	}
	fmt.Fprintln(w, header(cols2))
	fmt.Fprintf(w, "\nrule %s, %dx%d, %d stones on the board; points in %s\n", a.Rule, a.Size, a.Size, a.Stones, notationWords(n))
	if second != n {
		fmt.Fprintf(w, "bottom and right: %s, the lettering of the Outer-Open rule's zone (rows 1, 2, 14, 15, columns A, B, O, P); -notation go reads it\n", notationWords(second))
	}
	if a.Captures != [2]int{} {
		fmt.Fprintf(w, "captured: by black %d, by white %d\n", a.Captures[0], a.Captures[1])
	}
	for _, r := range a.Refused {
		what := r.Line
		if r.Point != nil {
			what = a.name(r.Point)
		}
		fmt.Fprintf(w, "refused %s stone %s: %s\n", r.Color, what, r.Reason)
	}
	if a.Over {
		last := ""
		if a.LastMove != nil {
			last = " after " + a.name(a.LastMove)
		}
		fmt.Fprintf(w, "game over%s: %s (%s)\n", last, a.Winner, a.Reason)
	}
	if a.Recorded != "" {
		d := ""
		if a.Detail != "" {
			d = ": " + a.Detail
		}
		fmt.Fprintf(w, "the record says: %s%s\n", a.Recorded, d)
	}
	if a.ToMove != "" {
		fmt.Fprintf(w, "%s to move\n", a.ToMove)
	}
	if len(a.Forbidden) > 0 {
		fmt.Fprintf(w, "forbidden for black (3 = 3-3, 4 = 4-4, 6 = overline):")
		for _, f := range a.Forbidden {
			fmt.Fprintf(w, " %s %s;", a.name(f.Point), f.Kind)
		}
		fmt.Fprintln(w)
	}
}

// name writes p in the notation the position was read in.
func (a *analysis) name(p *point) string {
	return a.notation.Format(rules.Point{X: p.X, Y: p.Y}, a.Size)
}

func notationWords(n rules.Notation) string {
	switch n {
	case rules.Pos:
		return "pos notation (columns a.. from the left, row 1 at the top)"
	case rules.Renju:
		return "renju notation (columns A.. including I, row 1 at the bottom)"
	}
	return "go lettering (columns A.. without I, row 1 at the bottom)"
}
