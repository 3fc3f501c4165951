package schedule

import (
	"fmt"

	"gomoku-arena/results/record"
	"gomoku-arena/results/standings"
)

// Withdrawal and disqualification from an event with a fixed schedule (a
// round robin, a double round robin, a gauntlet, their mini-matches), as
// FIDE's Tournament Rules (Handbook C.06, V. The conduct of the players,
// 5.4) say for a player who withdraws or is expelled from a round robin:
//
//   - one who completed less than half of their games: their results stay
//     in the table, but no point scored by them or against them counts in
//     the final standings;
//   - one who completed at least half: their results stand and count, and
//     each of their games not played is a forfeit, lost by them ("-") and
//     won by the opponent ("+"), or lost by both ("-"/"-") when the
//     opponent left too.
//
// The withdrawal is journaled as in a Swiss (End == record.Withdrawn,
// Round = the round of the entrant's first game without a result when it
// was journaled), as soon as the organizer asks (arena withdraw) rather
// than between rounds: a round robin's rounds overlap at the tables. The
// entrant's games without a result then are never played; one in progress
// at that moment is not counted when it ends.

// WithdrawnResults applies the rule to the game results of a fixed
// schedule (standings.GameResults), withdrawn mapping each withdrawn
// entrant to the round it left from (standings.Withdrawals): the results
// the final standings count. A Swiss keeps its results as they are.
func (t *Tournament) WithdrawnResults(games []standings.GameResult, withdrawn map[int]int) ([]standings.GameResult, error) {
	if len(withdrawn) == 0 || t.Format == "swiss" {
		return games, nil
	}
	fs, err := t.Fixtures()
	if err != nil {
		return nil, err
	}
	type key struct{ round, a, b int }
	have := map[key]bool{}
	completed := map[int]int{}
	for _, g := range games {
		if g.White == standings.Bye {
			continue
		}
		have[key{g.Round, min(g.Black, g.White), max(g.Black, g.White)}] = true
		completed[g.Black]++
		completed[g.White]++
	}
	total := map[int]int{}
	for _, f := range fs {
		total[f.Black]++
		total[f.White]++
	}
	cancelled := map[int]bool{}
	for e := range withdrawn {
		if 2*completed[e] < total[e] {
			cancelled[e] = true
		}
	}
	var out []standings.GameResult
	for _, g := range games {
		if cancelled[g.Black] || g.White != standings.Bye && cancelled[g.White] {
			continue // not counted for anyone
		}
		out = append(out, g)
	}
	for _, f := range fs {
		if have[key{f.Round, min(f.Black, f.White), max(f.Black, f.White)}] || cancelled[f.Black] || cancelled[f.White] {
			continue
		}
		_, bw := withdrawn[f.Black]
		_, ww := withdrawn[f.White]
		if !bw && !ww {
			continue // still to be played
		}
		g := standings.GameResult{Round: f.Round, Black: f.Black, White: f.White, Forfeit: true, End: record.Forfeited}
		switch {
		case bw && ww:
			g.End = record.DoubleForfeit
		case bw:
			g.WhitePoints = 1
		default:
			g.BlackPoints = 1
		}
		out = append(out, g)
	}
	return out, nil
}

// withdrawnFrom is the round a fixed schedule's entrant e leaves from when
// withdrawn now: the round of its first game without a result among all
// (as the arbiter's decisions leave them); 0 when it has none left.
func (t *Tournament) withdrawnFrom(e int, all []*record.Record) (int, error) {
	fs, err := t.Fixtures()
	if err != nil {
		return 0, err
	}
	rest := remaining(fs, all)
	for _, f := range rest {
		if f.Black == e || f.White == e {
			return f.Round, nil
		}
	}
	return 0, nil
}

// fixedWithdrawals journals, in an event with a fixed schedule, the
// organizer's withdrawal requests not journaled yet (see above), out being
// the withdrawals journaled so far (standings.Withdrawals); through
// journal, which appends to the records, to out, and journals.
func (t *Tournament) fixedWithdrawals(all []*record.Record, out map[int]int, journal func(*record.Record) error) error {
	if t.Requests == nil {
		return nil
	}
	requests, err := t.Requests()
	if err != nil {
		return err
	}
	for _, q := range requests {
		e := t.index(q.Engine)
		if e < 0 {
			continue
		}
		if _, done := out[e]; done {
			continue
		}
		from, err := t.withdrawnFrom(e, all)
		if err != nil || from == 0 {
			continue // nothing left to withdraw from (arena withdraw refuses it)
		}
		why := "withdrawn by the organizer"
		if q.Reason != "" {
			why += ": " + q.Reason
		}
		rec := &record.Record{Event: t.Director.Event, Round: from, Rule: t.Director.Rule.Name(), Size: t.Director.Size,
			Black: q.Engine, End: record.Withdrawn, Detail: why, Start: q.Time, Finish: q.Time}
		if rec.Start.IsZero() {
			return fmt.Errorf("withdrawal of %s: the request has no time", q.Engine)
		}
		if err := journal(rec); err != nil {
			return err
		}
		all = append(all, rec)
		if t.Notice != nil {
			t.Notice(fmt.Sprintf("%s is withdrawn from round %d on: %s", q.Engine, from, why))
		}
	}
	return nil
}

// withdrawnIn reports whether a fixed schedule's game of round between
// black and white has an entrant withdrawn from that round or before.
func withdrawnIn(out map[int]int, round, black, white int) bool {
	for _, e := range []int{black, white} {
		if from, ok := out[e]; ok && from <= round {
			return true
		}
	}
	return false
}

// WithdrawnFrom is the round the entrant called name would leave from if
// withdrawn now, given the journal's records (0: no game left).
func (t *Tournament) WithdrawnFrom(name string, all []*record.Record) (int, error) {
	e := t.index(name)
	if e < 0 {
		return 0, fmt.Errorf("no entrant %q", name)
	}
	return t.withdrawnFrom(e, all)
}
