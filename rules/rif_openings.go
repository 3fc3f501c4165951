package rules

import (
	"fmt"
	"strings"
)

// RIFOpening is one of the 26 canonical renju openings: Black's first stone
// at the centre, White's second touching it (straight for the 13 "direct"
// openings, diagonally for the 13 "indirect" ones), Black's third within the
// central 5x5. Every legal start of the RIF procedure is one of them up to
// the board's symmetries.
type RIFOpening struct {
	Code string // "1D".."13D", "1I".."13I", the order of the RIF charts
	Name string // the Japanese name in Hepburn spelling, e.g. "Kagetsu"
	// Offsets are the three stones as offsets from the centre in internal
	// orientation (y downward): Black 0,0; White 0,-1 (direct, renju H9 on
	// 15x15) or 1,-1 (indirect, I9); then Black's third stone.
	Offsets [3]Point
}

var (
	direct   = Point{0, -1}
	indirect = Point{1, -1}
)

// RIFOpenings are the 26 canonical openings in chart order. The third
// stones follow the RIF charts (renju.net "26 openings"): with Black on H8
// and White on H9, Kansei is H10, Kagetsu I9, Yusei J6, and so on.
var RIFOpenings = [26]RIFOpening{
	{"1D", "Kansei", [3]Point{{}, direct, {0, -2}}},
	{"2D", "Keigetsu", [3]Point{{}, direct, {1, -2}}},
	{"3D", "Sosei", [3]Point{{}, direct, {2, -2}}},
	{"4D", "Kagetsu", [3]Point{{}, direct, {1, -1}}},
	{"5D", "Zangetsu", [3]Point{{}, direct, {2, -1}}},
	{"6D", "Ugetsu", [3]Point{{}, direct, {1, 0}}},
	{"7D", "Kinsei", [3]Point{{}, direct, {2, 0}}},
	{"8D", "Shogetsu", [3]Point{{}, direct, {0, 1}}},
	{"9D", "Kyugetsu", [3]Point{{}, direct, {1, 1}}},
	{"10D", "Shingetsu", [3]Point{{}, direct, {2, 1}}},
	{"11D", "Zuisei", [3]Point{{}, direct, {0, 2}}},
	{"12D", "Sangetsu", [3]Point{{}, direct, {1, 2}}},
	{"13D", "Yusei", [3]Point{{}, direct, {2, 2}}},
	{"1I", "Chosei", [3]Point{{}, indirect, {2, -2}}},
	{"2I", "Kyogetsu", [3]Point{{}, indirect, {2, -1}}},
	{"3I", "Kosei", [3]Point{{}, indirect, {2, 0}}},
	{"4I", "Suigetsu", [3]Point{{}, indirect, {2, 1}}},
	{"5I", "Ryusei", [3]Point{{}, indirect, {2, 2}}},
	{"6I", "Ungetsu", [3]Point{{}, indirect, {1, 0}}},
	{"7I", "Hogetsu", [3]Point{{}, indirect, {1, 1}}},
	{"8I", "Rangetsu", [3]Point{{}, indirect, {1, 2}}},
	{"9I", "Gingetsu", [3]Point{{}, indirect, {0, 1}}},
	{"10I", "Myojo", [3]Point{{}, indirect, {0, 2}}},
	{"11I", "Shagetsu", [3]Point{{}, indirect, {-1, 1}}},
	{"12I", "Meigetsu", [3]Point{{}, indirect, {-1, 2}}},
	{"13I", "Suisei", [3]Point{{}, indirect, {-2, 2}}},
}

// Stones places the opening on a board of the given size, around the point
// size/2,size/2.
func (o RIFOpening) Stones(size int) []Point {
	c := size / 2
	out := make([]Point, len(o.Offsets))
	for i, d := range o.Offsets {
		out[i] = Point{c + d.X, c + d.Y}
	}
	return out
}

// String is the code and the name, "4D Kagetsu".
func (o RIFOpening) String() string { return o.Code + " " + o.Name }

// RIFOpeningList is the 26 canonical openings as an opening list for a
// board of the given size (at least 5, odd so the centre is the centre):
// what a renju event plays when it names no openings file. The arbiter's
// tournaments give both games of a pairing the same opening with colours
// reversed, so each opening is played twice.
func RIFOpeningList(size int) []Opening {
	list := make([]Opening, len(RIFOpenings))
	for i, o := range RIFOpenings {
		list[i] = Opening{Stones: o.Stones(size), Text: o.String()}
	}
	return list
}

// IdentifyRIFOpening names the canonical opening that the first three
// stones of a game are, up to the board's symmetries. It reports false when
// the stones are not a canonical opening (fewer than three, or outside the
// RIF zones).
func IdentifyRIFOpening(size int, stones []Point) (RIFOpening, bool) {
	if len(stones) < 3 || size%2 == 0 {
		return RIFOpening{}, false
	}
	for _, o := range RIFOpenings {
		want := o.Stones(size)
		for k := 0; k < Symmetries; k++ {
			if Transform(want[0], size, k) == stones[0] && Transform(want[1], size, k) == stones[1] &&
				Transform(want[2], size, k) == stones[2] {
				return o, true
			}
		}
	}
	return RIFOpening{}, false
}

// RIFOpeningByName finds a canonical opening by its name or code, in any
// case ("kagetsu", "4d").
func RIFOpeningByName(s string) (RIFOpening, error) {
	for _, o := range RIFOpenings {
		if strings.EqualFold(o.Name, s) || strings.EqualFold(o.Code, s) {
			return o, nil
		}
	}
	return RIFOpening{}, fmt.Errorf("no canonical renju opening named %q", s)
}
