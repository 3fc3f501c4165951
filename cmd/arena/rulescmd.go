package main

import (
	"encoding/json"
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
			"is over, and under renju Black's forbidden points with their kinds. POSITION is a pos string\n"+
			"(h8i8i11: a=0 from the left, rows from the top) or an .sgf or .psq file, whose rule and size\n"+
			"are used unless given.", stdout)
	ruleName := fs.String("rule", "", "rule (default: the record's, or outer-open): "+strings.Join(rules.Names(), ", "))
	size := fs.Int("size", 0, "board size (default: the record's, or the rule's)")
	asJSON := fs.Bool("json", false, "print JSON for tools")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%w: want one POSITION, got %d arguments", errUsage, fs.NArg())
	}
	arg := fs.Arg(0)
	var stones []rules.Point
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
		rec, err := read(f, arg)
		if err != nil {
			return err
		}
		if *ruleName == "" {
			*ruleName = rec.Rule
		}
		if *size == 0 {
			*size = rec.Size
		}
		for _, m := range rec.Moves {
			if m.Raw != "" {
				break // a malformed last move has no point
			}
			stones = append(stones, m.Point)
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
		if stones, err = rules.ParsePosString(arg, *size); err != nil {
			return fmt.Errorf("position %q: %w", arg, err)
		}
	}
	if *ruleName == "" {
		*ruleName = "outer-open"
	}
	rule, err := rules.ByName(*ruleName)
	if err != nil {
		return fmt.Errorf("%w: -rule: %v", errUsage, err)
	}
	if *size == 0 {
		*size = rule.DefaultSize()
	}
	a, err := analyse(rule, *size, stones)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(a)
	}
	a.print(stdout)
	return nil
}

// analysis is what `arena rules` says about a position.
type analysis struct {
	Rule      string      `json:"rule"`
	Size      int         `json:"size"`
	Stones    int         `json:"stones"`
	ToMove    string      `json:"to_move,omitempty"`
	Over      bool        `json:"over"`
	Winner    string      `json:"winner,omitempty"`
	Reason    string      `json:"reason,omitempty"`
	LastMove  string      `json:"last_move,omitempty"`
	Captures  [2]int      `json:"captures"` // by Black, by White
	Forbidden []forbidden `json:"forbidden,omitempty"`
	Board     []string    `json:"board"` // rows from the top: X black, O white, . empty
	pos       *rules.Position
	notation  rules.Notation
}

type forbidden struct {
	Point string `json:"point"` // renju letters, row 1 at the bottom
	Kind  string `json:"kind"`
}

// analyse replays the stones. Only the last stone may end the game; an
// illegal stone before it makes the position invalid.
func analyse(rule rules.Rule, size int, stones []rules.Point) (*analysis, error) {
	p, err := rules.NewPosition(size)
	if err != nil {
		return nil, err
	}
	a := &analysis{Rule: rule.Name(), Size: size, Stones: len(stones), pos: p, notation: rules.Renju}
	for i, m := range stones {
		mover := p.ToMove()
		v := rule.Play(p, m)
		if v.Reason == rules.Occupied || v.Reason == rules.OffBoard {
			return nil, fmt.Errorf("invalid position: stone %d (%s): %s", i+1, rules.Renju.Format(m, size), v.Reason)
		}
		if !v.Over {
			continue
		}
		if i != len(stones)-1 {
			return nil, fmt.Errorf("stone %d (%s, %s) ends the game (%s), but %d more follow",
				i+1, rules.Renju.Format(m, size), mover, v.Reason, len(stones)-1-i)
		}
		a.Over, a.Reason, a.LastMove = true, string(v.Reason), rules.Renju.Format(m, size)
		a.Winner = "draw"
		if v.Winner != rules.Empty {
			a.Winner = v.Winner.String()
		}
	}
	if !a.Over {
		a.ToMove = p.ToMove().String()
		if rule.Name() == "renju" {
			for _, f := range rules.ForbiddenPoints(p) {
				a.Forbidden = append(a.Forbidden, forbidden{rules.Renju.Format(f.Point, size), string(f.Reason)})
			}
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
	return a, nil
}

func (a *analysis) print(w io.Writer) {
	marks := map[string]byte{}
	for _, f := range a.Forbidden {
		marks[f.Point] = map[string]byte{string(rules.Forbidden33): '3', string(rules.Forbidden44): '4', string(rules.ForbiddenOverline): '6'}[f.Kind]
	}
	letters := "   "
	for x := 0; x < a.Size; x++ {
		letters += " " + string(rune('A'+x))
	}
	fmt.Fprintln(w, letters)
	for y, row := range a.Board {
		fmt.Fprintf(w, "%3d", a.Size-y)
		for x := range row {
			c := row[x]
			if m, ok := marks[rules.Renju.Format(rules.Point{X: x, Y: y}, a.Size)]; ok {
				c = m
			}
			fmt.Fprintf(w, " %c", c)
		}
		fmt.Fprintf(w, " %d\n", a.Size-y)
	}
	fmt.Fprintln(w, letters)
	fmt.Fprintf(w, "\nrule %s, %dx%d, %d stones; columns A.. include I, row 1 at the bottom\n", a.Rule, a.Size, a.Size, a.Stones)
	if a.Captures != [2]int{} {
		fmt.Fprintf(w, "captured: by black %d, by white %d\n", a.Captures[0], a.Captures[1])
	}
	if a.Over {
		fmt.Fprintf(w, "game over after %s: %s (%s)\n", a.LastMove, a.Winner, a.Reason)
		return
	}
	fmt.Fprintf(w, "%s to move\n", a.ToMove)
	if len(a.Forbidden) > 0 {
		fmt.Fprintf(w, "forbidden for black (3 = 3-3, 4 = 4-4, 6 = overline):")
		for _, f := range a.Forbidden {
			fmt.Fprintf(w, " %s %s;", f.Point, f.Kind)
		}
		fmt.Fprintln(w)
	}
}
