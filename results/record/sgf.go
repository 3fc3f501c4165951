package record

// SGF (FF[4], GM[4] = Gomoku/Renju) is the record format people open in
// viewers; docs/records.md is its reference. What the file says, property
// by property:
//
//   - Root: FF[4] GM[4] CA[UTF-8] AP[gomoku-arena] SZ RU (the rule's config
//     name) PB PW RE (Record.ResultString) DT (the start date) EV RO (round
//     number) GN (game number), and a comment with one "key: value" line per
//     fact SGF has no property for: "termination: five", "detail: occupied 7,7",
//     "start: <RFC 3339>", "finish: <RFC 3339>".
//   - One node per stone, ;B[hh] or ;W[ih], with BL/WL (the mover's clock after
//     the move, seconds, exact to the nanosecond) when the game is timed, and a
//     comment holding "think: 1.234s" (the move's wall time, Go duration
//     syntax), "opening stone" for stones the arbiter placed, and "captured: ii
//     ji" (SGF points of the stones the move removed, pente). GM[4] viewers do
//     not remove captured stones; the comment is how they are shown. Captures are
//     not written as AE[] because FF[4] forbids setup and move properties in one
//     node.
//   - A stone the game received and refused (illegal, too late, over the
//     memory limit, breaking an opening procedure's rule, or a line that is
//     not a move at all) is never a move node: viewers and other SGF readers
//     must not play it. It is written as comment lines on the node before it
//     (the root when it came first): "refused white move: 15,3" (protocol
//     coordinates, which also name points off the board) or `refused white
//     move: "7 7 7"` (the raw line, Go-quoted), then "refused move reason:
//     occupied" and "refused move think: 1.234s". The colour is the side
//     that sent it and lost by it. Only a game's last moves can be refused
//     (an opening answer can refuse several stones).
//   - "opening procedure: swap2" in the root comment names the procedure
//     the game opened with.
//
// Comment values are single lines; a newline inside a detail or a name is
// written as a space. Engine messages are not written.

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"gomoku-arena/rules"
)

// WriteSGF writes r as one SGF game tree.
func WriteSGF(w io.Writer, r *Record) error { return WriteSGFHeaded(w, r, Heading{}) }

// Heading is what an event's organizer adds to each of its records: the
// full title (SGF EV, instead of the record's short event name), the venue
// (PC), the chief arbiter and the organizer (named in GC, the game's
// comment, as SGF has no property for them).
type Heading struct {
	Title, Venue, ChiefArbiter, Organizer string
}

// WriteSGFHeaded writes r as one SGF game tree with the organizer's
// heading.
func WriteSGFHeaded(w io.Writer, r *Record, h Heading) error {
	if r.Size < rules.MinSize || r.Size > rules.MaxSize {
		return fmt.Errorf("sgf: board size %d out of range %d..%d", r.Size, rules.MinSize, rules.MaxSize)
	}
	var b bytes.Buffer
	b.WriteString("(;FF[4]GM[4]CA[UTF-8]AP[gomoku-arena]")
	fmt.Fprintf(&b, "SZ[%d]", r.Size)
	prop(&b, "RU", r.Rule)
	prop(&b, "PB", r.Black)
	prop(&b, "PW", r.White)
	prop(&b, "RE", r.ResultString())
	if !r.Start.IsZero() {
		prop(&b, "DT", r.Start.Format(time.DateOnly))
	}
	if ev := cmp.Or(h.Title, r.Event); ev != "" {
		prop(&b, "EV", ev)
	}
	if h.Venue != "" {
		prop(&b, "PC", h.Venue)
	}
	var gc []string
	if h.ChiefArbiter != "" {
		gc = append(gc, "Chief arbiter: "+h.ChiefArbiter)
	}
	if h.Organizer != "" {
		gc = append(gc, "Organizer: "+h.Organizer)
	}
	if len(gc) > 0 {
		prop(&b, "GC", strings.Join(gc, "; "))
	}
	if r.Round > 0 {
		prop(&b, "RO", strconv.Itoa(r.Round))
	}
	if r.Game > 0 {
		prop(&b, "GN", strconv.Itoa(r.Game))
	}
	if len(r.Setup) > 0 || r.SetupToMove != rules.Empty {
		for _, c := range []rules.Color{rules.Black, rules.White} {
			var pts []string
			for _, m := range r.Setup {
				if m.Color == c {
					pts = append(pts, "["+rules.SGF.Format(m.Point, r.Size)+"]")
				}
			}
			if len(pts) > 0 {
				b.WriteString(map[rules.Color]string{rules.Black: "AB", rules.White: "AW"}[c] + strings.Join(pts, ""))
			}
		}
		prop(&b, "PL", map[rules.Color]string{rules.Black: "B", rules.White: "W"}[r.SetupToMove])
	}
	var root []string
	if r.End != "" {
		root = append(root, "termination: "+string(r.End))
	}
	if r.Detail != "" {
		root = append(root, "detail: "+oneLine(r.Detail))
	}
	if r.Procedure != "" {
		root = append(root, "opening procedure: "+r.Procedure)
	}
	if !r.Start.IsZero() {
		root = append(root, "start: "+r.Start.Format(time.RFC3339Nano))
	}
	if !r.Finish.IsZero() {
		root = append(root, "finish: "+r.Finish.Format(time.RFC3339Nano))
	}

	// Each node's comment is written when the next node starts, because a
	// rejected move adds to the comment of the node before it.
	comment := root
	flush := func() {
		if len(comment) > 0 {
			prop(&b, "C", strings.Join(comment, "\n"))
		}
		comment = nil
	}
	for i, m := range r.Moves {
		var c string
		switch m.Color {
		case rules.Black:
			c = "B"
		case rules.White:
			c = "W"
		default:
			return fmt.Errorf("sgf: move %d has no colour", i+1)
		}
		if m.refused() || !onBoard(m.Point, r.Size) {
			what := rules.Protocol.Format(m.Point, r.Size)
			if m.Raw != "" {
				what = strconv.Quote(m.Raw)
			}
			comment = append(comment, fmt.Sprintf("refused %s move: %s", m.Color, what))
			comment = append(comment, "refused move reason: "+oneLine(refusal(&m, r.Size)))
			if m.Think != 0 {
				comment = append(comment, "refused move think: "+m.Think.String())
			}
			continue
		}
		flush()
		b.WriteString("\n;")
		b.WriteString(c)
		b.WriteString("[" + rules.SGF.Format(m.Point, r.Size) + "]")
		if m.Left != 0 {
			prop(&b, c+"L", formatSeconds(m.Left))
		}
		if m.Think != 0 {
			comment = append(comment, "think: "+m.Think.String())
		}
		if m.Opening {
			comment = append(comment, "opening stone")
		}
		if len(m.Captured) > 0 {
			pts := make([]string, len(m.Captured))
			for j, p := range m.Captured {
				pts[j] = rules.SGF.Format(p, r.Size)
			}
			comment = append(comment, "captured: "+strings.Join(pts, " "))
		}
	}
	flush()
	b.WriteString(")\n")
	_, err := w.Write(b.Bytes())
	return err
}

// refusal is why m was refused: its Refused, or for a move that only its
// point or its raw line marks as refused (as older records kept them), the
// reason that point or line gives.
func refusal(m *Move, size int) string {
	switch {
	case m.Refused != "":
		return m.Refused
	case m.Raw != "":
		return RefusedMalformed
	case !onBoard(m.Point, size):
		return string(rules.OffBoard)
	}
	return "refused"
}

// oneLine keeps a comment value on its line.
func oneLine(s string) string {
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}

func onBoard(p rules.Point, size int) bool {
	return p.X >= 0 && p.Y >= 0 && p.X < size && p.Y < size
}

// prop writes one property with its value escaped as SGF text: '\' and ']'
// are escaped. Values we write as single lines have newlines turned to spaces
// by the callers' contract (see the file comment); comments keep theirs.
func prop(b *bytes.Buffer, id, v string) {
	if id != "C" {
		v = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(v)
	}
	b.WriteString(id)
	b.WriteByte('[')
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' || v[i] == ']' {
			b.WriteByte('\\')
		}
		b.WriteByte(v[i])
	}
	b.WriteByte(']')
}

// formatSeconds writes d as decimal seconds, exactly ("12.5", "-0.001").
func formatSeconds(d time.Duration) string {
	sign := ""
	u := uint64(d)
	if d < 0 {
		sign = "-"
		u = uint64(-d) // wraps correctly for math.MinInt64 too
	}
	s := sign + strconv.FormatUint(u/1e9, 10)
	if frac := u % 1e9; frac != 0 {
		s += "." + strings.TrimRight(fmt.Sprintf("%09d", frac), "0")
	}
	return s
}

// parseSeconds reads decimal seconds as written by formatSeconds, or by other
// tools ("12", "12.5"), exactly to the nanosecond.
func parseSeconds(s string) (time.Duration, error) {
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" && frac == "" || len(frac) > 9 || len(whole) > 9 {
		return 0, fmt.Errorf("%q is not a number of seconds", s)
	}
	var n int64
	for _, part := range []string{whole, frac + strings.Repeat("0", 9-len(frac))} {
		for i := 0; i < len(part); i++ {
			if part[i] < '0' || part[i] > '9' {
				return 0, fmt.Errorf("%q is not a number of seconds", s)
			}
			n = n*10 + int64(part[i]-'0')
		}
	}
	if neg {
		n = -n
	}
	return time.Duration(n), nil
}

// maxSGFBytes bounds what ReadSGF reads: a game of 26x26 moves with comments
// is far below it.
const maxSGFBytes = 8 << 20

// ReadSGF reads an SGF file holding one Gomoku/Renju game (GM[4]). It is
// tolerant of whitespace and line breaks anywhere between tokens, escaped
// characters in values, properties in any order, several values per
// property, lower-case letters in property names (FF[3] style), and a game
// line written as nested trees of one child each; it ignores properties that
// do not change the position (markup, comments other than ours, game info it
// does not keep). Setup stones (AB, AW, AE, and PL for the side to move) are
// read before the first move into Record.Setup. What it cannot read without
// guessing is refused: another game type or none (FF[4] defaults GM to Go),
// variations, a collection of several games, setup beside or after a move,
// B and W in one node, a pass. Errors name the file, line and column:
// `game.sgf:3:14: B: ...`.
//
// Files from other tools lack our root comment: their End is Time when RE ends
// in "T" and empty otherwise, and their Start is the DT date at midnight UTC.
func ReadSGF(r io.Reader, name string) (*Record, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxSGFBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(data) > maxSGFBytes {
		return nil, fmt.Errorf("%s: larger than %d bytes", name, maxSGFBytes)
	}
	p := &sgfParser{data: data, name: name}
	nodes, err := p.gameTree()
	if err != nil {
		return nil, err
	}
	return p.record(nodes)
}

type sgfProp struct {
	id   string
	vals []string
	at   []int // byte offset of each value
}

type sgfNode []sgfProp

func (n sgfNode) get(id string) (sgfProp, bool) {
	for _, p := range n {
		if p.id == id {
			return p, true
		}
	}
	return sgfProp{}, false
}

type sgfParser struct {
	data []byte
	pos  int
	name string
}

// errorAt formats an error at byte offset off as file:line:col.
func (p *sgfParser) errorAt(off int, format string, args ...any) error {
	if off > len(p.data) {
		off = len(p.data)
	}
	line := 1 + bytes.Count(p.data[:off], []byte("\n"))
	col := off - bytes.LastIndexByte(p.data[:off], '\n')
	return fmt.Errorf("%s:%d:%d: %s", p.name, line, col, fmt.Sprintf(format, args...))
}

func (p *sgfParser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r', '\v', '\f':
			p.pos++
		default:
			return
		}
	}
}

// gameTree reads the file's game tree and returns its nodes.
func (p *sgfParser) gameTree() ([]sgfNode, error) {
	if i := bytes.IndexByte(p.data, '('); i >= 0 {
		p.pos = i // tolerate a BOM or junk before the tree
	} else {
		return nil, p.errorAt(len(p.data), "no game tree: want '('")
	}
	var main []sgfNode
	if err := p.tree(&main, 0); err != nil {
		return nil, err
	}
	if len(main) == 0 {
		return nil, p.errorAt(0, "empty game tree")
	}
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '(' {
		return nil, p.errorAt(p.pos, "a second game tree: this file is a collection of games, and a record is one game")
	}
	return main, nil
}

// maxDepth bounds nested variations so a hostile file cannot exhaust the stack.
const maxDepth = 1000

// tree reads "(" sequence subtree ")" at p.pos, appending the nodes to
// main. A second subtree is a variation, and refused.
func (p *sgfParser) tree(main *[]sgfNode, depth int) error {
	if depth > maxDepth {
		return p.errorAt(p.pos, "game trees nested deeper than %d", maxDepth)
	}
	start := p.pos
	p.pos++ // '('
	p.skipSpace()
	if p.pos >= len(p.data) || p.data[p.pos] != ';' {
		return p.errorAt(p.pos, "want ';' to start a node")
	}
	subtrees := 0
	for {
		p.skipSpace()
		if p.pos >= len(p.data) {
			return p.errorAt(start, "game tree not closed: want ')'")
		}
		switch c := p.data[p.pos]; c {
		case ';':
			if subtrees > 0 {
				return p.errorAt(p.pos, "a node after a subtree: want ')'")
			}
			p.pos++
			n, err := p.node()
			if err != nil {
				return err
			}
			*main = append(*main, n)
		case '(':
			if subtrees > 0 {
				return p.errorAt(p.pos, "a variation: this file branches, and a record is one line of play (variations are not supported)")
			}
			subtrees++
			if err := p.tree(main, depth+1); err != nil {
				return err
			}
		case ')':
			p.pos++
			return nil
		default:
			return p.errorAt(p.pos, "unexpected %q: want ';', '(' or ')'", c)
		}
	}
}

// node reads the properties of one node, after its ';'.
func (p *sgfParser) node() (sgfNode, error) {
	var n sgfNode
	for {
		p.skipSpace()
		if p.pos >= len(p.data) {
			return n, nil // the caller reports the unclosed tree
		}
		c := p.data[p.pos]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z') {
			return n, nil
		}
		identAt := p.pos
		var id []byte
		for p.pos < len(p.data) && (p.data[p.pos] >= 'A' && p.data[p.pos] <= 'Z' || p.data[p.pos] >= 'a' && p.data[p.pos] <= 'z') {
			if c := p.data[p.pos]; c >= 'A' && c <= 'Z' {
				id = append(id, c)
			}
			p.pos++
		}
		if len(id) == 0 {
			return nil, p.errorAt(identAt, "property name without upper-case letters")
		}
		prop := sgfProp{id: string(id)}
		for {
			p.skipSpace()
			if p.pos >= len(p.data) || p.data[p.pos] != '[' {
				break
			}
			at := p.pos + 1
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			prop.vals = append(prop.vals, v)
			prop.at = append(prop.at, at)
		}
		if len(prop.vals) == 0 {
			return nil, p.errorAt(p.pos, "property %s without a value: want '['", prop.id)
		}
		n = append(n, prop)
	}
}

// value reads "[...]" and returns the unescaped text: "\]" and "\\" are the
// characters, a backslash before a line break removes both (a soft break).
func (p *sgfParser) value() (string, error) {
	start := p.pos
	p.pos++ // '['
	var v []byte
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		switch c {
		case ']':
			p.pos++
			return string(v), nil
		case '\\':
			p.pos++
			if p.pos >= len(p.data) {
				break
			}
			e := p.data[p.pos]
			p.pos++
			if e == '\n' || e == '\r' {
				// soft line break; "\r\n" and "\n\r" count as one
				if p.pos < len(p.data) && (p.data[p.pos] == '\n' || p.data[p.pos] == '\r') && p.data[p.pos] != e {
					p.pos++
				}
				continue
			}
			v = append(v, e)
		default:
			v = append(v, c)
			p.pos++
		}
	}
	return "", p.errorAt(start, "value not closed: want ']'")
}

// simpleText is a SimpleText value: line breaks are spaces.
func simpleText(s string) string {
	return strings.TrimSpace(strings.NewReplacer("\r\n", " ", "\n\r", " ", "\n", " ", "\r", " ").Replace(s))
}

// record turns the main line's nodes into a Record.
func (p *sgfParser) record(nodes []sgfNode) (*Record, error) {
	rec := &Record{Size: rules.DefaultSize}
	root := nodes[0]
	gm, ok := root.get("GM")
	if !ok {
		return nil, p.errorAt(0, "no GM property: FF[4] reads that as GM[1], a game of Go; a Gomoku/Renju record says GM[4]")
	}
	if strings.TrimSpace(gm.vals[0]) != "4" {
		return nil, p.errorAt(gm.at[0], "GM[%s]: not a Gomoku/Renju game (GM[4])", gm.vals[0])
	}
	if sz, ok := root.get("SZ"); ok {
		v := strings.TrimSpace(sz.vals[0])
		w, h, square := strings.Cut(v, ":")
		n, err := strconv.Atoi(w)
		if err != nil || square && strings.TrimSpace(h) != w {
			return nil, p.errorAt(sz.at[0], "SZ[%s]: want a square board size", v)
		}
		if n < rules.MinSize || n > rules.MaxSize {
			return nil, p.errorAt(sz.at[0], "SZ[%s]: board size out of range %d..%d", v, rules.MinSize, rules.MaxSize)
		}
		rec.Size = n
	}
	var resultSuffix string
	for _, pr := range root {
		v := simpleText(pr.vals[0])
		switch pr.id {
		case "RU":
			rec.Rule = v
		case "PB":
			rec.Black = v
		case "PW":
			rec.White = v
		case "EV":
			rec.Event = v
		case "RO":
			rec.Round = leadingInt(v)
		case "GN":
			rec.Game = leadingInt(v)
		case "DT":
			if t, err := time.Parse(time.DateOnly, firstN(v, len(time.DateOnly))); err == nil {
				rec.Start = t
			}
		case "RE":
			switch {
			case strings.HasPrefix(v, "B+"):
				rec.Winner = rules.Black
			case strings.HasPrefix(v, "W+"):
				rec.Winner = rules.White
			}
			if rec.Winner != rules.Empty {
				resultSuffix = v[2:]
			}
		}
	}
	st := setup{stones: map[rules.Point]rules.Color{}}
	for _, n := range nodes {
		if err := p.setupNode(&st, rec, n); err != nil {
			return nil, err
		}
		if err := p.moveNode(rec, n); err != nil {
			return nil, err
		}
	}
	if err := st.finish(rec); err != nil {
		return nil, p.errorAt(0, "%v", err)
	}
	if rec.End == "" && (resultSuffix == "T" || resultSuffix == "Time") {
		rec.End = Time
	}
	return rec, nil
}

// setup collects the setup stones (AB, AW, AE) and the side to move (PL) of
// the nodes before the first move.
type setup struct {
	stones map[rules.Point]rules.Color
	toMove rules.Color
	seen   bool // any setup property at all
	points int  // setup points read, compressed lists expanded
}

// maxSetupPoints bounds the setup points a file may name: a few boards'
// worth, so that compressed lists repeated in a hostile file cannot make
// reading it slow.
const maxSetupPoints = 4 * rules.MaxSize * rules.MaxSize

// setupNode reads n's setup properties. FF[4] allows them in any node, but
// never beside a move in one node; we read them only before the first move
// (how positions, problems and opening books are written) and refuse them
// after it, where they would edit a game in progress.
func (p *sgfParser) setupNode(st *setup, rec *Record, n sgfNode) error {
	_, hasB := n.get("B")
	_, hasW := n.get("W")
	for _, id := range []string{"AB", "AW", "AE", "PL"} {
		pr, ok := n.get(id)
		if !ok {
			continue
		}
		switch {
		case hasB || hasW:
			return p.errorAt(pr.at[0], "%s beside a move in one node: FF[4] forbids setup and move properties together", id)
		case len(rec.Moves) > 0:
			return p.errorAt(pr.at[0], "%s after move %d: setup stones in the middle of a game are not supported", id, len(rec.Moves))
		}
		st.seen = true
		if id == "PL" {
			switch strings.ToUpper(strings.TrimSpace(pr.vals[0])) {
			case "B", "1":
				st.toMove = rules.Black
			case "W", "2":
				st.toMove = rules.White
			default:
				return p.errorAt(pr.at[0], "PL[%s]: want B or W", pr.vals[0])
			}
			continue
		}
		c := map[string]rules.Color{"AB": rules.Black, "AW": rules.White, "AE": rules.Empty}[id]
		for k, v := range pr.vals {
			pts, err := sgfPointList(strings.TrimSpace(v), rec.Size)
			if err != nil {
				return p.errorAt(pr.at[k], "%s: %v", id, err)
			}
			if st.points += len(pts); st.points > maxSetupPoints {
				return p.errorAt(pr.at[k], "%s: more than %d setup points in one file", id, maxSetupPoints)
			}
			for _, pt := range pts {
				if c == rules.Empty {
					delete(st.stones, pt)
				} else {
					st.stones[pt] = c
				}
			}
		}
	}
	return nil
}

// sgfPointList reads an SGF point or a compressed list "aa:cc" (the rectangle
// between two corners, FF[4]).
func sgfPointList(v string, size int) ([]rules.Point, error) {
	a, b, rect := strings.Cut(v, ":")
	p, err := rules.SGF.Parse(a, size)
	if err != nil {
		return nil, err
	}
	if !rect {
		return []rules.Point{p}, nil
	}
	q, err := rules.SGF.Parse(b, size)
	if err != nil {
		return nil, err
	}
	var pts []rules.Point
	for y := min(p.Y, q.Y); y <= max(p.Y, q.Y); y++ {
		for x := min(p.X, q.X); x <= max(p.X, q.X); x++ {
			pts = append(pts, rules.Point{X: x, Y: y})
		}
	}
	return pts, nil
}

// finish puts the setup into rec: the stones in row order, and the side to
// move: PL, or the colour of the first move, or from the counts (Black when
// they are equal, White when Black has one more); any other setup without
// PL is refused rather than guessed.
func (st *setup) finish(rec *Record) error {
	if !st.seen {
		return nil
	}
	var black, white int
	for y := 0; y < rec.Size; y++ {
		for x := 0; x < rec.Size; x++ {
			pt := rules.Point{X: x, Y: y}
			if c, ok := st.stones[pt]; ok {
				rec.Setup = append(rec.Setup, Move{Point: pt, Color: c})
				if c == rules.Black {
					black++
				} else {
					white++
				}
			}
		}
	}
	if len(rec.Setup) == 0 && st.toMove != rules.White {
		return nil // the empty board, Black to move: no setup at all
	}
	rec.SetupToMove = st.toMove
	switch {
	case rec.SetupToMove != rules.Empty:
	case len(rec.Moves) > 0:
		rec.SetupToMove = rec.Moves[0].Color
	case black == white:
		rec.SetupToMove = rules.Black
	case black == white+1:
		rec.SetupToMove = rules.White
	default:
		return fmt.Errorf("setup of %d black and %d white stones without PL: who moves next is not said", black, white)
	}
	return nil
}

func firstN(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// leadingInt reads the number a value starts with ("3", "3 (final)"), or 0.
func leadingInt(s string) int {
	i := 0
	for i < len(s) && i < 9 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	n, _ := strconv.Atoi(s[:i])
	return n
}

// moveNode adds the node's move (if any) and what its comment says to rec.
func (p *sgfParser) moveNode(rec *Record, n sgfNode) error {
	for _, id := range []string{"B", "W"} {
		pr, ok := n.get(id)
		if !ok {
			continue
		}
		v := strings.TrimSpace(pr.vals[0])
		if v == "" {
			return p.errorAt(pr.at[0], "%s[]: a pass is not a Gomoku move", id)
		}
		pt, err := rules.SGF.Parse(v, rec.Size)
		if err != nil {
			return p.errorAt(pr.at[0], "%s: %v", id, err)
		}
		m := Move{Point: pt, Color: rules.Black}
		if id == "W" {
			m.Color = rules.White
		}
		if l, ok := n.get(id + "L"); ok {
			d, err := parseSeconds(strings.TrimSpace(l.vals[0]))
			if err != nil {
				return p.errorAt(l.at[0], "%sL: %v", id, err)
			}
			m.Left = d
		}
		if _, both := n.get("W"); both && id == "B" {
			return p.errorAt(pr.at[0], "B and W in one node")
		}
		rec.Moves = append(rec.Moves, m)
		break
	}
	c, ok := n.get("C")
	if !ok {
		return nil
	}
	last := func() *Move {
		if len(rec.Moves) == 0 {
			return nil
		}
		return &rec.Moves[len(rec.Moves)-1]
	}
	hasMove := false
	for _, id := range []string{"B", "W"} {
		if _, ok := n.get(id); ok {
			hasMove = true
		}
	}
	rejected := false // the last move came from a "refused" line
	for _, line := range strings.Split(c.vals[0], "\n") {
		key, val, _ := strings.Cut(strings.TrimRight(line, "\r"), ":")
		val = strings.TrimSpace(val)
		switch strings.TrimSpace(key) {
		case "termination":
			rec.End = Termination(val)
		case "detail":
			rec.Detail = val
		case "start":
			if t, err := time.Parse(time.RFC3339Nano, val); err == nil {
				rec.Start = t
			}
		case "finish":
			if t, err := time.Parse(time.RFC3339Nano, val); err == nil {
				rec.Finish = t
			}
		case "think":
			if d, err := time.ParseDuration(val); err == nil && hasMove && !rejected && last() != nil {
				last().Think = d
			}
		case "opening stone":
			if hasMove && !rejected && last() != nil {
				last().Opening = true
			}
		case "captured":
			if !hasMove || rejected || last() == nil {
				continue
			}
			var pts []rules.Point
			for _, f := range strings.Fields(val) {
				pt, err := rules.SGF.Parse(f, rec.Size)
				if err != nil {
					return p.errorAt(c.at[0], "C: captured: %v", err)
				}
				pts = append(pts, pt)
			}
			last().Captured = pts
		case "opening procedure":
			rec.Procedure = val
		case "refused black move", "refused white move", "rejected black move", "rejected white move":
			// "rejected" is how records before refused stones were kept
			// wrote a final off-board or malformed move.
			m := Move{Color: rules.Black}
			if strings.Contains(key, "white") {
				m.Color = rules.White
			}
			if strings.HasPrefix(val, `"`) {
				raw, err := strconv.Unquote(val)
				if err != nil || raw == "" {
					continue
				}
				m.Raw = raw
			} else {
				x, y, ok := strings.Cut(val, ",")
				xi, e1 := strconv.Atoi(strings.TrimSpace(x))
				yi, e2 := strconv.Atoi(strings.TrimSpace(y))
				if !ok || e1 != nil || e2 != nil || sgfAbs(xi) > 1e6 || sgfAbs(yi) > 1e6 {
					continue
				}
				pt := rules.Point{X: xi, Y: yi}
				m.Point = pt
			}
			m.Refused = refusal(&m, rec.Size)
			rec.Moves = append(rec.Moves, m)
			rejected = true
		case "refused move reason":
			if rejected && val != "" {
				last().Refused = val
			}
		case "refused move think", "rejected move think":
			if d, err := time.ParseDuration(val); err == nil && rejected {
				last().Think = d
			}
		}
	}
	return nil
}

func sgfAbs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
