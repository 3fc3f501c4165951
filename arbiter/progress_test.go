package arbiter

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// Every stone a display hears of carries the stones it captured, opening
// stones included, as the record has them when the game ends; the record's
// captures are the rule's (record.Verify checks them when marked).
func TestProgressCarriesCaptures(t *testing.T) {
	pente := ruleNamed(t, "pente")
	// Black's fifth stone brackets White's two: the opening itself
	// captures.
	opening := []rules.Point{{X: 9, Y: 9}, {X: 10, Y: 9}, {X: 15, Y: 15}, {X: 11, Y: 9}, {X: 12, Y: 9}}
	captures := 0
	for seed := range 4 {
		var heard []record.Move
		g := Game{Rule: pente, Size: 19, Opening: opening, Moved: func(p Progress) {
			heard = append(heard, p.Before...)
			if !p.Opening {
				heard = append(heard, p.Move)
			}
		}}
		b := start(t, "random", fmt.Sprintf("seed=%d", 2*seed+1))
		w := start(t, "random", fmt.Sprintf("seed=%d", 2*seed+2))
		rec := mustPlay(t, context.Background(), g, player(b, fast), player(w, fast))
		replay(t, rec)
		if seed == 0 && !slices.Equal(heard[4].Captured, []rules.Point{{X: 11, Y: 9}, {X: 10, Y: 9}}) {
			t.Errorf("the opening's capturing stone was heard with captures %v", heard[4].Captured)
		}
		for i, m := range heard {
			if i >= len(rec.Moves) || !slices.Equal(m.Captured, rec.Moves[i].Captured) {
				t.Fatalf("seed %d: stone %d heard with captures %v, the record says %v", seed, i, m.Captured, rec.Moves[min(i, len(rec.Moves)-1)].Captured)
			}
			captures += len(m.Captured)
		}
		if n := len(rec.Moves); len(heard) != n && !(len(heard) == n-1 && rec.Moves[n-1].Refused != "") {
			t.Fatalf("seed %d: heard of %d stones, the record has %d", seed, len(heard), n)
		}
	}
	if captures <= 2 {
		t.Errorf("%d stones captured in four games: the engines' captures were not heard", captures)
	}
}

// A display that asks for them hears, with every report, the points where
// the side to move next may not play: Black's forbidden points under renju,
// none when White is to move, none for a display that does not ask.
func TestProgressCarriesForbiddenPoints(t *testing.T) {
	renju := ruleNamed(t, "renju")
	// Black to move, with 9,7 a double three.
	opening := []rules.Point{{X: 7, Y: 7}, {X: 0, Y: 0}, {X: 8, Y: 7}, {X: 0, Y: 14}, {X: 9, Y: 8}, {X: 14, Y: 0}, {X: 9, Y: 9}, {X: 14, Y: 14}}
	for _, ask := range []bool{true, false} {
		for seed := range 3 {
			var reports []Progress
			g := Game{Rule: renju, Size: 15, Opening: opening, Forbidden: ask, Moved: func(p Progress) { reports = append(reports, p) }}
			b := start(t, "random", fmt.Sprintf("seed=%d", seed+10))
			w := start(t, "random", fmt.Sprintf("seed=%d", seed+20))
			rec := mustPlay(t, context.Background(), g, player(b, fast), player(w, fast))
			replay(t, rec)
			if len(reports) == 0 || !reports[0].Opening {
				t.Fatalf("no opening report")
			}
			if ask && !slices.ContainsFunc(reports[0].Forbidden, func(p rules.Point) bool { return p == rules.Point{X: 9, Y: 7} }) {
				t.Errorf("after the opening: forbidden %v, want 9,7 among them", reports[0].Forbidden)
			}
			for i, p := range reports {
				want := forbiddenAfter(t, renju, rec, p.Stones)
				if !ask || p.Stones == len(rec.Moves) && rec.End != "" && i == len(reports)-1 && gameOverAt(rec, p.Stones) {
					want = nil
				}
				if !slices.Equal(p.Forbidden, want) {
					t.Fatalf("ask %v, seed %d, after %d stones: forbidden %v, want %v", ask, seed, p.Stones, p.Forbidden, want)
				}
			}
		}
	}
}

// gameOverAt reports whether the stones of rec up to n ended the game on
// the board (no one is to move after them).
func gameOverAt(rec *record.Record, n int) bool {
	return n == len(rec.Moves) && (rec.End == record.Five || rec.End == record.Forbidden || rec.End == record.FullBoard || rec.End == record.Illegal)
}

// forbiddenAfter is Black's forbidden points after the first n stones of
// rec when Black is to move, else none: what the rules say of the position.
func forbiddenAfter(t *testing.T, rule rules.Rule, rec *record.Record, n int) []rules.Point {
	t.Helper()
	part := *rec
	part.Moves = slices.Clone(rec.Moves[:n])
	part.Winner, part.End = rules.Empty, ""
	rp, err := record.Replay(&part, rule)
	if err != nil {
		t.Fatal(err)
	}
	if rp.Position.ToMove() != rules.Black {
		return nil
	}
	var out []rules.Point
	for _, f := range rules.ForbiddenPoints(rp.Position) {
		out = append(out, f.Point)
	}
	return out
}
