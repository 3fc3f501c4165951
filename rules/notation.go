package rules

import (
	"fmt"
	"strings"
)

// Notation is one of the written forms of a point listed in RULES.md. Points
// are kept internally in one form (Point) and converted only at the edges.
//
// The zero value means "not said": ParseHuman then detects the letter scheme.
type Notation int

const (
	Protocol  Notation = iota + 1 // "7,7": 0-based x,y from the top left, as engines speak
	PSQ                           // "8,8": 1-based, same orientation (Piskvork records)
	Pos                           // "h8": letter a=0 contiguous (with i), number y+1 from the top
	Renju                         // "H8": letters A.. including I, row 1 at the bottom
	GoLetters                     // "H8": letters skip I (A..H, J..), row 1 at the bottom (GTP)
	SGF                           // "hh": x then y, a=0, top-left origin
)

var notationNames = map[Notation]string{
	Protocol: "protocol", PSQ: "psq", Pos: "pos", Renju: "renju", GoLetters: "go", SGF: "sgf",
}

func (n Notation) String() string {
	if s, ok := notationNames[n]; ok {
		return s
	}
	return fmt.Sprintf("notation(%d)", int(n))
}

// goLetters are the column letters of the Go/GTP scheme: I is skipped.
const goLetters = "ABCDEFGHJKLMNOPQRSTUVWXYZ"

// Format writes p in notation n for a board of the given size.
//
// A point off the board has no letter form (and SGF's letters would silently
// name another point), so the letter notations write it as its protocol form in
// parentheses, e.g. "(15,3)": readable in a log, and never parsed as a point.
//
// GTP letters stop at Z after 25 columns; on a 26x26 board the last column is
// written "AA" (two letters, the first always A), which no 25-letter board uses.
func (n Notation) Format(p Point, size int) string {
	on := p.X >= 0 && p.Y >= 0 && p.X < size && p.Y < size
	switch n {
	case Protocol:
		return fmt.Sprintf("%d,%d", p.X, p.Y)
	case PSQ:
		return fmt.Sprintf("%d,%d", p.X+1, p.Y+1)
	}
	if !on || size > MaxSize {
		return fmt.Sprintf("(%d,%d)", p.X, p.Y)
	}
	switch n {
	case Pos:
		return fmt.Sprintf("%c%d", 'a'+p.X, p.Y+1)
	case Renju:
		return fmt.Sprintf("%c%d", 'A'+p.X, size-p.Y)
	case GoLetters:
		return fmt.Sprintf("%s%d", goColumn(p.X), size-p.Y)
	case SGF:
		return string([]byte{byte('a' + p.X), byte('a' + p.Y)})
	}
	return fmt.Sprintf("(%d,%d)", p.X, p.Y)
}

func goColumn(x int) string {
	if x < len(goLetters) {
		return goLetters[x : x+1]
	}
	return "A" + goLetters[x-len(goLetters):x-len(goLetters)+1]
}

// Parse reads s, written in notation n, as a point of a board of the given
// size. Surrounding spaces are ignored; anything else that is not exactly the
// notation is an error, and so is a point off the board (it is never wrapped
// onto another point). Letter case is part of the notation: pos and SGF are
// lower case, renju and GTP upper case (ParseHuman is the lenient one).
func (n Notation) Parse(s string, size int) (Point, error) {
	if size < MinSize || size > MaxSize {
		return Point{}, fmt.Errorf("%s %q: board size %d out of range %d..%d", n, s, size, MinSize, MaxSize)
	}
	t := strings.TrimSpace(s)
	var (
		p   Point
		err error
	)
	switch n {
	case Protocol, PSQ:
		p, err = parsePair(t)
		if err == nil && n == PSQ {
			if p.X == 0 || p.Y == 0 {
				err = fmt.Errorf("psq coordinates are 1-based; 0 is not a column or row")
			}
			p.X--
			p.Y--
		}
	case Pos:
		p, err = parseLetterRow(t, size, n)
	case Renju, GoLetters:
		p, err = parseLetterRow(t, size, n)
	case SGF:
		p, err = parseSGF(t)
	default:
		return Point{}, fmt.Errorf("unknown notation %d", int(n))
	}
	if err == nil && (p.X < 0 || p.Y < 0 || p.X >= size || p.Y >= size) {
		err = fmt.Errorf("off the %dx%d board", size, size)
	}
	if err != nil {
		return Point{}, fmt.Errorf("%s %q: %w", n, s, err)
	}
	return p, nil
}

// parsePair reads "x,y" with optional spaces around each number. Negative
// numbers are read (so the caller can say "off the board" rather than
// "malformed").
func parsePair(s string) (Point, error) {
	a, b, ok := strings.Cut(s, ",")
	if !ok {
		return Point{}, fmt.Errorf("want two numbers x,y")
	}
	x, err := parseInt(strings.TrimSpace(a))
	if err != nil {
		return Point{}, fmt.Errorf("x: %w", err)
	}
	y, err := parseInt(strings.TrimSpace(b))
	if err != nil {
		return Point{}, fmt.Errorf("y: %w", err)
	}
	return Point{x, y}, nil
}

// maxDigits bounds every number we read: no coordinate or offset of a board
// up to MaxSize needs more, and it keeps arithmetic far from overflow.
const maxDigits = 6

// parseInt reads an optionally negative decimal integer, nothing else (no
// '+', no spaces, no hex).
func parseInt(s string) (int, error) {
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	n, err := parseDigits(s)
	if neg {
		n = -n
	}
	return n, err
}

func parseDigits(s string) (int, error) {
	if s == "" {
		return 0, fmt.Errorf("missing number")
	}
	if len(s) > maxDigits {
		return 0, fmt.Errorf("number %q too long", s)
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("%q is not a number", s)
		}
		n = n*10 + int(c-'0')
	}
	return n, nil
}

// parseLetterRow reads the column letter(s) and row number of the pos, renju
// and GTP notations.
func parseLetterRow(s string, size int, n Notation) (Point, error) {
	i := 0
	for i < len(s) && isLetter(s[i]) {
		i++
	}
	letters, digits := s[:i], s[i:]
	if letters == "" {
		return Point{}, fmt.Errorf("want a column letter then a row number")
	}
	x, err := columnOf(letters, size, n)
	if err != nil {
		return Point{}, err
	}
	if digits == "" {
		return Point{}, fmt.Errorf("missing row number")
	}
	if digits[0] == '0' {
		return Point{}, fmt.Errorf("row %q: rows are numbered from 1, without leading zeros", digits)
	}
	row, err := parseDigits(digits)
	if err != nil {
		return Point{}, fmt.Errorf("row: %w", err)
	}
	if row > size {
		return Point{}, fmt.Errorf("row %d off the %dx%d board (1..%d)", row, size, size, size)
	}
	if n == Pos {
		return Point{x, row - 1}, nil
	}
	return Point{x, size - row}, nil
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isLower(c byte) bool  { return c >= 'a' && c <= 'z' }
func isUpper(c byte) bool  { return c >= 'A' && c <= 'Z' }

// columnOf maps the column letters of notation n to x, or says why not.
func columnOf(letters string, size int, n Notation) (int, error) {
	last := n.Format(Point{size - 1, 0}, size)
	last = strings.TrimRight(last, "0123456789")
	switch n {
	case Pos:
		if len(letters) != 1 || !isLower(letters[0]) {
			return 0, fmt.Errorf("column %q: pos columns are one lower-case letter a..%s", letters, last)
		}
		x := int(letters[0] - 'a')
		if x >= size {
			return 0, fmt.Errorf("column %q off the %dx%d board (a..%s)", letters, size, size, last)
		}
		return x, nil
	case Renju:
		if len(letters) != 1 || !isUpper(letters[0]) {
			return 0, fmt.Errorf("column %q: renju columns are one upper-case letter A..%s", letters, last)
		}
		x := int(letters[0] - 'A')
		if x >= size {
			return 0, fmt.Errorf("column %q off the %dx%d board (A..%s)", letters, size, size, last)
		}
		return x, nil
	}
	// GoLetters
	for i := 0; i < len(letters); i++ {
		if !isUpper(letters[i]) {
			return 0, fmt.Errorf("column %q: GTP columns are upper-case letters A..%s without I", letters, last)
		}
	}
	x := -1
	switch {
	case len(letters) == 1:
		x = strings.IndexByte(goLetters, letters[0])
	case len(letters) == 2 && letters[0] == 'A':
		if k := strings.IndexByte(goLetters, letters[1]); k >= 0 {
			x = len(goLetters) + k
		}
	}
	if x < 0 {
		if strings.Contains(letters, "I") {
			return 0, fmt.Errorf("column %q: GTP letters skip I (renju letters include it)", letters)
		}
		return 0, fmt.Errorf("column %q is not a GTP column (A..%s without I)", letters, last)
	}
	if x >= size {
		return 0, fmt.Errorf("column %q off the %dx%d board (A..%s without I)", letters, size, size, last)
	}
	return x, nil
}

func parseSGF(s string) (Point, error) {
	if len(s) != 2 || !isLower(s[0]) || !isLower(s[1]) {
		return Point{}, fmt.Errorf("want two lower-case letters, column then row")
	}
	return Point{int(s[0] - 'a'), int(s[1] - 'a')}, nil
}

// ParseHuman reads a coordinate as people write it — a column letter and a row
// number counted from the bottom — in either letter scheme. scheme is Renju or
// GoLetters when the caller knows which; when it is zero the scheme is detected
// and returned, and the call fails if the two schemes would name different
// points. Columns A..H are the same in both schemes; I exists only in renju
// letters; a letter past the board's last renju column can only be GTP. Letter
// case is ignored (humans write "h8" for H8); this is not pos notation, whose
// rows count from the top.
func ParseHuman(s string, size int, scheme Notation) (Point, Notation, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	switch scheme {
	case Renju, GoLetters:
		p, err := scheme.Parse(t, size)
		if err != nil {
			return Point{}, 0, fmt.Errorf("%s %q: %w", scheme, s, unwrapNotation(err))
		}
		return p, scheme, nil
	case 0:
	default:
		return Point{}, 0, fmt.Errorf("coordinate %q: %s is not a letter scheme (want renju or go)", s, scheme)
	}
	pr, errR := Renju.Parse(t, size)
	pg, errG := GoLetters.Parse(t, size)
	switch {
	case errR != nil && errG != nil:
		return Point{}, 0, fmt.Errorf("coordinate %q: %w", s, unwrapNotation(errR))
	case errR != nil:
		return pg, GoLetters, nil
	case errG != nil:
		return pr, Renju, nil
	case pr != pg:
		return Point{}, 0, fmt.Errorf("coordinate %q is ambiguous: %s in renju letters (with I), %s in GTP letters (without I); say which",
			s, Protocol.Format(pr, size), Protocol.Format(pg, size))
	}
	return pr, Renju, nil
}

// unwrapNotation drops the "notation "input": " prefix of a Parse error when
// the caller adds its own.
func unwrapNotation(err error) error {
	if u, ok := err.(interface{ Unwrap() error }); ok && u.Unwrap() != nil {
		return u.Unwrap()
	}
	return err
}

// ParsePosString reads a sequence of points in pos notation written without
// separators, as opening lists and some tools write them: "h8i8i11". It is
// ParsePoints in pos notation.
func ParsePosString(s string, size int) ([]Point, error) {
	return ParsePoints(s, size, Pos)
}

// ParsePoints reads points of a letter notation (pos, renju or go) written
// one after another, with or without spaces between them: "h8i8i11", "H8 I8
// I11". Each point is its letters and then as many digits as follow
// (greedy), so "a15" is a15, never a1 followed by 5. Renju and go letters are
// read in either case (their rows count from the bottom, whatever the case);
// pos letters are lower case.
func ParsePoints(s string, size int, n Notation) ([]Point, error) {
	switch n {
	case Pos, Renju, GoLetters:
	default:
		return nil, fmt.Errorf("%s is not a letter notation (want pos, renju or go)", n)
	}
	var stones []Point
	i := 0
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i == len(s) {
			return stones, nil
		}
		start := i
		for i < len(s) && isLetter(s[i]) && (n != Pos || i == start) {
			i++
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == start {
			i++ // consume one byte so the error shows what is wrong
		}
		tok := s[start:i]
		if n != Pos {
			tok = strings.ToUpper(tok)
		}
		p, err := n.Parse(tok, size)
		if err != nil {
			return nil, fmt.Errorf("stone %d at byte %d: %s %q: %w", len(stones)+1, start, n, s[start:i], unwrapNotation(err))
		}
		stones = append(stones, p)
	}
}

// ParseNotation reads a notation's name as String writes it.
func ParseNotation(name string) (Notation, error) {
	for n, s := range notationNames {
		if s == name {
			return n, nil
		}
	}
	return 0, fmt.Errorf("unknown notation %q (want pos, renju, go, sgf, psq or protocol)", name)
}

// FormatPosString writes stones in pos notation without separators, the
// inverse of ParsePosString.
func FormatPosString(stones []Point, size int) string {
	var b strings.Builder
	for _, p := range stones {
		b.WriteString(Pos.Format(p, size))
	}
	return b.String()
}
