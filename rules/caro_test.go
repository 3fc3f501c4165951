package rules

import "testing"

// Caro as RULES.md's table gives it (Gomocup's managers, Piskvork and
// GomocupJudge): code 8 "caro" wins with five or more except a line of
// exactly five with an opponent stone at both ends; code 9 "caro-exact" wins
// only with exactly five not shut at both ends. Only opponent stones block:
// the board edge never does. '*' is Black's move, the last stone.
func TestCaroFromTheTable(t *testing.T) {
	cases := []struct {
		name      string
		rows      []string
		caro      bool // Black wins under caro (code 8)
		caroExact bool // Black wins under caro-exact (code 9)
	}{
		{"open five", []string{
			".........",
			"..XX*XX..",
			".........",
		}, true, true},
		{"five from the edge to a white stone: the edge is no block", []string{
			"XXXX*O...",
			".........",
			".........",
		}, true, true},
		{"five between both edges of a 5-wide line: a diagonal to the corners", []string{
			"X....",
			".X...",
			"..*..",
			"...X.",
			"....X",
		}, true, true},
		{"exact five shut at both ends by white", []string{
			".OXX*XXO.",
			".........",
			".........",
		}, false, false},
		{"five with white at one end only", []string{
			".OXX*XX..",
			".........",
			".........",
		}, true, true},
		{"white one point past both ends", []string{
			"O.XX*XX.O",
			".........",
			".........",
		}, true, true},
		{"open overline", []string{
			".........",
			".XXX*XX..",
			".........",
		}, true, false},
		{"overline shut at both ends by white", []string{
			"OXXX*XXO.",
			".........",
			".........",
		}, true, false},
		{"diagonal five shut at both ends", []string{
			"O.......",
			".X......",
			"..X.....",
			"...*....",
			"....X...",
			".....X..",
			"......O.",
			"........",
		}, false, false},
		{"four is no five", []string{
			".........",
			"..XX*X...",
			".........",
		}, false, false},
	}
	for _, tc := range cases {
		for _, r := range []struct {
			name string
			want bool
		}{{"caro", tc.caro}, {"caro-exact", tc.caroExact}} {
			t.Run(tc.name+"/"+r.name, func(t *testing.T) {
				rule, err := ByName(r.name)
				if err != nil {
					t.Fatal(err)
				}
				rows := tc.rows
				for len(rows) < len(rows[0]) { // square the diagram
					rows = append(rows, dots(len(rows[0])))
				}
				p, m, _ := penteDiagram(t, rows, Black)
				v := rule.Play(p, m)
				if got := v.Over && v.Winner == Black && v.Reason == Five; got != r.want {
					t.Fatalf("verdict %+v, want a Black win: %v", v, r.want)
				}
			})
		}
	}
}

func dots(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = '.'
	}
	return string(b)
}

// Engines are told the code the managers use for each Caro.
func TestCaroCodes(t *testing.T) {
	for name, code := range map[string]int{"caro": 8, "caro-exact": 9} {
		r, err := ByName(name)
		if err != nil || r.Code() != code {
			t.Errorf("%s: code %v (%v), want %d", name, r, err, code)
		}
	}
}

// The issue's own case: Black's five a2..e2 runs from the edge to White's
// f2; under the managers it wins.
func TestCaroFiveFromTheEdgeWins(t *testing.T) {
	for _, name := range []string{"caro", "caro-exact"} {
		r, _ := ByName(name)
		stones, err := ParsePosString("a2f2b2a5c2b5d2c5e2", 15)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := NewPosition(15)
		var v Verdict
		for _, m := range stones {
			v = r.Play(p, m)
		}
		if !v.Over || v.Winner != Black || v.Reason != Five {
			t.Errorf("%s: %+v, want a Black five", name, v)
		}
	}
}

func TestPenteNeedsSevenBySeven(t *testing.T) {
	for _, name := range []string{"pente", "keryo-pente"} {
		r, _ := ByName(name)
		if err := CheckSize(r, 6); err == nil || err.Error() != name+" needs a board of at least 7x7, not 6x6" {
			t.Errorf("%s on 6x6: %v", name, err)
		}
		if err := CheckSize(r, 7); err != nil {
			t.Errorf("%s on 7x7: %v", name, err)
		}
	}
	free, _ := ByName("freestyle")
	if err := CheckSize(free, 5); err != nil {
		t.Errorf("freestyle on 5x5: %v", err)
	}
	if err := CheckSize(free, 27); err == nil {
		t.Error("27x27 accepted")
	}
}
