package arbiter

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"gomoku-arena/clock"
	"gomoku-arena/engine"
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
}

// Play plays the fixtures. Cancelling drain stops new games from starting;
// cancelling abort also stops the games in progress (their engines are
// killed and they are not reported). It returns when no game is running.
func (d *Director) Play(drain, abort context.Context, fixtures []Fixture) error {
	if d.idle == nil {
		d.idle = make([][]*engine.Engine, len(d.Entrants))
		d.started = make([]int, len(d.Entrants))
	}
	conc := max(d.Concurrency, 1)
	busy := make([]bool, len(d.Entrants))
	type outcome struct {
		f   Fixture
		rec *record.Record
		err error // the game could not be played (Play)
	}
	done := make(chan outcome)
	pending := append([]Fixture(nil), fixtures...)
	running := 0
	var firstErr error
	for {
		if drain.Err() == nil && abort.Err() == nil && firstErr == nil {
			for i := 0; i < len(pending) && running < conc; {
				f := pending[i]
				if !d.Instances && (busy[f.Black] || busy[f.White]) {
					i++
					continue
				}
				pending = append(pending[:i], pending[i+1:]...)
				busy[f.Black], busy[f.White] = true, true
				running++
				if d.Started != nil {
					d.Started(f)
				}
				go func() {
					rec, err := d.play(abort, f)
					done <- outcome{f, rec, err}
				}()
			}
		}
		if running == 0 {
			return firstErr
		}
		o := <-done
		rec := o.rec
		running--
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

// play plays one fixture, taking an engine process for each side. An
// engine that cannot be started loses the game as a crash; the error is for
// a game that cannot be played at all (Play).
func (d *Director) play(abort context.Context, f Fixture) (*record.Record, error) {
	g := Game{Event: d.Event, Round: f.Round, Number: f.Number, Rule: d.Rule, Size: d.Size,
		Opening: f.Opening, Procedure: d.Procedure, MoveCap: d.MoveCap, StartTimeout: d.StartTimeout}
	if d.Moved != nil {
		g.Moved = func(p Progress) { d.Moved(f, p) }
	}
	var players [2]*Player
	for i, idx := range []int{f.Black, f.White} {
		e, err := d.take(idx)
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

// take returns an idle process of entrant i, or starts one.
func (d *Director) take(i int) (*engine.Engine, error) {
	d.mu.Lock()
	if n := len(d.idle[i]); n > 0 {
		e := d.idle[i][n-1]
		d.idle[i] = d.idle[i][:n-1]
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
	d.all, d.idle, d.started = nil, nil, nil
	d.mu.Unlock()
	var wg sync.WaitGroup
	for _, e := range all {
		wg.Go(func() { e.Close() }) // its exit status after END is not the event's concern
	}
	wg.Wait()
}
