package schedule

import (
	"context"
	"slices"

	"gomoku-arena/arbiter"
	"gomoku-arena/pairing"
	"gomoku-arena/results/record"
)

// A spread event is played by several tasks at once (the tasks of a job
// array), each in a folder of its own beside the others' (event/spread.go
// keeps the folders): a task plays the games of the pairings dealt to it,
// Pairing mod Count == Index, so that a mini-match is played by one task,
// on one node, and every task journals its own games. Shard 0 is the
// pairer: it journals the byes and withdrawals, and pairs each Swiss round
// once the round before is complete, in one place, publishing the pairing
// for the others. An engine never plays two games at once anywhere: a task
// starts a game only when the game before it of each of its engines, in
// the schedule's order, is journaled by whichever task played it; a Swiss
// round's games wait for the whole round before, as its pairing does. A
// task that dies is run again and replays the games its journal lacks; no
// game is in two tasks' shares, so none is counted twice.

// Task is this run's part in a spread event, and what it needs to know of
// the other tasks; the event layer reads and writes their folders.
type Task struct {
	Shard Shard
	// Await waits until every game of keys is journaled by some task, then
	// returns the records of every task so far (the pairer's byes and
	// withdrawals included), in round order as one process would have
	// them; with no keys it returns at once. It fails when ctx ends.
	Await func(ctx context.Context, keys []arbiter.Key) ([]*record.Record, error)
	// Publish makes round r's pairing known to the other tasks (the
	// pairer, once its byes and withdrawals are journaled); Published
	// reads it if it is there, and Pairing waits for it.
	Publish   func(r int, round []pairing.Pairing) error
	Published func(r int) ([]pairing.Pairing, bool, error)
	Pairing   func(ctx context.Context, r int) ([]pairing.Pairing, error)
}

// Pairer reports whether the task pairs the Swiss rounds and journals the
// byes and withdrawals.
func (k *Task) Pairer() bool { return k.Shard.Index == 0 }

// Owns reports whether the game is the task's to play.
func (k *Task) Owns(f arbiter.Fixture) bool { return f.Pairing%k.Shard.Count == k.Shard.Index }

// share keeps the fixtures of this run: all of them, or the task's.
func (t *Tournament) share(fs []arbiter.Fixture) []arbiter.Fixture {
	if t.Task == nil {
		return fs
	}
	var out []arbiter.Fixture
	for _, f := range fs {
		if t.Task.Owns(f) {
			out = append(out, f)
		}
	}
	return out
}

// runTask plays a task's share of a schedule known in advance. Each game
// waits for the game before it of each of its engines (prev, in schedule
// order, whoever plays it): the games ready at once are played together,
// then the journals are read again, and when none is ready the task waits
// for what its earliest game waits for. The earliest unplayed game of the
// whole event is always ready in its task, so the tasks never wait on each
// other in a circle.
func (t *Tournament) runTask(drain, abort context.Context, all *[]*record.Record) error {
	sched, err := t.Schedule()
	if err != nil {
		return err
	}
	if t.Task.Pairer() {
		if err := t.journalByes(sched, *all); err != nil {
			return err
		}
	}
	fs := t.fixtures(sched, 0)
	prev := make([][]arbiter.Key, len(fs)) // by game number - 1
	last := make([]int, len(t.Director.Entrants))
	for i, f := range fs {
		for _, e := range []int{f.Black, f.White} {
			if n := last[e]; n > 0 {
				prev[i] = append(prev[i], arbiter.Key{Round: fs[n-1].Round, Number: n})
			}
			last[e] = f.Number
		}
	}
	mine := t.share(fs)
	defer func() { t.Director.Ahead = nil }()
	for {
		pending := remaining(mine, *all)
		if len(pending) == 0 {
			return nil
		}
		merged, err := t.Task.Await(drain, nil)
		if err != nil {
			return stopped(drain, err)
		}
		done := map[arbiter.Key]bool{}
		for _, r := range merged {
			done[arbiter.KeyOf(r)] = true
		}
		var ready []arbiter.Fixture
		for _, f := range pending {
			if !slices.ContainsFunc(prev[f.Number-1], func(k arbiter.Key) bool { return !done[k] }) {
				ready = append(ready, f)
			}
		}
		if len(ready) == 0 {
			if _, err := t.Task.Await(drain, prev[pending[0].Number-1]); err != nil {
				return stopped(drain, err)
			}
			continue
		}
		// An entrant with games after these keeps its process: a
		// mini-match is played a game at a time.
		later := make([]int, len(t.Director.Entrants))
		for _, f := range pending {
			later[f.Black]++
			later[f.White]++
		}
		for _, f := range ready {
			later[f.Black]--
			later[f.White]--
		}
		t.Director.Ahead = func(i int) bool { return later[i] > 0 }
		if err := t.Director.Play(drain, abort, ready); err != nil {
			return err
		}
		if drain.Err() != nil || abort.Err() != nil {
			return nil
		}
	}
}

// stopped is a wait's error: none when the wait ended because the run was
// told to stop.
func stopped(drain context.Context, err error) error {
	if drain.Err() != nil {
		return nil
	}
	return err
}

// taskRound is round r's pairing in a task of a spread Swiss. The pairer
// waits for the round before to be complete in every task's journal,
// journals the withdrawals due and writes the round before's report (as
// one process does between rounds), pairs the round from every task's
// records, journals its byes and publishes it; the other tasks wait for
// the published pairing. A pairing once published is the round's, also
// for a pairer run again.
func (t *Tournament) taskRound(drain context.Context, r int, before []arbiter.Fixture, all *[]*record.Record, pair func() ([]pairing.Pairing, error)) ([]pairing.Pairing, error) {
	round, ok, err := t.Task.Published(r)
	if err != nil || ok {
		return round, err
	}
	if !t.Task.Pairer() {
		return t.Task.Pairing(drain, r)
	}
	if err := t.awaitRound(drain, before, all); err != nil {
		return nil, err
	}
	if r > 1 {
		if _, _, err := t.withdrawals(r, *all); err != nil {
			return nil, err
		}
		if t.RoundDone != nil {
			if err := t.RoundDone(r-1, *all); err != nil {
				return nil, err
			}
		}
	}
	if round, err = pair(); err != nil {
		return nil, err
	}
	return round, t.Task.Publish(r, round)
}

// awaitRound waits until every game of a round is journaled, and makes all
// every task's records.
func (t *Tournament) awaitRound(drain context.Context, round []arbiter.Fixture, all *[]*record.Record) error {
	keys := make([]arbiter.Key, len(round))
	for i, f := range round {
		keys[i] = arbiter.Key{Round: f.Round, Number: f.Number}
	}
	merged, err := t.Task.Await(drain, keys)
	if err != nil {
		return err
	}
	*all = merged
	return nil
}
