package schedule

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"gomoku-arena/arbiter"
	"gomoku-arena/pairing"
	"gomoku-arena/results/record"
	"gomoku-arena/results/standings"
	"gomoku-arena/rules"
)

// Tournament plays a whole event: it turns the format into fixtures, skips
// the games already finished (a resumed event), and hands the rest to the
// Director. A tournament is a pure function of its settings and the results
// so far, so resuming is just running it again with the journal's records.
type Tournament struct {
	Director *arbiter.Director // plays the fixtures
	Format   pairing.Format    // resolved, never auto
	Rounds   int               // Swiss rounds
	// ByePoints is what a Swiss bye scores, for pairing as for standings:
	// 1, 0.5 or 0; nil means a win.
	ByePoints *float64
	// Openings, when set, are assigned one per pairing of two entrants, so
	// the games of a pair with colours exchanged share their opening. They
	// rotate across the whole event in an order the Seed shuffles (a
	// Suite in OrderPasses).
	Openings [][]rules.Point
	// OpeningsUnknown: the Openings are not the ones the journal's games
	// were dealt from (an event.json of format 1 did not record them), so
	// the journal check (Resume) does not compare openings.
	OpeningsUnknown bool
	Seed            uint64
	// OpeningsPerPairing, when above 0, makes every pairing of a round
	// robin or gauntlet a mini-match: the same OpeningsPerPairing openings
	// for every pair (chosen from Openings by the Seed when it holds more;
	// see matchOpenings), each played twice with colours exchanged, in
	// 2×OpeningsPerPairing consecutive rounds (pairing.MiniMatches). A
	// Swiss plays one game per pairing: the config refuses mini-matches
	// for it.
	OpeningsPerPairing int
	// Notice, if set, hears about decisions a person should know of.
	Notice func(string)
	// RoundDone, if set, is called after each Swiss round with every record
	// so far (to write the TRF report).
	RoundDone func(round int, all []*record.Record) error
	// Task, when set, makes this run one task of a spread event: it plays
	// its share of the games, the other tasks theirs (see Task).
	Task *Task
	// WithdrawAfter withdraws a Swiss entrant that failed to start this many
	// of its games in a row (see failedStart); 0 never does.
	WithdrawAfter int
	// Requests, if set, returns the organizer's withdrawal requests so
	// far; it is asked before each Swiss round is paired.
	Requests func() ([]WithdrawalRequest, error)
	// Decisions, if set, returns the arbiter's decisions to journal now,
	// given every record so far: decision lines (record.Decided) the
	// journal does not hold yet, each fit to follow them. It is asked when
	// the run begins, after each finished game and before each Swiss round
	// is paired, so a decision made during a round counts from the next
	// pairing.
	Decisions func(all []*record.Record) ([]*record.Record, error)
	// Requested, if set, reads the arbiter's decisions requested so far,
	// journaled or not; it is asked every stopLook while games are played,
	// so that a game adjudicated in play stops at once (watchAdjudications).
	Requested func() ([]*record.Record, error)

	check     *ScheduleCheck  // the journal checked by Resume, for Run
	refusedMu sync.Mutex      // refused is also read by watchAdjudications
	refused   map[string]bool // decisions (by id) that fit no game when they came
	broken    error           // a record Resume refused: Run plays nothing
}

// Withdrawal rule. A Swiss entrant is withdrawn before a round is paired
// when it failed to start its last WithdrawAfter games (byes between them
// aside), or when the organizer asked for it (arena withdraw). The
// withdrawal is journaled as a record (End == record.Withdrawn, Round = the
// first round it is not paired in, Detail = why), so standings, the TRF and
// a resumed event all see it; a withdrawn entrant gets no more pairings and
// no more byes, keeps its points, and shows as withdrawn. A round already
// started (it has records) is never paired again differently: a withdrawal
// asked for during a round takes effect in the next one. Events with a
// fixed schedule (round robins) withdraw by FIDE's round robin rule
// instead: withdraw.go.

// failedStart reports whether entrant name lost rec without starting it: it
// refused the game (ERROR or no answer to START, or to an opening
// procedure's request), crashed before its first move, or neither engine
// started (a double forfeit).
func failedStart(rec *record.Record, name string) bool {
	if !rec.IsGame() || (rec.Black != name && rec.White != name) {
		return false
	}
	if rec.End == record.DoubleForfeit {
		return true
	}
	loser := rules.Black
	if rec.Winner == rules.Black {
		loser = rules.White
	}
	if rec.Winner == rules.Empty || (loser == rules.Black) != (rec.Black == name) {
		return false
	}
	switch rec.End {
	case record.Refusal:
		return true
	case record.Crash:
		for _, m := range rec.Moves {
			if !m.Opening && m.Color == loser {
				return false
			}
		}
		return true
	}
	return false
}

// withdrawals journals the withdrawals due before round r is paired and
// returns, by entrant, the rounds they were withdrawn from (all of them,
// earlier ones included), and whether it journaled any.
func (t *Tournament) withdrawals(r int, all []*record.Record) (map[int]int, bool, error) {
	out, err := standings.Withdrawals(all, t.names())
	if err != nil {
		return nil, false, err
	}
	for _, rec := range all {
		if rec.Round >= r && rec.End != record.Withdrawn {
			return out, false, nil // round r has started: paired as it was
		}
	}
	var requests []WithdrawalRequest
	if t.Requests != nil {
		if requests, err = t.Requests(); err != nil {
			return nil, false, err
		}
	}
	added := false
	for i, e := range t.Director.Entrants {
		if _, done := out[i]; done {
			continue
		}
		name := e.Spec.Name
		why := ""
		for _, q := range requests {
			if q.Engine == name {
				why = "withdrawn by the organizer"
				if q.Reason != "" {
					why += ": " + q.Reason
				}
			}
		}
		if why == "" && t.WithdrawAfter > 0 {
			// The entrant's games, last first, byes aside.
			failed := 0
			for k := len(all) - 1; k >= 0 && failed < t.WithdrawAfter; k-- {
				rec := all[k]
				if !rec.IsGame() || (rec.Black != name && rec.White != name) {
					continue
				}
				if !failedStart(rec, name) {
					break
				}
				failed++
			}
			if failed == t.WithdrawAfter {
				why = fmt.Sprintf("failed to start %d games in a row (withdraw_after = %d)", failed, t.WithdrawAfter)
			}
		}
		if why == "" {
			continue
		}
		now := time.Now()
		rec := &record.Record{Event: t.Director.Event, Round: r, Rule: t.Director.Rule.Name(), Size: t.Director.Size,
			Black: name, End: record.Withdrawn, Detail: why, Start: now, Finish: now}
		if err := t.Director.Finished(rec); err != nil {
			return nil, false, err
		}
		out[i], added = r, true
		if t.Notice != nil {
			t.Notice(fmt.Sprintf("round %d: %s is withdrawn: %s", r, name, why))
		}
	}
	return out, added, nil
}

// TRF is the Swiss event so far as a tournament report, players named and
// rated as given, withdrawals shown, with the rounds before round r.
func (t *Tournament) TRF(name string, ratings []int, all []*record.Record, r int) (*pairing.TRF, error) {
	games, err := t.SwissHistory(all, r)
	if err != nil {
		return nil, err
	}
	out, err := standings.Withdrawals(all, t.names())
	if err != nil {
		return nil, err
	}
	trf := &pairing.TRF{Name: name, Rounds: t.Rounds, ByePoints: t.ByePoints, Games: games}
	for i, e := range t.Director.Entrants {
		p := pairing.TRFPlayer{Name: e.Spec.Name, Withdrawn: out[i]}
		if i < len(ratings) {
			p.Rating = ratings[i]
		}
		trf.Players = append(trf.Players, p)
	}
	return trf, nil
}

// WithdrawalRequest is the organizer's request to withdraw an entrant
// (event keeps them in a file of the event's folder).
type WithdrawalRequest struct {
	Engine string    `json:"engine"`
	Reason string    `json:"reason,omitempty"`
	Time   time.Time `json:"time"`
}

// Run plays every fixture the journal given to Resume lacks (all of them
// without one). finished is called with each newly finished game, and with
// each bye, to journal it, before either engine plays again. Notice, if
// set, hears about decisions a person should know of (a Swiss round with
// no legal pairing).
func (t *Tournament) Run(drain, abort context.Context, finished func(*record.Record) error) error {
	if t.check == nil {
		if err := t.Resume(nil); err != nil {
			return err
		}
	}
	if t.broken != nil {
		return t.broken
	}
	done := t.check.all
	all := append([]*record.Record(nil), done...)
	adjudicated := map[int]bool{} // games with the arbiter's result and no record (see decided)
	for _, r := range all {
		noteDecision(adjudicated, r)
	}
	decide := func() error {
		if t.Decisions == nil {
			return nil
		}
		ds, err := t.Decisions(all)
		if len(ds) == 0 {
			return err
		}
		// Rare: the records so far checked again, and each decision after them.
		c, cerr := t.CheckSchedule()
		if cerr == nil {
			cerr = c.Add(all...)
		}
		if cerr != nil {
			return cerr
		}
		for _, d := range ds {
			if t.isRefused(d.Decision.ID) {
				continue
			}
			if err := c.Add(d); err != nil {
				// Said once and left out: a request that fits no game
				// never stops the event (arena correct checks it first).
				t.refuse(d.Decision.ID)
				if t.Notice != nil {
					t.Notice(fmt.Sprintf("the arbiter's decision %s on game %d is not journaled: %v", d.Decision.ID, d.Game, err))
				}
				c, _ = t.CheckSchedule()
				c.Add(all...)
				continue
			}
			all = append(all, d)
			noteDecision(adjudicated, d)
			if err := finished(d); err != nil {
				return err
			}
			if t.Notice != nil {
				t.Notice(fmt.Sprintf("round %d game %d (%s vs %s): the arbiter's decision: %s %s: %s", d.Round, d.Game, d.Black, d.White,
					d.Decision.Kind, d.Decision.Result, d.Decision.Reason))
			}
		}
		return err
	}
	fixed := t.Format != pairing.SwissFormat && t.Task == nil
	out, err := standings.Withdrawals(all, t.names()) // kept up to date below
	if err != nil {
		return err
	}
	withdraw := func() error {
		if !fixed {
			return nil
		}
		return t.fixedWithdrawals(all, out, func(rec *record.Record) error {
			all = append(all, rec)
			if _, ok := out[t.index(rec.Black)]; !ok {
				out[t.index(rec.Black)] = rec.Round
			}
			return finished(rec)
		})
	}
	if fixed {
		// A withdrawn entrant's games are dropped before they are dealt
		// (asked under the director's lock, as Finished is called).
		t.Director.Skip = func(f arbiter.Fixture) bool { return withdrawnIn(out, f.Round, f.Black, f.White) }
	}
	t.Director.Finished = func(rec *record.Record) error {
		// The decisions made while it was played first: an adjudication
		// of this very game then stands, whether or not it stopped it.
		if err := decide(); err != nil {
			return err
		}
		if rec.End == record.Aborted { // stopped (Director.Stop): never journaled as played
			if adjudicated[rec.Game] && t.Notice != nil {
				t.Notice(fmt.Sprintf("round %d game %d (%s vs %s) stopped: the arbiter adjudicated it while in progress",
					rec.Round, rec.Game, rec.Black, rec.White))
			}
			return withdraw()
		}
		if fixed && rec.IsGame() {
			if withdrawnIn(out, rec.Round, t.index(rec.Black), t.index(rec.White)) {
				if t.Notice != nil {
					t.Notice(fmt.Sprintf("round %d game %d (%s vs %s) ended after an entrant's withdrawal: not counted",
						rec.Round, rec.Game, rec.Black, rec.White))
				}
				return withdraw()
			}
		}
		if rec.IsGame() && adjudicated[rec.Game] {
			// Adjudicated while it was played: the arbiter's result stands.
			if t.Notice != nil {
				t.Notice(fmt.Sprintf("round %d game %d (%s vs %s) was adjudicated while in progress: its play (%s) is not counted",
					rec.Round, rec.Game, rec.Black, rec.White, rec.ResultString()))
			}
			return nil
		}
		all = append(all, rec)
		if err := finished(rec); err != nil {
			return err
		}
		return withdraw()
	}
	if err := decide(); err != nil {
		return err
	}
	if err := withdraw(); err != nil {
		return err
	}
	if t.Requested != nil && t.Task == nil {
		watch, stop := context.WithCancel(abort)
		defer stop()
		go t.watchAdjudications(watch)
	}
	switch {
	case t.Format == pairing.SwissFormat:
		err = t.runSwiss(drain, abort, &all, decide)
	case t.Task != nil:
		return t.runTask(drain, abort, &all)
	default:
		var sched [][]pairing.Pairing
		if sched, err = t.Schedule(); err != nil {
			return err
		}
		if err := t.journalByes(sched, all); err != nil {
			return err
		}
		err = t.playAll(drain, abort, t.fixtures(sched, 0), &all)
	}
	if err != nil {
		return err
	}
	return decide() // those made during the last games
}

// stopLook is how often the arbiter's requested decisions are read while
// games are played (watchAdjudications).
const stopLook = time.Second

// watchAdjudications stops, until ctx ends, every game in play whose last
// requested decision is an adjudication (one voided after its adjudication
// is being played again, as wanted): its play would not count, and the
// organizer who adjudicates a game in progress wants it over. The stopped
// game's Finished journals the adjudication. A decision that fit no game
// (refused) stops nothing.
func (t *Tournament) watchAdjudications(ctx context.Context) {
	tick := time.NewTicker(stopLook)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		ds, err := t.Requested()
		if err != nil {
			continue // the journaling of decisions (Decisions) reports it
		}
		last := map[int]*record.Record{}
		for _, d := range ds {
			last[d.Game] = d
		}
		for n, d := range last {
			if d.Decision.Kind == record.Adjudicate && !t.isRefused(d.Decision.ID) {
				t.Director.Stop(n)
			}
		}
	}
}

func (t *Tournament) isRefused(id string) bool {
	t.refusedMu.Lock()
	defer t.refusedMu.Unlock()
	return t.refused[id]
}

func (t *Tournament) refuse(id string) {
	t.refusedMu.Lock()
	defer t.refusedMu.Unlock()
	if t.refused == nil {
		t.refused = map[string]bool{}
	}
	t.refused[id] = true
}

// playAll plays the fixtures that have no result, again while the
// arbiter voids games during the play (a voided game is played again).
func (t *Tournament) playAll(drain, abort context.Context, fs []arbiter.Fixture, all *[]*record.Record) error {
	left := -1
	for {
		rest := remaining(fs, *all)
		if t.Format != pairing.SwissFormat {
			out, err := standings.Withdrawals(*all, t.names())
			if err != nil {
				return err
			}
			rest = slices.DeleteFunc(rest, func(f arbiter.Fixture) bool { return withdrawnIn(out, f.Round, f.Black, f.White) })
		}
		if len(rest) == 0 || len(rest) == left || drain.Err() != nil || abort.Err() != nil {
			return nil
		}
		if err := t.Director.Play(drain, abort, rest); err != nil {
			return err
		}
		left = len(rest)
	}
}

// noteDecision keeps, in adjudicated, the games that have the arbiter's
// result and no record of their own: an adjudication adds its game, a void
// or a record of the game takes it out.
func noteDecision(adjudicated map[int]bool, r *record.Record) {
	switch {
	case r.IsGame():
		delete(adjudicated, r.Game)
	case r.Decision != nil && r.Decision.Kind == record.Adjudicate:
		adjudicated[r.Game] = true
	case r.Decision != nil && r.Decision.Kind == record.Void:
		delete(adjudicated, r.Game)
	}
}

// journalByes records the byes of the given rounds that the journal lacks.
func (t *Tournament) journalByes(rounds [][]pairing.Pairing, done []*record.Record) error {
	have := map[arbiter.Key]bool{}
	for _, r := range done {
		if r.End == record.ByeEnd {
			have[arbiter.Key{Round: r.Round, Number: t.index(r.Black)}] = true
		}
	}
	for _, round := range rounds {
		for _, p := range round {
			if p.White != pairing.Bye || have[arbiter.Key{Round: p.Round, Number: p.Black}] {
				continue
			}
			now := time.Now()
			rec := &record.Record{Event: t.Director.Event, Round: p.Round, Rule: t.Director.Rule.Name(), Size: t.Director.Size,
				Black: t.Director.Entrants[p.Black].Spec.Name, Winner: rules.Black, End: record.ByeEnd, Start: now, Finish: now}
			if err := t.Director.Finished(rec); err != nil {
				return err
			}
		}
	}
	return nil
}

func (t *Tournament) index(name string) int {
	for i, e := range t.Director.Entrants {
		if e.Spec.Name == name {
			return i
		}
	}
	return -1
}

// Fixtures lists every game of a format whose schedule is known in advance.
func (t *Tournament) Fixtures() ([]arbiter.Fixture, error) {
	sched, err := t.Schedule()
	if err != nil {
		return nil, err
	}
	return t.fixtures(sched, 0), nil
}

// fixtures numbers the games of the rounds from first+1 on. The pairings of
// the event before these rounds are counted by first too: a format that
// pairs round by round (the Swiss) plays one game per pairing. With the
// schedule (Schedule), this is the one place the event's games are laid
// out (rounds, numbers, colours, openings): the run, the resume, the task
// of a spread event and its merge all take them from here.
//
// A mini-match's games (OpeningsPerPairing) are in consecutive rounds of
// the schedule (pairing.MiniMatches); the g-th (from 0) plays opening g/2
// of matchOpenings. Otherwise each pairing u (counted from 0 in the order
// of play, the games of a pair with colours exchanged sharing one) plays
// the u-th opening that a Suite of Openings deals in OrderPasses.
func (t *Tournament) fixtures(sched [][]pairing.Pairing, first int) []arbiter.Fixture {
	var fs []arbiter.Fixture
	pairIndex := map[[2]int]int{}
	dealt, deals := map[int]int{}, 0 // fixture (index in fs) → pairing, and how many pairings get openings
	var league [][]rules.Point
	games := 1
	if t.OpeningsPerPairing > 0 {
		league, games = t.matchOpenings(), 2*t.OpeningsPerPairing
	}
	units := map[[2]int]int{} // a mini-match's pairing, by its two entrants
	for _, round := range sched {
		for _, p := range round {
			if p.White == pairing.Bye {
				continue
			}
			key := [2]int{min(p.Black, p.White), max(p.Black, p.White)}
			f := arbiter.Fixture{Round: p.Round, Number: first + len(fs) + 1, Black: p.Black, White: p.White, Pairing: first + len(fs)}
			switch {
			case t.OpeningsPerPairing > 0: // each pair meets in one mini-match: a round robin's or a gauntlet's
				u, ok := units[key]
				if !ok {
					u = len(units)
					units[key] = u
				}
				f.Pairing, f.Game = u, (p.Round-1)%games
				if f.Game/2 < len(league) { // none where only the schedule is wanted (a merge)
					f.Opening = league[f.Game/2]
				}
			case len(t.Openings) > 0:
				i, ok := pairIndex[key]
				if !ok {
					i = first + len(pairIndex)
					pairIndex[key] = i
				}
				dealt[len(fs)], deals = i, max(deals, i+1)
			}
			fs = append(fs, f)
		}
	}
	if deals > 0 {
		list := make([]rules.Opening, len(t.Openings))
		for i, stones := range t.Openings {
			list[i] = rules.Opening{Stones: stones}
		}
		deal := Suite{Openings: list, Order: OrderPasses, Seed: t.Seed}.Deal(deals, t.Director.Size)
		for k, u := range dealt {
			fs[k].Opening = deal[u].Opening.Stones
		}
	}
	return fs
}

// FixturesOf lays out the games of rounds paired so far (a Swiss's, as a
// spread event's pairer published them), numbered from the event's first.
func (t *Tournament) FixturesOf(rounds [][]pairing.Pairing) []arbiter.Fixture {
	return t.fixtures(rounds, 0)
}

// Schedule is the whole schedule of a format whose pairings do not depend
// on results (pairing.Schedule), each pairing made a mini-match when the
// event plays them (pairing.MiniMatches).
func (t *Tournament) Schedule() ([][]pairing.Pairing, error) {
	sched, err := pairing.Schedule(t.Format, len(t.Director.Entrants))
	if err != nil || t.OpeningsPerPairing == 0 {
		return sched, err
	}
	return pairing.MiniMatches(sched, t.OpeningsPerPairing), nil
}

// matchOpenings are the OpeningsPerPairing openings every mini-match
// plays, in the order of the list: all of Openings when it holds exactly
// that many, else as many chosen by the Seed (a shuffle of the list, its
// first ones kept), so that which openings a league plays is the seed's
// choice and the same for every pair and every run. The event checks that
// the list holds enough.
func (t *Tournament) matchOpenings() [][]rules.Point {
	n := min(t.OpeningsPerPairing, len(t.Openings))
	order := make([]int, len(t.Openings))
	for i := range order {
		order[i] = i
	}
	if n < len(order) {
		rng := rand.New(rand.NewPCG(t.Seed, uint64(len(order))))
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	}
	chosen := order[:n]
	slices.Sort(chosen)
	out := make([][]rules.Point, n)
	for i, k := range chosen {
		out[i] = t.Openings[k]
	}
	return out
}

// remaining drops the fixtures that have a result, as the arbiter's
// decisions leave them: a voided game is played again, an adjudicated one
// is not played.
func remaining(fs []arbiter.Fixture, done []*record.Record) []arbiter.Fixture {
	have := map[arbiter.Key]bool{}
	for _, r := range record.Ruled(done) {
		have[arbiter.KeyOf(r)] = true
	}
	var out []arbiter.Fixture
	for _, f := range fs {
		if !have[arbiter.Key{Round: f.Round, Number: f.Number}] {
			out = append(out, f)
		}
	}
	return out
}

// runSwiss pairs and plays one round at a time. Each round is paired from
// the records of the rounds before it, so a resumed event pairs every round
// exactly as it did the first time.
func (t *Tournament) runSwiss(drain, abort context.Context, all *[]*record.Record, decide func() error) error {
	number := 0
	var before []arbiter.Fixture // the round before's games
	var laid []arbiter.Fixture   // every round's games so far
	for r := 1; r <= t.Rounds; r++ {
		pair := func() ([]pairing.Pairing, error) {
			if err := decide(); err != nil {
				return nil, err
			}
			_, added, err := t.withdrawals(r, *all)
			if err != nil {
				return nil, err
			}
			if added && r > 1 && t.RoundDone != nil {
				// The report shows who will not be paired before the round is.
				if err := t.RoundDone(r-1, *all); err != nil {
					return nil, err
				}
			}
			ps, paired := t.check.Paired(r) // a round the journal began: paired as it was
			relax := pairing.Strict
			if !paired {
				if ps, relax, err = t.pairRound(r, t.Rounds, *all); err != nil {
					return nil, fmt.Errorf("round %d: %w", r, err)
				}
			}
			if relax != pairing.Strict && t.Notice != nil {
				t.Notice(fmt.Sprintf("round %d: no pairing satisfies the Dutch system's absolute criteria; paired with the documented fallback (%v)", r, relax))
			}
			return ps, t.journalByes([][]pairing.Pairing{ps}, *all)
		}
		var ps []pairing.Pairing
		var err error
		if t.Task != nil {
			ps, err = t.taskRound(drain, r, before, all, pair)
		} else {
			ps, err = pair()
		}
		if err != nil {
			return stopped(drain, err)
		}
		fs := t.fixtures([][]pairing.Pairing{ps}, number)
		number += len(fs)
		before = fs
		laid = append(laid, fs...)
		// A round's games, and the games of earlier rounds the arbiter
		// voided: replayed before the next round is paired.
		if err := t.playAll(drain, abort, t.share(laid), all); err != nil {
			return err
		}
		if drain.Err() != nil || abort.Err() != nil {
			return nil
		}
		if t.Task != nil {
			continue // the pairer writes the round's report before pairing the next
		}
		if r < t.Rounds {
			// Withdrawals due after this round go into its report.
			if _, _, err := t.withdrawals(r+1, *all); err != nil {
				return err
			}
		}
		if t.RoundDone != nil {
			if err := t.RoundDone(r, *all); err != nil {
				return err
			}
		}
	}
	if t.Task != nil && t.Task.Pairer() && len(before) > 0 {
		// The last round's report, once every task has played it.
		if err := t.awaitRound(drain, before, all); err != nil {
			return stopped(drain, err)
		}
		if t.RoundDone != nil {
			return t.RoundDone(t.Rounds, *all)
		}
	}
	return nil
}

// pairRound pairs Swiss round r of an event of the given rounds from the
// records of the rounds before it and the withdrawals journaled so far,
// with the Dutch system or, when no pairing meets its absolute criteria,
// its documented fallback (the relaxation it took is returned;
// pairing.Strict without one). Run pairs every round with it, and
// ScheduleCheck checks a journal with it.
func (t *Tournament) pairRound(r, rounds int, all []*record.Record) ([]pairing.Pairing, pairing.Relaxation, error) {
	out, err := standings.Withdrawals(all, t.names())
	if err != nil {
		return nil, pairing.Strict, err
	}
	players := make([]pairing.SwissPlayer, len(t.Director.Entrants))
	for i := range players {
		w, ok := out[i]
		players[i] = pairing.SwissPlayer{ID: i, Withdrawn: ok && w <= r}
	}
	history, err := t.SwissHistory(all, r)
	if err != nil {
		return nil, pairing.Strict, err
	}
	opt := pairing.SwissOptions{Rounds: rounds, ByePoints: t.ByePoints}
	relax := pairing.Strict
	ps, err := pairing.PairSwiss(players, history, r, opt)
	if errors.Is(err, pairing.ErrNoLegalPairing) {
		ps, relax, err = pairing.PairSwissFallback(players, history, r, opt)
	}
	if err != nil {
		return nil, relax, err
	}
	round := make([]pairing.Pairing, len(ps))
	for i, p := range ps {
		p.Round = r
		round[i] = p
	}
	return round, relax, nil
}

// SwissHistory is what the Swiss pairing needs to know of the rounds before
// round r: the games of the records, converted as the standings convert
// them (standings.GameResults), so that a refusal or a double forfeit is a
// game not played over the board in both, and a crash, a time loss or an
// illegal move a played loss.
func (t *Tournament) SwissHistory(all []*record.Record, r int) ([]pairing.Game, error) {
	games, err := standings.GameResults(all, t.names())
	if err != nil {
		return nil, err
	}
	var h []pairing.Game
	for _, g := range games {
		if g.Round < r {
			h = append(h, swissGame(g))
		}
	}
	return h, nil
}

// swissGame is a game result as the Swiss pairing reads it: the same
// rounds, entrants, points and forfeit, the bye in pairing's words.
func swissGame(g standings.GameResult) pairing.Game {
	white := g.White
	if white == standings.Bye {
		white = pairing.Bye
	}
	return pairing.Game{Round: g.Round, Black: g.Black, White: white,
		BlackPoints: g.BlackPoints, WhitePoints: g.WhitePoints, Forfeit: g.Forfeit}
}

// names maps each entrant's engine name to its index.
func (t *Tournament) names() map[string]int {
	m := make(map[string]int, len(t.Director.Entrants))
	for i, e := range t.Director.Entrants {
		m[e.Spec.Name] = i
	}
	return m
}
