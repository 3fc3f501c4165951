package record

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"gomoku-arena/rules"
)

func pt(x, y int) rules.Point { return rules.Point{X: x, Y: y} }

// sampleRecords are games that exercise every field the record formats carry.
func sampleRecords() map[string]*Record {
	zone := time.FixedZone("CEST", 2*3600)
	start := time.Date(2024, 5, 1, 10, 0, 0, 123456789, zone)
	return map[string]*Record{
		"outer-open, timed, refused off-board move": {
			Event: `Cup [2024] \ final`, Round: 3, Game: 12, Rule: "outer-open", Size: 15,
			Black: "alpha ]x[", White: "béta",
			Moves: []Move{
				{Point: pt(0, 0), Color: rules.Black, Opening: true},
				{Point: pt(7, 7), Color: rules.White, Think: 1234 * time.Millisecond, Left: 58*time.Second + 766*time.Millisecond},
				{Point: pt(8, 8), Color: rules.Black, Think: 2 * time.Second, Left: 3*time.Second + 1},
				{Point: pt(15, 3), Color: rules.White, Think: 7 * time.Millisecond, Refused: "off board"},
			},
			Winner: rules.Black, End: Illegal, Detail: "off board 15,3",
			Start: start, Finish: start.Add(95 * time.Second),
		},
		"raw line": {
			Rule: "freestyle", Size: 20, Black: "a", White: "b",
			Moves: []Move{
				{Point: pt(10, 10), Color: rules.Black, Think: time.Millisecond},
				{Color: rules.White, Raw: `7 7 "x"]`, Think: 3 * time.Second, Refused: RefusedMalformed},
			},
			Winner: rules.Black, End: Illegal, Detail: `malformed move "7 7"`,
		},
		"occupied final move is refused, not a node": {
			Rule: "freestyle", Size: 15, Black: "a", White: "b",
			Moves: []Move{
				{Point: pt(7, 7), Color: rules.Black},
				{Point: pt(7, 7), Color: rules.White, Think: time.Second, Refused: "occupied"},
			},
			Winner: rules.Black, End: Illegal, Detail: "occupied 7,7",
		},
		"late stone": {
			Rule: "freestyle", Size: 15, Black: "a", White: "b",
			Moves: []Move{
				{Point: pt(7, 7), Color: rules.Black, Left: time.Second},
				{Point: pt(8, 7), Color: rules.White, Left: time.Second},
				{Point: pt(9, 7), Color: rules.Black, Think: 2200 * time.Millisecond, Refused: RefusedLate + ": move after 2.2s, budget 2.1995s"},
			},
			Winner: rules.White, End: Time, Detail: "move after 2.2s, budget 2.1995s",
		},
		"opening-procedure forfeit keeps its stones": {
			Rule: "pente", Size: 19, Procedure: "swap2", Black: "a", White: "b",
			Moves: []Move{
				{Point: pt(9, 9), Color: rules.Black, Think: time.Second},
				{Point: pt(10, 9), Color: rules.White},
				{Point: pt(11, 9), Color: rules.Black, Refused: "third stone within the central 5x5 (tournament rule)"},
			},
			Winner: rules.White, End: Illegal, Detail: "SWAP2BOARD: stone 3 (11,9): third stone within the central 5x5 (tournament rule)",
		},
		"pente captures": {
			Rule: "pente", Size: 19, Black: "p1", White: "p2",
			Moves: []Move{
				{Point: pt(9, 9), Color: rules.Black},
				{Point: pt(10, 9), Color: rules.White},
				{Point: pt(3, 3), Color: rules.Black},
				{Point: pt(11, 9), Color: rules.White},
				{Point: pt(12, 9), Color: rules.Black, Captured: []rules.Point{pt(10, 9), pt(11, 9)}, Left: -time.Second},
			},
			End: Five, Winner: rules.White,
		},
		"refused before any move": {
			Rule: "renju", Size: 15, Black: "a", White: "b",
			Winner: rules.White, End: Refusal, Detail: "ERROR unsupported rule",
		},
		"time forfeit": {
			Rule: "standard", Size: 26, Black: "a", White: "b",
			Moves: []Move{
				{Point: pt(25, 25), Color: rules.Black, Think: time.Second},
				{Point: pt(0, 25), Color: rules.White, Think: 4 * time.Second},
			},
			Winner: rules.White, End: Time,
		},
		"draw": {
			Rule: "freestyle", Size: 5, Black: "a", White: "b",
			Moves: []Move{{Point: pt(2, 2), Color: rules.Black}},
			End:   FullBoard,
		},
	}
}

// sgfFields is what SGF carries of a record: everything but the engine
// messages, times compared as instants.
func sgfFields(r *Record) *Record {
	c := *r
	c.Messages = nil
	c.Start, c.Finish = time.Time{}, time.Time{}
	c.Moves = append([]Move(nil), r.Moves...)
	for i := range c.Moves {
		if len(c.Moves[i].Captured) == 0 {
			c.Moves[i].Captured = nil
		}
	}
	if len(c.Moves) == 0 {
		c.Moves = nil
	}
	return &c
}

func TestSGFRoundTrip(t *testing.T) {
	for name, rec := range sampleRecords() {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteSGF(&b, rec); err != nil {
				t.Fatal(err)
			}
			got, err := ReadSGF(&b, "rt.sgf")
			if err != nil {
				t.Fatalf("%v\n%s", err, b.String())
			}
			if !reflect.DeepEqual(sgfFields(got), sgfFields(rec)) {
				t.Errorf("round trip changed the record\n got %+v\nwant %+v\n%s", sgfFields(got), sgfFields(rec), b.String())
			}
			if !got.Start.Equal(rec.Start) || !got.Finish.Equal(rec.Finish) {
				t.Errorf("times %v %v, want %v %v", got.Start, got.Finish, rec.Start, rec.Finish)
			}
		})
	}
}

func TestWriteSGFLayout(t *testing.T) {
	var b bytes.Buffer
	if err := WriteSGF(&b, sampleRecords()["outer-open, timed, refused off-board move"]); err != nil {
		t.Fatal(err)
	}
	want := `(;FF[4]GM[4]CA[UTF-8]AP[gomoku-arena]SZ[15]RU[outer-open]PB[alpha \]x[]PW[béta]RE[B+F]DT[2024-05-01]EV[Cup [2024\] \\ final]RO[3]GN[12]C[termination: illegal move
detail: off board 15,3
start: 2024-05-01T10:00:00.123456789+02:00
finish: 2024-05-01T10:01:35.123456789+02:00]
;B[aa]C[opening stone]
;W[hh]WL[58.766]C[think: 1.234s]
;B[ii]BL[3.000000001]C[think: 2s
refused white move: 15,3
refused move reason: off board
refused move think: 7ms])
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// Files written by other tools: whitespace everywhere, escapes, FF[3]
// property names, a game line written as nested trees of one child each.
func TestReadSGFTolerant(t *testing.T) {
	const in = "\ufeff junk (;GM[4]FF[4]\n SZ[15]PB[Black \\] Player]PlayerWhite[x]\r\n RE [B+] C[a\\\nb]\n" +
		";B[hh]C[multi\nline] ;W\n[ih]\n(;B[ii](;W[jj]BL[1]WL[2.5])))\n"
	rec, err := ReadSGF(strings.NewReader(in), "other.sgf")
	if err != nil {
		t.Fatal(err)
	}
	want := []rules.Point{pt(7, 7), pt(8, 7), pt(8, 8), pt(9, 9)}
	if len(rec.Moves) != len(want) {
		t.Fatalf("moves %+v, want %v", rec.Moves, want)
	}
	for i, p := range want {
		if rec.Moves[i].Point != p || rec.Moves[i].Color != []rules.Color{rules.Black, rules.White}[i%2] {
			t.Errorf("move %d = %+v, want %v", i+1, rec.Moves[i], p)
		}
	}
	if rec.Moves[3].Left != 2500*time.Millisecond {
		t.Errorf("WL: %v", rec.Moves[3].Left)
	}
	if rec.Black != "Black ] Player" || rec.White != "x" || rec.Winner != rules.Black || rec.Size != 15 {
		t.Errorf("root: %+v", rec)
	}
}

func TestReadSGFErrors(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"no tree", "hello", "g.sgf:1:6: no game tree"},
		{"off board", "(;GM[4]SZ[15]\n;B[hh];W[ph])", "g.sgf:2:10: W: sgf \"ph\": off the 15x15 board"},
		{"Go game", "(;GM[1]SZ[19];B[aa])", "g.sgf:1:6: GM[1]: not a Gomoku/Renju game"},
		{"size", "(;GM[4]SZ[4])", "g.sgf:1:11: SZ[4]: board size out of range"},
		{"not square", "(;GM[4]SZ[15:13])", "want a square board size"},
		{"pass", "(;GM[4]SZ[15];B[])", "g.sgf:1:17: B[]: a pass"},
		{"unclosed value", "(;SZ[15];C[abc", "g.sgf:1:11: value not closed"},
		{"unclosed tree", "(;SZ[15];B[hh]", "g.sgf:1:1: game tree not closed"},
		{"no value", "(;SZ[15];B[hh]XX)", "g.sgf:1:17: property XX without a value"},
		{"no node", "( B[hh])", "want ';'"},
		{"junk in tree", "(;B[hh] ] )", "g.sgf:1:9: unexpected ']'"},
		{"bad time", "(;GM[4];B[hh]BL[1:30])", "BL: \"1:30\" is not a number of seconds"},
		{"bad capture", "(;GM[4];B[hh]C[captured: zz])", "C: captured"},
		{"deep", strings.Repeat("(;", 2000), "nested deeper"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadSGF(strings.NewReader(c.in), "g.sgf")
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
}

func TestSecondsExact(t *testing.T) {
	for _, d := range []time.Duration{0, 1, -1, time.Second, 1500 * time.Millisecond, -time.Minute - 1, 999999999, 1<<53 + 1} {
		s := formatSeconds(d)
		got, err := parseSeconds(s)
		if err != nil || got != d {
			t.Errorf("%v -> %q -> %v, %v", d, s, got, err)
		}
	}
	for _, s := range []string{"", ".", "1.2.3", "1e3", "-", "1.0000000001", "abc"} {
		if _, err := parseSeconds(s); err == nil {
			t.Errorf("parseSeconds(%q) accepted", s)
		}
	}
}

// Whatever ReadSGF accepts, writing it and reading it back gives the same
// record.
func FuzzReadSGF(f *testing.F) {
	for _, rec := range sampleRecords() {
		var b bytes.Buffer
		if err := WriteSGF(&b, rec); err != nil {
			f.Fatal(err)
		}
		f.Add(b.String())
	}
	f.Add("(;GM[4]SZ[15];B[hh](;W[ii])(;W[jj]))")
	f.Add("(;C[rejected black move: \"x\"\nrejected move think: 1s])")
	f.Add("(;GM[4]SZ[15]AB[aa:cc][hh]AW[dd]AE[bb]PL[W];W[ee];B[ff]C[refused white move: 15,3\nrefused move reason: off board])")
	f.Fuzz(func(t *testing.T, in string) {
		rec, err := ReadSGF(strings.NewReader(in), "fuzz.sgf")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.sgf:") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		var b bytes.Buffer
		if err := WriteSGF(&b, rec); err != nil {
			t.Fatalf("read %+v but cannot write it: %v", rec, err)
		}
		again, err := ReadSGF(bytes.NewReader(b.Bytes()), "again.sgf")
		if err != nil {
			t.Fatalf("cannot read what we wrote: %v\n%s", err, b.String())
		}
		if !reflect.DeepEqual(sgfFields(again), sgfFields(rec)) || !again.Start.Equal(rec.Start) || !again.Finish.Equal(rec.Finish) {
			t.Fatalf("not stable\nfirst  %+v\nsecond %+v\n%s", rec, again, b.String())
		}
		for _, name := range rules.Names() { // the replay takes any record read, refusing or not, without panicking
			r, _ := rules.ByName(name)
			Verify(rec, r)
		}
	})
}

func TestSGFFuzzCorpusPresent(t *testing.T) {
	for _, target := range []string{"FuzzReadSGF", "FuzzReadPSQ"} {
		files, _ := filepath.Glob(filepath.Join("testdata", "fuzz", target, "*"))
		if len(files) == 0 {
			t.Errorf("%s: no seed corpus", target)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil || !bytes.HasPrefix(b, []byte("go test fuzz v1\n")) {
				t.Errorf("%s: not a fuzz corpus file", f)
			}
		}
	}
}

func ExampleWriteSGF() {
	rec := &Record{
		Rule: "freestyle", Size: 15, Black: "alpha", White: "beta",
		Moves: []Move{
			{Point: rules.Point{X: 7, Y: 7}, Color: rules.Black},
			{Point: rules.Point{X: 8, Y: 7}, Color: rules.White, Think: 250 * time.Millisecond},
		},
		End: Aborted,
	}
	var b bytes.Buffer
	_ = WriteSGF(&b, rec)
	fmt.Print(b.String())
	// Output:
	// (;FF[4]GM[4]CA[UTF-8]AP[gomoku-arena]SZ[15]RU[freestyle]PB[alpha]PW[beta]RE[0]C[termination: aborted]
	// ;B[hh]
	// ;W[ih]C[think: 250ms])
}
