package pairing

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// simTRF plays a random event of n players for played rounds and returns it
// as a report.
func simTRF(t testing.TB, n, rounds, played int, seed uint64) (*sim, *TRF) {
	s := newSim(t, n, rounds, seed)
	s.forfeits = 0.05
	for r := 1; r <= played; r++ {
		s.pairAndPlay(r)
	}
	tr := &TRF{Name: "sim", Rounds: rounds}
	for _, p := range s.players {
		tr.Players = append(tr.Players, TRFPlayer{Name: fmt.Sprintf("engine %d", p.ID), Rating: p.Rating})
	}
	tr.Games = s.history
	return s, tr
}

func normalGames(gs []Game) string {
	var b strings.Builder
	for _, g := range gs {
		if g.White == Bye && !g.Forfeit {
			g.BlackPoints = 1
		}
		if g.Forfeit && g.White != Bye && g.Black > g.White {
			// unplayed games keep no colour: compare them by player numbers
			g.Black, g.White, g.BlackPoints, g.WhitePoints = g.White, g.Black, g.WhitePoints, g.BlackPoints
		}
		fmt.Fprintf(&b, "%v\n", g)
	}
	return b.String()
}

func TestTRFRoundTripAndPairTRF(t *testing.T) {
	for seed := range uint64(8) {
		s, tr := simTRF(t, 9+int(seed)*7, 9, 5, seed)
		var buf bytes.Buffer
		if err := WriteTRF(&buf, tr); err != nil {
			t.Fatal(err)
		}
		back, err := ReadTRF(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, buf.String())
		}
		if back.Rounds != 9 || len(back.Players) != len(tr.Players) || back.Players[3].Name != tr.Players[3].Name {
			t.Fatalf("seed %d: header/players lost: %+v", seed, back)
		}
		if a, b := normalGames(sortGames(tr.Games)), normalGames(sortGames(back.Games)); a != b {
			t.Fatalf("seed %d: games differ after round trip:\n%s\nvs\n%s", seed, a, b)
		}
		want, err := PairSwiss(s.players, s.history, 6, s.opt)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := PairTRF(bytes.NewReader(buf.Bytes()), &out); err != nil {
			t.Fatal(err)
		}
		var exp strings.Builder
		fmt.Fprintf(&exp, "%d\n", len(want))
		for _, p := range want {
			fmt.Fprintf(&exp, "%d %d\n", p.Black+1, p.White+1)
		}
		if out.String() != exp.String() {
			t.Fatalf("seed %d: PairTRF printed\n%s\nwant\n%s", seed, out.String(), exp.String())
		}
	}
}

func sortGames(gs []Game) []Game {
	out := append([]Game(nil), gs...)
	key := func(g Game) string {
		a, b := g.Black, g.White
		if g.Forfeit && b != Bye && a > b {
			a, b = b, a
		}
		return fmt.Sprintf("%03d %05d %05d", g.Round, a, b)
	}
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if key(out[j]) < key(out[i]) {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func TestTRFErrorsNameLineAndField(t *testing.T) {
	ok := trfLine(1, "Alpha", 2000, "1.0", "   2 w 1") + trfLine(2, "Beta", 1900, "0.0", "   1 b 0")
	tests := []struct{ name, in, want string }{
		{"bad start", strings.Replace(ok, "001    2", "001    x", 1), "line 2: starting rank"},
		{"bad colour", strings.Replace(ok, "2 w 1", "2 q 1", 1), "line 1: round 1 colour (column 97)"},
		{"bad result", strings.Replace(ok, "2 w 1", "2 w 7", 1), "line 1: round 1 result (column 99)"},
		{"mismatch", strings.Replace(ok, "1 b 0", "1 b 1", 1), "does not match"},
		{"unknown opponent", strings.Replace(ok, "    2 w 1", "    9 w 1", 1), "opponent"},
		{"gap", strings.Replace(ok, "001    2", "001    3", 1), "starting ranks must run"},
		{"xxr", "XXR x\n" + ok, "line 1: XXR"},
		{"short", "001    1  A\n", "line 1: player line too short"},
		{"xxc", "XXC rank\n" + ok, "line 1: XXC"},
		{"xxp", "XXP 1 x\n" + ok, "line 1: XXP"},
		{"xxp rank", "XXP 1 9\n" + ok, "line 1: XXP: 9 is not a starting rank"},
		{"points", "BBW 3.0\n" + ok, "line 1: BBW: 3 points for a win is not supported"},
		{"bye points", "BBU 0.7\n" + ok, "line 1: BBU: a pairing-allocated bye of 0.7 points"},
		{"162", "162  W 1.0    D 1.0\n" + ok, "line 1: 162 (column 15): 1 points for a draw"},
		{"xxs", "XXS WW=1 WD=1\n" + ok, "line 1: XXS: WD"},
		{"xxa", "XXA    1  1.0\n" + ok, "line 1: XXA: accelerated pairings"},
		// Bounds (issue 27): a number costs no more than the events it is for.
		{"xxr beyond", "XXR 1000000000000000001\n" + ok, "line 1: XXR"},
		{"142 beyond", "142 5000\n" + ok, "line 1: 142: 5000 rounds"},
		{"240 beyond", "240 F 1000000000000000001 1\n" + ok, "line 1: 240: round"},
		{"rounds of games beyond", strings.Replace(ok, "   2 w 1", "   2 w 1"+strings.Repeat("     2 w 1", 1000), 1), "line 1: 1001 rounds of games"},
		{"forbidden groups beyond", "XXP" + strings.Repeat(" 1", 2000) + "\n" + ok, "line 1: XXP: the forbidden groups make more than"},
	}
	if _, err := ReadTRF(strings.NewReader(ok)); err != nil {
		t.Fatalf("valid file rejected: %v", err)
	}
	// The standard points, spelled in each of the three ways, are accepted,
	// and a bye worth half a point is taken.
	std := "BBW 1.0\nBBD 0.5\nBBL 0.0\nBBZ 0.0\nBBF 0.0\nBBU 0.5\n162  W 1.0    D 0.5    L 0.0    Z 0.0    P 0.5\nXXS WW=1 BW=1 WD=0.5 BD=0.5 WL=0 BL=0 ZPB=0 HPB=0.5 FPB=1 PAB=0.5 FW=1 FL=0\nXXP 1 2\n"
	if tr, err := ReadTRF(strings.NewReader(std + ok)); err != nil || tr.ByePoints == nil || *tr.ByePoints != 0.5 || len(tr.Forbidden) != 1 || len(tr.Forbidden[0]) != 2 {
		t.Fatalf("standard points rejected or misread: %+v, %v", tr, err)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadTRF(strings.NewReader(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tc.want)
			}
		})
	}
}

// TestPairTRFExample pairs testdata/swiss5.trf; swiss5.want was derived by
// hand from C.04.3:
//
// Round 1 (one bracket, S1 = {1,2}, S2 = {3,4}, the bye to the last, 5):
// 1 moves first against 3 (odd pairing number: initial colour), 4 first
// against 2 (even: 2 takes the other colour). 1 beat 3, 2-4 drawn.
// Scores: 1 and 5 on 1, 2 and 4 on 0.5, 3 on 0.
//
// Round 2. The PAB criterion (minimise the bye's score) comes before every
// quality criterion: 3 (0 points, no bye yet) is eligible, and the rest can
// be paired without a rematch (1-2 and 5-4, or 1-4 and 5-2), so 3 gets the
// bye. That forbids the natural 1-5 (it would leave 2-4, a rematch), so 1
// and 5 both float down into the 0.5 bracket. There, colour preferences
// (C12): 1 played first (mild: second), 2 played second (mild: first), 4
// played first (mild: second), 5 has none. 1-2 and 5-4 grant all of them;
// 1-4 denies one. Colours: 2 first against 1, 5 first against 4. Boards:
// both pairs have a 1-point leader and 1.5 points in total, so the higher
// pairing number leads: "2 1", "5 4", then the bye "3 0".
func TestPairTRFExample(t *testing.T) {
	in, err := os.ReadFile(filepath.Join("testdata", "swiss5.trf"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("testdata", "swiss5.want"))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := PairTRF(bytes.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	if out.String() != string(want) {
		t.Fatalf("got\n%swant\n%s", out.String(), want)
	}
}

func TestPairTRFNoLegalPairing(t *testing.T) {
	// Three players, each has had the bye: round 4 is impossible.
	in := "XXR 4\n" +
		trfLine(1, "A", 0, "2.0", "   2 w 1", "   3 b 0", "0000 - U") +
		trfLine(2, "B", 0, "1.0", "   1 b 0", "0000 - U", "   3 w 1") +
		trfLine(3, "C", 0, "2.0", "0000 - U", "   1 w 1", "   2 b 0")
	var out bytes.Buffer
	err := PairTRF(strings.NewReader(in), &out)
	if !errors.Is(err, ErrNoLegalPairing) {
		t.Fatalf("err = %v, want ErrNoLegalPairing", err)
	}
	if out.Len() != 0 {
		t.Fatalf("printed %q on failure", out.String())
	}
}

// trfLine lays out a 001 line in the TRF-16 columns; each cell is the
// 8-character "oooo c r" of one round.
func trfLine(start int, name string, rating int, pts string, cells ...string) string {
	r := ""
	if rating > 0 {
		r = fmt.Sprint(rating)
	}
	s := fmt.Sprintf("001 %4d      %-33s %4s %3s %11s %10s %4s %4d", start, name, r, "", "", "", pts, start)
	for _, c := range cells {
		s += "  " + c
	}
	return s + "\n"
}

func FuzzReadTRF(f *testing.F) {
	f.Add([]byte("XXR 5\n" + trfLine(1, "A", 2000, "1.0", "   2 w 1") + trfLine(2, "B", 1900, "0.0", "   1 b 0")))
	f.Add([]byte("012 x\n" + trfLine(1, "A", 0, "1.0", "0000 - U")))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := ReadTRF(bytes.NewReader(data))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WriteTRF(&buf, tr); err != nil {
			return // e.g. games of rounds the writer cannot lay out
		}
		back, err := ReadTRF(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("rewritten report does not read back: %v\n%s", err, buf.String())
		}
		if len(back.Players) != len(tr.Players) {
			t.Fatalf("players %d -> %d", len(tr.Players), len(back.Players))
		}
	})
}

// A bye worth half a point and a forbidden group survive a round trip, and
// the points column counts the bye as written.
func TestTRFByePointsAndForbiddenRoundTrip(t *testing.T) {
	half := 0.5
	in := &TRF{Rounds: 3, ByePoints: &half, Forbidden: [][]int{{0, 2}},
		Players: []TRFPlayer{{Name: "A"}, {Name: "B"}, {Name: "C"}},
		Games:   []Game{Decided(1, 0, 1, 1), AllocatedBye(1, 2)}}
	var b strings.Builder
	if err := WriteTRF(&b, in); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "BBU  0.5\n") || !strings.Contains(b.String(), "XXP 1 3\n") {
		t.Fatalf("no BBU or XXP line:\n%s", b.String())
	}
	out, err := ReadTRF(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if out.ByePoints == nil || *out.ByePoints != 0.5 || !reflect.DeepEqual(out.Forbidden, in.Forbidden) {
		t.Fatalf("read back ByePoints %v, Forbidden %v", out.ByePoints, out.Forbidden)
	}
	for _, l := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(l, "001    3") && strings.TrimSpace(l[trfPoints:trfPoints+4]) != "0.5" {
			t.Errorf("C's points column: %q, want 0.5\n%s", l[trfPoints:trfPoints+4], l)
		}
	}
	// Round 2: A may meet neither B (a rematch) nor C (forbidden), so A
	// takes the bye and B meets C.
	var got strings.Builder
	if err := PairTRF(strings.NewReader(b.String()), &got); err != nil {
		t.Fatal(err)
	}
	if p := got.String(); !strings.Contains(p, "\n1 0\n") || strings.Contains(p, "1 3") || strings.Contains(p, "3 1") {
		t.Errorf("round 2 pairing:\n%s", p)
	}
}

// The organizer's header lines are written and read back.
func TestTRFHeaderLines(t *testing.T) {
	in := &TRF{Name: "15th Open", City: "Prague", Federation: "CZE", StartDate: "2026-11-28", EndDate: "2026-11-29", ChiefArbiter: "IA J. Novák",
		Players: []TRFPlayer{{Name: "a"}, {Name: "b"}}}
	var b strings.Builder
	if err := WriteTRF(&b, in); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"012 15th Open\n022 Prague\n032 CZE\n042 2026-11-28\n052 2026-11-29\n102 IA J. Novák\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("TRF:\n%s\nwant %q", b.String(), want)
		}
	}
	out, err := ReadTRF(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if out.City != "Prague" || out.ChiefArbiter != "IA J. Novák" || out.EndDate != "2026-11-29" || out.Federation != "CZE" {
		t.Errorf("read back %+v", out)
	}
}
