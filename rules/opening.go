package rules

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Opening is one line of an opening list: stones placed alternately Black,
// White, ... before the engines play. The parity of len(Stones) says who moves
// next.
type Opening struct {
	Stones []Point
	Line   int    // 1-based line in the list it came from (0 for built-in openings)
	Text   string // the line as written, kept for messages; not rewritten by Transformed
}

// Opening list formats (RULES.md, "Opening lists").
const (
	OffsetFormat = "offset" // "0,0, 1,0, 1,3": x,y offsets from the centre size/2, y downward
	PosFormat    = "pos"    // "h8i8i11": pos notation, rows from the top
)

// maxLineBytes bounds one line of an opening list; a real line is a few dozen
// bytes, and a runaway file should fail rather than eat memory.
const maxLineBytes = 64 << 10

// CheckOpeningFormat refuses an opening list format ReadOpenings does not
// read: the command lines check theirs with it before any list is read,
// naming their flag or token.
func CheckOpeningFormat(format string) error {
	switch format {
	case OffsetFormat, PosFormat, "":
		return nil
	}
	return fmt.Errorf("unknown opening format %q (want %q, %q or empty to detect)", format, OffsetFormat, PosFormat)
}

// ReadOpenings reads an opening list. format is OffsetFormat, PosFormat, or ""
// to detect it line by line (a line starting with a letter is pos, anything
// else offsets). Blank lines and lines starting with '#' are skipped, as is
// anything after a '#'. Every stone must lie on a board of the given size and
// no point may be used twice; the rule-dependent checks are in Validate.
//
// Offset lines are numbers separated by commas, spaces around them tolerated,
// a trailing comma too (Piskvork's own reader allows it). Errors name the file
// and line: `book.txt:12: stone 3 "1,x": y: "x" is not a number`.
func ReadOpenings(r io.Reader, name string, format string, size int) ([]Opening, error) {
	if err := CheckOpeningFormat(format); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if err := CheckSize(nil, size); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLineBytes)
	var list []Opening
	for line := 1; sc.Scan(); line++ {
		raw := sc.Text()
		if line == 1 {
			raw = strings.TrimPrefix(raw, "\uFEFF") // a BOM from Windows editors
		}
		text, _, _ := strings.Cut(raw, "#")
		text = strings.TrimSpace(text)
		if text == "" {
			continue
		}
		f := format
		if f == "" {
			f = OffsetFormat
			if isLetter(text[0]) {
				f = PosFormat
			}
		}
		var (
			stones []Point
			err    error
		)
		if f == PosFormat {
			stones, err = ParsePosString(text, size)
		} else {
			stones, err = parseOffsets(text, size)
		}
		if err == nil {
			err = checkStones(stones, size)
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		list = append(list, Opening{Stones: stones, Line: line, Text: strings.TrimSpace(raw)})
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s:%d: line longer than %d bytes", name, len(list)+1, maxLineBytes)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return list, nil
}

// parseOffsets reads "dx,dy, dx,dy, ..." into points around the centre.
func parseOffsets(s string, size int) ([]Point, error) {
	fields := strings.Split(s, ",")
	if strings.TrimSpace(fields[len(fields)-1]) == "" && len(fields) > 1 {
		fields = fields[:len(fields)-1] // one trailing comma
	}
	c := size / 2
	stones := make([]Point, 0, len(fields)/2)
	for i := 0; i < len(fields); i += 2 {
		if i+1 == len(fields) {
			if _, err := parseInt(strings.TrimSpace(fields[i])); err != nil {
				return nil, fmt.Errorf("stone %d %q: %w", i/2+1, strings.TrimSpace(fields[i]), err)
			}
			return nil, fmt.Errorf("%d numbers: offsets come in x,y pairs", len(fields))
		}
		pair := strings.TrimSpace(fields[i]) + "," + strings.TrimSpace(fields[i+1])
		p, err := parsePair(pair)
		if err != nil {
			return nil, fmt.Errorf("stone %d %q: %w", i/2+1, pair, err)
		}
		q := Point{c + p.X, c + p.Y}
		if q.X < 0 || q.Y < 0 || q.X >= size || q.Y >= size {
			return nil, fmt.Errorf("stone %d %q: offset from the centre %d,%d lands off the %dx%d board", i/2+1, pair, c, c, size, size)
		}
		stones = append(stones, q)
	}
	return stones, nil
}

// checkStones rejects stones off the board and points used twice.
func checkStones(stones []Point, size int) error {
	if len(stones) == 0 {
		return fmt.Errorf("no stones")
	}
	first := map[Point]int{}
	for i, p := range stones {
		if p.X < 0 || p.Y < 0 || p.X >= size || p.Y >= size {
			return fmt.Errorf("stone %d (%s) off the %dx%d board", i+1, Protocol.Format(p, size), size, size)
		}
		if j, dup := first[p]; dup {
			return fmt.Errorf("stone %d (%s) on the same point as stone %d", i+1, Pos.Format(p, size), j+1)
		}
		first[p] = i
	}
	return nil
}

// Validate checks that the opening can be played under rule on a board of the
// given size: every stone on the board and on an empty point, an outer-open
// first stone inside the zone, no renju forbidden move, and no stone that ends
// the game (an opening must leave a game to play). The stones are played
// through Setup, so the rule decides exactly as it would in a game.
func (o Opening) Validate(rule Rule, size int) error {
	where := "opening"
	if o.Line > 0 {
		where = fmt.Sprintf("opening at line %d", o.Line)
	}
	if size < MinSize || size > MaxSize {
		return fmt.Errorf("%s: board size %d out of range %d..%d", where, size, MinSize, MaxSize)
	}
	if err := checkStones(o.Stones, size); err != nil {
		return fmt.Errorf("%s: %w", where, err)
	}
	if _, err := Setup(rule, size, o.Stones); err != nil {
		var se *SetupError
		if errors.As(err, &se) {
			why := string(se.Reason)
			switch se.Reason {
			case Five, CaptureWin:
				why = "the game is already won (" + why + ")"
			case FullBoard:
				why = "the board is already full"
			}
			return fmt.Errorf("%s: stone %d (%s) under %s: %s", where, se.Index+1, Pos.Format(se.Move, size), rule.Name(), why)
		}
		return fmt.Errorf("%s: under %s: %w", where, rule.Name(), err)
	}
	return nil
}

// Transformed returns the opening mapped by symmetry k (0..7, see Transform)
// on a board of the given size. Line and Text still name the source line.
func (o Opening) Transformed(size, k int) Opening {
	t := Opening{Stones: make([]Point, len(o.Stones)), Line: o.Line, Text: o.Text}
	for i, p := range o.Stones {
		t.Stones[i] = Transform(p, size, k)
	}
	return t
}

// Offsets writes the opening as an "offset" line, the inverse of reading one.
func (o Opening) Offsets(size int) string {
	c := size / 2
	parts := make([]string, len(o.Stones))
	for i, p := range o.Stones {
		parts[i] = fmt.Sprintf("%d,%d", p.X-c, p.Y-c)
	}
	return strings.Join(parts, ", ")
}

// OuterOpenFirstMoves lists every point of the Outer-Open zone (the two
// outermost rows and columns, InOuterZone) of a board of the given size, row by
// row from the top left: 104 points on 15x15. The arbiter's "arbiter-opens"
// policy places Black's first stone from it. Every legal first move is listed
// once, so an event that walks the list (or draws from it uniformly) favours
// no region of the zone; points equivalent by symmetry are kept because they
// are different games for engines that are not symmetric themselves. For one
// point per symmetry class, use OuterOpenDistinctFirstMoves.
func OuterOpenFirstMoves(size int) []Point {
	var pts []Point
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			if p := (Point{x, y}); InOuterZone(size, p) {
				pts = append(pts, p)
			}
		}
	}
	return pts
}

// OuterOpenDistinctFirstMoves is the curated, balanced subset of
// OuterOpenFirstMoves: one point for each class of zone points that the eight
// board symmetries map onto each other (the class's first point in row order),
// so no first move is played twice in disguise. 15x15 has 15 classes (a1..h1
// and b2..h2 in pos notation): every distinct first move, in row order.
func OuterOpenDistinctFirstMoves(size int) []Point {
	seen := map[Point]bool{}
	var pts []Point
	for _, p := range OuterOpenFirstMoves(size) {
		if seen[p] {
			continue
		}
		pts = append(pts, p)
		for k := 0; k < Symmetries; k++ {
			seen[Transform(p, size, k)] = true
		}
	}
	sort.Slice(pts, func(i, j int) bool {
		if pts[i].Y != pts[j].Y {
			return pts[i].Y < pts[j].Y
		}
		return pts[i].X < pts[j].X
	})
	return pts
}
