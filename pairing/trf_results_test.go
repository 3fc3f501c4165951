package pairing

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TRF-16 gives each player's result of a round on the player's own line:
// 1 0 = for a played game (W L D the same, unrated), + - for a game not
// played (forfeit win, forfeit loss). Each side is read on its own; these
// are the pairs the format has, and what a certified engine (bbpPairings)
// makes of them: the points of each side, whether the game was played
// (colours, a meeting), and whether it spends the bye.
func TestTRFResultPairs(t *testing.T) {
	tests := []struct {
		a, b    string // results of players 1 (w) and 2 (b)
		pa, pb  float64
		forfeit bool
		noByeA  bool // a forfeit win spends the pairing-allocated bye
		noByeB  bool
	}{
		{"1", "0", 1, 0, false, false, false},
		{"0", "1", 0, 1, false, false, false},
		{"=", "=", 0.5, 0.5, false, false, false},
		{"0", "0", 0, 0, false, false, false}, // played, both lose
		{"W", "L", 1, 0, false, false, false},
		{"D", "D", 0.5, 0.5, false, false, false},
		{"L", "L", 0, 0, false, false, false},
		{"+", "-", 1, 0, true, true, false},
		{"-", "+", 0, 1, true, false, true},
		{"-", "-", 0, 0, true, false, false}, // double forfeit
	}
	for _, tc := range tests {
		in := trfLine(1, "Alpha", 0, fmt.Sprintf("%.1f", tc.pa), "   2 w "+tc.a) +
			trfLine(2, "Beta", 0, fmt.Sprintf("%.1f", tc.pb), "   1 b "+tc.b) +
			trfLine(3, "Gamma", 0, "1.0", "0000 - U")
		tr, err := ReadTRF(strings.NewReader(in))
		if err != nil {
			t.Errorf("%s/%s: %v", tc.a, tc.b, err)
			continue
		}
		var g Game
		for _, x := range tr.Games {
			if x.White != Bye {
				g = x
			}
		}
		if g.Black != 0 || g.White != 1 || g.BlackPoints != tc.pa || g.WhitePoints != tc.pb || g.Forfeit != tc.forfeit {
			t.Errorf("%s/%s: read as %+v", tc.a, tc.b, g)
			continue
		}
		players, history, round, opt := tr.Swiss()
		tn, err := newTourney(players, history, round, opt)
		if err != nil {
			t.Errorf("%s/%s: %v", tc.a, tc.b, err)
			continue
		}
		a, b := tn.byID[0], tn.byID[1]
		if a.pts != halfPoints(tc.pa) || b.pts != halfPoints(tc.pb) {
			t.Errorf("%s/%s: scores %d, %d half points", tc.a, tc.b, a.pts, b.pts)
		}
		if a.met[1] == tc.forfeit || (len(a.colours) > 0) == tc.forfeit {
			t.Errorf("%s/%s: met %v, colours %v: a game not played is no meeting and gives no colour", tc.a, tc.b, a.met[1], a.colours)
		}
		if a.noBye != tc.noByeA || b.noBye != tc.noByeB {
			t.Errorf("%s/%s: bye spent: %v, %v; want %v, %v", tc.a, tc.b, a.noBye, b.noBye, tc.noByeA, tc.noByeB)
		}
		// Written back, each side keeps its own code (W L D become 1 0 =).
		var buf bytes.Buffer
		if err := WriteTRF(&buf, tr); err != nil {
			t.Fatal(err)
		}
		back, err := ReadTRF(&buf)
		if err != nil || fmt.Sprint(sortGames(back.Games)) != fmt.Sprint(sortGames(tr.Games)) {
			t.Errorf("%s/%s: round trip: %v\n%s", tc.a, tc.b, err, buf.String())
		}
	}
}

// What the format does not allow is refused, naming the line: results that
// do not make a game (both win, a win against a draw), a forfeit against a
// played result, and a game's result with no opponent.
func TestTRFResultPairsRefused(t *testing.T) {
	for _, pair := range [][2]string{{"1", "1"}, {"1", "="}, {"=", "0"}, {"+", "+"}, {"+", "0"}, {"-", "0"}, {"1", "-"}, {"W", "W"}} {
		in := trfLine(1, "Alpha", 0, "1.0", "   2 w "+pair[0]) + trfLine(2, "Beta", 0, "0.0", "   1 b "+pair[1])
		_, err := ReadTRF(strings.NewReader(in))
		if err == nil || !strings.Contains(err.Error(), "trf line 1: round 1 result") {
			t.Errorf("%s/%s: err = %v", pair[0], pair[1], err)
		}
	}
	for _, res := range []string{"1", "0", "W", "L", "D"} {
		in := trfLine(1, "Alpha", 0, "1.0", "0000 - "+res) + trfLine(2, "Beta", 0, "0.0", "0000 - U")
		if _, err := ReadTRF(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), "no opponent") {
			t.Errorf("0000 - %s: err = %v", res, err)
		}
	}
}

// A double forfeit leaves both players as if they had not met: the Dutch
// rules may pair them again, neither gets a colour or a float, and neither
// has spent the bye. In a four-player event where 1-2 was a double forfeit
// and 3 beat 4, round 2 pairs 3 (1 point) against the top of the rest, and
// 1 may meet 2 again.
func TestDoubleForfeitPairsAgain(t *testing.T) {
	in := "XXR 3\n" +
		trfLine(1, "A", 0, "0.0", "   2 w -") +
		trfLine(2, "B", 0, "0.0", "   1 b -") +
		trfLine(3, "C", 0, "1.0", "   4 w 1") +
		trfLine(4, "D", 0, "0.0", "   3 b 0")
	var out bytes.Buffer
	if err := PairTRF(strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	// Score groups: {3} on 1, {1, 2, 4} on 0. 3 floats down to the top of
	// the zero group it has not met: 1, who has no colour yet, moves first
	// (3 moved first in round 1). 2 and 4 remain; 4 moved second, 2 has no
	// colour: 4 moves first. bbpPairings pairs this file the same way.
	if got := out.String(); got != "2\n1 3\n4 2\n" {
		t.Errorf("round 2:\n%s", got)
	}
	tr, err := ReadTRF(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	players, history, round, opt := tr.Swiss()
	tn, err := newTourney(players, history, round, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []int{0, 1} {
		e := tn.byID[id]
		if len(e.met) != 0 || len(e.colours) != 0 || e.noBye || e.floats[0] != floatNone || e.unplayed != 1 {
			t.Errorf("player %d after a double forfeit: %+v", id+1, e)
		}
	}
}
