package record

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"gomoku-arena/rules"
)

// Setup properties as SGF FF[4] defines them: AB and AW add stones, AE
// clears points, PL names the side to move; a value may be a compressed
// point list "aa:bb" (the rectangle between two corners); setup and move
// properties never share a node.
func TestReadSGFSetup(t *testing.T) {
	cases := []struct {
		name   string
		in     string
		black  []rules.Point
		white  []rules.Point
		toMove rules.Color
		moves  int
	}{
		{"stones and the side to move", "(;GM[4]FF[4]SZ[15]AB[hh][ih]AW[hi]PL[W])",
			[]rules.Point{pt(7, 7), pt(8, 7)}, []rules.Point{pt(7, 8)}, rules.White, 0},
		{"a compressed point list", "(;GM[4]FF[4]SZ[15]AB[aa:bb]AW[cc]PL[W])",
			[]rules.Point{pt(0, 0), pt(1, 0), pt(0, 1), pt(1, 1)}, []rules.Point{pt(2, 2)}, rules.White, 0},
		{"AE clears a point before the moves", "(;GM[4]FF[4]SZ[15]AB[hh][ii]AW[jj];AE[ii];W[kk])",
			[]rules.Point{pt(7, 7)}, []rules.Point{pt(9, 9)}, rules.White, 1},
		{"equal counts: Black moves", "(;GM[4]FF[4]SZ[15]AB[hh]AW[ii])",
			[]rules.Point{pt(7, 7)}, []rules.Point{pt(8, 8)}, rules.Black, 0},
		{"the first move says who moves", "(;GM[4]FF[4]SZ[15]AB[hh][ii][jj];B[kk])",
			[]rules.Point{pt(7, 7), pt(8, 8), pt(9, 9)}, nil, rules.Black, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec, err := ReadSGF(strings.NewReader(tc.in), "s.sgf")
			if err != nil {
				t.Fatal(err)
			}
			var black, white []rules.Point
			for _, m := range rec.Setup {
				if m.Color == rules.Black {
					black = append(black, m.Point)
				} else {
					white = append(white, m.Point)
				}
			}
			if !reflect.DeepEqual(black, tc.black) || !reflect.DeepEqual(white, tc.white) || rec.SetupToMove != tc.toMove || len(rec.Moves) != tc.moves {
				t.Fatalf("setup black %v white %v, %v to move, %d moves", black, white, rec.SetupToMove, len(rec.Moves))
			}
			// Written and read back, the setup is the same.
			var b bytes.Buffer
			if err := WriteSGF(&b, rec); err != nil {
				t.Fatal(err)
			}
			again, err := ReadSGF(&b, "again.sgf")
			if err != nil || !reflect.DeepEqual(again.Setup, rec.Setup) || again.SetupToMove != rec.SetupToMove {
				t.Fatalf("round trip: %v %+v\n%s", err, again, b.String())
			}
		})
	}
}

// What the reader cannot take without guessing, it refuses.
func TestReadSGFRefusesWhatItDoesNotSupport(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"no GM: FF[4] means Go", "(;FF[4]SZ[15];B[hh])", "s.sgf:1:1: no GM property"},
		{"another game", "(;FF[4]GM[1]SZ[19];B[hh])", "s.sgf:1:11: GM[1]: not a Gomoku/Renju game"},
		{"variations", "(;GM[4];B[hh](;W[ii])(;W[jj]))", "s.sgf:1:22: a variation"},
		{"a node after the variations", "(;GM[4];B[hh](;W[ii]);B[jj])", "s.sgf:1:22: a node after a subtree"},
		{"a collection", "(;GM[4];B[hh])\n(;GM[4];B[ii])", "s.sgf:2:1: a second game tree"},
		{"B and W in one node", "(;GM[4];B[hh]W[ii])", "s.sgf:1:11: B and W in one node"},
		{"setup beside a move", "(;GM[4];B[hh]AW[ii])", "s.sgf:1:17: AW beside a move in one node"},
		{"setup after a move", "(;GM[4];B[hh];AW[ii])", "s.sgf:1:18: AW after move 1"},
		{"PL after a move", "(;GM[4];B[hh];PL[B])", "s.sgf:1:18: PL after move 1"},
		{"a bad PL", "(;GM[4]AB[hh]PL[X])", "s.sgf:1:17: PL[X]: want B or W"},
		{"who moves is not said", "(;GM[4]AB[hh][ii][jj])", "setup of 3 black and 0 white stones without PL"},
		{"a setup stone off the board", "(;GM[4]SZ[15]AB[zz])", "s.sgf:1:17: AB: sgf \"zz\": off the 15x15 board"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadSGF(strings.NewReader(c.in), "s.sgf")
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
}

// A set-up position replays from its stones: renju judges Black's next
// move on them, and the moves after the setup alternate from PL.
func TestReplayFromSetup(t *testing.T) {
	renju, _ := rules.ByName("renju")
	// Black D8 E8 F8 G9 G10 H9 I10 (renju letters), White on the edges:
	// G8 would be 4-3-3, forbidden as 3-3 (RULES.md).
	in := "(;GM[4]FF[4]SZ[15]RU[renju]RE[W+]AB[dh][eh][fh][gg][gf][hg][if]AW[aa][ac][ae][oa][oc][oe][ag]PL[B];B[gh])"
	rec, err := ReadSGF(strings.NewReader(in), "p.sgf")
	if err != nil {
		t.Fatal(err)
	}
	rp, err := Verify(rec, renju)
	if err != nil {
		t.Fatal(err)
	}
	if !rp.Over || rp.End != Forbidden || rp.Winner != rules.White || rp.Position.Board.Stones(rules.Black) != 7 {
		t.Fatalf("replay %+v", rp)
	}
	pente, _ := rules.ByName("pente")
	if _, err := Replay(rec, pente); err == nil || !strings.Contains(err.Error(), "captured") {
		t.Fatalf("a pente setup: %v", err)
	}
}
