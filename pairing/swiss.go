package pairing

import (
	"errors"
	"fmt"
	"sort"
)

// The Swiss system here is the FIDE Dutch system (handbook C.04.3, the
// edition applied from 1 July 2025). Its vocabulary is chess's, so a word on
// colours: in Gomoku the first mover is Black; in chess the first mover is
// White. Everything the Dutch rules say about "white" applies to our first
// mover (Pairing.Black), and everything about "black" to the second mover
// (Pairing.White). TRF files therefore write our Black as "w". The "initial
// colour" of rule 5.2.5 is fixed as the first move.

// SwissPlayer is one entrant of a Swiss event. Entrants are ranked for
// pairing by their ID (0 is the top seed); the ID plus one is the pairing
// number of the Dutch rules.
type SwissPlayer struct {
	ID        int // 0-based entrant index, equal to the player's position in the slice
	Rating    int
	Withdrawn bool // not paired any more
}

// Game is one round of one pairing, as the results record it: a game
// between two entrants, or a round in which Black had no opponent (White ==
// Bye). It is what the Swiss pairing reads, built from a TRF or, by the
// scheduler, from the same game results the standings rank
// (standings.GameResults).
//
// Each side's points are kept on their own, as TRF-16 writes them: a played
// game is won 1-0, drawn ½-½ or lost by both 0-0 (TRF "0"/"0"); a game not
// played over the board (Forfeit) is a forfeit win against a forfeit loss
// (TRF "+"/"-") or a double forfeit, 0-0 (TRF "-"/"-", both absent).
//
// Forfeit on a real pairing means the game was not played over the board: it
// gives no colour, does not count as a meeting (the two may be paired again),
// and a forfeit win makes the winner ineligible for the bye. An engine's
// crash, timeout or illegal move is a played loss, not a forfeit.
//
// With White == Bye the round is a pairing-allocated bye when Forfeit is
// false (worth the event's bye points, SwissOptions.ByePoints, whatever
// BlackPoints says), otherwise an absence or a requested bye worth
// BlackPoints (TRF Z, H or F).
type Game struct {
	Round        int
	Black, White int     // White == Bye for a round without opponent
	BlackPoints  float64 // 1, 0.5 or 0
	WhitePoints  float64 // 1, 0.5 or 0; unused for a bye
	Forfeit      bool    // not played over the board
}

// Decided is a game played over the board between black and white in which
// black scored blackPoints (1, ½ or 0) and white the rest.
func Decided(round, black, white int, blackPoints float64) Game {
	return Game{Round: round, Black: black, White: white, BlackPoints: blackPoints, WhitePoints: 1 - blackPoints}
}

// AllocatedBye is the pairing-allocated bye of entrant in round.
func AllocatedBye(round, entrant int) Game {
	return Game{Round: round, Black: entrant, White: Bye}
}

// Unplayed reports a round with no game on the board: a bye, an absence or a
// game not played over the board. The FIDE rules for byes and forfeits apply
// to these rounds (colours, meetings, tie-breaks).
func (g Game) Unplayed() bool { return g.White == Bye || g.Forfeit }

// Check refuses a result that no report allows: points other than 1, ½ or 0,
// a forfeit scored as a draw or won by both, or a played game whose points
// are not 1-0, ½-½ or 0-0.
func (g Game) Check() error {
	for _, p := range []float64{g.BlackPoints, g.WhitePoints} {
		if p != 0 && p != 0.5 && p != 1 {
			return fmt.Errorf("round %d: game %d-%d: %g points, want 1, 0.5 or 0", g.Round, g.Black, g.White, p)
		}
	}
	if g.White == Bye {
		return nil
	}
	b, w := g.BlackPoints, g.WhitePoints
	switch {
	case g.Forfeit && (b+w == 1 && b != 0.5 || b+w == 0):
	case !g.Forfeit && (b+w == 1 || b+w == 0):
	default:
		kind := "played game"
		if g.Forfeit {
			kind = "forfeit"
		}
		return fmt.Errorf("round %d: game %d-%d: a %s scored %g-%g (want 1-0, 0-1, %s0-0)", g.Round, g.Black, g.White, kind, b, w, map[bool]string{false: "½-½, ", true: ""}[g.Forfeit])
	}
	return nil
}

// SwissOptions configures the event.
type SwissOptions struct {
	Rounds    int      // total rounds planned; the last one has topscorer exceptions
	ByePoints *float64 // points for a pairing-allocated bye: 1, 0.5 or 0; nil means 1
	// Forbidden lists groups of players (IDs) who must never be paired
	// with each other (team mates, say): an absolute criterion, like a
	// rematch.
	Forbidden [][]int
	// InitialSecond makes the "initial colour" of the rules (the top seed's
	// colour in round 1, and rule 5.2.5's) the second move instead of the
	// first: TRF's "XXC black1".
	InitialSecond bool
}

// ErrNoLegalPairing is matched (errors.Is) by the error PairSwiss returns
// when no pairing satisfies the absolute criteria.
var ErrNoLegalPairing = errors.New("no legal Swiss pairing")

// NoLegalPairingError explains why a round cannot be paired.
type NoLegalPairingError struct {
	Round  int
	Reason string
}

func (e *NoLegalPairingError) Error() string {
	return fmt.Sprintf("round %d: %v: %s", e.Round, ErrNoLegalPairing, e.Reason)
}

func (e *NoLegalPairingError) Is(target error) bool { return target == ErrNoLegalPairing }

// Relaxation names how far PairSwissFallback had to bend the absolute
// criteria to pair a round.
type Relaxation int

const (
	// Strict: every absolute criterion holds (the pairing PairSwiss gives).
	Strict Relaxation = iota
	// AllowRematch: the fewest possible rematches, everything else absolute.
	AllowRematch
	// AllowAnything: also a second bye and absolute colour preferences may
	// be overridden (each kept to the fewest possible); only used when even
	// rematches cannot complete the round.
	AllowAnything
)

func (r Relaxation) String() string {
	switch r {
	case Strict:
		return "strict"
	case AllowRematch:
		return "rematches allowed"
	case AllowAnything:
		return "rematches, second byes and colour violations allowed"
	}
	return fmt.Sprintf("Relaxation(%d)", int(r))
}

// PairSwiss pairs round `round` (1-based) of a Dutch-system Swiss event from
// the games of the earlier rounds. It never bends an absolute criterion: when
// no legal pairing exists it returns an error matching ErrNoLegalPairing, and
// the caller decides whether to use PairSwissFallback.
func PairSwiss(players []SwissPlayer, history []Game, round int, opt SwissOptions) ([]Pairing, error) {
	t, err := newTourney(players, history, round, opt)
	if err != nil {
		return nil, err
	}
	return t.pairRound(Strict)
}

// PairSwissFallback is the documented way out when PairSwiss finds no legal
// pairing: it tries Strict, then AllowRematch, then AllowAnything, and
// returns the first pairing found with the relaxation used, so the arbiter
// can log or override it. Within a relaxation, violations are minimised
// before any Dutch quality criterion is considered.
func PairSwissFallback(players []SwissPlayer, history []Game, round int, opt SwissOptions) ([]Pairing, Relaxation, error) {
	t, err := newTourney(players, history, round, opt)
	if err != nil {
		return nil, Strict, err
	}
	for _, r := range []Relaxation{Strict, AllowRematch, AllowAnything} {
		ps, err := t.pairRound(r)
		if err == nil {
			return ps, r, nil
		}
		if !errors.Is(err, ErrNoLegalPairing) {
			return nil, r, err
		}
	}
	return nil, AllowAnything, &NoLegalPairingError{Round: round, Reason: "not even with every relaxation"}
}

// colour of a played game, seen from one player.
const (
	first  = 1  // moved first: Gomoku Black, chess White
	second = -1 // moved second: Gomoku White, chess Black
)

// Colour preference strengths (C.04.3 1.6).
const (
	prefNone = iota
	prefMild
	prefStrong
	prefAbsolute
)

// float kinds recorded per round (1.4.2, 1.4.3).
const (
	floatNone = iota
	floatDown
	floatUp
)

// entrant is everything the Dutch rules need to know about one player.
type entrant struct {
	id       int
	pts      int // score in half points
	colours  []int8
	cd       int          // colour difference: firsts minus seconds
	met      map[int]bool // opponents actually played
	noBye    bool         // had a PAB, or scored a win without playing (2.1.2)
	unplayed int          // rounds without a game over the board
	floats   [2]int       // float in the previous round [0] and two rounds before [1]
	pref     int          // first, second or 0
	strength int          // prefNone..prefAbsolute
	top      bool         // topscorer (final round only)
	rankPos  int          // position in pairing order (score, then ID)
}

type tourney struct {
	round         int
	final         bool
	initialSecond bool       // the initial colour is the second move
	players       []*entrant // active players in pairing order
	byID          map[int]*entrant
}

func newTourney(players []SwissPlayer, history []Game, round int, opt SwissOptions) (*tourney, error) {
	if round < 1 || round > MaxRounds {
		return nil, fmt.Errorf("swiss: round %d: rounds are numbered from 1 to %d", round, MaxRounds)
	}
	byePts := 2
	if opt.ByePoints != nil {
		byePts = halfPoints(*opt.ByePoints)
		if byePts < 0 || byePts > 2 {
			return nil, fmt.Errorf("swiss: a bye of %v points: want 0, 0.5 or 1", *opt.ByePoints)
		}
	}
	all := make([]*entrant, len(players))
	for i, p := range players {
		if p.ID != i {
			return nil, fmt.Errorf("swiss: player at index %d has ID %d; IDs must be the 0-based entrant index", i, p.ID)
		}
		all[i] = &entrant{id: i, met: map[int]bool{}}
	}
	valid := func(id int) bool { return id >= 0 && id < len(players) }
	pairs := 0
	for _, group := range opt.Forbidden {
		if !forbiddenPairs(&pairs, len(group)) {
			return nil, fmt.Errorf("swiss: the forbidden groups make more than %d pairs", MaxForbiddenPairs)
		}
	}
	for _, group := range opt.Forbidden {
		for _, a := range group {
			for _, b := range group {
				if a != b && valid(a) && valid(b) {
					all[a].met[b] = true // never paired, as if they had met
				}
			}
		}
	}
	games := append([]Game(nil), history...)
	sort.SliceStable(games, func(i, j int) bool { return games[i].Round < games[j].Round })
	// Scores before each round, to find floats.
	played := make([]map[int]bool, len(players)) // rounds with any record
	for i := range played {
		played[i] = map[int]bool{}
	}
	floatAt := make([]map[int]int, len(players))
	for i := range floatAt {
		floatAt[i] = map[int]int{}
	}
	for gi := 0; gi < len(games); {
		r := games[gi].Round
		gj := gi
		for gj < len(games) && games[gj].Round == r {
			gj++
		}
		before := make([]int, len(players))
		for i, e := range all {
			before[i] = e.pts
		}
		for _, g := range games[gi:gj] {
			if g.Round < 1 || g.Round >= round {
				return nil, fmt.Errorf("swiss: game of round %d given when pairing round %d", g.Round, round)
			}
			if !valid(g.Black) || (g.White != Bye && !valid(g.White)) || g.Black == g.White {
				return nil, fmt.Errorf("swiss: round %d: game %d-%d names an unknown player", g.Round, g.Black, g.White)
			}
			if err := g.Check(); err != nil {
				return nil, fmt.Errorf("swiss: %v", err)
			}
			s := halfPoints(g.BlackPoints)
			b := all[g.Black]
			if played[b.id][r] || (g.White != Bye && played[g.White][r]) {
				return nil, fmt.Errorf("swiss: round %d: player in game %d-%d has two games that round", r, g.Black, g.White)
			}
			played[b.id][r] = true
			if g.White == Bye {
				b.unplayed++
				if g.Forfeit {
					// An absence or a requested bye. C.04.1 (from 1 July
					// 2025): a full point scored without playing makes the
					// player ineligible for the pairing-allocated bye, as
					// a forfeit win does.
					b.pts += s
					if s == 2 {
						b.noBye = true
					}
				} else {
					b.pts += byePts
					b.noBye = true
				}
				if (g.Forfeit && s > 0) || (!g.Forfeit && byePts > 0) {
					floatAt[b.id][r] = floatDown // 1.4.3
				}
				continue
			}
			w := all[g.White]
			ws := halfPoints(g.WhitePoints)
			played[w.id][r] = true
			b.pts += s
			w.pts += ws
			if g.Forfeit {
				// A forfeit win counts as a downfloat and spends the
				// bye; a forfeit loss, or a double forfeit, neither.
				b.unplayed++
				w.unplayed++
				if s == 2 {
					b.noBye = true
					floatAt[b.id][r] = floatDown
				}
				if ws == 2 {
					w.noBye = true
					floatAt[w.id][r] = floatDown
				}
				continue
			}
			b.met[w.id], w.met[b.id] = true, true
			b.colours = append(b.colours, first)
			w.colours = append(w.colours, second)
			b.cd++
			w.cd--
			// 1.4.2: higher score floats down, lower floats up. Equal
			// scores: no float.
			if before[b.id] > before[w.id] {
				floatAt[b.id][r], floatAt[w.id][r] = floatDown, floatUp
			} else if before[b.id] < before[w.id] {
				floatAt[b.id][r], floatAt[w.id][r] = floatUp, floatDown
			}
		}
		gi = gj
	}
	t := &tourney{round: round, final: opt.Rounds > 0 && round >= opt.Rounds, initialSecond: opt.InitialSecond, byID: map[int]*entrant{}}
	for i, e := range all {
		for r := 1; r < round; r++ {
			if !played[i][r] {
				e.unplayed++ // absent without record: scored nothing
			}
		}
		e.floats[0] = floatAt[i][round-1]
		e.floats[1] = floatAt[i][round-2]
		e.pref, e.strength = colourPreference(e.colours, e.cd)
		// 1.7: topscorers exist only when pairing the final round: more
		// than half the maximum possible score.
		e.top = t.final && e.pts > round-1
		if !players[i].Withdrawn {
			t.players = append(t.players, e)
			t.byID[i] = e
		}
	}
	sort.SliceStable(t.players, func(i, j int) bool {
		a, b := t.players[i], t.players[j]
		if a.pts != b.pts {
			return a.pts > b.pts
		}
		return a.id < b.id
	})
	for i, e := range t.players {
		e.rankPos = i
	}
	return t, nil
}

func halfPoints(f float64) int {
	if f < 0 {
		return int(f*2 - 0.5)
	}
	return int(f*2 + 0.5)
}

// colourPreference applies C.04.3 1.6 to the colours of the games played
// (unplayed rounds are skipped, as C.04.2 says).
func colourPreference(cols []int8, cd int) (pref, strength int) {
	n := len(cols)
	switch {
	case n == 0:
		return 0, prefNone
	case cd < -1:
		return first, prefAbsolute
	case cd > 1:
		return second, prefAbsolute
	case n >= 2 && cols[n-1] == cols[n-2]:
		return -int(cols[n-1]), prefAbsolute
	case cd == -1:
		return first, prefStrong
	case cd == 1:
		return second, prefStrong
	default:
		return -int(cols[n-1]), prefMild
	}
}
