package arbiter

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"time"

	"gomoku-arena/clock"
	"gomoku-arena/engine"
	"gomoku-arena/internal/affinity"
	"gomoku-arena/internal/bounds"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// Entrant is one engine of an event and how to run it.
type Entrant struct {
	Spec      engine.Spec
	BoardMode bool
	Infos     []engine.Info
	Clock     clock.Control
	// Swap2Colors: SWAP2BOARD stone lines carry a colour field.
	Swap2Colors bool
}

// Fixture is one game to play: entrants by index.
type Fixture struct {
	Round, Number int
	Black, White  int
	Opening       []rules.Point
	// Pairing is the event's pairing the game belongs to, counted from 0
	// in the order of play; Game is the game's place in its pairing's
	// mini-match (0 for a pairing of one game). The games of one pairing
	// are played by one task of a spread event (Task).
	Pairing, Game int
	// Table is the table (from 1) that plays the game, set when the game is
	// dealt to it (Started sees it): c-gomoku-cli's worker number.
	Table int
	// Fresh are the entrants whose processes the table starts for this
	// game (set with Table, the pair's first engine first): a process
	// started anew is c-gomoku-cli's "Load engine" line.
	Fresh []int
}

// MaxConcurrency bounds the games played at once (see bounds).
const MaxConcurrency = bounds.MaxConcurrency

// Key identifies a fixture within an event, and so a journaled record.
type Key struct{ Round, Number int }

// KeyOf is the key of a finished game's record.
func KeyOf(rec *record.Record) Key { return Key{rec.Round, rec.Game} }

// Director plays fixtures between entrants: up to Concurrency games at once,
// and unless Instances is set never one entrant in two games at the same
// time. It owns the engine processes, reused from game to game while their
// entrant has another game among the fixtures being played, and ended after
// its last one (under LifetimeReuse, the default; Lifetime has the others): a Swiss round starts each entrant's process afresh, and an
// event of thousands never holds more processes than its games in play.
//
// Games are played at tables, Concurrency of them: a table is a goroutine
// that takes its next fixture itself when its game ends (nothing is handed
// between goroutines from one game to the next), and an entrant's process
// goes back to the table that started it whenever it is free there. So a
// table's engines keep meeting the same thread on the same processors.
// With at least as many tables as processors, each table is also locked to
// one thread, pinned to a processor of its own, in turn, so that no two
// tables meet on one processor while another has none; and where each
// table has engines of its own (Instances), they are started on the
// table's processor and keep it (with the kernel's shortest slice while
// they run one thread, so that a command runs its engine at once:
// engine/held.go), so a game is played on one processor and does not take
// another game's: left to the kernel, two tables' engines
// often settled each on the other table's processor, every move then waking
// a processor across (1,000 instant games at two tables: 0.33-0.36 s pinned,
// 0.34-0.66 s not). An event's engines go from table to table,
// and run wherever the kernel puts them. With fewer tables than processors,
// tables with engines of their own are pinned all the same, but hold their
// engines to their processor only while they run one thread
// (engine.Spec.CPUsOneThread): an engine that searches on several threads
// gets the processors to spare. Held there, an instant engine's answer
// wakes no other processor, which cut the arbiter's processor time per
// game at one game at a time by about a third and its wall time by a
// quarter (docs/performance.md); pinning the table's thread alone did not
// (the engines stayed where the kernel put them: 1,000 games took 2.06 s,
// against 1.56 s unpinned). The tables of an event, whose engines go from
// table to table, are neither locked nor pinned then.
type Director struct {
	Event        string
	Rule         rules.Rule
	Size         int
	MoveCap      int
	StartTimeout time.Duration
	// Procedure is the opening procedure of every game (see Game).
	Procedure   rules.Procedure
	Entrants    []Entrant
	Concurrency int
	// Finished is called for every finished game, one call at a time (from
	// the table that played it), before either entrant starts another game,
	// and for a game Stop stopped (End record.Aborted: no result, not to be
	// journaled as played). Its error (a journal that cannot be written)
	// stops the event.
	Finished func(*record.Record) error
	// Started, if set, is told when a game begins, one call at a time, and
	// Moved after each of its stones (from the game's table): for progress
	// displays.
	Started func(Fixture)
	Moved   func(Fixture, Progress)
	// Forbidden: Moved's Progress carries the forbidden points of the side
	// to move (Game.Forbidden), for a display that draws them.
	Forbidden bool
	// Skip, if set, is asked before a fixture is dealt (one call at a time,
	// as Finished): a fixture it skips is dropped, never played (an
	// entrant withdrawn meanwhile).
	Skip func(Fixture) bool
	// Ahead, if set, says whether an entrant has games to play after the
	// fixtures of this Play (a spread event's task plays its share in
	// turns, as games become ready): its process is kept for them.
	Ahead func(entrant int) bool
	// Instances lets an entrant play several games at once, each with its
	// own process (and working directory Dir/N for the Nth): for engine
	// authors' matches, not for events, where an engine gets the machine
	// to itself.
	Instances bool
	// Lifetime is how long engine processes live: LifetimeReuse (the
	// zero value) as described above, LifetimePair as c-gomoku-cli's
	// workers, or LifetimeGame (see Lifetime).
	Lifetime Lifetime

	mu       sync.Mutex
	seats    [][2]seat          // per table, under LifetimePair
	idle     [][]*engine.Engine // per entrant, processes between games
	started  []int              // per entrant, processes started
	all      []*engine.Engine
	table    map[*engine.Engine]int // where each process was started
	cpus     [][]int                // per table, the processor its own engines run on (none: any)
	spare    bool                   // fewer tables than processors: cpus hold single-threaded engines only
	retiring sync.WaitGroup         // processes being ended after their entrant's last game

	stopMu  sync.Mutex
	playing map[int]context.CancelCauseFunc // the games in play, by number (Stop)
}

// errStopped is the cause of a game's end by Stop.
var errStopped = errors.New("stopped by the arbiter")

// Stop stops game number n if it is in play, and reports whether it was:
// its engines are killed at once, as when the event is aborted, and its
// record (End record.Aborted: no result) goes to Finished. For a game the
// arbiter adjudicated while it was played, whose play would not count.
func (d *Director) Stop(n int) bool {
	d.stopMu.Lock()
	defer d.stopMu.Unlock()
	cancel, ok := d.playing[n]
	if ok {
		cancel(errStopped)
	}
	return ok
}

// inPlay notes game number n in play, with its cancel, or no longer (nil).
func (d *Director) inPlay(n int, cancel context.CancelCauseFunc) {
	d.stopMu.Lock()
	defer d.stopMu.Unlock()
	if cancel == nil {
		delete(d.playing, n)
		return
	}
	if d.playing == nil {
		d.playing = map[int]context.CancelCauseFunc{}
	}
	d.playing[n] = cancel
}

// Play plays the fixtures. Cancelling drain stops new games from starting;
// cancelling abort also stops the games in progress (their engines are
// killed and they are not reported). It returns when no game is running.
func (d *Director) Play(drain, abort context.Context, fixtures []Fixture) error {
	if d.idle == nil {
		d.idle = make([][]*engine.Engine, len(d.Entrants))
		d.started = make([]int, len(d.Entrants))
		d.table = make(map[*engine.Engine]int)
	}
	l := &lineup{d: d, drain: drain, abort: abort, pending: append([]Fixture(nil), fixtures...), busy: make([]bool, len(d.Entrants)),
		left: make([]int, len(d.Entrants))}
	for _, f := range fixtures {
		l.left[f.Black]++
		l.left[f.White]++
	}
	l.free = sync.NewCond(&l.mu)
	for len(d.seats) < max(d.Concurrency, 1) { // kept from one Play to the next, as c-gomoku-cli's workers keep theirs
		d.seats = append(d.seats, [2]seat{})
	}
	cpus := affinity.CPUs()
	// A game per processor or more, or tables with engines of their own:
	// pinned (see Director).
	pin := len(cpus) > 1 && (d.Concurrency >= len(cpus) || d.Instances)
	d.spare = d.Concurrency < len(cpus)
	d.cpus = make([][]int, max(d.Concurrency, 1))
	for t := range d.cpus {
		if pin && d.Instances { // a table's own engines: on its processor too
			d.cpus[t] = []int{cpus[t%len(cpus)]}
		}
	}
	var tables sync.WaitGroup
	for t := range max(d.Concurrency, 1) {
		tables.Go(func() {
			if pin { // a table's games on one thread, on one processor (see Director)
				runtime.LockOSThread()
				defer runtime.UnlockOSThread() // an exiting locked thread would take Pdeathsig engines with it
				defer affinity.Pin(cpus[t%len(cpus)])()
			}
			for {
				f, ok := l.next(t)
				if !ok {
					return
				}
				ctx, cancel := context.WithCancelCause(abort)
				d.inPlay(f.Number, cancel)
				rec, err := d.play(ctx, f, t, l.needs)
				d.inPlay(f.Number, nil)
				stopped := context.Cause(ctx) == errStopped
				cancel(nil)
				l.finish(f, rec, stopped, err)
			}
		})
	}
	tables.Wait()
	return l.err
}

// lineup is the fixtures of one Play still to be dealt. Each table takes its
// next game from it and reports the game it finished to it, on its own
// thread: nothing is handed between goroutines from one game to the next.
type lineup struct {
	d            *Director
	drain, abort context.Context
	mu           sync.Mutex
	free         *sync.Cond // signalled when a game ends: its entrants are free
	pending      []Fixture
	busy         []bool // per entrant, in a game
	left         []int  // per entrant, pending fixtures
	err          error  // the first error: no game starts after it
}

// next deals a fixture to a table: the first pending one whose entrants
// are free (any, with Instances), waiting for a game to end while every
// pending fixture has an entrant in play. It reports false when there is
// nothing more for the table to play.
func (l *lineup) next(table int) (Fixture, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for {
		if l.err != nil || l.drain.Err() != nil || l.abort.Err() != nil || len(l.pending) == 0 {
			return Fixture{}, false
		}
		for i := 0; i < len(l.pending); i++ {
			f := l.pending[i]
			if l.d.Skip != nil && l.d.Skip(f) { // dropped unplayed
				l.pending = slices.Delete(l.pending, i, i+1)
				l.left[f.Black]--
				l.left[f.White]--
				i--
				continue
			}
			if !l.d.Instances && (l.busy[f.Black] || l.busy[f.White]) {
				continue
			}
			l.pending = append(l.pending[:i], l.pending[i+1:]...)
			l.busy[f.Black], l.busy[f.White] = true, true
			l.left[f.Black]--
			l.left[f.White]--
			f.Table = table + 1
			f.Fresh = l.d.fresh(f, table)
			if l.d.Started != nil {
				l.d.Started(f)
			}
			return f, true
		}
		if len(l.pending) == 0 { // all skipped
			return Fixture{}, false
		}
		l.free.Wait() // some fixture's entrant is in a game, which will end
	}
}

// needs says whether entrant i has a game still to be dealt.
func (l *lineup) needs(i int) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.left[i] > 0 || (l.d.Ahead != nil && l.d.Ahead(i))
}

// finish reports a table's game (to Finished) before its entrants may play
// again: a finished one, or one Stop stopped.
func (l *lineup) finish(f Fixture, rec *record.Record, stopped bool, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	defer l.free.Broadcast()
	l.busy[f.Black], l.busy[f.White] = false, false
	switch {
	case l.err != nil:
	case err != nil:
		l.err = err
	case rec.End != record.Aborted || stopped:
		l.err = l.d.Finished(rec)
	}
}

// play plays one fixture at a table, taking an engine process for each side
// and giving it back after the game, kept if needs says its entrant has
// another game to play. An engine that cannot be started loses the game as
// a crash; the error is for a game that cannot be played at all (Play).
func (d *Director) play(abort context.Context, f Fixture, table int, needs func(int) bool) (*record.Record, error) {
	g := Game{Event: d.Event, Round: f.Round, Number: f.Number, Rule: d.Rule, Size: d.Size,
		Opening: f.Opening, Procedure: d.Procedure, MoveCap: d.MoveCap, StartTimeout: d.StartTimeout, Forbidden: d.Forbidden}
	if d.Moved != nil {
		g.Moved = func(p Progress) { d.Moved(f, p) }
	}
	var players [2]*Player
	for i, idx := range []int{f.Black, f.White} {
		e, err := d.take(f, idx, table)
		if err != nil {
			if i == 1 {
				d.give(f, f.Black, table, players[0].Engine, needs(f.Black))
			}
			winner := rules.White
			if i == 1 {
				winner = rules.Black
			}
			now := time.Now()
			return &record.Record{Event: d.Event, Round: f.Round, Game: f.Number, Rule: d.Rule.Name(), Size: d.Size,
				Black: d.Entrants[f.Black].Spec.Name, White: d.Entrants[f.White].Spec.Name,
				Winner: winner, End: record.Crash, Detail: err.Error(), Start: now, Finish: now}, nil
		}
		ent := d.Entrants[idx]
		players[i] = &Player{Engine: e, BoardMode: ent.BoardMode, Infos: ent.Infos, Clock: ent.Clock, Swap2Colors: ent.Swap2Colors}
	}
	rec, err := Play(abort, g, players[0], players[1])
	// Under LifetimePair an engine that crashed or never answered gets a
	// new process, as c-gomoku-cli's worker starts it again; otherwise the
	// engine restarts a dead process itself, in its folder (NewGame).
	pair := d.Lifetime == LifetimePair
	d.give(f, f.Black, table, players[0].Engine, needs(f.Black) && !(pair && lostByFault(rec, rules.Black)))
	d.give(f, f.White, table, players[1].Engine, needs(f.White) && !(pair && lostByFault(rec, rules.White)))
	return rec, err
}

// fresh lists the entrants of f (the lower first) whose processes the
// table starts for it: what take will do, decided by the same state, which
// only this table changes for its own seats and processes.
func (d *Director) fresh(f Fixture, table int) []int {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []int
	for _, i := range []int{min(f.Black, f.White), max(f.Black, f.White)} {
		switch d.Lifetime {
		case LifetimeGame:
			out = append(out, i)
		case LifetimePair:
			if s := d.seats[table][seatOf(f, i)]; s.e == nil || s.entrant != i {
				out = append(out, i)
			}
		default:
			if d.idleAt(i, table) < 0 {
				out = append(out, i)
			}
		}
	}
	return out
}

// idleAt is the index in d.idle[i] of the process take gives the table
// under LifetimeReuse, or -1 when it starts one. Called with d.mu held.
func (d *Director) idleAt(i, table int) int {
	k := -1
	for j, e := range d.idle[i] {
		if d.table[e] == table {
			k = j
		}
	}
	if n := len(d.idle[i]); k < 0 && n > 0 && !d.Instances {
		k = n - 1
	}
	return k
}

// take returns a process of entrant i for game f at the table: under
// LifetimeReuse an idle one, the one started there if it is idle; under
// LifetimePair the one in the entrant's seat at the table if it is still
// the entrant's (any other there is ended); or starts one. With Instances a
// table plays only with the processes it started, which run on its
// processor.
func (d *Director) take(f Fixture, i, table int) (*engine.Engine, error) {
	d.mu.Lock()
	switch d.Lifetime {
	case LifetimePair:
		s := &d.seats[table][seatOf(f, i)]
		if s.e != nil && s.entrant == i {
			e := s.e
			s.e = nil
			d.mu.Unlock()
			e.Thaw()
			return e, nil
		}
		d.retire(s.e)
		s.e, s.entrant = nil, i
		if !d.Instances { // an entrant plays at one table at a time: its process idle at another goes
			for t := range d.seats {
				for k := range d.seats[t] {
					if o := &d.seats[t][k]; o.e != nil && o.entrant == i {
						d.retire(o.e)
						o.e = nil
					}
				}
			}
		}
	case LifetimeReuse:
		if k := d.idleAt(i, table); k >= 0 {
			e := d.idle[i][k]
			d.idle[i] = append(d.idle[i][:k], d.idle[i][k+1:]...)
			d.mu.Unlock()
			e.Thaw()
			return e, nil
		}
	}
	spec := d.Entrants[i].Spec
	spec.CPUs, spec.CPUsOneThread = d.cpus[table], d.spare
	spec.StartEveryGame = d.Lifetime == LifetimePair
	var sub []string // a second process of an entrant gets a folder of its own
	switch {
	case d.Lifetime != LifetimeReuse: // one process of an entrant per table at a time: the table's folder
		if table > 0 {
			sub = append(sub, strconv.Itoa(table+1))
		}
	case d.started[i] > 0:
		sub = append(sub, strconv.Itoa(d.started[i]+1))
	}
	d.started[i]++
	d.mu.Unlock()
	if spec.Dir != "" {
		var err error
		if spec, err = engine.WorkDir(spec, sub...); err != nil {
			return nil, fmt.Errorf("starting engine %q: %w", spec.Name, err)
		}
	}
	e, err := engine.Start(spec)
	if err != nil {
		return nil, fmt.Errorf("starting engine %q: %w", spec.Name, err)
	}
	d.mu.Lock()
	d.all = append(d.all, e)
	d.table[e] = table
	d.mu.Unlock()
	return e, nil
}

// give returns a process after game f at the table: to entrant i's idle
// list (under LifetimeReuse) or to its seat at the table (LifetimePair),
// stopped there if its limits freeze it while idle (take resumes it); or
// ends it when the entrant has no game left to play or its process is to
// be started afresh (keep false), and always under LifetimeGame, in the
// background: an engine that ignores END takes its grace period, and the
// table goes on.
func (d *Director) give(f Fixture, i, table int, e *engine.Engine, keep bool) {
	if keep && d.Lifetime != LifetimeGame {
		e.Freeze() // no thinking between games either; outside d.mu, which the other tables' take waits on
		d.mu.Lock()
		if d.Lifetime == LifetimePair {
			d.seats[table][seatOf(f, i)] = seat{entrant: i, e: e}
		} else {
			d.idle[i] = append(d.idle[i], e)
		}
		d.mu.Unlock()
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.retire(e)
}

// retire ends a process in the background (nil: nothing). Called with
// d.mu held.
func (d *Director) retire(e *engine.Engine) {
	if e == nil {
		return
	}
	d.all = slices.DeleteFunc(d.all, func(x *engine.Engine) bool { return x == e })
	delete(d.table, e)
	d.retiring.Go(func() { e.Close() })
}

// Close ends every engine process the director started, all at once: an
// engine that ignores END takes its grace period, and eight of them one
// after another would take eight.
func (d *Director) Close() {
	d.mu.Lock()
	all := d.all
	d.all, d.idle, d.started, d.table, d.seats = nil, nil, nil, nil, nil
	d.mu.Unlock()
	var wg sync.WaitGroup
	for _, e := range all {
		wg.Go(func() { e.Close() }) // its exit status after END is not the event's concern
	}
	wg.Wait()
	d.retiring.Wait()
}

// CheckRecord refuses a record that is not the game f of this director's
// event: another round, another rule, board size or opening procedure, or other entrants
// or colours than the fixture's. An opening procedure (Swap2, RIF) settles
// the colours during the game, and its record does not say which side
// chose what, so with one the entrants are checked and not their colours.
func (d *Director) CheckRecord(rec *record.Record, f Fixture) error {
	if rec.Round != f.Round || rec.Game != f.Number {
		return fmt.Errorf("the schedule plays game %d in round %d", f.Number, f.Round)
	}
	if d.Rule != nil && rec.Rule != d.Rule.Name() {
		return fmt.Errorf("rule %q, but the event plays %s", rec.Rule, d.Rule.Name())
	}
	if d.Size != 0 && rec.Size != d.Size {
		return fmt.Errorf("board size %d, but the event plays on %d", rec.Size, d.Size)
	}
	proc := ""
	if d.Procedure != rules.NoProcedure {
		proc = d.Procedure.String()
	}
	if rec.Procedure != proc {
		return fmt.Errorf("opening procedure %q, but the event's is %q", rec.Procedure, d.Procedure)
	}
	a, b := d.Entrants[f.Black].Spec.Name, d.Entrants[f.White].Spec.Name
	if rec.Black == a && rec.White == b {
		return nil
	}
	if proc != "" && rec.Black == b && rec.White == a {
		return nil
	}
	return fmt.Errorf("the schedule has game %d as %s (black) vs %s (white)", f.Number, a, b)
}
