package arbiter

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"sync"
	"time"

	"gomoku-arena/clock"
	"gomoku-arena/engine"
	"gomoku-arena/internal/affinity"
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
}

// Key identifies a fixture within an event, and so a journaled record.
type Key struct{ Round, Number int }

// KeyOf is the key of a finished game's record.
func KeyOf(rec *record.Record) Key { return Key{rec.Round, rec.Game} }

// Director plays fixtures between entrants: up to Concurrency games at once,
// and unless Instances is set never one entrant in two games at the same
// time. It owns the engine processes, reused from game to game.
//
// Games are played at tables, Concurrency of them, each a goroutine locked
// to its own thread, and an entrant's process goes back to the table that
// started it whenever it is free there. So a table's thread and its engines
// keep meeting on the same processors: the kernel wakes an engine where the
// request was written and the arbiter where the answer was, and a move's
// round trip stays on one core. Games handed to whichever thread is free,
// with whichever idle processes, sent every wake-up across cores: with two
// games on two cores that doubled the time per move, more than the second
// game brought. With at least as many tables as processors, each table's
// thread is also pinned to one of them, in turn, so that no two tables
// meet on one processor while another has none; the engines are not
// pinned (package affinity), and go where the kernel puts them.
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
	// Finished is called for every finished game, in the director's own
	// goroutine, before either entrant starts another game. Its error (a
	// journal that cannot be written) stops the event.
	Finished func(*record.Record) error
	// Started, if set, is told when a game begins (from the director's
	// goroutine), and Moved after each of its stones (from the game's): for
	// progress displays.
	Started func(Fixture)
	Moved   func(Fixture, Progress)
	// Instances lets an entrant play several games at once, each with its
	// own process (and working directory Dir/N for the Nth): for engine
	// authors' matches, not for events, where an engine gets the machine
	// to itself.
	Instances bool

	mu      sync.Mutex
	idle    [][]*engine.Engine // per entrant, processes between games
	started []int              // per entrant, processes started
	all     []*engine.Engine
	table   map[*engine.Engine]int // where each process was started
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
	type outcome struct {
		f     Fixture
		table int
		rec   *record.Record
		err   error // the game could not be played (Play)
	}
	done := make(chan outcome)
	tables := make([]chan Fixture, max(d.Concurrency, 1))
	cpus := affinity.CPUs()
	pin := len(cpus) > 1 && len(tables) >= len(cpus) // a game per processor, or more
	for t := range tables {
		tables[t] = make(chan Fixture)
		go func() {
			// A table's games are played on one thread (see Director).
			runtime.LockOSThread()
			defer runtime.UnlockOSThread() // an exiting locked thread would take Pdeathsig engines with it
			if pin {
				defer affinity.Pin(cpus[t%len(cpus)])()
			}
			for f := range tables[t] {
				rec, err := d.play(abort, f, t)
				done <- outcome{f, t, rec, err}
			}
		}()
	}
	defer func() {
		for _, c := range tables {
			close(c)
		}
	}()
	free := make([]int, 0, len(tables)) // tables without a game, the first last
	for t := len(tables) - 1; t >= 0; t-- {
		free = append(free, t)
	}
	busy := make([]bool, len(d.Entrants))
	pending := append([]Fixture(nil), fixtures...)
	var firstErr error
	for {
		if drain.Err() == nil && abort.Err() == nil && firstErr == nil {
			for i := 0; i < len(pending) && len(free) > 0; {
				f := pending[i]
				if !d.Instances && (busy[f.Black] || busy[f.White]) {
					i++
					continue
				}
				pending = append(pending[:i], pending[i+1:]...)
				busy[f.Black], busy[f.White] = true, true
				if d.Started != nil {
					d.Started(f)
				}
				t := free[len(free)-1]
				free = free[:len(free)-1]
				tables[t] <- f
			}
		}
		if len(free) == len(tables) {
			return firstErr
		}
		o := <-done
		rec := o.rec
		free = append(free, o.table)
		busy[o.f.Black], busy[o.f.White] = false, false
		if o.err != nil && firstErr == nil {
			firstErr = o.err
		}
		if firstErr != nil || rec.End == record.Aborted {
			continue
		}
		if err := d.Finished(rec); err != nil {
			firstErr = err
		}
	}
}

// play plays one fixture at a table, taking an engine process for each side. An
// engine that cannot be started loses the game as a crash; the error is for
// a game that cannot be played at all (Play).
func (d *Director) play(abort context.Context, f Fixture, table int) (*record.Record, error) {
	g := Game{Event: d.Event, Round: f.Round, Number: f.Number, Rule: d.Rule, Size: d.Size,
		Opening: f.Opening, Procedure: d.Procedure, MoveCap: d.MoveCap, StartTimeout: d.StartTimeout}
	if d.Moved != nil {
		g.Moved = func(p Progress) { d.Moved(f, p) }
	}
	var players [2]*Player
	for i, idx := range []int{f.Black, f.White} {
		e, err := d.take(idx, table)
		if err != nil {
			if i == 1 {
				d.give(f.Black, players[0].Engine)
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
	d.give(f.Black, players[0].Engine)
	d.give(f.White, players[1].Engine)
	return rec, err
}

// take returns an idle process of entrant i for a game at the table, the
// one started there if it is idle, or starts one.
func (d *Director) take(i, table int) (*engine.Engine, error) {
	d.mu.Lock()
	if n := len(d.idle[i]); n > 0 {
		k := n - 1
		for j, e := range d.idle[i] {
			if d.table[e] == table {
				k = j
			}
		}
		e := d.idle[i][k]
		d.idle[i] = append(d.idle[i][:k], d.idle[i][k+1:]...)
		d.mu.Unlock()
		return e, nil
	}
	spec := d.Entrants[i].Spec
	var sub []string // a second process of an entrant gets a folder of its own
	if d.started[i] > 0 {
		sub = append(sub, strconv.Itoa(d.started[i]+1))
	}
	d.started[i]++
	d.mu.Unlock()
	if spec.Dir != "" {
		dir, err := engine.WorkDir(spec.Dir, sub...)
		if err != nil {
			return nil, fmt.Errorf("starting engine %q: %w", spec.Name, err)
		}
		spec.Dir = dir
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

// give returns a process to entrant i's idle list.
func (d *Director) give(i int, e *engine.Engine) {
	d.mu.Lock()
	d.idle[i] = append(d.idle[i], e)
	d.mu.Unlock()
}

// Close ends every engine process the director started, all at once: an
// engine that ignores END takes its grace period, and eight of them one
// after another would take eight.
func (d *Director) Close() {
	d.mu.Lock()
	all := d.all
	d.all, d.idle, d.started, d.table = nil, nil, nil, nil
	d.mu.Unlock()
	var wg sync.WaitGroup
	for _, e := range all {
		wg.Go(func() { e.Close() }) // its exit status after END is not the event's concern
	}
	wg.Wait()
}
