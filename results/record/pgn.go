package record

// PGN as rating programs read it (BayesElo's readpgn, Ordo): each game's
// White, Black and Result tags; the movetext is skipped, up to the game's
// termination marker. Chess's colours carry the meaning "moved first":
// White is the engine that moved first (in Gomoku, Black), as
// rating.WriteRatingPGN writes it.
//
// The file is outside input. The reader is strict where a rating could
// otherwise be wrong and keeps only bounded state: a tag longer than
// maxPGNTag bytes, a name that is empty, not UTF-8 or holds control
// characters, a game without White, Black or Result, a tag given twice, a
// Result the termination marker contradicts, an unclosed comment or
// variation, or a file that ends inside a game is an error naming the file
// and line. Nothing is guessed; a game whose result is "*" (unfinished) is
// passed on as such, and rating programs ignore it.

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// PGNGame is one game of a PGN file as a rating program sees it.
type PGNGame struct {
	White, Black string
	// Result is "1-0", "0-1", "1/2-1/2" or "*" (no result).
	Result string
	// Line is the line of the game's first tag.
	Line int
}

// Bounds on what one token may hold, so that a hostile file costs bounded
// memory however it is made.
const (
	maxPGNTag   = 4096 // bytes of a tag's name or value
	maxPGNToken = 256  // bytes of a movetext symbol (a move, a move number)
)

var pgnResults = map[string]bool{"1-0": true, "0-1": true, "1/2-1/2": true, "*": true}

// ReadPGN reads the games of the PGN file named file from r and calls each
// for every one, in order; an error from each stops the reading and is
// returned.
func ReadPGN(r io.Reader, file string, each func(PGNGame) error) error {
	p := &pgnReader{r: bufio.NewReaderSize(r, 64<<10), file: file, line: 1, atLineStart: true}
	p.skipBOM()
	for {
		g, err := p.game()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := each(g); err != nil {
			return err
		}
	}
}

type pgnReader struct {
	r           *bufio.Reader
	file        string
	line        int
	atLineStart bool
	tok         []byte // scratch, at most maxPGNTag bytes
}

func (p *pgnReader) errorf(line int, format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", p.file, line, fmt.Sprintf(format, args...))
}

// next returns the next byte, counting lines.
func (p *pgnReader) next() (byte, error) {
	c, err := p.r.ReadByte()
	if err != nil {
		if !errors.Is(err, io.EOF) {
			return 0, fmt.Errorf("%s:%d: %w", p.file, p.line, err)
		}
		return 0, err
	}
	if c == 0 {
		return 0, p.errorf(p.line, "a NUL byte: this is not a PGN file")
	}
	p.atLineStart = false
	if c == '\n' {
		p.line++
		p.atLineStart = true
	}
	return c, nil
}

func (p *pgnReader) unread() {
	p.r.UnreadByte()
	// UnreadByte only ever follows a byte that was not a newline (see the
	// callers), so the line count stands.
}

// skipBOM skips a UTF-8 byte order mark, which some Windows tools write.
func (p *pgnReader) skipBOM() {
	if b, err := p.r.Peek(3); err == nil && string(b) == "\xef\xbb\xbf" {
		p.r.Discard(3)
	}
}

func isPGNSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// skipLine skips the rest of a line (a ';' comment or a '%' escape).
func (p *pgnReader) skipLine() error {
	for {
		c, err := p.next()
		if err != nil {
			return err
		}
		if c == '\n' {
			return nil
		}
	}
}

// nonSpace skips white space and '%' escape lines and returns the next
// byte, consumed.
func (p *pgnReader) nonSpace() (byte, error) {
	for {
		lineStart := p.atLineStart
		c, err := p.next()
		if err != nil {
			return 0, err
		}
		switch {
		case isPGNSpace(c):
		case c == '%' && lineStart:
			if err := p.skipLine(); err != nil {
				return 0, err
			}
		default:
			return c, nil
		}
	}
}

// game reads one game: its tag pairs, then its movetext up to and with the
// termination marker. io.EOF means the file ended cleanly between games.
func (p *pgnReader) game() (PGNGame, error) {
	c, err := p.nonSpace()
	if err != nil {
		return PGNGame{}, err
	}
	g := PGNGame{Line: p.line}
	if c != '[' {
		return g, p.errorf(p.line, "expected a tag such as [White \"name\"] to begin a game, found %q", c)
	}
	seen := map[string]int{}
	for c == '[' {
		line := p.line
		name, value, err := p.tagPair()
		if err != nil {
			return g, err
		}
		if first, dup := seen[name]; dup && (name == "White" || name == "Black" || name == "Result") {
			return g, p.errorf(line, "tag %s given twice in one game (first at line %d)", name, first)
		}
		seen[name] = line
		switch name {
		case "White", "Black":
			if err := checkPGNName(value); err != nil {
				return g, p.errorf(line, "tag %s: %v", name, err)
			}
			if name == "White" {
				g.White = value
			} else {
				g.Black = value
			}
		case "Result":
			if !pgnResults[value] {
				return g, p.errorf(line, "tag Result %q: want 1-0, 0-1, 1/2-1/2 or *", value)
			}
			g.Result = value
		}
		if c, err = p.nonSpace(); err != nil {
			if errors.Is(err, io.EOF) {
				return g, p.errorf(g.Line, "the file ends after the tags of this game: no movetext and no result")
			}
			return g, err
		}
	}
	for _, tag := range []string{"White", "Black", "Result"} {
		if _, ok := seen[tag]; !ok {
			return g, p.errorf(g.Line, "the game has no %s tag", tag)
		}
	}
	if g.White == g.Black {
		return g, p.errorf(seen["Black"], "%q plays itself", g.White)
	}
	marker, line, err := p.movetext(c, g.Line)
	if err != nil {
		return g, err
	}
	if marker != g.Result {
		return g, p.errorf(line, "the game ends %s but its Result tag (line %d) says %s", marker, seen["Result"], g.Result)
	}
	return g, nil
}

// tagPair reads `Name "value"]`, the '[' already read.
func (p *pgnReader) tagPair() (name, value string, err error) {
	line := p.line
	c, err := p.nonSpace()
	if err != nil {
		return "", "", p.unterminated(err, line, "tag")
	}
	p.tok = p.tok[:0]
	for isPGNNameByte(c) {
		if len(p.tok) == maxPGNTag {
			return "", "", p.errorf(line, "tag name longer than %d bytes", maxPGNTag)
		}
		p.tok = append(p.tok, c)
		if c, err = p.next(); err != nil {
			return "", "", p.unterminated(err, line, "tag")
		}
	}
	if len(p.tok) == 0 {
		return "", "", p.errorf(p.line, "expected a tag name after '[', found %q", c)
	}
	name = string(p.tok)
	if isPGNSpace(c) {
		if c, err = p.nonSpace(); err != nil {
			return "", "", p.unterminated(err, line, "tag")
		}
	}
	if c != '"' {
		return "", "", p.errorf(p.line, "tag %s: expected its value in double quotes, found %q", name, c)
	}
	p.tok = p.tok[:0]
	for {
		if c, err = p.next(); err != nil {
			return "", "", p.unterminated(err, line, "tag "+name)
		}
		if c == '"' {
			break
		}
		if c == '\n' {
			return "", "", p.errorf(line, "tag %s: the value's closing quote is missing", name)
		}
		if c == '\\' {
			if c, err = p.next(); err != nil {
				return "", "", p.unterminated(err, line, "tag "+name)
			}
			if c != '\\' && c != '"' {
				return "", "", p.errorf(p.line, "tag %s: escape \\%c: only \\\\ and \\\" are PGN escapes", name, c)
			}
		}
		if len(p.tok) == maxPGNTag {
			return "", "", p.errorf(line, "tag %s: value longer than %d bytes", name, maxPGNTag)
		}
		p.tok = append(p.tok, c)
	}
	value = string(p.tok)
	if c, err = p.nonSpace(); err != nil {
		return "", "", p.unterminated(err, line, "tag "+name)
	}
	if c != ']' {
		return "", "", p.errorf(p.line, "tag %s: expected ']' after the value, found %q", name, c)
	}
	return name, value, nil
}

func isPGNNameByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func (p *pgnReader) unterminated(err error, line int, what string) error {
	if errors.Is(err, io.EOF) {
		return p.errorf(line, "the file ends inside a %s", what)
	}
	return err
}

// checkPGNName refuses a player name a rating list could not show as it is.
func checkPGNName(s string) error {
	switch {
	case strings.TrimSpace(s) == "":
		return errors.New("the name is empty")
	case !utf8.ValidString(s):
		return errors.New("the name is not UTF-8 (a Latin-1 file must be converted first)")
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
			return fmt.Errorf("the name holds the control character %U", r)
		}
	}
	return nil
}

// movetext skips moves, move numbers, NAGs, comments and variations up to
// the termination marker, and returns it with its line. c is its first
// byte, already read; start is the game's first line.
func (p *pgnReader) movetext(c byte, start int) (marker string, line int, err error) {
	depth, depthLine := 0, 0
	for {
		switch {
		case c == '{':
			open := p.line
			for c != '}' {
				if c, err = p.next(); err != nil {
					return "", 0, p.unterminated(err, open, "comment '{' (never closed)")
				}
			}
		case c == ';':
			if err := p.skipLine(); err != nil && !errors.Is(err, io.EOF) {
				return "", 0, err
			}
		case c == '(':
			if depth == 0 {
				depthLine = p.line
			}
			depth++
		case c == ')':
			if depth == 0 {
				return "", 0, p.errorf(p.line, "')' closes no variation")
			}
			depth--
		case c == '[':
			return "", 0, p.errorf(p.line, "a tag inside the game from line %d: its movetext has no termination marker (1-0, 0-1, 1/2-1/2 or *)", start)
		case c == ']' || c == '}' || c == '%':
			return "", 0, p.errorf(p.line, "stray %q in the movetext", c)
		default:
			line := p.line
			p.tok = p.tok[:0]
			for !isPGNSpace(c) && !strings.ContainsRune("{};()[]%", rune(c)) {
				if len(p.tok) == maxPGNToken {
					return "", 0, p.errorf(line, "a movetext symbol longer than %d bytes", maxPGNToken)
				}
				p.tok = append(p.tok, c)
				if c, err = p.next(); err != nil {
					if errors.Is(err, io.EOF) {
						break
					}
					return "", 0, err
				}
			}
			if depth == 0 && pgnResults[string(p.tok)] {
				if err == nil && !isPGNSpace(c) {
					p.unread()
				}
				return string(p.tok), line, nil
			}
			if err != nil { // EOF
				return "", 0, p.errorf(start, "the file ends inside this game: its movetext has no termination marker (1-0, 0-1, 1/2-1/2 or *)")
			}
			if !isPGNSpace(c) {
				continue // c starts the next token
			}
		}
		if c, err = p.nonSpace(); err != nil {
			if errors.Is(err, io.EOF) {
				if depth > 0 {
					return "", 0, p.errorf(depthLine, "the file ends inside a variation '(' opened here")
				}
				return "", 0, p.errorf(start, "the file ends inside this game: its movetext has no termination marker (1-0, 0-1, 1/2-1/2 or *)")
			}
			return "", 0, err
		}
	}
}
