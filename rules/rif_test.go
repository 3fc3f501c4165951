package rules

import (
	"errors"
	"testing"
)

func renjuPts(t *testing.T, size int, names ...string) []Point {
	t.Helper()
	var out []Point
	for _, n := range names {
		p, err := Renju.Parse(n, size)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// Spot checks against the RIF charts, in renju letters (row 1 at the bottom):
//
//	10 . . .        Kansei H8 H9 H10; Kagetsu H8 H9 I9; Yusei H8 H9 J6;
//	 9 . o x        Chosei H8 I9 J10; Suisei H8 I9 F6.
//	 8 . x .
//	   G H I
func TestRIFOpeningsMatchTheCharts(t *testing.T) {
	for _, c := range []struct {
		name   string
		stones []string
	}{
		{"Kansei", []string{"H8", "H9", "H10"}},
		{"Kagetsu", []string{"H8", "H9", "I9"}},
		{"Ugetsu", []string{"H8", "H9", "I8"}},
		{"Yusei", []string{"H8", "H9", "J6"}},
		{"Chosei", []string{"H8", "I9", "J10"}},
		{"Ryusei", []string{"H8", "I9", "J6"}},
		{"Suisei", []string{"H8", "I9", "F6"}},
		{"Kosei", []string{"H8", "I9", "J8"}},
	} {
		o, err := RIFOpeningByName(c.name)
		if err != nil {
			t.Fatal(err)
		}
		want := renjuPts(t, 15, c.stones...)
		got := o.Stones(15)
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s: stone %d at %s, want %s", c.name, i+1, Renju.Format(got[i], 15), c.stones[i])
			}
		}
	}
}

// The 26 are the classes of every legal start (move 1 at the centre, move 2
// touching it, move 3 in the central 5x5: 8 x 23 = 184 starts) under the
// board's symmetries: each start is exactly one of them.
func TestRIFOpeningsAreTheSymmetryClassesOfEveryStart(t *testing.T) {
	const size = 15
	c := size / 2
	count := map[string]int{}
	for dx2 := -1; dx2 <= 1; dx2++ {
		for dy2 := -1; dy2 <= 1; dy2++ {
			if dx2 == 0 && dy2 == 0 {
				continue
			}
			for dx3 := -2; dx3 <= 2; dx3++ {
				for dy3 := -2; dy3 <= 2; dy3++ {
					if (dx3 == 0 && dy3 == 0) || (dx3 == dx2 && dy3 == dy2) {
						continue
					}
					stones := []Point{{c, c}, {c + dx2, c + dy2}, {c + dx3, c + dy3}}
					o, ok := IdentifyRIFOpening(size, stones)
					if !ok {
						t.Fatalf("%v is no canonical opening", stones)
					}
					count[o.Name]++
					n := 0
					for _, o2 := range RIFOpenings {
						for k := 0; k < Symmetries; k++ {
							w := o2.Stones(size)
							if Transform(w[0], size, k) == stones[0] && Transform(w[1], size, k) == stones[1] && Transform(w[2], size, k) == stones[2] {
								n++
								break
							}
						}
					}
					if n != 1 {
						t.Errorf("%v matches %d canonical openings", stones, n)
					}
				}
			}
		}
	}
	if len(count) != 26 {
		t.Errorf("%d openings reached, want 26: %v", len(count), count)
	}
	for _, o := range RIFOpeningList(size) {
		if err := o.Validate(mustRule(t, "renju"), size); err != nil {
			t.Errorf("%s: %v", o.Text, err)
		}
	}
}

func reasonOf(err error) Reason {
	var pe *ProcedureError
	if errors.As(err, &pe) {
		return pe.Reason
	}
	return ""
}

// A whole procedure with a swap: the tentative White takes Black, so Black
// offers from the second seat and White (the first seat) chooses.
func TestRIFProcedure(t *testing.T) {
	const size = 15
	r, err := NewRIF(mustRule(t, "renju"), size)
	if err != nil {
		t.Fatal(err)
	}
	if r.Actor() != FirstPlayer {
		t.Fatalf("actor %v", r.Actor())
	}
	if err := r.Place(renjuPts(t, size, "H8", "H9", "I9")); err != nil {
		t.Fatal(err)
	}
	if r.Opening().Name != "Kagetsu" {
		t.Errorf("opening %v", r.Opening())
	}
	if r.Step() != RIFSwap || r.Actor() != SecondPlayer {
		t.Fatalf("step %v actor %v", r.Step(), r.Actor())
	}
	r.Swap(true)
	if r.Black() != SecondPlayer || r.Actor() != FirstPlayer {
		t.Fatalf("after the swap Black is %v, actor %v", r.Black(), r.Actor())
	}
	if err := r.Fourth(renjuPts(t, size, "J10")[0]); err != nil {
		t.Fatal(err)
	}
	if r.Actor() != SecondPlayer {
		t.Fatalf("offers by %v", r.Actor())
	}
	off := renjuPts(t, size, "G10", "J8")
	if err := r.Offer(off[0], off[1]); err != nil {
		t.Fatal(err)
	}
	if got := reasonOf(r.Choose(renjuPts(t, size, "A1")[0])); got != NotOffered {
		t.Errorf("choosing an unoffered point: %q", got)
	}
	if err := r.Choose(off[1]); err != nil {
		t.Fatal(err)
	}
	if r.Step() != RIFDone || len(r.Position().Moves) != 5 || r.Position().ToMove() != White || r.Actor() != FirstPlayer {
		t.Errorf("after the choice: step %v, %d moves, %v to move, actor %v", r.Step(), len(r.Position().Moves), r.Position().ToMove(), r.Actor())
	}
}

func TestRIFZones(t *testing.T) {
	const size = 15
	for _, c := range []struct {
		name   string
		stones []string
		reason Reason
	}{
		{"move 1 off centre", []string{"H9", "H8", "I9"}, OutsideRIFZone},
		{"move 2 not touching", []string{"H8", "H10", "I9"}, OutsideRIFZone},
		{"move 3 outside 5x5", []string{"H8", "H9", "K8"}, OutsideRIFZone},
		{"move 3 on move 2", []string{"H8", "H9", "H9"}, Occupied},
		{"two stones", []string{"H8", "H9"}, WrongStoneCount},
	} {
		r, _ := NewRIF(mustRule(t, "renju"), size)
		if got := reasonOf(r.Place(renjuPts(t, size, c.stones...))); got != c.reason {
			t.Errorf("%s: %q, want %q", c.name, got, c.reason)
		}
		if len(r.Position().Moves) != 0 {
			t.Errorf("%s: a rejected answer left stones", c.name)
		}
	}
	if _, err := NewRIF(mustRule(t, "renju"), 14); err == nil {
		t.Error("an even board accepted")
	}
}

// Kansei with move 4 on its axis is symmetric about the H column:
//
//	11 . o  .      H8 H9 H10 then White H11: reflecting across H maps
//	10 . x  .      G12 onto I12, so those two offers are one offer; G12 and
//	 9 . o  .      J11 are not.
//	 8 . x  .
//	   G H  I
func TestRIFOffersMustNotBeSymmetric(t *testing.T) {
	const size = 15
	setup := func(fourth string) *RIF {
		r, _ := NewRIF(mustRule(t, "renju"), size)
		if err := r.Place(renjuPts(t, size, "H8", "H9", "H10")); err != nil {
			t.Fatal(err)
		}
		r.Swap(false)
		if err := r.Fourth(renjuPts(t, size, fourth)[0]); err != nil {
			t.Fatal(err)
		}
		return r
	}
	r := setup("H11")
	if got := len(PositionSymmetries(r.Position())); got != 2 {
		t.Fatalf("%d symmetries, want 2 (identity and the reflection)", got)
	}
	p := renjuPts(t, size, "G12", "I12", "J11")
	if got := reasonOf(r.Offer(p[0], p[1])); got != SymmetricOffers {
		t.Errorf("mirror offers: %q", got)
	}
	if got := reasonOf(r.Offer(p[0], p[0])); got != SymmetricOffers {
		t.Errorf("the same offer twice: %q", got)
	}
	if err := r.Offer(p[0], p[2]); err != nil {
		t.Errorf("distinct offers: %v", err)
	}
	// The same offers are distinct once move 4 breaks the symmetry.
	r = setup("J11")
	if len(PositionSymmetries(r.Position())) != 1 {
		t.Fatal("asymmetric position has symmetries")
	}
	if err := r.Offer(p[0], p[1]); err != nil {
		t.Errorf("offers in an asymmetric position: %v", err)
	}
	// An occupied offer is rejected.
	r = setup("J11")
	if got := reasonOf(r.Offer(p[0], renjuPts(t, size, "H9")[0])); got != Occupied {
		t.Errorf("occupied offer: %q", got)
	}
}

func TestSwap2Branches(t *testing.T) {
	const size = 15
	three := []Point{{7, 7}, {8, 7}, {9, 9}}
	for _, c := range []struct {
		name    string
		answers []func(*Swap2) error
		black   Seat
		stones  int
	}{
		{"second swaps", []func(*Swap2) error{func(s *Swap2) error { return s.Answer(true, nil) }}, SecondPlayer, 3},
		{"second plays the 4th", []func(*Swap2) error{func(s *Swap2) error { return s.Answer(false, []Point{{8, 8}}) }}, FirstPlayer, 4},
		{"first swaps after two", []func(*Swap2) error{
			func(s *Swap2) error { return s.Answer(false, []Point{{8, 8}, {8, 6}}) },
			func(s *Swap2) error { return s.Answer(true, nil) },
		}, FirstPlayer, 5},
		{"first plays the 6th", []func(*Swap2) error{
			func(s *Swap2) error { return s.Answer(false, []Point{{8, 8}, {8, 6}}) },
			func(s *Swap2) error { return s.Answer(false, []Point{{6, 8}}) },
		}, SecondPlayer, 6},
	} {
		s, _ := NewSwap2(mustRule(t, "freestyle"), size)
		if s.Actor() != FirstPlayer {
			t.Fatal("the first player places")
		}
		if err := s.Place(three); err != nil {
			t.Fatal(err)
		}
		for _, a := range c.answers {
			if err := a(s); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
		}
		if s.Step() != Swap2Done || s.Black() != c.black || len(s.Position().Moves) != c.stones {
			t.Errorf("%s: step %v, Black %v, %d stones; want done, %v, %d", c.name, s.Step(), s.Black(), len(s.Position().Moves), c.black, c.stones)
		}
	}
}

func TestSwap2RejectsWrongAnswers(t *testing.T) {
	const size = 15
	s, _ := NewSwap2(mustRule(t, "freestyle"), size)
	if got := reasonOf(s.Place([]Point{{7, 7}, {8, 7}})); got != WrongStoneCount {
		t.Errorf("two stones: %q", got)
	}
	if got := reasonOf(s.Place([]Point{{7, 7}, {8, 7}, {7, 7}})); got != Occupied {
		t.Errorf("occupied: %q", got)
	}
	if got := reasonOf(s.Place([]Point{{7, 7}, {8, 7}, {15, 3}})); got != OffBoard {
		t.Errorf("off board: %q", got)
	}
	if len(s.Position().Moves) != 0 {
		t.Fatal("rejected stones stayed")
	}
	s.Place([]Point{{7, 7}, {8, 7}, {9, 9}})
	if got := reasonOf(s.Answer(false, []Point{{1, 1}, {2, 2}, {3, 3}})); got != WrongStoneCount {
		t.Errorf("three stones at the choice: %q", got)
	}
	if got := reasonOf(s.Answer(false, nil)); got != WrongStoneCount {
		t.Errorf("no stones and no swap: %q", got)
	}
	s.Answer(false, []Point{{1, 1}, {2, 2}})
	if s.Actor() != FirstPlayer {
		t.Fatal("the choice goes back to the first player")
	}
	if got := reasonOf(s.Answer(false, []Point{{3, 3}, {4, 4}})); got != WrongStoneCount {
		t.Errorf("two stones at the last choice: %q", got)
	}
}
