// Package term makes outside text safe to print on a terminal. Names from a
// config or a journal, an engine's ABOUT and MESSAGE lines, and the details
// of a forfeit are written by people and programs we do not control; a
// control character among them could move the cursor, clear the screen or
// retitle the window (an OSC sequence), and a bidirectional override could
// make a line read differently from what it says. Every place the arena
// prints such text passes it through Clean.
package term

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Clean returns s with every control character (C0, DEL and C1, newline and
// tab included), every bidirectional formatting character and every byte
// that is not UTF-8 written as a Go escape: "\x1b", "\u202e", "\xff". Other
// text, any script, is kept as it is.
func Clean(s string) string {
	if clean(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unsafeRune(r) && r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// CleanLines cleans each line of a text of several lines (a table, a
// summary), keeping its line breaks.
func CleanLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = Clean(l)
	}
	return strings.Join(lines, "\n")
}

func clean(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return utf8.ValidString(s) && !strings.ContainsFunc(s, unsafeRune)
		}
	}
	return true
}

// unsafeRune reports the characters a terminal acts on rather than shows:
// C0 controls, DEL, C1 controls (U+0080..U+009F, which some terminals take
// as ESC sequences), and the bidirectional marks, embeddings, overrides and
// isolates (U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069).
func unsafeRune(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}
