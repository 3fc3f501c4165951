package engine

import (
	"strconv"
	"strings"

	"gomoku-arena/rules"
)

// LineKind says what one line of an engine's output is.
type LineKind uint8

const (
	LineOther     LineKind = iota // anything else: logged as a protocol warning
	LineMove                      // x,y — two integers, not range-checked
	LineMalformed                 // starts like a move (7, or -1,) but is not two integers
	LineOK                        // OK
	LineMessage                   // MESSAGE text
	LineDebug                     // DEBUG text
	LineError                     // ERROR text
	LineUnknown                   // UNKNOWN text
	LineSuggest                   // SUGGEST x,y with a well-formed pair
)

var kindNames = [...]string{"other", "move", "malformed", "OK", "MESSAGE", "DEBUG", "ERROR", "UNKNOWN", "SUGGEST"}

func (k LineKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "LineKind(" + strconv.Itoa(int(k)) + ")"
}

// Line is one parsed line of engine output.
type Line struct {
	Kind  LineKind
	Point rules.Point // LineMove and LineSuggest
	Text  string      // the text after the keyword (MESSAGE, DEBUG, ERROR, UNKNOWN); the trimmed line otherwise
}

// ParseLine classifies one line of engine output (without its line ending).
// Moves are never clamped or range-checked: "-1,3" and "99,99" are moves, for
// the rules to reject; only a line that starts like a move but is not two
// integers in int range is LineMalformed.
func ParseLine(s string) Line {
	s = strings.TrimPrefix(s, "\ufeff") // a BOM from engines built for Windows
	s = strings.TrimSpace(s)
	if s == "" {
		return Line{Kind: LineOther}
	}
	if c := s[0]; c == '-' || (c >= '0' && c <= '9') {
		if p, moveLike, ok := parsePair(s); moveLike {
			if ok {
				return Line{Kind: LineMove, Point: p, Text: s}
			}
			return Line{Kind: LineMalformed, Text: s}
		}
		return Line{Kind: LineOther, Text: s}
	}
	word, rest := s, ""
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		word, rest = s[:i], strings.TrimSpace(s[i+1:])
	}
	switch strings.ToUpper(word) {
	case "OK":
		if rest == "" {
			return Line{Kind: LineOK, Text: s}
		}
	case "MESSAGE":
		return Line{Kind: LineMessage, Text: rest}
	case "DEBUG":
		return Line{Kind: LineDebug, Text: rest}
	case "ERROR":
		return Line{Kind: LineError, Text: rest}
	case "UNKNOWN":
		return Line{Kind: LineUnknown, Text: rest}
	case "SUGGEST":
		if p, _, ok := parsePair(rest); ok {
			return Line{Kind: LineSuggest, Point: p, Text: rest}
		}
	}
	return Line{Kind: LineOther, Text: s}
}

// parsePair parses "x,y" with optional spaces around either number. moveLike
// reports whether s starts like a move: an optional '-', digits, optional
// spaces and a comma.
func parsePair(s string) (p rules.Point, moveLike, ok bool) {
	x, rest, ok1 := leadingInt(s)
	if !ok1 {
		return p, false, false
	}
	rest = strings.TrimLeft(rest, " \t")
	if rest == "" || rest[0] != ',' {
		return p, false, false
	}
	rest = strings.TrimLeft(rest[1:], " \t")
	y, rest, ok2 := leadingInt(rest)
	if !ok2 || strings.TrimRight(rest, " \t") != "" {
		return p, true, false
	}
	xi, errx := strconv.Atoi(x)
	yi, erry := strconv.Atoi(y)
	if errx != nil || erry != nil { // out of int range: never clamp
		return p, true, false
	}
	return rules.Point{X: xi, Y: yi}, true, true
}

// leadingInt splits an optional '-' and at least one ASCII digit off s.
func leadingInt(s string) (num, rest string, ok bool) {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j == i {
		return "", s, false
	}
	return s[:j], s[j:], true
}
