package brains

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"gomoku-arena/rules"
)

// The opening procedures: Swap2 (SWAP2BOARD, Gomocup's command) and the
// arena's RIF extension (RIFPROBE, RIFOPEN, RIFSWAP, RIFOFFER, RIFCHOOSE;
// README, "Protocol extensions"). Every engine but random decides them the
// same way, by the static balance of the windows (balance): swap when Black
// is ahead, stay White when White is ahead, and when it is close, hand the
// choice on (Swap2's two stones). random does not take part in the RIF
// extension, so the arbiter's fallback to the opening list gets played too.

// tempo is what having the move is worth in balance, in window values: about
// one open two.
const tempo = 40

// balance is the static evaluation from Black's side: Black's windows less
// White's, plus the tempo for the side to move.
func (s *session) balance(p *rules.Position) int32 {
	g := newGrid(p.Board, p.ToMove(), s.exact)
	v := g.score[rules.Black] - g.score[rules.White]
	if p.ToMove() == rules.Black {
		return v + tempo
	}
	return v - tempo
}

// takesRIF reports whether the engine takes part in the RIF extension.
func (s *session) takesRIF() bool {
	_, isRandom := s.eng.(*randomEngine)
	return !isRandom
}

// openingCommand answers an opening request whose stone block has been read.
func (s *session) openingCommand(cmd, rest string, block []boardStone) {
	if strings.HasPrefix(cmd, "RIF") && !s.takesRIF() {
		s.reply("UNKNOWN command %s", cmd)
		return
	}
	p, ok := s.blockPosition(block)
	if !ok {
		s.reply("ERROR %s: the stones are not a position reached by play", cmd)
		return
	}
	switch cmd {
	case "SWAP2BOARD":
		s.swap2(p)
	case "RIFOPEN":
		s.placeOpening(p)
	case "RIFSWAP":
		if len(p.Moves) != 3 {
			s.reply("ERROR RIFSWAP wants moves 1-3")
			return
		}
		s.swapOrPlay(p, 0)
	case "RIFOFFER":
		s.offer(p)
	case "RIFCHOOSE":
		s.chooseOffer(p, rest)
	}
}

// blockPosition plays the block's stones in order from the empty board.
// Stones carry their colour in the third field when the arbiter sends one;
// otherwise they alternate from Black.
func (s *session) blockPosition(block []boardStone) (*rules.Position, bool) {
	p, err := rules.NewPosition(s.size)
	if err != nil {
		return nil, false
	}
	for i, st := range block {
		c := rules.Black
		if st.field == 2 || (st.field == 0 && i%2 == 1) {
			c = rules.White
		}
		if p.ToMove() != c || s.rule.Play(p, st.at).Over {
			return nil, false
		}
	}
	return p, true
}

func (s *session) swap2(p *rules.Position) {
	switch len(p.Moves) {
	case 0:
		s.placeOpening(p)
	case 3:
		s.swapOrPlay(p, 2)
	case 5:
		s.swapOrPlay(p, 1)
	default:
		s.reply("ERROR SWAP2BOARD with %d stones", len(p.Moves))
	}
}

// placeOpening places three stones: the canonical renju opening closest to
// balance, so the opponent's choice gains it least. Where a rule keeps the
// first stones off the centre (outer-open's first stone outside the
// centre's square), each opening is moved, nearest the centre first, to
// the first place the rule takes it: the procedure exists on every board
// the rule does, and so does an answer.
func (s *session) placeOpening(p *rules.Position) {
	best, bestV := []rules.Point(nil), int32(0)
	shifts := boardShifts(s.size)
	for _, o := range rules.RIFOpenings {
		stones := o.Stones(s.size)
		for _, d := range shifts {
			moved := make([]rules.Point, len(stones))
			for i, st := range stones {
				moved[i] = rules.Point{X: st.X + d.X, Y: st.Y + d.Y}
			}
			q, err := rules.Setup(s.rule, s.size, moved)
			if err != nil {
				continue
			}
			if v := abs32(s.balance(q)); best == nil || v < bestV {
				best, bestV = q.Moves, v
			}
			break
		}
	}
	if best == nil { // no canonical shape fits (pente: the third stone off the central 5×5)
		if q, err := rules.Setup(s.rule, s.size, nearestOpening(s.rule, s.size, 3)); err == nil {
			best = q.Moves
		}
	}
	if best == nil {
		s.reply("ERROR no opening fits a %dx%d board", s.size, s.size)
		return
	}
	s.replyStones(best...)
}

// swapOrPlay decides with White to move: take Black when Black is ahead;
// otherwise play on as White, and when the position is close and up to two
// stones are allowed, place White's and Black's best moves and hand the
// choice back.
func (s *session) swapOrPlay(p *rules.Position, most int) {
	v := s.balance(p)
	if v > 0 {
		s.reply("SWAP")
		return
	}
	w, ok := s.best(p)
	if !ok {
		s.reply("ERROR no legal move")
		return
	}
	if most < 2 || v < -2*tempo {
		s.replyStones(w)
		return
	}
	q := p.Clone()
	s.rule.Play(q, w)
	b, ok := s.best(q)
	if !ok {
		s.replyStones(w)
		return
	}
	s.replyStones(w, b)
}

// offer proposes two 5th moves for Black: its two best that no symmetry of
// the position maps onto each other.
func (s *session) offer(p *rules.Position) {
	if len(p.Moves) != 4 {
		s.reply("ERROR RIFOFFER wants moves 1-4")
		return
	}
	r := newRoot(s.rule, p, s.exact)
	syms := rules.PositionSymmetries(p)
	var picks []rules.Point
	for _, m := range append(r.cands, allMoves(r)...) {
		pt := r.g.point(m.at)
		if _, ok := legal(s.rule, p, pt); !ok {
			continue
		}
		clash := false
		for _, q := range picks {
			for _, k := range syms {
				if rules.Transform(pt, s.size, k) == q {
					clash = true
				}
			}
		}
		if !clash {
			picks = append(picks, pt)
		}
		if len(picks) == 2 {
			s.replyStones(picks...)
			return
		}
	}
	s.reply("ERROR no two distinct 5th moves")
}

func allMoves(r *root) []moveInfo {
	var all []moveInfo
	for i, c := range r.g.cells {
		if c == rules.Empty {
			all = append(all, moveInfo{at: i})
		}
	}
	return all
}

// chooseOffer keeps the offer that leaves White best off.
func (s *session) chooseOffer(p *rules.Position, rest string) {
	var offers []rules.Point
	for _, f := range strings.Fields(rest) {
		x, y, err := parsePair(f)
		if err != nil {
			s.reply("ERROR bad offer %q", f)
			return
		}
		offers = append(offers, rules.Point{X: x, Y: y})
	}
	best, bestV, found := rules.Point{}, int32(0), false
	for _, m := range offers {
		q := p.Clone()
		if v := s.rule.Play(q, m); v.Over {
			continue
		}
		if v := s.balance(q); !found || v < bestV {
			best, bestV, found = m, v, true
		}
	}
	if !found {
		s.reply("ERROR no playable offer in %q", rest)
		return
	}
	s.replyStones(best)
}

// best is the engine's move for the side to move in p, within a small
// share of the move budget (an opening decision is one move of many).
func (s *session) best(p *rules.Position) (rules.Point, bool) {
	lim := limits{start: time.Now(), budget: s.budget() / 2, depth: s.maxDepth, nodes: s.maxNodes}
	return choose(s.eng, s.rule, p, s.exact, lim)
}

func (s *session) replyStones(pts ...rules.Point) {
	parts := make([]string, len(pts))
	for i, m := range pts {
		parts[i] = fmt.Sprintf("%d,%d", m.X, m.Y)
	}
	s.reply("%s", strings.Join(parts, " "))
}

// readBlock reads stone lines "x,y" or "x,y,c" up to DONE (field 0 when
// there is no colour). Lines it cannot read are skipped.
func (s *session) readBlock() ([]boardStone, bool) {
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
		if len(f) != 2 && len(f) != 3 {
			continue
		}
		x, ex := strconv.Atoi(strings.TrimSpace(f[0]))
		y, ey := strconv.Atoi(strings.TrimSpace(f[1]))
		c := 0
		if len(f) == 3 {
			var err error
			if c, err = strconv.Atoi(strings.TrimSpace(f[2])); err != nil || (c != 1 && c != 2) {
				continue
			}
		}
		if ex != nil || ey != nil {
			continue
		}
		stones = append(stones, boardStone{rules.Point{X: x, Y: y}, c})
	}
	return nil, false
}

func abs32(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}

// boardShifts are the moves of a stone within a board of size, the still
// one first, then by distance from it (the centre's openings kept nearest
// the centre).
func boardShifts(size int) []rules.Point {
	var out []rules.Point
	for dy := -size / 2; dy <= size/2; dy++ {
		for dx := -size / 2; dx <= size/2; dx++ {
			out = append(out, rules.Point{X: dx, Y: dy})
		}
	}
	slices.SortStableFunc(out, func(a, b rules.Point) int {
		return max(abs(a.X), abs(a.Y))*100 + abs(a.X) + abs(a.Y) - (max(abs(b.X), abs(b.Y))*100 + abs(b.X) + abs(b.Y))
	})
	return out
}

// nearestOpening places n stones one at a time, each on the point nearest
// the centre that the rule takes after those before it: an opening for a
// rule no canonical shape fits.
func nearestOpening(rule rules.Rule, size, n int) []rules.Point {
	c := size / 2
	var out []rules.Point
	for range n {
		for _, d := range boardShifts(size) {
			m := rules.Point{X: c + d.X, Y: c + d.Y}
			if m.X < 0 || m.Y < 0 || m.X >= size || m.Y >= size || slices.Contains(out, m) {
				continue
			}
			if _, err := rules.Setup(rule, size, append(slices.Clone(out), m)); err == nil {
				out = append(out, m)
				break
			}
		}
	}
	return out
}
