package brains

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"gomoku-arena/rules"
)

// unlimited is the time_left the arbiter sends when the match is not timed.
const unlimited = 2147483647

// session is one engine process's side of the protocol: the board it was
// told about, the rule, the clock, and the engine that picks moves.
type session struct {
	eng engine
	set settings
	in  *bufio.Scanner
	out *bufio.Writer

	size int
	pos  *rules.Position // nil before START
	me   rules.Color     // our colour in this game, Empty until known

	ruleCode int
	ruleName string
	rule     rules.Rule
	exact    [3]bool

	turnMS, matchMS, leftMS int64 // -1 when not told
	maxDepth                int
	maxNodes                int64
}

func newSession(eng engine, set settings, stdin io.Reader, stdout io.Writer) *session {
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 4096), 1<<20)
	sc.Split(scanLines)
	s := &session{eng: eng, set: set, in: sc, out: bufio.NewWriter(stdout), turnMS: -1, matchMS: -1, leftMS: -1}
	s.setRule()
	return s
}

// scanLines splits on CR, LF or CRLF. A CR ends the line at once (the
// arbiter may be waiting for our answer before sending anything more); the
// LF of a CRLF then shows up as an empty line, which the loop skips.
func scanLines(data []byte, atEOF bool) (int, []byte, error) {
	if i := bytes.IndexAny(data, "\r\n"); i >= 0 {
		return i + 1, data[:i], nil
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}

func (s *session) reply(format string, a ...any) {
	fmt.Fprintf(s.out, format+"\r\n", a...)
	s.out.Flush()
}

func (s *session) run() int {
	for s.in.Scan() {
		line := strings.TrimSpace(s.in.Text())
		if line == "" {
			continue
		}
		cmd, rest, _ := strings.Cut(line, " ")
		rest = strings.TrimSpace(rest)
		switch strings.ToUpper(cmd) {
		case "START":
			n, err := strconv.Atoi(rest)
			s.start(n, n, err)
		case "RECTSTART":
			w, h, err := parsePair(rest)
			s.start(w, h, err)
		case "RESTART":
			if s.pos == nil {
				s.reply("ERROR no START yet")
				continue
			}
			s.newGame()
			s.reply("OK")
		case "INFO":
			key, val, _ := strings.Cut(rest, " ")
			s.info(strings.ToLower(key), strings.TrimSpace(val))
		case "BEGIN":
			if !s.started() {
				continue
			}
			s.newGame()
			s.me = rules.Black
			s.think()
		case "TURN":
			if !s.started() {
				continue
			}
			x, y, err := parsePair(rest)
			if err != nil || !s.pos.Board.In(rules.Point{X: x, Y: y}) || s.pos.Board.At(rules.Point{X: x, Y: y}) != rules.Empty {
				s.reply("ERROR bad TURN %q", rest)
				continue
			}
			s.opponentMove(rules.Point{X: x, Y: y})
			s.think()
		case "BOARD":
			stones, ok := s.readBoard()
			if !ok {
				return 0 // stdin ended inside BOARD
			}
			if !s.started() {
				continue
			}
			s.rebuild(stones)
			s.think()
		case "SWAP2BOARD", "RIFOPEN", "RIFSWAP", "RIFOFFER", "RIFCHOOSE":
			block, ok := s.readBlock()
			if !ok {
				return 0 // stdin ended inside the block
			}
			if !s.started() {
				continue
			}
			s.openingCommand(strings.ToUpper(cmd), rest, block)
		case "RIFPROBE":
			if s.takesRIF() {
				s.reply("OK")
			} else {
				s.reply("UNKNOWN command %s", cmd)
			}
		case "TAKEBACK":
			x, y, err := parsePair(rest)
			if err != nil || s.pos == nil {
				s.reply("ERROR bad TAKEBACK %q", rest)
				continue
			}
			s.takeback(rules.Point{X: x, Y: y})
			s.reply("OK")
		case "ABOUT":
			s.reply("%s", s.eng.about())
		case "END":
			return 0
		default:
			s.reply("UNKNOWN command %s", cmd)
		}
	}
	if err := s.in.Err(); err != nil {
		fmt.Fprintf(os.Stderr, "brains: reading stdin: %v\n", err)
		return 1
	}
	return 0
}

func (s *session) started() bool {
	if s.pos == nil {
		s.reply("ERROR no START yet")
		return false
	}
	return true
}

func (s *session) start(w, h int, err error) {
	switch {
	case err != nil:
		s.reply("ERROR bad board size")
	case w != h:
		s.reply("ERROR only square boards are supported")
	case w < rules.MinSize || w > rules.MaxSize:
		s.reply("ERROR unsupported size %d (supported %d..%d)", w, rules.MinSize, rules.MaxSize)
	default:
		s.size = w
		s.newGame()
		s.reply("OK")
	}
}

func (s *session) newGame() {
	s.pos, _ = rules.NewPosition(s.size)
	s.me = rules.Empty
	if e, ok := s.eng.(interface{ newGame() }); ok {
		e.newGame()
	}
}

func (s *session) info(key, val string) {
	n, err := strconv.ParseInt(val, 10, 64)
	num := err == nil
	switch key {
	case "timeout_turn":
		if num {
			s.turnMS = n
		}
	case "timeout_match":
		if num {
			s.matchMS = n
		}
	case "time_left":
		if num {
			s.leftMS = n
		}
	case "max_depth":
		if num {
			s.maxDepth = int(n)
		}
	case "max_node":
		if num {
			s.maxNodes = n
		}
	case "rule":
		if num {
			s.ruleCode = int(n)
			s.setRule()
		}
	case "rule_name":
		s.ruleName = val
		s.setRule()
	}
	// max_memory, game_type, folder and anything else: nothing to do.
}

// setRule picks the rule from rule_name if given, else from the Gomocup
// code, falling back to freestyle for what we do not know.
func (s *session) setRule() {
	name := "freestyle"
	switch s.ruleCode {
	case 0, 5, 6:
	case 1, 3:
		name = "standard"
	case 2, 4:
		name = "renju"
	case 8:
		name = "caro"
	case 9:
		name = "caro-exact"
	default:
		switch {
		case s.ruleCode&4 != 0:
			name = "renju"
		case s.ruleCode&8 != 0:
			name = "caro"
		case s.ruleCode&1 != 0:
			name = "standard"
		}
	}
	if s.ruleName != "" {
		// The arena's own name wins over the code; a name we do not know
		// means a rule we cannot play exactly, and freestyle is the
		// loosest guess.
		name = s.ruleName
	}
	r, err := rules.ByName(name)
	if err != nil {
		r, _ = rules.ByName("freestyle")
	}
	if s.rule == nil || r.Name() != s.rule.Name() {
		s.rule = r
		s.exact = exactFives(r)
	}
}

// budget is the time for this move: the turn limit, or a share of the time
// left, less a margin for the pipe and the process; 200ms when untimed.
func (s *session) budget() time.Duration {
	ms := int64(-1)
	if s.set.timeMS > 0 {
		ms = s.set.timeMS
	} else {
		if s.turnMS >= 0 {
			ms = s.turnMS
		}
		if s.matchMS > 0 {
			share := s.matchMS / 40
			if s.leftMS >= 0 && s.leftMS < unlimited {
				share = s.leftMS / 25
			}
			if ms < 0 || share < ms {
				ms = share
			}
		}
		if ms < 0 {
			ms = 200
		}
	}
	b := time.Duration(ms) * time.Millisecond
	margin := b/10 + min(30*time.Millisecond, b/5)
	return b - margin
}

func (s *session) opponentMove(m rules.Point) {
	if s.me == rules.Empty {
		s.me = s.pos.ToMove().Opponent()
	}
	if v := s.rule.Play(s.pos, m); v.Illegal {
		// Our view disagrees with the arbiter's (it judged the move legal):
		// keep its stone anyway.
		s.pos.Place(m)
	}
}

func (s *session) takeback(m rules.Point) {
	if !s.pos.Board.In(m) {
		return
	}
	s.pos.Board.Set(m, rules.Empty)
	for i := len(s.pos.Moves) - 1; i >= 0; i-- {
		if s.pos.Moves[i] == m {
			s.pos.Moves = append(s.pos.Moves[:i], s.pos.Moves[i+1:]...)
			break
		}
	}
}

// think chooses our move, plays it on our position and sends it.
func (s *session) think() {
	lim := limits{start: time.Now(), budget: s.budget(), depth: s.maxDepth, nodes: s.maxNodes}
	if s.set.depth > 0 && (lim.depth == 0 || s.set.depth < lim.depth) {
		lim.depth = s.set.depth
	}
	if s.set.nodes > 0 && (lim.nodes == 0 || s.set.nodes < lim.nodes) {
		lim.nodes = s.set.nodes
	}
	m, ok := choose(s.eng, s.rule, s.pos, s.exact, lim)
	if !ok {
		s.reply("ERROR no legal move")
		return
	}
	s.rule.Play(s.pos, m)
	s.reply("%d,%d", m.X, m.Y)
}

// choose is one move by eng for the side to move in p: an immediate win when
// there is one, otherwise the engine's choice, always a legal move.
func choose(eng engine, rule rules.Rule, p *rules.Position, exact [3]bool, lim limits) (rules.Point, bool) {
	r := newRoot(rule, p, exact)
	if _, isRandom := eng.(*randomEngine); !isRandom && len(r.wins) > 0 {
		return r.wins[0], true
	}
	if m, ok := eng.move(r, lim); ok {
		if _, legalOK := legal(rule, p, m); legalOK {
			return m, true
		}
	}
	return r.fallback()
}

type boardStone struct {
	at    rules.Point
	field int
}

// readBoard reads the x,y,field lines after BOARD up to DONE. Malformed or
// off-board lines are skipped: a position we cannot read in full is still
// better played than refused.
func (s *session) readBoard() ([]boardStone, bool) {
	var stones []boardStone
	for s.in.Scan() {
		line := strings.TrimSpace(s.in.Text())
		if line == "" {
			continue
		}
		if strings.EqualFold(line, "DONE") {
			return stones, true
		}
		f := strings.Split(line, ",")
		if len(f) != 3 {
			continue
		}
		x, ex := strconv.Atoi(strings.TrimSpace(f[0]))
		y, ey := strconv.Atoi(strings.TrimSpace(f[1]))
		c, ec := strconv.Atoi(strings.TrimSpace(f[2]))
		if ex != nil || ey != nil || ec != nil || (c != 1 && c != 2) || s.pos == nil || !s.pos.Board.In(rules.Point{X: x, Y: y}) {
			continue
		}
		stones = append(stones, boardStone{rules.Point{X: x, Y: y}, c})
	}
	return nil, false
}

// rebuild replaces our position by the one BOARD lists. The stones come in
// move order, but under pente some may have been captured, so colours come
// from the fields. We prefer a position reached by legal play (it keeps the
// capture counts): from our previous position by the new stones, else from
// the empty board; failing both, we set the stones down directly.
func (s *session) rebuild(stones []boardStone) {
	own, opp := 0, 0
	for _, st := range stones {
		if st.field == 1 {
			own++
		} else {
			opp++
		}
	}
	// The counts tell the colour unless captures have skewed them; then the
	// colour we already had this game, then the first stone listed.
	switch {
	case own == opp:
		s.me = rules.Black
	case opp == own+1:
		s.me = rules.White
	case s.me != rules.Empty:
	case len(stones) > 0 && stones[0].field == 1:
		s.me = rules.Black
	default:
		s.me = rules.White
	}
	colour := func(st boardStone) rules.Color {
		if st.field == 1 {
			return s.me
		}
		return s.me.Opponent()
	}
	matches := func(p *rules.Position) bool {
		if p.ToMove() != s.me || p.Board.Stones(rules.Black)+p.Board.Stones(rules.White) != len(stones) {
			return false
		}
		for _, st := range stones {
			if p.Board.At(st.at) != colour(st) {
				return false
			}
		}
		return true
	}
	replay := func(p *rules.Position, only func(boardStone) bool) bool {
		for _, st := range stones {
			if !only(st) {
				continue
			}
			if p.ToMove() != colour(st) {
				return false
			}
			if v := s.rule.Play(p, st.at); v.Illegal {
				return false
			}
		}
		return matches(p)
	}
	if s.pos != nil && len(s.pos.Moves) > 0 {
		p := s.pos.Clone()
		if replay(p, func(st boardStone) bool { return p.Board.At(st.at) != colour(st) }) {
			s.pos = p
			return
		}
	}
	if p, _ := rules.NewPosition(s.size); replay(p, func(boardStone) bool { return true }) {
		s.pos = p
		return
	}
	s.pos = placed(s.size, stones, colour, s.me)
}

// placed sets the stones down without judging them and makes the move count
// and the capture counts the smallest ones consistent with what is missing.
func placed(size int, stones []boardStone, colour func(boardStone) rules.Color, me rules.Color) *rules.Position {
	p, _ := rules.NewPosition(size)
	var on [3]int
	for _, st := range stones {
		p.Board.Set(st.at, colour(st))
		on[colour(st)]++
	}
	// Black has placed as many stones as White when Black is to move, one
	// more otherwise; each side has placed at least what it has on the board.
	lead := 0
	if me == rules.White {
		lead = 1
	}
	white := max(on[rules.White], on[rules.Black]-lead)
	black := white + lead
	p.Captures[rules.Black] = white - on[rules.White]
	p.Captures[rules.White] = black - on[rules.Black]
	pad := black + white - len(stones)
	first := rules.Point{X: size / 2, Y: size / 2}
	if len(stones) > 0 {
		first = stones[0].at
	}
	for range pad {
		p.Moves = append(p.Moves, first)
	}
	for _, st := range stones {
		p.Moves = append(p.Moves, st.at)
	}
	return p
}

func parsePair(s string) (int, int, error) {
	a, b, ok := strings.Cut(s, ",")
	if !ok {
		return 0, 0, fmt.Errorf("want x,y")
	}
	x, err := strconv.Atoi(strings.TrimSpace(a))
	if err != nil {
		return 0, 0, err
	}
	y, err := strconv.Atoi(strings.TrimSpace(b))
	return x, y, err
}
