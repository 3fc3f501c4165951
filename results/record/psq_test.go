package record

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"

	"gomoku-arena/rules"
)

// psqFields is what psq carries of a record: the size, the names, and each
// move on a point of the board with its colour and whole milliseconds.
func psqFields(r *Record) *Record {
	c := &Record{Size: r.Size, Black: r.Black, White: r.White}
	for _, m := range r.Moves {
		if m.refused() || !onBoard(m.Point, r.Size) {
			continue
		}
		c.Moves = append(c.Moves, Move{Point: m.Point, Color: m.Color, Think: m.Think.Truncate(time.Millisecond)})
	}
	return c
}

func TestPSQRoundTrip(t *testing.T) {
	for name, rec := range sampleRecords() {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WritePSQ(&b, rec); err != nil {
				t.Fatal(err)
			}
			got, err := ReadPSQ(&b, "rt.psq")
			if err != nil {
				t.Fatalf("%v\n%s", err, b.String())
			}
			want := psqFields(rec)
			if rec.End == Time {
				want.End, want.Winner = Time, rec.Winner
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("round trip\n got %+v\nwant %+v\n%s", got, want, b.String())
			}
		})
	}
}

func TestWritePSQLayout(t *testing.T) {
	var b bytes.Buffer
	if err := WritePSQ(&b, sampleRecords()["outer-open, timed, refused off-board move"]); err != nil {
		t.Fatal(err)
	}
	want := "Piskvorky 15x15, 11:11, 0\n1,1,0\n8,8,1234\n9,9,2000\nalpha ]x[\nbéta\n-1\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	if err := WritePSQ(&b, sampleRecords()["time forfeit"]); err != nil {
		t.Fatal(err)
	}
	if want := "Piskvorky 26x26, 11:11, 0\n26,26,1000\n1,26,4000\na\nb\n15\n"; b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestReadPSQVariants(t *testing.T) {
	cases := []struct {
		name, in     string
		black, white string
		moves        int
		end          Termination
		winner       rules.Color
	}{
		{name: "gomocup", in: "Piskvorky 20x20, 11:11, 0\r\n10,10,0\r\n11,10,5\r\nA.zip\r\nB.zip\r\n0\r\n", black: "A.zip", white: "B.zip", moves: 2},
		{name: "second player started", in: "Piskvorky 20x20, 11:11, 1\n10,10,0\nA\nB\n0\n", black: "B", white: "A", moves: 1},
		{name: "no names", in: "Piskvorky 15x15, 0:11, 0\n8,8,0\n9,9\n-1\n", moves: 2},
		{name: "nothing after moves", in: "Piskvorky 15x15, 11:11, 0\n8,8,0\n\n\n", moves: 1},
		{name: "names, no code", in: "Piskvorky 15x15, 11:11, 0\n 8 , 8 , 0 \nx\ny\n", black: "x", white: "y", moves: 1},
		{name: "timeout", in: "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n8,9,0\na\nb\n15\n", black: "a", white: "b", moves: 3, end: Time, winner: rules.Black},
		{name: "no moves", in: "Piskvorky 15x15, 11:11, 0\n", moves: 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec, err := ReadPSQ(strings.NewReader(c.in), "g.psq")
			if err != nil {
				t.Fatal(err)
			}
			if rec.Black != c.black || rec.White != c.white || len(rec.Moves) != c.moves || rec.End != c.end || rec.Winner != c.winner {
				t.Errorf("got %+v", rec)
			}
		})
	}
	rec, _ := ReadPSQ(strings.NewReader("Piskvorky 20x20, 11:11, 0\n10,10,0\n11,10,5\n"), "g.psq")
	if rec.Size != 20 || !reflect.DeepEqual(rec.Moves[1], Move{Point: pt(10, 9), Color: rules.White, Think: 5 * time.Millisecond}) {
		t.Errorf("moves: %+v", rec)
	}
}

func TestReadPSQErrors(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"empty", "", "g.psq: empty file"},
		{"not psq", "(;GM[4])\n", "g.psq:1: header"},
		{"rectangle", "Piskvorky 20x15, 11:11, 0\n", "g.psq:1: header \"Piskvorky 20x15, 11:11, 0\": 20x15 board is not square"},
		{"size", "Piskvorky 40x40, 11:11, 0\n", "out of range"},
		{"starter", "Piskvorky 15x15, 11:11, 2\n", "starter \"2\" is not 0 or 1"},
		{"levels", "Piskvorky 15x15, 11, 0\n", "levels"},
		{"off board", "Piskvorky 15x15, 11:11, 0\n8,8,0\n16,1,0\n", "g.psq:3: stone 16,1 off the 15x15 board"},
		{"zero", "Piskvorky 15x15, 11:11, 0\n0,1,0\n", "g.psq:2: stone 0,1 off"},
		{"negative time", "Piskvorky 15x15, 11:11, 0\n1,1,-5\n", "g.psq:2: negative think time"},
		{"broken move", "Piskvorky 15x15, 11:11, 0\n8,8,0\n8;9,0\n9,9,0\na\nb\n0\n", "g.psq:3: \"8;9,0\" is not a move"},
		{"bad code", "Piskvorky 15x15, 11:11, 0\n8,8,0\na\nb\nwon\n", "g.psq:5: finishing code \"won\""},
		{"lone junk", "Piskvorky 15x15, 11:11, 0\n8,8,0\nzzz\n", "g.psq:3: \"zzz\""},
		{"trailing junk", "Piskvorky 15x15, 11:11, 0\n8,8,0\na\nb\n0\nmore\n", "g.psq:6: \"more\""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadPSQ(strings.NewReader(c.in), "g.psq")
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
}

// Whatever ReadPSQ accepts, writing it and reading it back gives the same
// record.
func FuzzReadPSQ(f *testing.F) {
	for _, rec := range sampleRecords() {
		var b bytes.Buffer
		if err := WritePSQ(&b, rec); err != nil {
			f.Fatal(err)
		}
		f.Add(b.String())
	}
	f.Add("Piskvorky 20x20, 11:11, 1\r\n10,10\r\nA\r\nB\r\n15\r\n")
	f.Fuzz(func(t *testing.T, in string) {
		rec, err := ReadPSQ(strings.NewReader(in), "fuzz.psq")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.psq") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		var b bytes.Buffer
		if err := WritePSQ(&b, rec); err != nil {
			t.Fatalf("read %+v but cannot write it: %v", rec, err)
		}
		again, err := ReadPSQ(bytes.NewReader(b.Bytes()), "again.psq")
		if err != nil {
			t.Fatalf("cannot read what we wrote: %v\n%s", err, b.String())
		}
		if !reflect.DeepEqual(psqFields(again), psqFields(rec)) {
			t.Fatalf("not stable\nfirst  %+v\nsecond %+v\n%s", rec, again, b.String())
		}
	})
}
