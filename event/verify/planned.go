package verify

import (
	"fmt"

	"gomoku-arena/event/identity"
	"gomoku-arena/pairing"
	"gomoku-arena/results/record"
	"gomoku-arena/results/standings"
	"gomoku-arena/schedule"
)

// PlannedGames is the number of games the event or match of id will have,
// given the records so far: a round robin's or gauntlet's schedule, less the
// games a withdrawal leaves unplayed (schedule/withdraw.go); for a
// Swiss, a game per two entrants still in the event in each round (a
// withdrawn entrant plays no more, so the rounds after a withdrawal have
// fewer games); a match's (or its shard's) fixtures, the most there can be
// under an SPRT.
func PlannedGames(id *identity.Identity, done []*record.Record) int {
	if id.Kind == identity.KindMatch {
		m, err := Tally(id)
		if err != nil {
			return 0
		}
		if id.Match.Shard != "" {
			if m.Shard, err = schedule.ParseShard(id.Match.Shard); err != nil {
				return 0
			}
		}
		return len(m.Share())
	}
	if _, err := Tournament(id); err != nil {
		return 0 // event.json asks for a schedule past the bounds (Journal says so)
	}
	n := len(id.Engines)
	if id.Pairing != string(pairing.SwissFormat) {
		sched, err := pairing.Schedule(pairing.Format(id.Pairing), n)
		if err != nil {
			return 0
		}
		games := 0
		for _, round := range sched {
			for _, p := range round {
				if p.White != pairing.Bye {
					games++
				}
			}
		}
		return games - withdrawnGames(id, done)
	}
	index := map[string]int{}
	for i, e := range id.Engines {
		index[e.Name] = i
	}
	out, _ := standings.Withdrawals(done, index) // a record naming no entrant is the journal reader's to report
	games := 0
	for r := 1; r <= id.Rounds; r++ {
		active := n
		for _, from := range out {
			if from <= r {
				active--
			}
		}
		games += active / 2
	}
	return games
}

// withdrawnGames counts the games of a fixed schedule that are never played
// because an entrant was withdrawn before them (schedule/withdraw.go).
func withdrawnGames(id *identity.Identity, done []*record.Record) int {
	index := map[string]int{}
	for i, e := range id.Engines {
		index[e.Name] = i
	}
	out, _ := standings.Withdrawals(done, index)
	if len(out) == 0 {
		return 0
	}
	t, err := Tournament(id)
	if err != nil {
		return 0
	}
	fs, err := t.Fixtures()
	if err != nil {
		return 0
	}
	played := map[int]bool{}
	for _, r := range record.Ruled(done) {
		if r.IsGame() {
			played[r.Game] = true
		}
	}
	n := 0
	for _, f := range fs {
		if played[f.Number] {
			continue
		}
		for _, e := range []int{f.Black, f.White} {
			if from, ok := out[e]; ok && from <= f.Round {
				n++
				break
			}
		}
	}
	return n
}

// Tally is a match that counts games as the match in a folder counted them,
// without engines to play: feed it the journal's records with Replay, in
// order, to follow a match from its files (the live page of another
// process's match does).
func Tally(id *identity.Identity) (*schedule.Match, error) {
	if id.Kind != identity.KindMatch || id.Match == nil {
		return nil, fmt.Errorf("%s holds %s, not an authors' match", id.Name, identity.KindName[id.Kind])
	}
	m, err := Match(id)
	if err != nil {
		return nil, err
	}
	m.Schedule()
	return m, nil
}
