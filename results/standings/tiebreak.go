package standings

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Edition names the regulations the tie-breaks follow; the standings files
// and the README quote it.
const Edition = "FIDE Tie-Break Regulations (Handbook C.07), the text applied from 1 March 2026"

// Tiebreak names a way to rank entrants with equal points, as written in a
// config. The definitions follow Edition. Where the regulations speak of
// colours, chess's White is the first mover (our Black) and chess's Black
// the second mover (our White): the colour tie-breaks reward the second
// mover, as chess's reward Black; see SecondMoverGames.
type Tiebreak string

const (
	// SonnebornBerger sums, over the games, the points scored times the
	// opponent's points: a win adds the opponent's points, a draw half.
	SonnebornBerger Tiebreak = "sonneborn-berger"
	// DirectEncounter (C.07 Art. 6) ranks the tied entrants by the points
	// they scored against each other: games between the same two entrants
	// count as their average (6.1.2), and in a Swiss a game not played over
	// the board is no encounter (6.1.1). When every tied entrant has met
	// every other, the points rank them, and a sub-tie left is ranked by
	// direct encounter among its own members. When not all have met (6.3),
	// an entrant who stays alone on top whatever the missing games would
	// have given is ranked first, then the next the same way among the
	// rest; those left stay tied. The tied group is the one still tied when
	// this tie-break's turn comes; the column shows each member's points
	// against the others of that group.
	DirectEncounter Tiebreak = "direct-encounter"
	// MostWins is FIDE's WIN: the rounds scored as a win, with or without a
	// game — forfeit wins and byes worth a win count.
	MostWins Tiebreak = "wins"
	// Koya is the points scored against the opponents who finished with at
	// least 50% of the maximum possible score: a win in every game the
	// schedule gives an entrant. In a round robin of an odd number of
	// entrants the rest round is no game, so 9 entrants can score at most 8
	// and the threshold is 4.
	Koya Tiebreak = "koya"
	// Buchholz sums the opponents' points, one value a round. In a Swiss an
	// unplayed round (bye, forfeit, and a withdrawn entrant's absences)
	// counts as a game against a dummy whose points are the entrant's own,
	// but no more than the scheduled opponent's points (forfeit) or a draw
	// in every round (bye, absence) — C.07 Art. 16.4; an opponent's points
	// are its adjusted score, each of its absences a draw (Art. 16.3). In
	// predetermined pairings a forfeit counts as a game and a bye adds
	// nothing.
	Buchholz Tiebreak = "buchholz"
	// BuchholzCut1 is Buchholz without the least value; an entrant with
	// voluntary unplayed rounds (forfeit losses, absences) loses the least
	// value of those rounds instead (C.07 Art. 16.5).
	BuchholzCut1 Tiebreak = "buchholz-cut1"
	// MedianBuchholz is Buchholz without the least and then the greatest
	// value (Median-1), the least chosen as for BuchholzCut1.
	MedianBuchholz Tiebreak = "median-buchholz"
	// AverageRatingOfOpponents is the mean rating of the opponents met on the
	// board (no byes, no forfeits), rounded to the nearest whole number; 0
	// without ratings.
	AverageRatingOfOpponents Tiebreak = "aro"
	// SecondMoverGames counts the games played on the board moving second
	// (our White): FIDE's "games played with Black" (BPG), which rewards the
	// colour that moves second. Games not played over the board do not
	// count.
	SecondMoverGames Tiebreak = "second-mover-games"
	// SecondMoverWins counts the games won on the board moving second (our
	// White): FIDE's "games won with Black" (BWG). Forfeit wins do not count.
	SecondMoverWins Tiebreak = "second-mover-wins"
)

var tiebreaks = []Tiebreak{SonnebornBerger, DirectEncounter, MostWins, Koya, Buchholz, BuchholzCut1, MedianBuchholz, AverageRatingOfOpponents, SecondMoverGames, SecondMoverWins}

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
		if s == "black-wins" {
			return nil, fmt.Errorf("tie-break %d: %q counted the first mover's wins, the opposite of FIDE's wins with Black (BWG); it is gone: use %q (or %q)", i+1, s, SecondMoverWins, SecondMoverGames)
		}
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
	case SecondMoverGames:
		return "SMG"
	case SecondMoverWins:
		return "SMW"
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
		half := ev.maxScore(opt) / 2
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
	case SecondMoverGames, SecondMoverWins:
		n := 0
		for _, sl := range ev.of(e) {
			if !sl.black && !sl.unplayed && (tb == SecondMoverGames || sl.points == 1) {
				n++
			}
		}
		return float64(n)
	}
	return 0
}

// maxScore is the most points an entrant can score in the event: a win in
// every round of a Swiss (a bye is scored), and in every game of a round
// robin, whose rest rounds are no games: the most games any entrant has
// (n-1 a cycle once the event is complete).
func (ev *event) maxScore(opt Options) float64 {
	if opt.Swiss {
		return float64(ev.rounds)
	}
	most := 0
	for e := range ev.n {
		games := 0
		for _, sl := range ev.of(e) {
			if sl.opp != Bye {
				games++
			}
		}
		most = max(most, games)
	}
	return float64(most)
}

// opponentValue is the opponent's points that a round of e contributes to
// Buchholz and Sonneborn-Berger, and whether it contributes at all.
func (ev *event) opponentValue(e int, sl slot, opt Options) (float64, bool) {
	if !sl.unplayed || !opt.Swiss {
		if sl.opp == Bye {
			return 0, false
		}
		return ev.adjusted[sl.opp], true
	}
	// C.07 Art. 16.4: a dummy with e's own points, capped by the scheduled
	// opponent's adjusted score (Art. 16.3), or for a bye by a draw in
	// every round.
	if sl.opp != Bye {
		return min(ev.points[e], ev.adjusted[sl.opp]), true
	}
	return ev.absenceValue(e), true
}

// absenceValue is what a round without opponent (a bye, an absence) of e
// contributes to Buchholz in a Swiss: the dummy of Art. 16.4, e's own
// points, at most a draw in every round of the event.
func (ev *event) absenceValue(e int) float64 {
	return min(ev.points[e], 0.5*float64(ev.rounds))
}

// buchholz computes Buchholz and its Cut-1 and Median-1 variants.
func (ev *event) buchholz(tb Tiebreak, e int, opt Options) float64 {
	var vals [16]float64
	values := vals[:0]
	// vur is the index of the least value from a voluntary unplayed round
	// (C.07 Art. 16.5): a forfeit loss or an absence.
	vur := -1
	sum := 0.0
	add := func(v float64, voluntary bool) {
		if voluntary && (vur < 0 || v < values[vur]) {
			vur = len(values)
		}
		values = append(values, v)
		sum += v
	}
	for _, sl := range ev.of(e) {
		if v, ok := ev.opponentValue(e, sl, opt); ok {
			add(v, opt.Swiss && sl.unplayed && sl.opp != Bye && sl.points == 0)
		}
	}
	for range ev.absent[e] {
		add(ev.absenceValue(e), true)
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

// encounters computes direct encounter for tied groups.
type encounters struct {
	swiss bool // a game not played over the board is no encounter
	in    []int
	stamp int
}

func newEncounters(n int, swiss bool) *encounters {
	return &encounters{swiss: swiss, in: make([]int, n)}
}

// groupScores is what direct encounter knows of one group: each member's
// points against the others, games between the same two averaged, and how
// many of the others it has not met.
type groupScores struct {
	points map[int]float64
	unmet  map[int]int
}

func (d *encounters) scores(ev *event, g []int) groupScores {
	d.stamp++
	for _, e := range g {
		d.in[e] = d.stamp
	}
	out := groupScores{points: make(map[int]float64, len(g)), unmet: make(map[int]int, len(g))}
	for _, e := range g {
		type tally struct {
			points float64
			games  int
		}
		met := map[int]tally{}
		for _, sl := range ev.of(e) {
			if sl.opp == Bye || d.in[sl.opp] != d.stamp || (d.swiss && sl.unplayed) {
				continue
			}
			t := met[sl.opp]
			met[sl.opp] = tally{t.points + sl.points, t.games + 1}
		}
		pts := 0.0
		for _, t := range met {
			pts += t.points / float64(t.games) // 6.1.2
		}
		out.points[e] = pts
		out.unmet[e] = len(g) - 1 - len(met)
	}
	return out
}

// rank orders the tied group g by direct encounter: the runs of entrants
// still tied, best first. g keeps its order within a run.
func (d *encounters) rank(ev *event, g []int) [][]int {
	if len(g) < 2 {
		return [][]int{g}
	}
	sc := d.scores(ev, g)
	byPoints := slices.Clone(g)
	slices.SortStableFunc(byPoints, func(a, b int) int { return cmp.Compare(sc.points[b], sc.points[a]) })
	allMet := true
	for _, e := range g {
		allMet = allMet && sc.unmet[e] == 0
	}
	if allMet {
		runs := split(byPoints, func(e int) float64 { return sc.points[e] })
		if len(runs) == 1 {
			return runs
		}
		var out [][]int
		for _, r := range runs {
			out = append(out, d.rank(ev, r)...) // a sub-tie: DE among its own members
		}
		return out
	}
	// 6.3: the leader is ranked first only if no one else could reach its
	// points even winning every game it has not played against the group.
	top := byPoints[0]
	for _, e := range g {
		if e != top && sc.points[e]+float64(sc.unmet[e]) >= sc.points[top] {
			return [][]int{g}
		}
	}
	rest := make([]int, 0, len(g)-1)
	for _, e := range g {
		if e != top {
			rest = append(rest, e)
		}
	}
	return append([][]int{{top}}, d.rank(ev, rest)...)
}
