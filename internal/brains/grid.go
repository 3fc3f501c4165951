package brains

import (
	"sync"

	"gomoku-arena/rules"
)

// grid is the engines' own fast board. Besides the stones it keeps, for every
// window (five consecutive points on a line), how many stones of each colour
// the window holds: that one table gives the evaluation, the move ordering and
// the "who makes five where" tests, all updated in constant time per stone.
// It knows nothing of forbidden moves or captures: rules.Rule judges the moves
// actually sent, the grid only guides the choice.
type grid struct {
	n      int
	cells  []rules.Color
	cnt    [3][]uint8 // stones per window, indexed by colour
	score  [3]int32   // sum of windowValue over live windows, per colour
	fours  [3]int32   // windows holding four of a colour and none of the other
	threes [3]int32   // the same with three
	near   []int16    // stones within Chebyshev distance 2
	hash   uint64
	turn   rules.Color
	exact  [3]bool // only an exact five wins for this colour
	geo    *geometry
}

// windowValue is what a window holding k stones of one colour (and none of the
// other) is worth to that colour. The steps are steep so that one three
// outweighs many twos and one four outweighs many threes.
var windowValue = [6]int32{0, 4, 20, 200, 2500, 100000}

// geometry is everything about a board size that never changes: which windows
// pass through each point, the neighbourhoods, the hash keys.
type geometry struct {
	n        int
	windows  [][]int32 // per point, the windows through it
	winCells [][5]int32
	nearby   [][]int32 // per point, the points within distance 2 (itself excluded)
	keys     [3][]uint64
}

var (
	geoMu    sync.Mutex
	geoCache = map[int]*geometry{}
)

func geometryFor(n int) *geometry {
	geoMu.Lock()
	defer geoMu.Unlock()
	if g, ok := geoCache[n]; ok {
		return g
	}
	g := &geometry{n: n, windows: make([][]int32, n*n), nearby: make([][]int32, n*n)}
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			for _, d := range rules.Directions {
				ex, ey := x+4*d.X, y+4*d.Y
				if ex < 0 || ey < 0 || ex >= n || ey >= n {
					continue
				}
				id := int32(len(g.winCells))
				var cells [5]int32
				for k := 0; k < 5; k++ {
					c := int32((y+k*d.Y)*n + x + k*d.X)
					cells[k] = c
					g.windows[c] = append(g.windows[c], id)
				}
				g.winCells = append(g.winCells, cells)
			}
			for dy := -2; dy <= 2; dy++ {
				for dx := -2; dx <= 2; dx++ {
					qx, qy := x+dx, y+dy
					if (dx != 0 || dy != 0) && qx >= 0 && qy >= 0 && qx < n && qy < n {
						g.nearby[y*n+x] = append(g.nearby[y*n+x], int32(qy*n+qx))
					}
				}
			}
		}
	}
	// A fixed generator: hashes only need to be consistent within a process.
	s := uint64(0x9E3779B97F4A7C15)
	next := func() uint64 {
		s ^= s << 13
		s ^= s >> 7
		s ^= s << 17
		return s
	}
	for c := 1; c <= 2; c++ {
		g.keys[c] = make([]uint64, n*n)
		for i := range g.keys[c] {
			g.keys[c][i] = next()
		}
	}
	geoCache[n] = g
	return g
}

// newGrid copies the stones of b; turn is the colour to move.
func newGrid(b *rules.Board, turn rules.Color, exact [3]bool) *grid {
	n := b.Size()
	geo := geometryFor(n)
	g := &grid{n: n, cells: make([]rules.Color, n*n), near: make([]int16, n*n), turn: turn, exact: exact, geo: geo}
	for c := 1; c <= 2; c++ {
		g.cnt[c] = make([]uint8, len(geo.winCells))
	}
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			if c := b.At(rules.Point{X: x, Y: y}); c != rules.Empty {
				g.put(y*n+x, c)
			}
		}
	}
	return g
}

func (g *grid) point(i int) rules.Point { return rules.Point{X: i % g.n, Y: i / g.n} }

// unlive takes window w out of the running totals before it changes;
// relive puts it back after.
func (g *grid) unlive(w int32) { g.count(w, -1) }
func (g *grid) relive(w int32) { g.count(w, 1) }

func (g *grid) count(w int32, sign int32) {
	b, wh := g.cnt[rules.Black][w], g.cnt[rules.White][w]
	switch {
	case wh == 0:
		g.score[rules.Black] += sign * windowValue[b]
		switch b {
		case 4:
			g.fours[rules.Black] += sign
		case 3:
			g.threes[rules.Black] += sign
		}
	case b == 0:
		g.score[rules.White] += sign * windowValue[wh]
		switch wh {
		case 4:
			g.fours[rules.White] += sign
		case 3:
			g.threes[rules.White] += sign
		}
	}
}

// put places a stone of colour c on the empty point i, whoever's turn it is.
func (g *grid) put(i int, c rules.Color) {
	for _, w := range g.geo.windows[i] {
		g.unlive(w)
		g.cnt[c][w]++
		g.relive(w)
	}
	for _, q := range g.geo.nearby[i] {
		g.near[q]++
	}
	g.cells[i] = c
	g.hash ^= g.geo.keys[c][i]
}

func (g *grid) take(i int) {
	c := g.cells[i]
	for _, w := range g.geo.windows[i] {
		g.unlive(w)
		g.cnt[c][w]--
		g.relive(w)
	}
	for _, q := range g.geo.nearby[i] {
		g.near[q]--
	}
	g.cells[i] = rules.Empty
	g.hash ^= g.geo.keys[c][i]
}

// play puts the side to move's stone on i and passes the turn.
func (g *grid) play(i int) {
	g.put(i, g.turn)
	g.turn = g.turn.Opponent()
}

// undo takes back play(i).
func (g *grid) undo(i int) {
	g.take(i)
	g.turn = g.turn.Opponent()
}

// makesFive reports whether a stone of c on the empty point i would make a
// winning row (five or more; exactly five when the rule says so for c).
func (g *grid) makesFive(i int, c rules.Color) bool {
	x, y := i%g.n, i/g.n
	for _, d := range rules.Directions {
		n := 1 + g.run(x, y, d.X, d.Y, c) + g.run(x, y, -d.X, -d.Y, c)
		if n == 5 || (n > 5 && !g.exact[c]) {
			return true
		}
	}
	return false
}

func (g *grid) run(x, y, dx, dy int, c rules.Color) int {
	k := 0
	for x, y = x+dx, y+dy; x >= 0 && y >= 0 && x < g.n && y < g.n && g.cells[y*g.n+x] == c; x, y = x+dx, y+dy {
		k++
	}
	return k
}

// fiveCells appends to dst the distinct empty points where c would make five
// in a window through point i (i itself holds a stone).
func (g *grid) fiveCells(dst []int, i int, c rules.Color) []int {
	o := c.Opponent()
	for _, w := range g.geo.windows[i] {
		if g.cnt[c][w] != 4 || g.cnt[o][w] != 0 {
			continue
		}
		for _, q := range g.geo.winCells[w] {
			if g.cells[q] == rules.Empty && !containsInt(dst, int(q)) && g.makesFive(int(q), c) {
				dst = append(dst, int(q))
			}
		}
	}
	return dst
}

// brackets reports whether a stone of c on i would enclose two or three
// stones of the other colour in a row (X O O X): the only moves that can
// capture under pente-like rules, so the only ones worth asking the rule about.
func (g *grid) brackets(i int, c rules.Color) bool {
	x, y := i%g.n, i/g.n
	o := c.Opponent()
	for _, d := range rules.Directions {
		for _, s := range [2]int{1, -1} {
			dx, dy := d.X*s, d.Y*s
			k := g.run(x, y, dx, dy, o)
			if k == 2 || k == 3 {
				ex, ey := x+(k+1)*dx, y+(k+1)*dy
				if ex >= 0 && ey >= 0 && ex < g.n && ey < g.n && g.cells[ey*g.n+ex] == c {
					return true
				}
			}
		}
	}
	return false
}

// eval is the static evaluation for the side to move.
func (g *grid) eval() int32 {
	me := g.turn
	op := me.Opponent()
	return g.score[me]*evalMine/8 - g.score[op] + min(g.threes[me], 2)*evalTempo
}

// Tuning knobs of eval: the side to move's windows weigh evalMine/8 of the
// opponent's, and each of its threes (up to two) adds evalTempo, because a
// three on the move becomes a four, or an open four, before the opponent can
// answer.
var evalMine, evalTempo int32 = 12, 0

// moveInfo is what placing a stone on one point does, seen by the side to move.
type moveInfo struct {
	at      int
	score   int32
	win     bool // makes five for the side to move
	block   bool // the opponent would make five here
	fours   int8 // windows it turns into fours for the side to move
	blockFs int8 // the opponent's fours it would make (their threes it breaks)
}

// assess scores point i for the side to move: attack (what it adds to the
// mover's windows) plus defence (what it takes from the opponent's).
func (g *grid) assess(i int) moveInfo {
	me := g.turn
	op := me.Opponent()
	m := moveInfo{at: i}
	var att, def int32
	for _, w := range g.geo.windows[i] {
		a, b := g.cnt[me][w], g.cnt[op][w]
		if b == 0 {
			att += windowValue[a+1] - windowValue[a]
			switch a {
			case 4:
				m.win = true
			case 3:
				m.fours++
			}
		}
		if a == 0 {
			def += windowValue[b]
			switch b {
			case 4:
				m.block = true
			case 3:
				m.blockFs++
			}
		}
	}
	if m.win && !g.makesFive(i, me) {
		m.win = false
	}
	if m.block && !g.makesFive(i, op) {
		m.block = false
	}
	m.score = att + def
	return m
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
