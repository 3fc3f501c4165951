package brains

import (
	"time"

	"gomoku-arena/rules"
)

// Scores: a won position is worth winScore less the plies to reach it, so
// the search prefers quicker wins and slower losses.
const (
	winScore = 1_000_000
	mateZone = winScore - 1000
	infinity = winScore + 1
	maxPly   = 64
	ttBits   = 18
)

// beam is how many of the best-ordered moves a node below the root searches.
// Gomoku positions have dozens of plausible points but rarely more than a
// handful of good ones; cutting the rest buys several plies.
var beam = [maxPly]int{0, 16, 12, 10}

func beamAt(ply int) int {
	if ply < len(beam) && beam[ply] > 0 {
		return beam[ply]
	}
	return 8
}

type ttFlag uint8

const (
	ttNone ttFlag = iota
	ttExact
	ttLower
	ttUpper
)

type ttEntry struct {
	key   uint64
	score int32
	move  int16
	depth int8
	flag  ttFlag
}

// searchEngine is a negamax alpha-beta search with iterative deepening under
// the move's time budget: candidates near the stones ordered by the window
// heuristic, forced replies to fours searched without using up depth, and a
// transposition table kept from move to move.
type searchEngine struct {
	tt    []ttEntry
	g     *grid
	lim   limits
	stop  time.Time
	nodes int64
	abort bool
	buf   [maxPly + 1][]moveInfo
}

func newSearchEngine() *searchEngine {
	return &searchEngine{tt: make([]ttEntry, 1<<ttBits)}
}

func (*searchEngine) about() string { return aboutLine("search") }

// newGame forgets the table: the next game may be under another rule, where
// the same stones are worth something else.
func (s *searchEngine) newGame() { clear(s.tt) }

func (s *searchEngine) move(r *root, lim limits) (rules.Point, bool) {
	// The root moves: the legal blocks when the opponent threatens to win,
	// else every legal point near the stones, best first.
	var moves []moveInfo
	if len(r.threats) > 0 {
		for _, m := range r.cands {
			if containsPoint(r.threats, r.g.point(m.at)) {
				if _, ok := legal(r.rule, r.pos, r.g.point(m.at)); ok {
					moves = append(moves, m)
				}
			}
		}
	}
	if len(moves) == 0 {
		for _, m := range r.cands {
			if _, ok := legal(r.rule, r.pos, r.g.point(m.at)); ok {
				moves = append(moves, m)
			}
		}
	}
	switch len(moves) {
	case 0:
		return rules.Point{}, false
	case 1:
		return r.g.point(moves[0].at), true
	}
	s.g, s.lim, s.nodes, s.abort = r.g, lim, 0, false
	s.stop = lim.start.Add(lim.budget / 4)
	if len(r.threats) == 0 {
		if m := s.vcf(vcfDepth); m >= 0 && containsMove(moves, m) {
			return r.g.point(m), true
		}
	}
	moves = s.safe(moves)
	best, _, _ := s.think(r.g, moves, lim)
	return r.g.point(best), true
}

// safe drops the root moves after which the opponent has a VCF, unless
// that would drop them all. The alpha-beta horizon is short; a chain of
// fours is not, and it is the usual way a search loses to a simple player.
func (s *searchEngine) safe(moves []moveInfo) []moveInfo {
	g := s.g
	var keep []moveInfo
	for _, m := range moves {
		g.play(m.at)
		lost := s.vcf(vcfDepth) >= 0
		g.undo(m.at)
		if s.abort {
			return moves
		}
		if !lost {
			keep = append(keep, m)
		}
	}
	if len(keep) == 0 {
		return moves
	}
	return keep
}

func containsMove(ms []moveInfo, i int) bool {
	for _, m := range ms {
		if m.at == i {
			return true
		}
	}
	return false
}

// think runs the iterative deepening over the root moves and returns the
// best one, its score and the last depth completed.
func (s *searchEngine) think(g *grid, moves []moveInfo, lim limits) (int, int32, int) {
	s.g, s.lim, s.nodes, s.abort = g, lim, 0, false
	s.stop = lim.start.Add(lim.budget)
	best, score, done := moves[0].at, int32(0), 0
	for depth := 1; depth < maxPly; depth++ {
		if lim.depth > 0 && depth > lim.depth {
			break
		}
		m, v, ok := s.searchRoot(depth, moves)
		if ok || m >= 0 {
			best, score = m, v
		}
		if !ok {
			break
		}
		done = depth
		// The best move goes first in the next iteration.
		for i := range moves {
			if moves[i].at == m {
				mv := moves[i]
				copy(moves[1:i+1], moves[:i])
				moves[0] = mv
				break
			}
		}
		if v >= mateZone || v <= -mateZone {
			break
		}
		// An iteration takes several times the last one: do not start one
		// that cannot finish.
		if time.Since(lim.start) > lim.budget/3 {
			break
		}
	}
	return best, score, done
}

// searchRoot searches every root move to depth. It returns the best move of
// the moves searched in full (-1 if none), and whether all were searched.
func (s *searchEngine) searchRoot(depth int, moves []moveInfo) (int, int32, bool) {
	g := s.g
	alpha := int32(-infinity)
	best := -1
	for _, m := range moves {
		g.play(m.at)
		v := -s.negamax(depth-1, 1, -infinity, -alpha)
		g.undo(m.at)
		if s.abort {
			return best, alpha, false
		}
		if v > alpha || best < 0 {
			alpha, best = v, m.at
		}
	}
	return best, alpha, true
}

func (s *searchEngine) timeUp() bool {
	if s.lim.nodes > 0 && s.nodes >= s.lim.nodes {
		return true
	}
	return s.nodes&31 == 0 && time.Now().After(s.stop)
}

func (s *searchEngine) negamax(depth, ply int, alpha, beta int32) int32 {
	s.nodes++
	if s.abort || s.timeUp() {
		s.abort = true
		return 0
	}
	g := s.g
	// Most nodes are leaves with no four on the board: no need to list moves.
	if (depth <= 0 || ply >= maxPly-1) && g.fours[rules.Black] == 0 && g.fours[rules.White] == 0 {
		return g.eval()
	}
	moves, win, block := s.gen(ply)
	switch {
	case win:
		return winScore - int32(ply)
	case block == -2:
		return -(winScore - int32(ply) - 1)
	case block >= 0:
		// A forced reply costs no depth, so a chain of fours is read to its
		// end (each one uses up a point, so it ends).
		moves = moves[:1]
		moves[0] = moveInfo{at: block}
		if ply < maxPly-2 {
			depth++
		}
	case depth <= 0 || ply >= maxPly-1:
		return g.eval()
	case len(moves) == 0:
		return 0 // full board
	}

	origAlpha := alpha
	e := &s.tt[g.hash&(1<<ttBits-1)]
	ttMove := -1
	if e.key == g.hash && e.flag != ttNone {
		ttMove = int(e.move)
		if int(e.depth) >= depth {
			v := fromTT(e.score, ply)
			switch {
			case e.flag == ttExact,
				e.flag == ttLower && v >= beta,
				e.flag == ttUpper && v <= alpha:
				return v
			}
		}
	}
	if len(moves) > 1 {
		moves = pickBest(moves, beamAt(ply), ttMove)
	}

	best, bestMove := int32(-infinity), moves[0].at
	for _, m := range moves {
		g.play(m.at)
		v := -s.negamax(depth-1, ply+1, -beta, -alpha)
		g.undo(m.at)
		if s.abort {
			return 0
		}
		if v > best {
			best, bestMove = v, m.at
			if v > alpha {
				alpha = v
				if alpha >= beta {
					break
				}
			}
		}
	}
	flag := ttExact
	switch {
	case best <= origAlpha:
		flag = ttUpper
	case best >= beta:
		flag = ttLower
	}
	*e = ttEntry{key: g.hash, score: toTT(best, ply), move: int16(bestMove), depth: int8(depth), flag: flag}
	return best
}

// gen lists the points near stones, assessed for the side to move. win says
// the side to move makes five; block is the one point where the opponent
// would make five, -1 if none, -2 if there are two (a lost position).
func (s *searchEngine) gen(ply int) ([]moveInfo, bool, int) {
	g := s.g
	ms := s.buf[ply][:0]
	block := -1
	for i, c := range g.cells {
		if c != rules.Empty || g.near[i] == 0 {
			continue
		}
		m := g.assess(i)
		if m.win {
			s.buf[ply] = ms
			return ms, true, -1
		}
		if m.block {
			if block >= 0 {
				block = -2
			} else if block == -1 {
				block = i
			}
		}
		ms = append(ms, m)
	}
	s.buf[ply] = ms
	return ms, false, block
}

// pickBest moves the k best moves (the table's move first) to the front, in
// order, and returns them.
func pickBest(ms []moveInfo, k int, first int) []moveInfo {
	start := 0
	if first >= 0 {
		for i := range ms {
			if ms[i].at == first {
				ms[0], ms[i] = ms[i], ms[0]
				start = 1
				break
			}
		}
	}
	if k > len(ms) {
		k = len(ms)
	}
	for i := start; i < k; i++ {
		b := i
		for j := i + 1; j < len(ms); j++ {
			if ms[j].score > ms[b].score {
				b = j
			}
		}
		ms[i], ms[b] = ms[b], ms[i]
	}
	return ms[:k]
}

// Mate scores are stored relative to the node, so a position reached at a
// different ply reads the right distance.
func toTT(v int32, ply int) int32 {
	switch {
	case v >= mateZone:
		return v + int32(ply)
	case v <= -mateZone:
		return v - int32(ply)
	}
	return v
}

func fromTT(v int32, ply int) int32 {
	switch {
	case v >= mateZone:
		return v - int32(ply)
	case v <= -mateZone:
		return v + int32(ply)
	}
	return v
}
