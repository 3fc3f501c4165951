package standings

import (
	"cmp"
	"fmt"
	"slices"

	"gomoku-arena/results/record"
)

// Bye stands in for the missing opponent of an entrant who sits a round out.
const Bye = -1

// GameResult is one finished game or bye of an event, by entrant index (the
// seeding order of the event's engines), with how it ended: the input of
// Standings and the crosstable. The scheduler turns the same results into
// the Swiss pairing's history (schedule.Tournament.SwissHistory), so that
// the standings and the pairing read one conversion of the records:
// GameResults.
//
// Each side's points are kept on their own: a game played over the board is
// won 1-0, drawn ½-½ or lost by both 0-0; a game not played over the board
// (Forfeit) is a forfeit win against a forfeit loss or a double forfeit, 0-0.
// A round without opponent (White == Bye) scores Options.ByePoints.
type GameResult struct {
	Round        int
	Black, White int                // White == Bye for a round without opponent
	BlackPoints  float64            // 1, 0.5 or 0
	WhitePoints  float64            // 1, 0.5 or 0; unused for a bye
	Forfeit      bool               // not played over the board (NotPlayed)
	End          record.Termination // "" for a game read from elsewhere (a TRF)
}

// Played is a game between black and white in which black scored
// blackPoints and white the rest, ended by end (a refusal makes it a game
// not played over the board, as in GameResults).
func Played(round, black, white int, blackPoints float64, end record.Termination) GameResult {
	return GameResult{Round: round, Black: black, White: white, BlackPoints: blackPoints, WhitePoints: 1 - blackPoints,
		Forfeit: NotPlayed(end), End: end}
}

// ByeResult is the bye of entrant in round.
func ByeResult(round, entrant int) GameResult {
	return GameResult{Round: round, Black: entrant, White: Bye, End: record.ByeEnd}
}

// Unplayed reports a round with no game on the board: a bye, an absence or a
// game not played over the board. The FIDE rules for byes and forfeits apply
// to these rounds in the tie-breaks.
func (g GameResult) Unplayed() bool { return g.White == Bye || g.Forfeit }

// check refuses a score no game can end with: points other than 1, ½ or 0,
// a game not played over the board scored as a draw or won by both, or a
// played one whose points are not 1-0, ½-½ or 0-0.
func (g GameResult) check() error {
	for _, p := range []float64{g.BlackPoints, g.WhitePoints} {
		if p != 0 && p != 0.5 && p != 1 {
			return fmt.Errorf("round %d: game %d-%d: %g points, want 1, 0.5 or 0", g.Round, g.Black, g.White, p)
		}
	}
	sum, drawn := g.BlackPoints+g.WhitePoints, g.BlackPoints == 0.5
	if g.White == Bye || sum == 0 || sum == 1 && !(g.Forfeit && drawn) {
		return nil
	}
	return fmt.Errorf("round %d: game %d-%d: scored %g-%g, want 1-0, 0-1, 0-0 or, over the board, ½-½", g.Round, g.Black, g.White, g.BlackPoints, g.WhitePoints)
}

// NotPlayed reports whether a game that ended with end was not played over
// the board: an engine refused it, neither started it (a double
// forfeit), or the arbiter scored it a forfeit. A crash, a time loss or an illegal move is a played loss: the
// game was on. Unplayed rounds are what the FIDE rules for byes and forfeits
// apply to, in the standings as in the Swiss pairing.
func NotPlayed(end record.Termination) bool {
	return end == record.Refusal || end == record.DoubleForfeit || end == record.ByeEnd || end == record.Forfeited
}

// GameResults turns the records of an event into game results, with index
// mapping engine names to entrant indices: the one conversion both the
// standings and the Swiss pairing use. A bye is a record too (End ==
// ByeEnd, White == ""), journaled like a game; withdrawals (End ==
// Withdrawn) are not rounds and are left to Withdrawals. The arbiter's
// decisions among recs apply as record.Ruled applies them, each from its
// place in recs on: the records before a Swiss round is paired are the
// journal's lines before it, so a decision counts from the next pairing.
func GameResults(recs []*record.Record, index map[string]int) ([]GameResult, error) {
	recs = record.Ruled(recs)
	games := make([]GameResult, 0, len(recs))
	for _, r := range recs {
		b, okb := index[r.Black]
		switch {
		case r.End == record.Withdrawn:
			continue
		case r.End == record.ByeEnd && okb:
			games = append(games, ByeResult(r.Round, b))
			continue
		}
		w, okw := index[r.White]
		if !okb || !okw {
			return nil, fmt.Errorf("round %d game %d: %q vs %q: engine not in the event", r.Round, r.Game, r.Black, r.White)
		}
		bp, wp := r.Points()
		games = append(games, GameResult{Round: r.Round, Black: b, White: w,
			BlackPoints: bp, WhitePoints: wp, Forfeit: NotPlayed(r.End), End: r.End})
	}
	return games, nil
}

// Withdrawals maps each withdrawn entrant to the first round it was not
// paired in, from the withdrawal records among recs.
func Withdrawals(recs []*record.Record, index map[string]int) (map[int]int, error) {
	out := map[int]int{}
	for _, r := range recs {
		if r.End != record.Withdrawn {
			continue
		}
		e, ok := index[r.Black]
		if !ok {
			return nil, fmt.Errorf("round %d: withdrawal of %q: engine not in the event", r.Round, r.Black)
		}
		if _, seen := out[e]; !seen {
			out[e] = r.Round
		}
	}
	return out, nil
}

// Options say how standings are scored and ranked.
type Options struct {
	// ByePoints is what a bye scores; DefaultOptions makes it 1 (a win).
	ByePoints float64
	// Tiebreaks rank entrants with equal points, first to last; nil ranks
	// them by points alone.
	Tiebreaks []Tiebreak
	// Swiss applies the FIDE rules for unplayed rounds in Swiss events (C.07
	// Art. 16): byes and forfeits count as games against a dummy opponent.
	// Without it the pairings were predetermined (Art. 15.2): forfeits count
	// as ordinary games and byes add nothing to opponent-based tie-breaks.
	Swiss bool
	// Rounds is the number of rounds of the event, for Koya's maximum score
	// and the dummy opponent of a bye; 0 takes the highest round of the games.
	Rounds int
	// Ratings, by entrant, give the average rating of opponents (ARO); nil
	// when the entrants are unrated.
	Ratings []float64
	// Withdrawn maps each withdrawn entrant to the first round it was not
	// paired in (Withdrawals); it is shown in Standing.Withdrawn. In a
	// Swiss its rounds from then on, up to the last round with games, are
	// absences: voluntary unplayed rounds worth 0 points (C.07 Art. 16),
	// which count in its own Buchholz against a dummy opponent and, as
	// draws, in the score its opponents' tie-breaks read.
	Withdrawn map[int]int
}

// DefaultOptions scores a bye as a win and ranks by the default tie-breaks
// of a Swiss or a round robin.
func DefaultOptions(swiss bool) Options {
	o := Options{ByePoints: 1, Swiss: swiss, Tiebreaks: RoundRobinTiebreaks()}
	if swiss {
		o.Tiebreaks = SwissTiebreaks()
	}
	return o
}

// Standing is one entrant's line in the standings.
type Standing struct {
	// Rank is the 1-based place; entrants tied on points and on every
	// tie-break share the places Rank to RankTo (equal when not tied).
	Rank, RankTo int
	Entrant      int
	Points       float64
	// Games counts the games paired against an opponent, played or forfeited;
	// Wins, Draws and Losses split them.
	Games, Wins, Draws, Losses int
	BlackWins                  int // games won on the board with Black
	// ForfeitWins and ForfeitLosses count games decided by a fault
	// (Termination.Forfeit: time, illegal move, crash, refusal).
	ForfeitWins, ForfeitLosses int
	Byes                       int
	// Withdrawn is the first round the entrant was not paired in, having
	// left the event; 0 when it did not.
	Withdrawn int
	// Tiebreaks holds the value of each of Options.Tiebreaks, in order.
	Tiebreaks []float64
}

// slot is one round of one entrant, seen from that entrant.
type slot struct {
	opp      int // Bye for a bye
	points   float64
	black    bool
	unplayed bool
	forfeit  bool // decided by a fault (Termination.Forfeit)
}

// event is the games of an event grouped by entrant: the slots of entrant e
// are slots[start[e]:start[e+1]], in round order.
type event struct {
	n      int
	start  []int
	slots  []slot
	points []float64
	rounds int
	// absent counts each entrant's absences (Options.Withdrawn): rounds
	// after its withdrawal in which others played.
	absent []int
	// adjusted is each entrant's score as its opponents' tie-breaks read
	// it (C.07 Art. 16.3): its points, with each absence (an unplayed
	// round without opponent after its last round in the event) a draw.
	adjusted []float64
}

func newEvent(n int, games []GameResult, opt Options) (*event, error) {
	ev := &event{n: n, start: make([]int, n+1), points: make([]float64, n), rounds: opt.Rounds, absent: make([]int, n)}
	played := 0 // the last round with games
	for _, g := range games {
		played = max(played, g.Round)
		if g.Round < 1 {
			return nil, fmt.Errorf("game %d vs %d: round %d, want 1 or more", g.Black, g.White, g.Round)
		}
		if g.Black < 0 || g.Black >= n || g.White < Bye || g.White >= n || g.Black == g.White {
			return nil, fmt.Errorf("round %d: game %d vs %d: entrants must be distinct and in 0..%d", g.Round, g.Black, g.White, n-1)
		}
		if err := g.check(); err != nil {
			return nil, err
		}
		ev.start[g.Black+1]++
		if g.White != Bye {
			ev.start[g.White+1]++
		}
		if opt.Rounds == 0 {
			ev.rounds = max(ev.rounds, g.Round)
		}
	}
	for e := range n {
		ev.start[e+1] += ev.start[e]
	}
	ev.slots = make([]slot, len(games)*2)[:ev.start[n]]
	rounds := make([]int, len(ev.slots))
	next := slices.Clone(ev.start[:n])
	put := func(e, round int, s slot) {
		rounds[next[e]] = round
		ev.slots[next[e]] = s
		next[e]++
		ev.points[e] += s.points
	}
	for _, g := range games {
		if g.White == Bye {
			put(g.Black, g.Round, slot{opp: Bye, points: opt.ByePoints, black: true, unplayed: true})
			continue
		}
		un := g.Unplayed()
		ff := (g.End.Forfeit() || g.Forfeit) && !(g.BlackPoints == 0.5 && g.WhitePoints == 0.5)
		put(g.Black, g.Round, slot{opp: g.White, points: g.BlackPoints, black: true, unplayed: un, forfeit: ff})
		put(g.White, g.Round, slot{opp: g.Black, points: g.WhitePoints, unplayed: un, forfeit: ff})
	}
	// Sort each entrant's rounds (usually already in order) and refuse two
	// games of one entrant in one round: a schedule or journal bug.
	for e := range n {
		lo, hi := ev.start[e], ev.start[e+1]
		if !slices.IsSorted(rounds[lo:hi]) {
			idx := make([]int, hi-lo)
			for i := range idx {
				idx[i] = lo + i
			}
			slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(rounds[a], rounds[b]) })
			sorted := make([]slot, len(idx))
			rs := make([]int, len(idx))
			for i, j := range idx {
				sorted[i], rs[i] = ev.slots[j], rounds[j]
			}
			copy(ev.slots[lo:hi], sorted)
			copy(rounds[lo:hi], rs)
		}
		for i := lo + 1; i < hi; i++ {
			if rounds[i] == rounds[i-1] {
				return nil, fmt.Errorf("round %d: entrant %d has two games", rounds[i], e)
			}
		}
	}
	ev.adjusted = slices.Clone(ev.points)
	for e, from := range opt.Withdrawn {
		if e < 0 || e >= n {
			return nil, fmt.Errorf("withdrawal of entrant %d: not in 0..%d", e, n-1)
		}
		// A Swiss pairs a withdrawn entrant no more; a fixed schedule
		// scores its games left as forfeits (schedule.WithdrawnResults).
		if lo, hi := ev.start[e], ev.start[e+1]; opt.Swiss && hi > lo && rounds[hi-1] >= from {
			return nil, fmt.Errorf("round %d: entrant %d has a game after its withdrawal from round %d", rounds[hi-1], e, from)
		}
		if opt.Swiss && from > 0 && played >= from {
			ev.absent[e] = played - from + 1
			ev.adjusted[e] += 0.5 * float64(ev.absent[e])
		}
	}
	return ev, nil
}

func (ev *event) of(e int) []slot { return ev.slots[ev.start[e]:ev.start[e+1]] }

// Standings ranks the n entrants of an event from its finished games: by
// points (win 1, draw ½, loss 0, bye opt.ByePoints), then by each of
// opt.Tiebreaks in turn among the entrants still tied. Entrants tied on
// everything share their places and keep their seeding order. The result is
// in rank order. It runs in O(games + n log n), plus, for direct encounter,
// the games of each tied group.
func Standings(n int, games []GameResult, opt Options) ([]Standing, error) {
	ev, err := newEvent(n, games, opt)
	if err != nil {
		return nil, err
	}
	st := make([]Standing, n)
	for e := range n {
		s := &st[e]
		s.Entrant, s.Points, s.Withdrawn = e, ev.points[e], opt.Withdrawn[e]
		for _, sl := range ev.of(e) {
			if sl.opp == Bye {
				s.Byes++
				continue
			}
			s.Games++
			switch sl.points {
			case 1:
				s.Wins++
				if sl.forfeit {
					s.ForfeitWins++
				}
				if sl.black && !sl.unplayed {
					s.BlackWins++
				}
			case 0.5:
				s.Draws++
			default:
				s.Losses++
				if sl.forfeit {
					s.ForfeitLosses++
				}
			}
		}
		s.Tiebreaks = make([]float64, len(opt.Tiebreaks))
	}
	for i, tb := range opt.Tiebreaks {
		if tb == DirectEncounter {
			continue // depends on the tied group; computed while ranking
		}
		for e := range n {
			st[e].Tiebreaks[i] = ev.tiebreak(tb, e, &st[e], opt)
		}
	}

	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(st[b].Points, st[a].Points) })
	groups := split(order, func(e int) float64 { return st[e].Points })
	de := newEncounters(n, opt.Swiss)
	for i, tb := range opt.Tiebreaks {
		var next [][]int
		for _, g := range groups {
			if len(g) == 1 {
				next = append(next, g)
				continue
			}
			if tb == DirectEncounter {
				// DE shows each member's points against the others of the
				// group; it ranks them by C.07 Art. 6, sub-ties included.
				for e, v := range de.scores(ev, g).points {
					st[e].Tiebreaks[i] = v
				}
				next = append(next, de.rank(ev, g)...)
				continue
			}
			slices.SortStableFunc(g, func(a, b int) int { return cmp.Compare(st[b].Tiebreaks[i], st[a].Tiebreaks[i]) })
			next = append(next, split(g, func(e int) float64 { return st[e].Tiebreaks[i] })...)
		}
		groups = next
	}

	out := make([]Standing, 0, n)
	for _, g := range groups {
		rank := len(out) + 1
		for _, e := range g {
			s := st[e]
			s.Rank, s.RankTo = rank, rank+len(g)-1
			out = append(out, s)
		}
	}
	return out, nil
}

// split cuts sorted entrants into runs of equal key; the runs share the
// backing array of sorted.
func split(sorted []int, key func(int) float64) [][]int {
	var runs [][]int
	lo := 0
	for i := 1; i <= len(sorted); i++ {
		if i == len(sorted) || key(sorted[i]) != key(sorted[lo]) {
			runs = append(runs, sorted[lo:i:i])
			lo = i
		}
	}
	return runs
}
