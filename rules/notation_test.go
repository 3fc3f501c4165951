package rules

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

var allNotations = []Notation{Protocol, PSQ, Pos, Renju, GoLetters, SGF}

// Every point of boards of several sizes survives Format then Parse in every
// notation, and no two points share a written form.
func TestNotationRoundTripEveryPoint(t *testing.T) {
	for _, size := range []int{5, 15, 19, 20, 25, 26} {
		for _, n := range allNotations {
			seen := map[string]Point{}
			for y := 0; y < size; y++ {
				for x := 0; x < size; x++ {
					p := Point{x, y}
					s := n.Format(p, size)
					if q, dup := seen[s]; dup {
						t.Fatalf("size %d %s: %v and %v both written %q", size, n, q, p, s)
					}
					seen[s] = p
					got, err := n.Parse(s, size)
					if err != nil {
						t.Fatalf("size %d %s: Parse(%q) of %v: %v", size, n, s, p, err)
					}
					if got != p {
						t.Fatalf("size %d %s: %v -> %q -> %v", size, n, p, s, got)
					}
				}
			}
		}
	}
}

// The centre of 15x15 in each form of RULES.md's table, and a few corners.
func TestNotationExamples(t *testing.T) {
	cases := []struct {
		n    Notation
		size int
		p    Point
		s    string
	}{
		{Protocol, 15, Point{7, 7}, "7,7"},
		{PSQ, 15, Point{7, 7}, "8,8"},
		{Pos, 15, Point{7, 7}, "h8"},
		{Renju, 15, Point{7, 7}, "H8"},
		{GoLetters, 15, Point{7, 7}, "H8"},
		{SGF, 15, Point{7, 7}, "hh"},
		// top-left corner
		{Pos, 15, Point{0, 0}, "a1"},
		{Renju, 15, Point{0, 0}, "A15"},
		{GoLetters, 15, Point{0, 0}, "A15"},
		{SGF, 15, Point{0, 0}, "aa"},
		// bottom-right corner: renju O1, GTP P1
		{Pos, 15, Point{14, 14}, "o15"},
		{Renju, 15, Point{14, 14}, "O1"},
		{GoLetters, 15, Point{14, 14}, "P1"},
		{PSQ, 15, Point{14, 14}, "15,15"},
		// the I column
		{Renju, 15, Point{8, 14}, "I1"},
		{GoLetters, 15, Point{8, 14}, "J1"},
		{Pos, 15, Point{8, 0}, "i1"},
		// the 26th GTP column
		{GoLetters, 26, Point{24, 25}, "Z1"},
		{GoLetters, 26, Point{25, 25}, "AA1"},
		{Renju, 26, Point{25, 0}, "Z26"},
	}
	for _, c := range cases {
		if got := c.n.Format(c.p, c.size); got != c.s {
			t.Errorf("%s.Format(%v, %d) = %q, want %q", c.n, c.p, c.size, got, c.s)
		}
		if got, err := c.n.Parse(c.s, c.size); err != nil || got != c.p {
			t.Errorf("%s.Parse(%q, %d) = %v, %v; want %v", c.n, c.s, c.size, got, err, c.p)
		}
	}
}

func TestNotationParseErrors(t *testing.T) {
	cases := []struct {
		n    Notation
		size int
		s    string
		want string // a fragment of the error
	}{
		{Protocol, 15, "15,3", "off the 15x15 board"},
		{Protocol, 15, "-1,3", "off the 15x15 board"},
		{Protocol, 15, "7;7", "two numbers"},
		{Protocol, 15, "7,", "missing number"},
		{Protocol, 15, "7,+7", "not a number"},
		{Protocol, 15, "0x7,7", "not a number"},
		{Protocol, 15, "7,7,7", "not a number"},
		{Protocol, 15, "99999999,1", "too long"},
		{PSQ, 15, "0,8", "1-based"},
		{PSQ, 15, "16,8", "off the 15x15 board"},
		{Pos, 15, "p8", "off the 15x15 board"},
		{Pos, 15, "h16", "off the 15x15 board"},
		{Pos, 15, "h0", "leading zeros"},
		{Pos, 15, "h08", "leading zeros"},
		{Pos, 15, "H8", "lower-case"},
		{Pos, 15, "h", "missing row"},
		{Pos, 15, "8", "column letter"},
		{Pos, 15, "h8x", "not a number"},
		{Pos, 15, "hh8", "one lower-case letter"},
		{Renju, 15, "P8", "off the 15x15 board"},
		{Renju, 15, "h8", "upper-case"},
		{Renju, 15, "H16", "off the 15x15 board"},
		{GoLetters, 15, "I8", "skip I"},
		{GoLetters, 15, "Q8", "off the 15x15 board"},
		{GoLetters, 15, "AB8", "off the 15x15 board"},
		{GoLetters, 19, "BA8", "not a GTP column"},
		{SGF, 15, "ph", "off the 15x15 board"},
		{SGF, 15, "HH", "two lower-case letters"},
		{SGF, 15, "h", "two lower-case letters"},
		{SGF, 15, "hhh", "two lower-case letters"},
		{Pos, 4, "a1", "board size"},
		{Pos, 27, "a1", "board size"},
	}
	for _, c := range cases {
		_, err := c.n.Parse(c.s, c.size)
		if err == nil {
			t.Errorf("%s.Parse(%q, %d) succeeded, want error with %q", c.n, c.s, c.size, c.want)
			continue
		}
		if !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.s) {
			t.Errorf("%s.Parse(%q, %d) error %q: want it to name the input and say %q", c.n, c.s, c.size, err, c.want)
		}
	}
}

// Off-board points have no letter form: Format must not write a string that
// parses as some other point.
func TestNotationFormatOffBoardNeverAliases(t *testing.T) {
	for _, n := range allNotations {
		for _, p := range []Point{{15, 3}, {-1, 0}, {3, 15}, {26, 26}} {
			s := n.Format(p, 15)
			if q, err := n.Parse(s, 15); err == nil {
				t.Errorf("%s: off-board %v written %q parses as %v", n, p, s, q)
			}
		}
	}
}

func TestParseHuman(t *testing.T) {
	cases := []struct {
		name   string
		s      string
		size   int
		scheme Notation
		want   Point
		got    Notation
		err    string
	}{
		{name: "A..H agree", s: "H8", size: 15, want: Point{7, 7}, got: Renju},
		{name: "lower case", s: "h8", size: 15, want: Point{7, 7}, got: Renju},
		{name: "I is renju", s: "I8", size: 15, want: Point{8, 7}, got: Renju},
		{name: "P is GTP on 15x15", s: "P8", size: 15, want: Point{14, 7}, got: GoLetters},
		{name: "J ambiguous", s: "J8", size: 15, err: "ambiguous"},
		{name: "J as renju", s: "J8", size: 15, scheme: Renju, want: Point{9, 7}, got: Renju},
		{name: "J as GTP", s: "J8", size: 15, scheme: GoLetters, want: Point{8, 7}, got: GoLetters},
		{name: "I as GTP", s: "I8", size: 15, scheme: GoLetters, err: "skip I"},
		{name: "off both", s: "Q8", size: 15, err: "off the 15x15 board"},
		{name: "row off", s: "H16", size: 15, err: "off the 15x15 board"},
		{name: "not a scheme", s: "H8", size: 15, scheme: Pos, err: "not a letter scheme"},
		{name: "garbage", s: "8H", size: 15, err: "column letter"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, n, err := ParseHuman(c.s, c.size, c.scheme)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("ParseHuman(%q) = %v, %v, %v; want error %q", c.s, p, n, err, c.err)
				}
				return
			}
			if err != nil || p != c.want || n != c.got {
				t.Fatalf("ParseHuman(%q) = %v, %v, %v; want %v, %v", c.s, p, n, err, c.want, c.got)
			}
		})
	}
}

func TestParsePosString(t *testing.T) {
	got, err := ParsePosString("h8i8i11", 15)
	want := []Point{{7, 7}, {8, 7}, {8, 10}}
	if err != nil || len(got) != len(want) {
		t.Fatalf("ParsePosString = %v, %v; want %v", got, err, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("stone %d = %v, want %v", i+1, got[i], want[i])
		}
	}
	if s := FormatPosString(got, 15); s != "h8i8i11" {
		t.Errorf("FormatPosString = %q", s)
	}
	if got, err := ParsePosString(" a15 o1 ", 15); err != nil || len(got) != 2 || got[0] != (Point{0, 14}) {
		t.Errorf("spaced: %v, %v", got, err)
	}
	if got, err := ParsePosString("", 15); err != nil || len(got) != 0 {
		t.Errorf("empty: %v, %v", got, err)
	}
	for _, c := range []struct{ s, want string }{
		{"h8i8p1", "stone 3 at byte 4"},
		{"h8,i8", "stone 2 at byte 2"},
		{"h8i16", "stone 2"},
		{"h8i", "missing row"},
		{"8h", "stone 1 at byte 0"},
	} {
		if _, err := ParsePosString(c.s, 15); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParsePosString(%q) error %v, want %q", c.s, err, c.want)
		}
	}
}

// Every parser either fails or returns an on-board point whose own written
// form reads back as the same point.
func FuzzParseNotation(f *testing.F) {
	for _, s := range []string{"7,7", "8,8", "h8", "H8", "P1", "AA1", "hh", "15,3", "-1,0", "i11", " h8 ", "h08", "I8"} {
		f.Add(s, 15)
	}
	f.Add("Z26", 26)
	f.Fuzz(func(t *testing.T, s string, size int) {
		for _, n := range allNotations {
			p, err := n.Parse(s, size)
			if err != nil {
				continue
			}
			if p.X < 0 || p.Y < 0 || p.X >= size || p.Y >= size {
				t.Fatalf("%s.Parse(%q, %d) = %v, off the board", n, s, size, p)
			}
			if q, err := n.Parse(n.Format(p, size), size); err != nil || q != p {
				t.Fatalf("%s: %q -> %v -> %q -> %v, %v", n, s, p, n.Format(p, size), q, err)
			}
		}
		if p, n, err := ParseHuman(s, size, 0); err == nil {
			if q, err := n.Parse(n.Format(p, size), size); err != nil || q != p {
				t.Fatalf("ParseHuman(%q) = %v %s, does not round-trip", s, p, n)
			}
		}
		if stones, err := ParsePosString(s, size); err == nil {
			again, err := ParsePosString(FormatPosString(stones, size), size)
			if err != nil || len(again) != len(stones) {
				t.Fatalf("ParsePosString(%q) = %v does not round-trip: %v %v", s, stones, again, err)
			}
		}
	})
}

func ExampleParseHuman() {
	for _, s := range []string{"H8", "I8", "P8", "J8"} {
		p, scheme, err := ParseHuman(s, 15, 0)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(s, "=", scheme, p, "=", Pos.Format(p, 15))
	}
	// Output:
	// H8 = renju 7,7 = h8
	// I8 = renju 8,7 = i8
	// P8 = go 14,7 = o8
	// coordinate "J8" is ambiguous: 9,7 in renju letters (with I), 8,7 in GTP letters (without I); say which
}

// Points written one after another in a letter notation, with or without
// spaces, in either case for the upper-case schemes, read back as the same
// points on every board size.
func TestParsePointsRoundTrip(t *testing.T) {
	for size := MinSize; size <= MaxSize; size++ {
		var stones []Point
		for i := 0; i < 40; i++ {
			stones = append(stones, Point{(i * 7) % size, (i * 11) % size})
		}
		for _, n := range []Notation{Pos, Renju, GoLetters} {
			names := make([]string, len(stones))
			for i, p := range stones {
				names[i] = n.Format(p, size)
			}
			inputs := []string{strings.Join(names, ""), strings.Join(names, " ")}
			if n != Pos {
				inputs = append(inputs, strings.ToLower(strings.Join(names, " ")))
			}
			for _, in := range inputs {
				got, err := ParsePoints(in, size, n)
				if err != nil || !reflect.DeepEqual(got, stones) {
					t.Fatalf("%s %dx%d %q: %v %v", n, size, size, in, got, err)
				}
			}
		}
	}
	if _, err := ParsePoints("H8", 15, Pos); err == nil {
		t.Error("pos read an upper-case column")
	}
	if _, err := ParsePoints("7,7", 15, Protocol); err == nil {
		t.Error("ParsePoints read protocol pairs")
	}
}
