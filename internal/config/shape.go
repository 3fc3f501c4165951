package config

import (
	"fmt"
	"io"
	"os"
)

// Bounds on what a config file may be, checked before the TOML parser sees
// it. The parser's time and memory grow with the square of the nesting (a
// 32 KB file of nested inline tables exhausted 4 GiB) and with the size: at
// these bounds the worst file we found costs it about 1.2 s and 480 MB
// resident (BenchmarkParseAtTheBounds). A real event nests four levels at
// most (an [[engine]]'s inline clock = {match = "1m"}), and the bound on
// size leaves room for a Swiss of 20,000 engines and more.
const (
	MaxBytes = 2 << 20 // 2 MiB
	MaxDepth = 8       // tables, arrays and dotted-key parts, counted together
)

// read reads the file at path, refusing one larger than MaxBytes without
// reading the rest.
func read(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(src) > MaxBytes {
		return nil, tooLarge(path)
	}
	return src, nil
}

func tooLarge(path string) error {
	return fmt.Errorf("%s: larger than %d bytes (%d KiB), more than any event needs: not read", path, MaxBytes, MaxBytes>>10)
}

// checkShape refuses a file larger than MaxBytes, or one that nests deeper
// than MaxDepth, naming the line where the limit is passed. Depth counts the
// parts of table headers ([a.b] is 2, [[a]] 2 as well: the array and its
// table), the parts of dotted keys, and every inline table or array a value
// opens. It knows just enough TOML to find those: comments, the four kinds
// of strings, keys and brackets; anything else is left to the parser.
func checkShape(path string, src []byte) error {
	if len(src) > MaxBytes {
		return tooLarge(path)
	}
	s := scanner{src: src, line: 1}
	if err := s.run(); err != nil {
		return fmt.Errorf("%s:%d: %v", path, s.line, err)
	}
	return nil
}

// frame is an open inline table or array: its kind and the depth of its
// contents.
type frame struct {
	table bool
	depth int
}

type scanner struct {
	src    []byte
	i      int
	line   int
	header int     // depth of the current [table]
	stack  []frame // open inline tables and arrays
}

var errTooDeep = fmt.Errorf("nested deeper than %d levels (tables, arrays and dotted keys together): not read", MaxDepth)

func (s *scanner) run() error {
	for {
		// A line at the top level: a header, a key = value, or nothing.
		s.space(false)
		if s.i >= len(s.src) {
			return nil
		}
		switch c := s.src[s.i]; {
		case c == '\n':
			s.i++
			s.line++
			continue
		case c == '#':
			s.comment()
			continue
		case c == '[':
			s.i++
			d := 1
			if s.i < len(s.src) && s.src[s.i] == '[' {
				s.i++
				d = 2
			}
			parts, err := s.key()
			if err != nil {
				return err
			}
			if s.header = d - 1 + parts; s.header > MaxDepth {
				return errTooDeep
			}
			s.skipLine()
			continue
		}
		if err := s.keyValue(s.header); err != nil {
			return err
		}
		s.skipLine()
	}
}

// keyValue reads `key = value` whose key starts at depth base.
func (s *scanner) keyValue(base int) error {
	parts, err := s.key()
	if err != nil {
		return err
	}
	if base+parts > MaxDepth {
		return errTooDeep
	}
	if s.i < len(s.src) && s.src[s.i] == '=' {
		s.i++
	}
	return s.value(base + parts)
}

// key reads a dotted key up to '=' or ']' and returns its number of parts.
func (s *scanner) key() (int, error) {
	parts := 1
	for s.i < len(s.src) {
		switch c := s.src[s.i]; c {
		case '=', ']', '\n', '}', ',', '#':
			return parts, nil
		case '.':
			parts++
			if parts > MaxDepth {
				return parts, errTooDeep
			}
			s.i++
		case '"', '\'':
			s.str()
		default:
			s.i++
		}
	}
	return parts, nil
}

// value reads one value at depth d, with every inline table and array in it.
func (s *scanner) value(d int) error {
	base := len(s.stack)
	open := func(table bool, depth int) error {
		if depth > MaxDepth {
			return errTooDeep
		}
		s.stack = append(s.stack, frame{table, depth})
		s.i++
		return nil
	}
	if err := s.valueStart(d, open); err != nil {
		return err
	}
	for len(s.stack) > base && s.i < len(s.src) {
		top := s.stack[len(s.stack)-1]
		s.space(true)
		if s.i >= len(s.src) {
			break
		}
		switch c := s.src[s.i]; c {
		case '}', ']':
			s.stack = s.stack[:len(s.stack)-1]
			s.i++
		case ',':
			s.i++
			if top.table {
				s.space(true)
				if err := s.tableKey(top.depth, open); err != nil {
					return err
				}
				continue
			}
		case '#':
			s.comment()
		default:
			if top.table {
				if err := s.tableKey(top.depth, open); err != nil {
					return err
				}
				continue
			}
			if err := s.valueStart(top.depth, open); err != nil {
				return err
			}
		}
	}
	s.stack = s.stack[:base]
	return nil
}

// tableKey reads `key =` inside an inline table at depth d and the start
// of its value.
func (s *scanner) tableKey(d int, open func(bool, int) error) error {
	if s.i < len(s.src) && s.src[s.i] == '}' {
		return nil
	}
	parts, err := s.key()
	if err != nil {
		return err
	}
	if d+parts > MaxDepth {
		return errTooDeep
	}
	if s.i < len(s.src) && s.src[s.i] == '=' {
		s.i++
	}
	s.space(true)
	return s.valueStart(d+parts, open)
}

// valueStart reads a scalar, or opens the inline table or array that
// starts at s.i, at depth d.
func (s *scanner) valueStart(d int, open func(bool, int) error) error {
	s.space(false)
	if s.i >= len(s.src) {
		return nil
	}
	switch s.src[s.i] {
	case '{':
		return open(true, d)
	case '[':
		return open(false, d+1)
	case '"', '\'':
		s.str()
		return nil
	}
	for s.i < len(s.src) { // a number, a date, a boolean: up to the next delimiter
		switch s.src[s.i] {
		case ',', ']', '}', '\n', '#', '{', '[', '"', '\'':
			return nil
		}
		s.i++
	}
	return nil
}

// str skips a string of any of the four kinds, counting its lines.
func (s *scanner) str() {
	q := s.src[s.i]
	multi := s.i+2 < len(s.src) && s.src[s.i+1] == q && s.src[s.i+2] == q
	if multi {
		s.i += 3
	} else {
		s.i++
	}
	for s.i < len(s.src) {
		c := s.src[s.i]
		switch {
		case c == '\\' && q == '"':
			if s.i+1 < len(s.src) && s.src[s.i+1] == '\n' {
				s.line++
			}
			s.i += 2
			continue
		case c == '\n':
			s.line++
			if !multi {
				return // an unterminated string: the parser will say so
			}
		case c == q && !multi:
			s.i++
			return
		case c == q && s.i+2 < len(s.src) && s.src[s.i+1] == q && s.src[s.i+2] == q:
			s.i += 3
			for s.i < len(s.src) && s.src[s.i] == q { // up to two quotes may end the content
				s.i++
			}
			return
		}
		s.i++
	}
}

// space skips blanks, and with lines also line breaks.
func (s *scanner) space(lines bool) {
	for s.i < len(s.src) {
		switch s.src[s.i] {
		case ' ', '\t', '\r':
		case '\n':
			if !lines {
				return
			}
			s.line++
		default:
			return
		}
		s.i++
	}
}

func (s *scanner) comment() {
	for s.i < len(s.src) && s.src[s.i] != '\n' {
		s.i++
	}
}

// skipLine skips to the next line, past strings and comments.
func (s *scanner) skipLine() {
	for s.i < len(s.src) && s.src[s.i] != '\n' {
		switch s.src[s.i] {
		case '"', '\'':
			s.str()
		case '#':
			s.comment()
		default:
			s.i++
		}
	}
}
