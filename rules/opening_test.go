package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func mustRule(t testing.TB, name string) Rule {
	t.Helper()
	r, err := ByName(name)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestReadOpeningsFormats(t *testing.T) {
	const book = "# a comment\n" +
		"\n" +
		"0,0, 1,0, 1,3\n" +
		"  0 , 0 ,1, 0,  1,3,   # trailing comma and spaces\n" +
		"h8i8i11\n" +
		"h8 i8 i11\r\n" +
		"-7,-7\n"
	want := []Point{{7, 7}, {8, 7}, {8, 10}}
	list, err := ReadOpenings(strings.NewReader(book), "book.txt", "", 15)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 5 {
		t.Fatalf("got %d openings, want 5: %+v", len(list), list)
	}
	for i, o := range list[:4] {
		if len(o.Stones) != 3 {
			t.Fatalf("opening %d: %v", i, o.Stones)
		}
		for j := range want {
			if o.Stones[j] != want[j] {
				t.Errorf("opening %d (line %d %q): stone %d = %v, want %v", i, o.Line, o.Text, j+1, o.Stones[j], want[j])
			}
		}
	}
	if list[0].Line != 3 || list[2].Line != 5 || list[4].Line != 7 {
		t.Errorf("lines %d %d %d, want 3 5 7", list[0].Line, list[2].Line, list[4].Line)
	}
	if list[4].Stones[0] != (Point{0, 0}) {
		t.Errorf("-7,-7 on 15x15 = %v, want the top-left corner", list[4].Stones[0])
	}
	if got := list[0].Offsets(15); got != "0,0, 1,0, 1,3" {
		t.Errorf("Offsets = %q", got)
	}
	// The centre is floor(size/2) on even boards too.
	list, err = ReadOpenings(strings.NewReader("0,0\n"), "b", OffsetFormat, 20)
	if err != nil || list[0].Stones[0] != (Point{10, 10}) {
		t.Errorf("20x20 centre: %v, %v", list, err)
	}
}

func TestReadOpeningsErrors(t *testing.T) {
	cases := []struct {
		name, book, format, want string
	}{
		{"bad number", "0,0\n0,0, 1,x\n", "", `book.txt:2: stone 2 "1,x": y: "x" is not a number`},
		{"odd count", "0,0, 1\n", "", "book.txt:1: 3 numbers"},
		{"off board", "0,0, 8,0\n", "", `book.txt:1: stone 2 "8,0": offset`},
		{"duplicate", "0,0, 1,0, 0,0\n", "", "book.txt:1: stone 3 (h8) on the same point as stone 1"},
		{"pos duplicate", "h8i8h8\n", "", "stone 3 (h8) on the same point"},
		{"pos off board", "\nh8p8\n", "", "book.txt:2: stone 2 at byte 2"},
		{"pos in offset file", "h8i8\n", OffsetFormat, "book.txt:1: stone 1"},
		{"offset in pos file", "0,0\n", PosFormat, "book.txt:1: stone 1"},
		{"empty pair", "0,0,,1\n", "", "missing number"},
		{"unknown format", "0,0\n", "swap2", "unknown opening format"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadOpenings(strings.NewReader(c.book), "book.txt", c.format, 15)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want it to contain %q", err, c.want)
			}
		})
	}
	if _, err := ReadOpenings(strings.NewReader("0,0\n"), "b", "", 3); err == nil {
		t.Error("size 3 accepted")
	}
	long := strings.Repeat("0,0, ", maxLineBytes)
	if _, err := ReadOpenings(strings.NewReader(long), "b", "", 15); err == nil || !strings.Contains(err.Error(), "longer") {
		t.Errorf("runaway line: %v", err)
	}
}

func TestOpeningValidate(t *testing.T) {
	pos := func(s string) Opening {
		stones, err := ParsePosString(s, 15)
		if err != nil {
			t.Fatal(err)
		}
		return Opening{Stones: stones, Line: 4, Text: s}
	}
	cases := []struct {
		name, rule string
		o          Opening
		want       string // "" for valid
	}{
		{"freestyle ok", "freestyle", pos("h8i8i11"), ""},
		{"outer-open in zone", "outer-open", pos("a1h8"), ""},
		{"outer-open centre", "outer-open", pos("h8i8"), "line 4: stone 1 (h8) under outer-open: first stone outside"},
		{"off board", "freestyle", Opening{Stones: []Point{{7, 7}, {15, 0}}}, "stone 2 (15,0) off the 15x15 board"},
		{"duplicate", "freestyle", Opening{Stones: []Point{{7, 7}, {8, 8}, {7, 7}}}, "stone 3 (h8) on the same point as stone 1"},
		{"already won", "freestyle", pos("a1a15b1b15c1c15d1d15e1"), "stone 9 (e1) under freestyle: the game is already won"},
		{"overline no win in standard", "standard", pos("a1a15b1b15c1c15d1d15f1f15e1"), ""},
		{"renju forbidden 3-3", "renju", renjuOpening(t, "E8 A1 F8 A3 G9 A5 G10 A7 G8"), "stone 9 (g8) under renju: forbidden 3-3"},
		{"renju ok", "renju", renjuOpening(t, "H8 I9 H10"), ""},
		{"empty", "freestyle", Opening{}, "no stones"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.o.Validate(mustRule(t, c.rule), 15)
			if c.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
}

// renjuOpening reads stones written in renju letters (rows from the bottom).
func renjuOpening(t *testing.T, s string) Opening {
	var o Opening
	for _, f := range strings.Fields(s) {
		p, err := Renju.Parse(f, 15)
		if err != nil {
			t.Fatal(err)
		}
		o.Stones = append(o.Stones, p)
	}
	return o
}

func TestOpeningTransformed(t *testing.T) {
	o := Opening{Stones: []Point{{7, 7}, {8, 7}, {8, 10}}, Line: 3, Text: "x"}
	seen := map[string]bool{}
	for k := 0; k < Symmetries; k++ {
		tr := o.Transformed(15, k)
		if tr.Line != 3 || tr.Text != "x" || tr.Stones[0] != (Point{7, 7}) {
			t.Fatalf("k=%d: %+v", k, tr)
		}
		if err := tr.Validate(mustRule(t, "freestyle"), 15); err != nil {
			t.Fatalf("k=%d: %v", k, err)
		}
		seen[FormatPosString(tr.Stones, 15)] = true
	}
	if len(seen) != Symmetries {
		t.Errorf("%d distinct images, want %d", len(seen), Symmetries)
	}
	if o.Stones[1] != (Point{8, 7}) {
		t.Error("Transformed changed its receiver")
	}
}

func TestOuterOpenFirstMoves(t *testing.T) {
	all := OuterOpenFirstMoves(15)
	if len(all) != 104 {
		t.Fatalf("%d points, want 104", len(all))
	}
	rule := mustRule(t, "outer-open")
	for _, p := range all {
		if err := (Opening{Stones: []Point{p}}).Validate(rule, 15); err != nil {
			t.Errorf("%v: %v", p, err)
		}
	}
	distinct := OuterOpenDistinctFirstMoves(15)
	if len(distinct) != 15 {
		t.Errorf("%d classes, want 15: %v", len(distinct), distinct)
	}
	// Every zone point is the image of exactly one representative.
	covered := map[Point]int{}
	for _, p := range distinct {
		img := map[Point]bool{}
		for k := 0; k < Symmetries; k++ {
			img[Transform(p, 15, k)] = true
		}
		for q := range img {
			covered[q]++
		}
	}
	if len(covered) != len(all) {
		t.Errorf("representatives cover %d points, want %d", len(covered), len(all))
	}
	for q, n := range covered {
		if n != 1 || !InOuterZone(15, q) {
			t.Errorf("%v covered %d times (in zone: %v)", q, n, InOuterZone(15, q))
		}
	}
}

func FuzzReadOpenings(f *testing.F) {
	for _, s := range []string{"0,0, 1,0, 1,3\n", "h8i8i11\n", "# c\n\n-7,-7,\n", "h8 i8\r\n0,0"} {
		f.Add(s, "", 15)
	}
	f.Add("a1b2", PosFormat, 5)
	f.Fuzz(func(t *testing.T, book, format string, size int) {
		list, err := ReadOpenings(strings.NewReader(book), "fuzz.txt", format, size)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.txt") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		for _, o := range list {
			if err := checkStones(o.Stones, size); err != nil {
				t.Fatalf("accepted line %d %q: %v", o.Line, o.Text, err)
			}
			// Both written forms read back to the same stones.
			for _, text := range []string{FormatPosString(o.Stones, size), o.Offsets(size)} {
				again, err := ReadOpenings(strings.NewReader(text), "again", "", size)
				if err != nil || len(again) != 1 || len(again[0].Stones) != len(o.Stones) {
					t.Fatalf("%q -> %q: %v %v", o.Text, text, again, err)
				}
				for i := range o.Stones {
					if again[0].Stones[i] != o.Stones[i] {
						t.Fatalf("%q -> %q: stone %d moved", o.Text, text, i+1)
					}
				}
			}
		}
	})
}

// The seed corpus under testdata/fuzz must stay readable by the fuzzer.
func TestFuzzCorpusPresent(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "fuzz", "FuzzReadOpenings", "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no seed corpus: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil || !strings.HasPrefix(string(b), "go test fuzz v1\n") {
			t.Errorf("%s: not a fuzz corpus file", f)
		}
	}
}

func ExampleReadOpenings() {
	book := "# two ways to write the same opening\n0,0, 1,0, 1,3\nh8i8i11\n"
	list, err := ReadOpenings(strings.NewReader(book), "book.txt", "", 15)
	if err != nil {
		panic(err)
	}
	for _, o := range list {
		fmt.Println(o.Line, FormatPosString(o.Stones, 15), o.Offsets(15))
	}
	fmt.Println(len(OuterOpenFirstMoves(15)), len(OuterOpenDistinctFirstMoves(15)))
	// Output:
	// 2 h8i8i11 0,0, 1,0, 1,3
	// 3 h8i8i11 0,0, 1,0, 1,3
	// 104 15
}
