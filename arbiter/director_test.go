package arbiter

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"gomoku-arena/clock"
	"gomoku-arena/engine"
	"gomoku-arena/internal/affinity"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

func director(t *testing.T, n int, instances bool) *Director {
	free, _ := rules.ByName("freestyle")
	d := &Director{Event: "t", Rule: free, Size: 15, Concurrency: 4, Instances: instances}
	for i := 0; i < n; i++ {
		d.Entrants = append(d.Entrants, Entrant{
			Spec: engine.Spec{Name: string(rune('a' + i)), Command: "builtin:faulty", Args: []string{"think=5ms"}, Dir: t.TempDir(),
				StartTimeout: startTimeout, WriteTimeout: startTimeout},
			Clock: clock.Control{Match: 30 * time.Second, Tolerance: time.Second},
		})
	}
	t.Cleanup(d.Close)
	return d
}

// overlaps plays the fixtures and reports the most games any entrant had
// running at once.
func overlaps(t *testing.T, d *Director, fs []Fixture) (most int, recs []*record.Record) {
	var mu sync.Mutex
	running := map[int]int{}
	d.Started = func(f Fixture) {
		mu.Lock()
		defer mu.Unlock()
		for _, e := range []int{f.Black, f.White} {
			running[e]++
			most = max(most, running[e])
		}
	}
	d.Finished = func(rec *record.Record) error {
		mu.Lock()
		defer mu.Unlock()
		for i, e := range d.Entrants {
			if e.Spec.Name == rec.Black || e.Spec.Name == rec.White {
				running[i]--
			}
		}
		recs = append(recs, rec)
		return nil
	}
	if err := d.Play(context.Background(), context.Background(), fs); err != nil {
		t.Fatal(err)
	}
	return most, recs
}

func TestDirectorNeverPutsAnEngineInTwoGames(t *testing.T) {
	d := director(t, 4, false)
	var fs []Fixture // every pair twice, colours exchanged: a double round robin's games
	for b := range 4 {
		for w := range 4 {
			if b != w {
				fs = append(fs, Fixture{Round: 1, Number: len(fs) + 1, Black: b, White: w})
			}
		}
	}
	most, recs := overlaps(t, d, fs)
	if most != 1 {
		t.Errorf("an engine played %d games at once", most)
	}
	if len(recs) != 12 {
		t.Errorf("%d games played, want 12", len(recs))
	}
}

func TestDirectorInstancesPlayAtOnce(t *testing.T) {
	d := director(t, 2, true)
	var fs []Fixture
	for i := 0; i < 8; i++ {
		fs = append(fs, Fixture{Number: i + 1, Black: i % 2, White: 1 - i%2})
	}
	most, recs := overlaps(t, d, fs)
	if most < 2 {
		t.Errorf("with instances, at most %d games of one engine ran at once", most)
	}
	if len(recs) != 8 {
		t.Errorf("%d games played", len(recs))
	}
}

// A fixture whose engine cannot start is that engine's loss, and the event
// goes on.
func TestDirectorEngineThatCannotStart(t *testing.T) {
	d := director(t, 2, false)
	d.Entrants[1].Spec.Command = "/nonexistent/pbrain-x"
	_, recs := overlaps(t, d, []Fixture{{Number: 1, Black: 0, White: 1}, {Number: 2, Black: 1, White: 0}})
	if len(recs) != 2 {
		t.Fatalf("%d records", len(recs))
	}
	for _, r := range recs {
		if r.End != record.Crash || r.WinnerName() != "a" {
			t.Errorf("game %d: %s won by %s (%s)", r.Game, r.WinnerName(), r.End, r.Detail)
		}
	}
}

// A fixture that cannot be played stops the event with an error naming the
// game; the games before it are reported, none after it starts.
func TestDirectorStopsAtAGameThatCannotBePlayed(t *testing.T) {
	d := director(t, 2, false)
	d.Concurrency = 1
	var finished []int
	d.Finished = func(rec *record.Record) error {
		finished = append(finished, rec.Game)
		return nil
	}
	fs := []Fixture{
		{Round: 1, Number: 1, Black: 0, White: 1},
		{Round: 1, Number: 2, Black: 1, White: 0, Opening: []rules.Point{{X: 99, Y: 7}}},
		{Round: 1, Number: 3, Black: 0, White: 1},
	}
	err := d.Play(context.Background(), context.Background(), fs)
	if err == nil || !strings.Contains(err.Error(), "game 2: opening:") || len(finished) != 1 || finished[0] != 1 {
		t.Fatalf("err = %v, finished %v; want game 2's opening refused after game 1", err, finished)
	}
}

// A process goes back to the table that started it, whichever process
// was freed last.
func TestTableTakesItsOwnProcess(t *testing.T) {
	d := director(t, 1, true)
	d.Play(context.Background(), context.Background(), nil) // sets the director up
	var started [2]*engine.Engine
	for table := range started {
		e, err := d.take(Fixture{}, 0, table)
		if err != nil {
			t.Fatal(err)
		}
		started[table] = e
	}
	d.give(Fixture{}, 0, 1, started[1], true)
	d.give(Fixture{}, 0, 0, started[0], true) // the last freed: what a plain stack would hand out first
	for _, table := range []int{1, 0} {
		if e, _ := d.take(Fixture{}, 0, table); e != started[table] {
			t.Errorf("table %d got the process of table %d", table, 1-table)
		}
	}
}

// An entrant's process is kept while the entrant has a game to come and
// ended after its last one: an event of many entrants holds no more
// processes than the games in play need, and a Play that returns (a Swiss
// round) leaves none.
func TestProcessEndsAfterItsEntrantsLastGame(t *testing.T) {
	d := director(t, 12, false)
	d.Concurrency = 2
	for i := range d.Entrants {
		d.Entrants[i].Spec.Args = nil // instant
	}
	// Entrant 0 plays all five of its games; the others one or two each.
	fs := []Fixture{{Round: 1, Number: 1, Black: 0, White: 1}, {Round: 1, Number: 2, Black: 2, White: 3},
		{Round: 1, Number: 3, Black: 4, White: 0}, {Round: 1, Number: 4, Black: 5, White: 6},
		{Round: 1, Number: 5, Black: 0, White: 7}, {Round: 1, Number: 6, Black: 8, White: 9},
		{Round: 1, Number: 7, Black: 10, White: 0}, {Round: 1, Number: 8, Black: 11, White: 2},
		{Round: 1, Number: 9, Black: 0, White: 11}}
	var pids []int
	most := 0
	d.Started = func(Fixture) {
		d.mu.Lock()
		defer d.mu.Unlock()
		most = max(most, len(d.all))
	}
	d.Moved = func(Fixture, Progress) {
		d.mu.Lock()
		defer d.mu.Unlock()
		for _, e := range d.all {
			if !slices.Contains(pids, e.Pid()) {
				pids = append(pids, e.Pid())
			}
		}
	}
	d.Finished = func(*record.Record) error { return nil }
	if err := d.Play(context.Background(), context.Background(), fs); err != nil {
		t.Fatal(err)
	}
	// Before a game starts, the processes held are at most those of the
	// games in play and entrant 0's and 2's, which have games to come.
	if most > 2*d.Concurrency+2 {
		t.Errorf("%d processes held at once by %d tables", most, d.Concurrency)
	}
	d.mu.Lock()
	left := len(d.all)
	d.mu.Unlock()
	if left != 0 {
		t.Errorf("%d processes still held after the last game", left)
	}
	d.retiring.Wait()
	if len(pids) < 12 {
		t.Fatalf("saw %d processes, want one per entrant at least", len(pids))
	}
	for _, pid := range pids {
		if pid <= 0 {
			continue // no process (kill(0) would ask about this test's own group)
		}
		if err := unix.Kill(pid, 0); err == nil {
			t.Errorf("process %d outlived its entrant's last game", pid)
		}
	}
}

// With freeze_idle, an entrant's process waiting for its next game is
// stopped there, not only while its opponent is on move, and resumed for
// the game.
func TestProcessIsFrozenBetweenGames(t *testing.T) {
	d := director(t, 4, false)
	d.Concurrency = 1 // the games one after another, in order
	for i := range d.Entrants {
		d.Entrants[i].Spec.Args = nil
		d.Entrants[i].Spec.Limits.FreezeIdle = true
	}
	fs := []Fixture{{Round: 1, Number: 1, Black: 0, White: 1}, {Round: 1, Number: 2, Black: 2, White: 3},
		{Round: 1, Number: 3, Black: 2, White: 0}}
	var states []string
	d.Moved = func(f Fixture, _ Progress) {
		if f.Number != 2 {
			return
		}
		d.mu.Lock()
		defer d.mu.Unlock()
		for _, e := range d.idle[0] {
			stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", e.Pid()))
			if err != nil {
				t.Error(err)
				return
			}
			// pid (comm) state ...: the state follows the last ')'.
			rest := string(stat[bytes.LastIndexByte(stat, ')')+2:])
			states = append(states, rest[:1])
		}
	}
	var recs []*record.Record
	d.Finished = func(rec *record.Record) error { recs = append(recs, rec); return nil }
	if err := d.Play(context.Background(), context.Background(), fs); err != nil {
		t.Fatal(err)
	}
	// T: stopped by SIGSTOP; D: held by the cgroup freezer.
	if len(states) == 0 || slices.ContainsFunc(states, func(s string) bool { return s != "T" && s != "D" }) {
		t.Errorf("entrant 0's idle process during game 2 was in states %v, want stopped (T) or frozen (D)", states)
	}
	if len(recs) != 3 || recs[2].End.Forfeit() {
		t.Fatalf("%d games; the last ended %v %q", len(recs), recs[len(recs)-1].End, recs[len(recs)-1].Detail)
	}
}

// With a table per processor, each table plays its games on one thread
// pinned to a processor of its own; a table's own engines (Instances) run on
// its processor and on no other, an event's engines, which go from table to
// table, on every processor.
func TestTablesPinTheirThreadsAndTheirOwnEngines(t *testing.T) {
	cpus := affinity.CPUs()
	if len(cpus) < 2 {
		t.Skipf("the arbiter may run on %d processor(s): nothing to pin", len(cpus))
	}
	for _, instances := range []bool{true, false} {
		d := director(t, 2*len(cpus), instances)
		d.Concurrency = len(cpus)
		for i := range d.Entrants {
			d.Entrants[i].Spec.Args = nil // instant
		}
		var mu sync.Mutex
		threads := map[Key]map[int]bool{} // per game, the threads of its moves
		pinned := map[int]bool{}          // per thread, its processor
		// Engines end after their entrant's last game: each is looked at
		// during the games, once.
		onOne := map[int]int{} // processor -> engines held to it
		seen := map[int]bool{}
		held := func() {
			d.mu.Lock()
			defer d.mu.Unlock()
			for _, e := range d.all {
				if seen[e.Pid()] {
					continue
				}
				seen[e.Pid()] = true
				got, err := affinity.Of(e.Pid())
				if err != nil {
					t.Error(err)
					return
				}
				switch {
				case !instances && len(got) != len(cpus):
					t.Errorf("event: engine %s (pid %d) may run on %v, the arbiter on %v", e.Name(), e.Pid(), got, cpus)
				case instances && len(got) != 1:
					t.Errorf("match: engine %s (pid %d) may run on %v, want its table's processor", e.Name(), e.Pid(), got)
				case instances:
					onOne[got[0]]++
					if c := cpus[d.table[e]%len(cpus)]; got[0] != c {
						t.Errorf("match: engine %s (pid %d) runs on %d, its table on %d", e.Name(), e.Pid(), got[0], c)
					}
				}
			}
		}
		// Which table deals itself which game is the scheduler's choice: on
		// a busy machine one table may play every game before another runs
		// at all. So each table's first move waits until every table has a
		// game (the first len(cpus) fixtures have no entrant in common), and
		// every processor is then seen to have its table.
		seated := map[int]bool{}
		allSeated := make(chan struct{})
		d.Moved = func(f Fixture, _ Progress) {
			mu.Lock()
			if !seated[f.Table] {
				seated[f.Table] = true
				if len(seated) == d.Concurrency {
					close(allSeated)
				}
			}
			mu.Unlock()
			select {
			case <-allSeated:
			case <-time.After(2 * time.Minute): // reported below as a processor without moves
			}
			held()
			var set unix.CPUSet
			if err := unix.SchedGetaffinity(0, &set); err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			k := Key{f.Round, f.Number}
			if threads[k] == nil {
				threads[k] = map[int]bool{}
			}
			threads[k][unix.Gettid()] = true
			if set.Count() != 1 {
				t.Errorf("game %d: a move on a thread allowed %d processors", f.Number, set.Count())
				return
			}
			for _, c := range cpus {
				if set.IsSet(c) {
					pinned[c] = true
				}
			}
		}
		var fs []Fixture
		for i := range 6 * len(cpus) {
			// with Instances, every table plays entrants 0 and 1; without,
			// entrant pairs that the tables deal among themselves
			b, w := 0, 1
			if !instances {
				b, w = (2*i)%len(d.Entrants), (2*i+1)%len(d.Entrants)
			}
			if i%2 == 1 {
				b, w = w, b
			}
			fs = append(fs, Fixture{Number: i + 1, Black: b, White: w})
		}
		if _, recs := overlaps(t, d, fs); len(recs) != len(fs) {
			t.Fatalf("%d games played", len(recs))
		}
		all := map[int]bool{}
		for k, ts := range threads {
			if len(ts) != 1 {
				t.Errorf("game %d was played on %d threads", k.Number, len(ts))
			}
			for tid := range ts {
				all[tid] = true
			}
		}
		if len(all) > d.Concurrency {
			t.Errorf("%d games at %d tables were played on %d threads", len(fs), d.Concurrency, len(all))
		}
		if len(pinned) != len(cpus) {
			t.Errorf("moves were played on threads pinned to %v, want one per processor of %v", pinned, cpus)
		}
		if instances && len(onOne) != len(cpus) {
			t.Errorf("match: the engines are held to processors %v, want each table's own of %v", onOne, cpus)
		}
	}
}

// With fewer tables than processors, a table with engines of its own
// (Instances) still plays on one thread pinned to a processor, and holds
// its engines there while they run one thread: an instant engine's answer
// then wakes no other processor. An engine that runs more threads is let go
// to every processor, every thread of it, before it has played much (this
// one starts them when it starts: before its first move).
func TestASpareTableHoldsItsOneThreadEnginesOnly(t *testing.T) {
	cpus := affinity.CPUs()
	if len(cpus) < 2 {
		t.Skipf("the arbiter may run on %d processor(s): nothing to pin", len(cpus))
	}
	path := threadsEngine(t)
	d := director(t, 2, true)
	d.Concurrency = 1
	d.Entrants[0].Spec.Command, d.Entrants[0].Spec.Args = path, []string{"1", "0", "0"} // one thread
	d.Entrants[1].Spec.Command, d.Entrants[1].Spec.Args = path, []string{"2", "3", "0"} // four
	moves, looked := 0, 0
	d.Moved = func(f Fixture, p Progress) {
		if moves++; moves < 4 {
			return
		}
		looked++
		var set unix.CPUSet
		if err := unix.SchedGetaffinity(0, &set); err != nil {
			t.Fatal(err)
		}
		if set.Count() != 1 {
			t.Errorf("game %d: a move on a thread allowed %d processors, want its table's one", f.Number, set.Count())
		}
		d.mu.Lock()
		all := slices.Clone(d.all)
		d.mu.Unlock()
		for _, e := range all {
			tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", e.Pid()))
			if err != nil {
				t.Fatal(err)
			}
			for _, task := range tasks {
				var tid int
				fmt.Sscan(task.Name(), &tid)
				got, err := affinity.Of(tid)
				if err != nil {
					t.Fatal(err)
				}
				switch {
				case e.Name() == "a" && (len(tasks) != 1 || len(got) != 1 || !set.IsSet(got[0])):
					t.Errorf("game %d: the one-thread engine (%d threads) may run on %v, want its table's processor", f.Number, len(tasks), got)
				case e.Name() == "b" && len(got) != len(cpus):
					t.Errorf("game %d: thread %d of the engine of %d threads may run on %v, want every processor of %v",
						f.Number, tid, len(tasks), got, cpus)
				}
			}
		}
	}
	fs := []Fixture{{Number: 1, Black: 0, White: 1}, {Number: 2, Black: 1, White: 0}}
	if _, recs := overlaps(t, d, fs); len(recs) != len(fs) {
		t.Fatalf("%d games played", len(recs))
	}
	if looked == 0 {
		t.Fatal("no move was looked at")
	}
}
