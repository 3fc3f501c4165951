package standings

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Tiebreak names a way to rank entrants with equal points, as written in a
// config. The definitions follow the FIDE tie-break regulations (C.07,
// 2024), with the first mover (our Black) in chess's White role only where
// the regulations speak of colours; see BlackWins.
type Tiebreak string

const (
	// SonnebornBerger sums, over the games, the points scored times the
	// opponent's points: a win adds the opponent's points, a draw half.
	SonnebornBerger Tiebreak = "sonneborn-berger"
	// DirectEncounter is the points scored in the games among the tied
	// entrants only. It applies when every tied entrant has met every other
	// (at least once); otherwise it is 0 for the group and separates nobody.
	// The tied group is the one still tied when this tie-break's turn comes.
	DirectEncounter Tiebreak = "direct-encounter"
	// MostWins is FIDE's WIN: the rounds scored as a win, with or without a
	// game — forfeit wins and byes worth a win count.
	MostWins Tiebreak = "wins"
	// Koya is the points scored against the opponents who finished with at
	// least half the maximum score (a win in every round).
	Koya Tiebreak = "koya"
	// Buchholz sums the opponents' points, one value a round. In a Swiss an
	// unplayed round (bye, forfeit) counts as a game against a dummy whose
	// points are the entrant's own, but no more than the scheduled
	// opponent's points (forfeit) or a draw in every round (bye) — C.07
	// Art. 16.4. In predetermined pairings a forfeit counts as a game and a
	// bye adds nothing.
	Buchholz Tiebreak = "buchholz"
	// BuchholzCut1 is Buchholz without the least value; an entrant with
	// forfeit losses loses the least value of those rounds instead (C.07
	// Art. 16.5).
	BuchholzCut1 Tiebreak = "buchholz-cut1"
	// MedianBuchholz is Buchholz without the least and then the greatest
	// value (Median-1), the least chosen as for BuchholzCut1.
	MedianBuchholz Tiebreak = "median-buchholz"
	// AverageRatingOfOpponents is the mean rating of the opponents met on the
	// board (no byes, no forfeits), rounded to the nearest whole number; 0
	// without ratings.
	AverageRatingOfOpponents Tiebreak = "aro"
	// BlackWins counts the games won on the board with Black, the first
	// mover. (FIDE's "wins with Black" rewards the second mover; in Gomoku
	// terms that would be White.)
	BlackWins Tiebreak = "black-wins"
)

var tiebreaks = []Tiebreak{SonnebornBerger, DirectEncounter, MostWins, Koya, Buchholz, BuchholzCut1, MedianBuchholz, AverageRatingOfOpponents, BlackWins}

// RoundRobinTiebreaks is the default order for round robins and gauntlets.
func RoundRobinTiebreaks() []Tiebreak {
	return []Tiebreak{SonnebornBerger, DirectEncounter, MostWins, Koya}
}

// SwissTiebreaks is the default order for Swiss events.
func SwissTiebreaks() []Tiebreak {
	return []Tiebreak{BuchholzCut1, Buchholz, SonnebornBerger, DirectEncounter}
}

// ParseTiebreaks reads a tie-break order as written in a config; unknown and
// repeated names are errors.
func ParseTiebreaks(names []string) ([]Tiebreak, error) {
	out := make([]Tiebreak, 0, len(names))
	for i, s := range names {
		tb := Tiebreak(s)
		if !slices.Contains(tiebreaks, tb) {
			all := make([]string, len(tiebreaks))
			for j, t := range tiebreaks {
				all[j] = string(t)
			}
			return nil, fmt.Errorf("tie-break %d: unknown %q (want one of %s)", i+1, s, strings.Join(all, ", "))
		}
		if slices.Contains(out, tb) {
			return nil, fmt.Errorf("tie-break %d: %q is already in the list", i+1, s)
		}
		out = append(out, tb)
	}
	return out, nil
}

// Abbrev is the short column heading used in tables (FIDE's abbreviations).
func (t Tiebreak) Abbrev() string {
	switch t {
	case SonnebornBerger:
		return "SB"
	case DirectEncounter:
		return "DE"
	case MostWins:
		return "WIN"
	case Koya:
		return "KS"
	case Buchholz:
		return "BH"
	case BuchholzCut1:
		return "BH-C1"
	case MedianBuchholz:
		return "BH-M1"
	case AverageRatingOfOpponents:
		return "ARO"
	case BlackWins:
		return "BWG"
	}
	return string(t)
}

// tiebreak is the value of tb for entrant e, except direct encounter.
func (ev *event) tiebreak(tb Tiebreak, e int, s *Standing, opt Options) float64 {
	switch tb {
	case SonnebornBerger:
		sum := 0.0
		for _, sl := range ev.of(e) {
			if v, ok := ev.opponentValue(e, sl, opt); ok {
				sum += sl.points * v
			}
		}
		return sum
	case MostWins:
		n := 0
		for _, sl := range ev.of(e) {
			if sl.points == 1 {
				n++
			}
		}
		return float64(n)
	case Koya:
		half := float64(ev.rounds) / 2
		sum := 0.0
		for _, sl := range ev.of(e) {
			if sl.opp != Bye && ev.points[sl.opp] >= half {
				sum += sl.points
			}
		}
		return sum
	case Buchholz, BuchholzCut1, MedianBuchholz:
		return ev.buchholz(tb, e, opt)
	case AverageRatingOfOpponents:
		if opt.Ratings == nil {
			return 0
		}
		sum, k := 0.0, 0
		for _, sl := range ev.of(e) {
			if !sl.unplayed {
				sum += opt.Ratings[sl.opp]
				k++
			}
		}
		if k == 0 {
			return 0
		}
		return math.Floor(sum/float64(k) + 0.5)
	case BlackWins:
		return float64(s.BlackWins)
	}
	return 0
}

// opponentValue is the opponent's points that a round of e contributes to
// Buchholz and Sonneborn-Berger, and whether it contributes at all.
func (ev *event) opponentValue(e int, sl slot, opt Options) (float64, bool) {
	if !sl.unplayed || !opt.Swiss {
		if sl.opp == Bye {
			return 0, false
		}
		return ev.points[sl.opp], true
	}
	// C.07 Art. 16.4: a dummy with e's own points, capped. (Art. 16.3 would
	// adjust the real opponents' points for requested byes; the arena has
	// none, so their points stand as scored.)
	limit := 0.5 * float64(ev.rounds)
	if sl.opp != Bye {
		limit = ev.points[sl.opp]
	}
	return min(ev.points[e], limit), true
}

// buchholz computes Buchholz and its Cut-1 and Median-1 variants.
func (ev *event) buchholz(tb Tiebreak, e int, opt Options) float64 {
	var vals [16]float64
	values := vals[:0]
	vur := -1 // index of the least value from a forfeit loss (C.07 Art. 16.5)
	sum := 0.0
	for _, sl := range ev.of(e) {
		v, ok := ev.opponentValue(e, sl, opt)
		if !ok {
			continue
		}
		if opt.Swiss && sl.unplayed && sl.opp != Bye && sl.points == 0 && (vur < 0 || v < values[vur]) {
			vur = len(values)
		}
		values = append(values, v)
		sum += v
	}
	if tb == Buchholz || len(values) == 0 {
		return sum
	}
	cut := vur
	if cut < 0 {
		cut = 0
		for i, v := range values {
			if v < values[cut] {
				cut = i
			}
		}
	}
	sum -= values[cut]
	if tb == BuchholzCut1 || len(values) == 1 {
		return sum
	}
	values[cut] = math.Inf(-1)
	return sum - slices.Max(values)
}

// encounters computes direct encounter for tied groups, reusing its
// scratch space between groups.
type encounters struct {
	group []int // stamp: group[e] == stamp when e is in the current group
	met   []int // stamp per (member, opponent) to count distinct opponents
	stamp int
	out   map[int]float64
}

func newEncounters(n int) *encounters {
	return &encounters{group: make([]int, n), met: make([]int, n), out: map[int]float64{}}
}

// scores is each member's points against the other members of g, or all
// zeros unless every member has met every other.
func (d *encounters) scores(ev *event, g []int) map[int]float64 {
	d.stamp++
	gs := d.stamp
	for _, e := range g {
		d.group[e] = gs
	}
	clear(d.out)
	all := true
	for _, e := range g {
		d.stamp++
		distinct, pts := 0, 0.0
		for _, sl := range ev.of(e) {
			if sl.opp == Bye || d.group[sl.opp] != gs {
				continue
			}
			pts += sl.points
			if d.met[sl.opp] != d.stamp {
				d.met[sl.opp] = d.stamp
				distinct++
			}
		}
		all = all && distinct == len(g)-1
		d.out[e] = pts
	}
	if !all {
		for e := range d.out {
			d.out[e] = 0
		}
	}
	return d.out
}
