package schedule

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"gomoku-arena/rules"
)

func readList(t *testing.T, text string, size int) []rules.Opening {
	t.Helper()
	list, err := rules.ReadOpenings(strings.NewReader(text), "book.txt", "", size)
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// lines gives, per game, the source line of its opening and the symmetry.
func lines(deals []Deal) [][2]int {
	out := make([][2]int, len(deals))
	for i, d := range deals {
		out[i] = [2]int{d.Opening.Line, d.Symmetry}
	}
	return out
}

func TestSuiteDeal(t *testing.T) {
	list := readList(t, "0,0\n1,1\n2,2\n", 15)
	tests := []struct {
		name  string
		suite Suite
		games int
		want  [][2]int
	}{
		{"sequential games", Suite{Openings: list}, 5,
			[][2]int{{1, 0}, {2, 0}, {3, 0}, {1, 0}, {2, 0}}},
		{"sequential pairs", Suite{Openings: list, Pairs: true}, 7,
			[][2]int{{1, 0}, {1, 0}, {2, 0}, {2, 0}, {3, 0}, {3, 0}, {1, 0}}},
		{"cycle: each pass the next symmetry", Suite{Openings: list, Pairs: true, Transform: TransformCycle}, 14,
			[][2]int{{1, 0}, {1, 0}, {2, 0}, {2, 0}, {3, 0}, {3, 0}, {1, 1}, {1, 1}, {2, 1}, {2, 1}, {3, 1}, {3, 1}, {1, 2}, {1, 2}}},
		{"no openings", Suite{Pairs: true}, 4, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.suite.Deal(tt.games, 15)
			if tt.want == nil {
				if got != nil {
					t.Fatalf("got %v, want no deals", got)
				}
				return
			}
			if g := lines(got); !reflect.DeepEqual(g, tt.want) {
				t.Errorf("got  %v\nwant %v", g, tt.want)
			}
		})
	}
}

func TestSuiteDealTransformsStones(t *testing.T) {
	list := readList(t, "1,0, 2,1\n", 15)
	deals := Suite{Openings: list, Transform: TransformCycle}.Deal(8, 15)
	seen := map[string]bool{}
	for k, d := range deals {
		want := list[0].Transformed(15, k).Stones
		if !reflect.DeepEqual(d.Opening.Stones, want) {
			t.Errorf("game %d: stones %v, want %v (symmetry %d)", k, d.Opening.Stones, want, k)
		}
		seen[d.Opening.Offsets(15)] = true
	}
	if len(seen) != rules.Symmetries {
		t.Errorf("%d distinct positions over 8 passes, want 8", len(seen))
	}
	if list[0].Stones[0] != (rules.Point{X: 8, Y: 7}) {
		t.Errorf("the source list was changed: %v", list[0].Stones)
	}
}

func TestSuiteRandomIsAShuffleAndReproducible(t *testing.T) {
	var text strings.Builder
	for i := -5; i <= 5; i++ {
		text.WriteString(strconv.Itoa(i) + ",0\n")
	}
	list := readList(t, text.String(), 15)
	s := Suite{Openings: list, Order: OrderRandom, Seed: 7, Pairs: true, Transform: TransformRandom}
	a, b := s.Deal(2*len(list), 15), s.Deal(2*len(list), 15)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("the same seed dealt different openings")
	}
	used := map[int]int{}
	syms := map[int]bool{}
	for g := 0; g < len(a); g += 2 {
		if !reflect.DeepEqual(a[g], a[g+1]) {
			t.Errorf("games %d and %d of a pair differ: %v, %v", g, g+1, a[g], a[g+1])
		}
		used[a[g].Opening.Line]++
		syms[a[g].Symmetry] = true
	}
	for _, o := range list {
		if used[o.Line] != 1 {
			t.Errorf("line %d used %d times in one pass, want once", o.Line, used[o.Line])
		}
	}
	if len(syms) < 2 {
		t.Errorf("random transform drew only symmetries %v", syms)
	}
	seq := lines(Suite{Openings: list, Pairs: true}.Deal(2*len(list), 15))
	if reflect.DeepEqual(lines(a), seq) {
		t.Error("random order dealt the sequential order")
	}
	other := Suite{Openings: list, Order: OrderRandom, Seed: 8, Pairs: true}.Deal(2*len(list), 15)
	if reflect.DeepEqual(lines(other), lines(Suite{Openings: list, Order: OrderRandom, Seed: 7, Pairs: true}.Deal(2*len(list), 15))) {
		t.Error("seeds 7 and 8 dealt the same order")
	}
}

func TestSuiteValidate(t *testing.T) {
	for _, tt := range []struct {
		s  Suite
		ok bool
	}{
		{Suite{}, true},
		{Suite{Order: OrderRandom, Transform: TransformCycle}, true},
		{Suite{Order: OrderPasses}, true},
		{Suite{Order: 3}, false},
		{Suite{Transform: 3}, false},
	} {
		if err := tt.s.Validate(); (err == nil) != tt.ok {
			t.Errorf("%+v: err %v, want ok=%v", tt.s, err, tt.ok)
		}
	}
}

func TestCheckOpenings(t *testing.T) {
	outer, _ := rules.ByName("outer-open")
	renju, _ := rules.ByName("renju")
	free, _ := rules.ByName("freestyle")
	tests := []struct {
		name, text string
		rule       rules.Rule
		want       string // substring of the error; "" for none
	}{
		{"outer-open first stone in the zone", "# book\n-7,-7, 0,0\n", outer, ""},
		{"outer-open first stone at the centre", "-7,-7\n0,0, 1,1\n", outer, "book.txt:2: \"0,0, 1,1\""},
		{"renju black 3-3", "1,0, 7,7, 2,0, 7,6, 0,1, 7,5, 0,2, 6,7, 0,0\n", renju, "book.txt:1:"},
		{"already five", "0,0, 7,7, 1,0, 7,6, 2,0, 7,5, 3,0, 6,7, 4,0\n", free, "already won"},
		{"freestyle fine", "0,0, 1,0\nh8\n", free, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckOpenings(readList(t, tt.text, 15), "book.txt", tt.rule, 15)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("unexpected error %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
	if err := CheckOpenings(nil, "empty.txt", free, 15); err == nil {
		t.Error("an empty list was accepted")
	}
}

func TestDefaultOpenings(t *testing.T) {
	for _, c := range []struct {
		rule         string
		arbiterOpens bool
		want         int
	}{{"renju", false, 26}, {"outer-open", true, 104}, {"outer-open", false, 0}, {"freestyle", true, 0}} {
		rule, err := rules.ByName(c.rule)
		if err != nil {
			t.Fatal(err)
		}
		list := DefaultOpenings(rule, 15, c.arbiterOpens)
		if len(list) != c.want {
			t.Errorf("%s (arbiter opens %v): %d openings, want %d", c.rule, c.arbiterOpens, len(list), c.want)
		}
		if len(list) > 0 {
			if err := CheckOpenings(list, "default", rule, 15); err != nil {
				t.Errorf("%s: %v", c.rule, err)
			}
		}
	}
}

func TestSuiteModeNames(t *testing.T) {
	for _, name := range orderNames {
		if o, err := ParseOrder(name); err != nil || o.String() != name {
			t.Errorf("order %q: %v %v", name, o, err)
		}
	}
	for _, name := range transformNames {
		if tr, err := ParseTransform(name); err != nil || tr.String() != name {
			t.Errorf("transform %q: %v %v", name, tr, err)
		}
	}
	if _, err := ParseOrder("shuffled"); err == nil || err.Error() != `opening order "shuffled" is not one of sequential, random, passes` {
		t.Errorf("err = %v", err)
	}
	if _, err := ParseTransform(""); err == nil || err.Error() != `transform "" is not one of none, cycle, random` {
		t.Errorf("err = %v", err)
	}
	if s := Transform(9).String(); s != "Transform(9)" {
		t.Errorf("Transform(9) = %s", s)
	}
}

// OrderPasses, as an event deals: every pass plays each opening once, a
// pass's order is the seed's and the pass's alone (a longer deal begins
// with a shorter one: a resumed event deals what its first run dealt), and
// passes are not all in one order.
func TestSuitePasses(t *testing.T) {
	var list []rules.Opening
	for i := range 7 {
		list = append(list, rules.Opening{Stones: []rules.Point{{X: i, Y: 0}}, Line: i + 1})
	}
	s := Suite{Openings: list, Order: OrderPasses, Seed: 11}
	long, short := s.Deal(5*7, 15), s.Deal(10, 15)
	orders := map[string]bool{}
	for pass := range 5 {
		seen, order := map[int]bool{}, ""
		for _, d := range long[pass*7 : pass*7+7] {
			seen[d.Opening.Line] = true
			order += fmt.Sprint(d.Opening.Line, " ")
		}
		if len(seen) != 7 {
			t.Errorf("pass %d plays %d of the 7 openings: %s", pass, len(seen), order)
		}
		orders[order] = true
	}
	if len(orders) < 2 {
		t.Errorf("every pass in one order: %v", orders)
	}
	for i := range short {
		if short[i].Opening.Line != long[i].Opening.Line {
			t.Fatalf("game %d: %d in a deal of 10, %d in a deal of 35", i, short[i].Opening.Line, long[i].Opening.Line)
		}
	}
}
