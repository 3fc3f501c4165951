package record

// psq is Piskvork's record format, the one Gomocup publishes and its tools
// read (docs/records.md says what it carries). The layout, as Piskvork
// itself writes it:
//
//	Piskvorky 15x15, 11:11, 0    size, each player's level (0 = human), who started
//	8,8,1234                     one stone per line: x,y 1-based, think time in ms
//	...
//	alpha                        the first player's name (tournament games only)
//	beta                         the second player's name
//	0                            the finishing code
//
// We write levels 11:11 (both computers, as Gomocup files carry) and 0 as the
// starter, so the first name is Black's. Piskvork's finishing code 15 means a
// time forfeit; it uses others internally that we do not reproduce: we write 0
// for a game decided on the board or drawn, 15 for a time forfeit and -1 for any
// other forfeit. psq has no colours, captures, rule or result: stones alternate
// from Black, and a reader learns the rest by replaying.
//
// psq cannot mark a stone as refused, so a stone the game received and
// refused (illegal, too late, off the board, breaking an opening rule, or a
// line that is not a move) is not written: the file holds the stones the game
// played, and a reader replaying them reaches the position the game ended
// in. Why it ended is what psq cannot carry beyond the finishing code: the
// SGF record and the journal keep the refused stones and the reason. Points
// are not checked for occupancy on reading: a pente game reuses points after
// captures, which psq does not record.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"gomoku-arena/rules"
)

// psq finishing codes (see the file comment).
const (
	psqNormal  = 0
	psqTimeout = 15
	psqForfeit = -1
)

// WritePSQ writes r as a psq file.
func WritePSQ(w io.Writer, r *Record) error {
	if r.Size < rules.MinSize || r.Size > rules.MaxSize {
		return fmt.Errorf("psq: board size %d out of range %d..%d", r.Size, rules.MinSize, rules.MaxSize)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "Piskvorky %dx%d, 11:11, 0\n", r.Size, r.Size)
	for _, m := range r.Moves {
		if m.refused() || !onBoard(m.Point, r.Size) {
			continue // refused stones come last; psq cannot mark them
		}
		fmt.Fprintf(&b, "%s,%d\n", rules.PSQ.Format(m.Point, r.Size), m.Think.Milliseconds())
	}
	b.WriteString(psqName(r.Black) + "\n")
	b.WriteString(psqName(r.White) + "\n")
	code := psqNormal
	switch {
	case r.End == Time:
		code = psqTimeout
	case r.End.Forfeit():
		code = psqForfeit
	}
	fmt.Fprintf(&b, "%d\n", code)
	_, err := w.Write(b.Bytes())
	return err
}

// psqName keeps a name on its one line.
func psqName(s string) string {
	return strings.TrimSpace(strings.NewReplacer("\r", " ", "\n", " ").Replace(s))
}

// maxPSQLines bounds a psq file: a full 26x26 board plus header and trailer.
const maxPSQLines = rules.MaxSize*rules.MaxSize + 16

// ReadPSQ reads a psq file. The header must be Piskvork's; the names and the
// finishing code are optional (Piskvork omits the names outside tournaments).
// A finishing code of 15 (time) sets End and Winner; other codes leave the
// result unknown. Errors name the file and line: `game.psq:7: ...`.
func ReadPSQ(r io.Reader, name string) (*Record, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	var lines []string
	for sc.Scan() {
		if len(lines) == maxPSQLines {
			return nil, fmt.Errorf("%s:%d: more lines than any psq game has", name, len(lines)+1)
		}
		lines = append(lines, strings.TrimSpace(sc.Text()))
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s:%d: line too long", name, len(lines)+1)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("%s: empty file", name)
	}
	rec := &Record{}
	starter, err := parsePSQHeader(strings.TrimPrefix(lines[0], "\uFEFF"), rec)
	if err != nil {
		return nil, fmt.Errorf("%s:1: %w", name, err)
	}
	i := 1
	for ; i < len(lines); i++ {
		p, ms, ok := parsePSQMove(lines[i])
		if !ok {
			break
		}
		if p.X < 1 || p.Y < 1 || p.X > rec.Size || p.Y > rec.Size {
			return nil, fmt.Errorf("%s:%d: stone %d,%d off the %dx%d board", name, i+1, p.X, p.Y, rec.Size, rec.Size)
		}
		if ms < 0 {
			return nil, fmt.Errorf("%s:%d: negative think time %d ms", name, i+1, ms)
		}
		c := rules.Black
		if len(rec.Moves)%2 == 1 {
			c = rules.White
		}
		rec.Moves = append(rec.Moves, Move{
			Point: rules.Point{X: p.X - 1, Y: p.Y - 1},
			Color: c,
			Think: msDuration(ms),
		})
	}
	rest := lines[i:]
	for len(rest) > 0 && rest[len(rest)-1] == "" {
		rest = rest[:len(rest)-1]
	}
	// A move-like line after a line that is not a move means the moves were
	// broken off by a malformed one.
	for j := range rest {
		if _, _, ok := parsePSQMove(rest[j]); ok {
			return nil, fmt.Errorf("%s:%d: %q is not a move (x,y,ms) and is followed by more moves", name, i+1, lines[i])
		}
	}
	code, hasCode := 0, false
	switch len(rest) {
	case 0:
	case 1:
		n, err := strconv.Atoi(rest[0])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %q: want a move (x,y,ms), the two names, or the finishing code", name, i+1, rest[0])
		}
		code, hasCode = n, true
	case 2, 3:
		names := [2]string{rest[0], rest[1]}
		rec.Black, rec.White = psqName(names[starter]), psqName(names[1-starter])
		if len(rest) == 3 {
			n, err := strconv.Atoi(rest[2])
			if err != nil {
				return nil, fmt.Errorf("%s:%d: finishing code %q is not a number", name, i+3, rest[2])
			}
			code, hasCode = n, true
		}
	default:
		return nil, fmt.Errorf("%s:%d: %q: want only the two names and the finishing code after the moves", name, i+4, rest[3])
	}
	if hasCode && code == psqTimeout {
		// The side to move ran out of time.
		rec.End = Time
		rec.Winner = rules.White
		if len(rec.Moves)%2 == 1 {
			rec.Winner = rules.Black
		}
	}
	return rec, nil
}

// msDuration converts whole milliseconds without overflow.
func msDuration(ms int64) time.Duration {
	return time.Duration(ms) * time.Millisecond
}

// parsePSQHeader reads "Piskvorky 15x15, 11:11, 0" into rec.Size and returns
// which player started (0 or 1).
func parsePSQHeader(s string, rec *Record) (int, error) {
	rest, ok := strings.CutPrefix(s, "Piskvorky")
	if !ok {
		return 0, fmt.Errorf("header %q: not a psq file (want \"Piskvorky 15x15, 11:11, 0\")", s)
	}
	parts := strings.Split(rest, ",")
	if len(parts) != 3 {
		return 0, fmt.Errorf("header %q: want size, levels and starter separated by commas", s)
	}
	w, h, ok := strings.Cut(strings.TrimSpace(parts[0]), "x")
	wi, e1 := strconv.Atoi(w)
	hi, e2 := strconv.Atoi(h)
	if !ok || e1 != nil || e2 != nil {
		return 0, fmt.Errorf("header %q: board size %q is not WxH", s, strings.TrimSpace(parts[0]))
	}
	if wi != hi {
		return 0, fmt.Errorf("header %q: %dx%d board is not square", s, wi, hi)
	}
	if wi < rules.MinSize || wi > rules.MaxSize {
		return 0, fmt.Errorf("header %q: board size %d out of range %d..%d", s, wi, rules.MinSize, rules.MaxSize)
	}
	l1, l2, ok := strings.Cut(strings.TrimSpace(parts[1]), ":")
	if _, err := strconv.Atoi(l1); !ok || err != nil {
		return 0, fmt.Errorf("header %q: levels %q are not n:n", s, strings.TrimSpace(parts[1]))
	}
	if _, err := strconv.Atoi(l2); err != nil {
		return 0, fmt.Errorf("header %q: levels %q are not n:n", s, strings.TrimSpace(parts[1]))
	}
	starter, err := strconv.Atoi(strings.TrimSpace(parts[2]))
	if err != nil || starter != 0 && starter != 1 {
		return 0, fmt.Errorf("header %q: starter %q is not 0 or 1", s, strings.TrimSpace(parts[2]))
	}
	rec.Size = wi
	return starter, nil
}

// parsePSQMove reads "x,y,ms" or "x,y" (as Piskvork accepts), spaces allowed
// around the numbers. Coordinates stay 1-based.
func parsePSQMove(s string) (rules.Point, int64, bool) {
	f := strings.Split(s, ",")
	if len(f) != 2 && len(f) != 3 {
		return rules.Point{}, 0, false
	}
	var n [3]int64
	for k, v := range f {
		x, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil || x > 1<<40 || x < -(1<<40) {
			return rules.Point{}, 0, false
		}
		n[k] = x
	}
	return rules.Point{X: int(n[0]), Y: int(n[1])}, n[2], true
}
