package main

import (
	"encoding/json"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"gomoku-arena/rules"
)

// One name per point (issue 20): for random renju positions, in every
// notation arena rules reads, every point it prints — forbidden points, the
// last move, and the diagram's labels around each mark — typed back as input
// in the same notation names the same point.
func TestPrintedPointsReadBack(t *testing.T) {
	renju, _ := rules.ByName("renju")
	const size = 15
	positions, checked := 60, 0
	if testing.Short() {
		positions = 25
	}
	rng := rand.New(rand.NewPCG(20, 19))
	for i := 0; i < positions; i++ {
		stones := randomPosition(rng, renju, size)
		for _, n := range []rules.Notation{rules.Pos, rules.Renju, rules.GoLetters} {
			var in []string
			for _, p := range stones {
				in = append(in, n.Format(p, size))
			}
			arg := strings.Join(in, " ")
			text, errOut, code := runArena(t, "rules", "-rule", "renju", "-notation", n.String(), arg)
			js, _, _ := runArena(t, "rules", "-rule", "renju", "-notation", n.String(), "-json", arg)
			if code != 0 {
				t.Fatalf("%s %q: exit %d\n%s", n, arg, code, errOut)
			}
			var a analysis
			if err := json.Unmarshal([]byte(js), &a); err != nil {
				t.Fatal(err)
			}
			printed := map[string]rules.Point{}
			for _, f := range a.Forbidden {
				printed[n.Format(rules.Point{X: f.Point.X, Y: f.Point.Y}, size)] = rules.Point{X: f.Point.X, Y: f.Point.Y}
				if f.Point.Pos != rules.Pos.Format(rules.Point{X: f.Point.X, Y: f.Point.Y}, size) ||
					f.Point.Renju != rules.Renju.Format(rules.Point{X: f.Point.X, Y: f.Point.Y}, size) ||
					f.Point.Go != rules.GoLetters.Format(rules.Point{X: f.Point.X, Y: f.Point.Y}, size) {
					t.Errorf("JSON point %+v: its notations disagree with x,y", f.Point)
				}
			}
			if a.LastMove != nil {
				printed[n.Format(rules.Point{X: a.LastMove.X, Y: a.LastMove.Y}, size)] = rules.Point{X: a.LastMove.X, Y: a.LastMove.Y}
			}
			// Every point the text names is one the JSON gave, in n.
			for _, name := range textPoints(text) {
				if _, ok := printed[name]; !ok {
					t.Errorf("%s: the text prints %q, which is no point of the JSON %v\n%s", n, name, printed, text)
				}
			}
			for name, p := range printed {
				checked++
				// Typed back: a one-stone position on that point.
				back, errOut, code := runArena(t, "rules", "-rule", "freestyle", "-notation", n.String(), "-json", name)
				var b analysis
				if code != 0 || json.Unmarshal([]byte(back), &b) != nil || b.Board[p.Y][p.X] != 'X' || b.Stones != 1 {
					t.Errorf("%s: %q printed for %v, typed back: exit %d %s\n%s", n, name, p, code, errOut, back)
				}
				// The diagram labels the mark's column and row the same way.
				if got := diagramName(t, text, p, n); got != name {
					t.Errorf("%s: the diagram labels %v as %q, the text names it %q\n%s", n, p, got, name, text)
				}
			}
		}
	}
	t.Logf("%d printed points typed back", checked)
	if checked < 20 {
		t.Errorf("only %d printed points checked: the positions are too poor", checked)
	}
}

// randomPosition plays random stones near the centre under rule until one
// would end the game, which it plays too one time in four.
func randomPosition(rng *rand.Rand, rule rules.Rule, size int) []rules.Point {
	p, _ := rules.NewPosition(size)
	var stones []rules.Point
	for len(stones) < 60 {
		m := rules.Point{X: 3 + rng.IntN(9), Y: 3 + rng.IntN(9)}
		if p.Board.At(m) != rules.Empty {
			continue
		}
		q := p.Clone()
		if v := rule.Play(q, m); v.Over {
			if rng.IntN(4) == 0 {
				return append(stones, m)
			}
			if len(stones) > 20 {
				break
			}
			continue
		}
		*p = *q
		stones = append(stones, m)
	}
	return stones
}

var printedName = regexp.MustCompile(`(?:forbidden for black[^:]*:|game over after|;) ([A-Za-z]+[0-9]+)`)

// textPoints are the point names the text prints after the diagram.
func textPoints(text string) []string {
	var names []string
	for _, m := range printedName.FindAllStringSubmatch(text, -1) {
		names = append(names, m[1])
	}
	return names
}

// diagramName reads p's column letter from the diagram's top line and its
// row number from the left of its line, and writes them as n writes a point.
func diagramName(t *testing.T, text string, p rules.Point, n rules.Notation) string {
	t.Helper()
	lines := strings.Split(text, "\n")
	cols := strings.Fields(lines[0])
	row := strings.Fields(lines[1+p.Y])
	if p.X >= len(cols) || len(row) == 0 {
		t.Fatalf("diagram too small:\n%s", text)
	}
	return cols[p.X] + row[0]
}
