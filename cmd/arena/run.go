package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"gomoku-arena/arbiter"
	"gomoku-arena/clock"
	"gomoku-arena/engine"
	"gomoku-arena/internal/config"
	"gomoku-arena/pairing"
	"gomoku-arena/results"
	"gomoku-arena/rules"
)

func runEvent(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("run", "[flags] EVENT.toml",
		"Plays the event the TOML file describes and prints its standings. If its output folder\n"+
			"already holds a journal, the event continues: finished games are kept and unfinished ones\n"+
			"are replayed from the start. Ctrl-C stops starting games; a second Ctrl-C aborts the games\n"+
			"in progress. Every engine process is ended either way.", stdout)
	extend := fs.Bool("extend", false, "allow continuing an event whose config now asks for more rounds")
	quiet := fs.Bool("quiet", false, "print no line per game, only the standings")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%w: want one EVENT.toml, got %d arguments", errUsage, fs.NArg())
	}
	cfg, err := config.Load(fs.Arg(0))
	if err != nil {
		return err
	}
	ev, err := newEvent(cfg)
	if err != nil {
		return err
	}
	if err := ev.claimFolder(*extend); err != nil {
		return err
	}
	journal, done, err := results.OpenJournal(filepath.Join(ev.out, "journal.jsonl"))
	if err != nil {
		return err
	}
	defer journal.Close()

	drain, abort, stop := interrupts(stderr)
	defer stop()
	defer ev.t.Close()

	if n := played(done); n > 0 {
		fmt.Fprintf(stdout, "continuing %s: %d games already finished\n", cfg.Name, n)
	}
	p := newProgress(stdout, *quiet, ev.total(done))
	p.names = func(f arbiter.Fixture) string {
		return ev.cfg.Engines[f.Black].Name + " vs " + ev.cfg.Engines[f.White].Name
	}
	ev.t.Started = p.started
	ev.t.Moved = p.moved
	ev.t.Notice = func(s string) { fmt.Fprintln(stderr, "arena: "+s) }
	ev.t.RoundDone = ev.writeTRF
	runErr := ev.t.Run(drain, abort, done, func(rec *results.Record) error {
		if err := journal.Append(rec); err != nil {
			return err
		}
		done = append(done, rec)
		if rec.End == results.ByeEnd {
			return nil
		}
		p.finished(rec)
		return writeGame(ev.out, rec)
	})
	p.close()
	if runErr == nil && (drain.Err() != nil || abort.Err() != nil) {
		runErr = fmt.Errorf("stopped: %d finished games are in %s; run the same command to continue", played(done), ev.out)
	}
	if err := writeStandings(stdout, ev.out, ev.identity(), done); err != nil && runErr == nil {
		runErr = err
	}
	return runErr
}

// event is an event's config turned into arbiter terms.
type event struct {
	cfg *config.Event
	t   *arbiter.Tournament
	out string
}

func newEvent(cfg *config.Event) (*event, error) {
	rule, err := rules.ByName(cfg.Rule)
	if err != nil {
		return nil, err
	}
	format, err := pairing.ParseFormat(cfg.Format)
	if err != nil {
		return nil, err
	}
	out := cfg.OutputDir()
	d := &arbiter.Director{Event: cfg.Name, Rule: rule, Size: cfg.Size, MoveCap: cfg.MoveCap, Concurrency: cfg.Concurrency}
	if cfg.OpeningProcedure != arbiter.ProcedureNone {
		d.Procedure = cfg.OpeningProcedure
	}
	if cfg.StartTimeout != nil {
		d.StartTimeout = cfg.StartTimeout.Duration
	}
	for _, e := range cfg.Engines {
		ent, err := entrant(cfg, e, out)
		if err != nil {
			return nil, err
		}
		d.Entrants = append(d.Entrants, ent)
	}
	t := &arbiter.Tournament{Director: d, Format: pairing.Resolve(format, len(cfg.Engines)), Rounds: cfg.Rounds, ByePoints: cfg.ByePoints}
	if t.Rounds == 0 {
		t.Rounds = pairing.DefaultSwissRounds
	}
	t.Openings, err = openings(cfg, rule)
	if err != nil {
		return nil, err
	}
	return &event{cfg: cfg, t: t, out: out}, nil
}

func entrant(cfg *config.Event, e config.Engine, out string) (arbiter.Entrant, error) {
	dir := cfg.Resolve(e.Dir)
	if dir == "" {
		dir = filepath.Join(out, "engines", e.Name)
	}
	spec := engine.Spec{Name: e.Name, Command: cfg.Command(e), Args: e.Args, Dir: dir, Env: e.Env}
	if cfg.StartTimeout != nil {
		spec.StartTimeout = cfg.StartTimeout.Duration
	}
	spec.Limits = engine.Limits{Memory: engine.DefaultMaxMemory, FreezeIdle: cfg.FreezeIdle}
	// The event's limits, then the engine's own on top.
	for _, l := range []struct {
		memory, hard *config.Bytes
		processes    *int
	}{{cfg.MaxMemory, cfg.HardMemory, cfg.MaxProcesses}, {e.MaxMemory, e.HardMemory, e.MaxProcesses}} {
		if l.memory != nil {
			spec.Limits.Memory = l.memory.N
		}
		if l.hard != nil {
			spec.Limits.HardMemory = l.hard.N
		}
		if l.processes != nil {
			spec.Limits.Processes = *l.processes
		}
	}
	if cfg.Sandbox != config.SandboxNone {
		bw, err := engine.Bwrap()
		switch {
		case err != nil && cfg.Sandbox == config.SandboxBwrap:
			return arbiter.Entrant{}, fmt.Errorf("%s: %w", cfg.File, err)
		case err != nil:
			sandboxNotice.Do(func() { fmt.Fprintf(os.Stderr, "arena: %v; engines run unconfined\n", err) })
		default:
			spec.Sandbox = &engine.Sandbox{Bwrap: bw, Hide: hidden(cfg, e, out)}
		}
	}
	ent := arbiter.Entrant{Spec: spec, BoardMode: e.BoardMode, Clock: clockOf(cfg.Clock, e.Clock)}
	ent.Swap2Colors = e.Swap2Colors
	if _, set := e.Info["max_memory"]; !set {
		ent.Infos = append(ent.Infos, engine.Info{Key: "max_memory", Value: fmt.Sprint(spec.Limits.Memory)})
	}
	keys := make([]string, 0, len(e.Info))
	for k := range e.Info {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		ent.Infos = append(ent.Infos, engine.Info{Key: k, Value: e.Info[k]})
	}
	return ent, ent.Clock.Validate()
}

var sandboxNotice sync.Once

// hidden are the folders a sandboxed engine e must not see: the event's
// output folder (its own working directory is put back) and the other
// engines' working directories and program folders, unless a folder also
// holds e's own program or directory.
func hidden(cfg *config.Event, e config.Engine, out string) []string {
	dirOf := func(o config.Engine) string {
		if d := cfg.Resolve(o.Dir); d != "" {
			return d
		}
		return filepath.Join(out, "engines", o.Name)
	}
	abs := func(p string) string { a, _ := filepath.Abs(p); return a }
	ownDir, ownProg := abs(dirOf(e)), ""
	if c := cfg.Command(e); strings.ContainsRune(c, '/') {
		ownProg = abs(filepath.Dir(c))
	}
	within := func(p, folder string) bool {
		return p != "" && (p == folder || strings.HasPrefix(p, folder+string(filepath.Separator)))
	}
	hide := []string{abs(out)}
	for _, o := range cfg.Engines {
		if o.Name == e.Name {
			continue
		}
		cands := []string{abs(dirOf(o))}
		if c := cfg.Command(o); strings.ContainsRune(c, '/') {
			cands = append(cands, abs(filepath.Dir(c)))
		}
		for _, d := range cands {
			if !within(ownDir, d) && !within(ownProg, d) {
				hide = append(hide, d)
			}
		}
	}
	return hide
}

// clockOf is the event clock with an engine's own settings on top.
func clockOf(base config.Clock, own *config.Clock) clock.Control {
	c := clock.Control{Match: clock.DefaultMatch, Tolerance: clock.DefaultTolerance}
	for _, layer := range []*config.Clock{&base, own} {
		if layer == nil {
			continue
		}
		set(&c.Match, layer.Match)
		set(&c.Turn, layer.Turn)
		set(&c.Increment, layer.Increment)
		set(&c.Tolerance, layer.Tolerance)
		set(&c.Hang, layer.Hang)
	}
	return c
}

func set(dst *time.Duration, src *config.Duration) {
	if src != nil {
		*dst = src.Duration
	}
}

// openings are the stones each pairing starts from: the config's opening
// list, or under outer-open with the arbiter-opens policy, Black's first
// stone from the outer zone.
func openings(cfg *config.Event, rule rules.Rule) ([][]rules.Point, error) {
	if cfg.Openings != "" {
		path := cfg.Resolve(cfg.Openings)
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("%s: openings: %w", cfg.File, err)
		}
		defer f.Close()
		list, err := rules.ReadOpenings(f, path, "", cfg.Size)
		if err != nil {
			return nil, err
		}
		var out [][]rules.Point
		for _, o := range list {
			if err := o.Validate(rule, cfg.Size); err != nil {
				return nil, fmt.Errorf("%s:%d: opening %q: %w", path, o.Line, o.Text, err)
			}
			out = append(out, o.Stones)
		}
		return out, nil
	}
	if rule.Name() == "renju" {
		// Renju engine events play the 26 canonical openings, each twice with
		// colours reversed (one per pairing); the RIF procedure falls back to
		// them too.
		var out [][]rules.Point
		for _, o := range rules.RIFOpeningList(cfg.Size) {
			out = append(out, o.Stones)
		}
		return out, nil
	}
	if rule.Name() == "outer-open" && cfg.OpeningPolicy == config.PolicyArbiterOpens {
		var out [][]rules.Point
		for _, m := range rules.OuterOpenFirstMoves(cfg.Size) {
			out = append(out, []rules.Point{m})
		}
		return out, nil
	}
	return nil, nil
}

// identity is what must not change when an event is continued: anything
// that would make the finished games part of a different event.
type identity struct {
	Name, Rule, Format, OpeningPolicy, Openings string
	Size, MoveCap                               int
	Seed                                        int64
	ByePoints                                   *float64
	Clock                                       config.Clock
	Engines                                     []config.Engine
	Rounds                                      int
	Tiebreaks                                   []string
	// Procedure is the opening procedure, left out when there is none so
	// that events from before it existed still match.
	Procedure string `json:",omitempty"`
}

func (ev *event) identity() identity {
	c := ev.cfg
	id := identity{c.Name, c.Rule, string(ev.t.Format), c.OpeningPolicy, c.Openings, c.Size, c.MoveCap, c.Seed,
		c.ByePoints, c.Clock, c.Engines, ev.t.Rounds, c.Tiebreaks, ""}
	if c.OpeningProcedure != arbiter.ProcedureNone {
		id.Procedure = c.OpeningProcedure
	}
	return id
}

// claimFolder creates the output folder, or checks that the event in it is
// this one. Only the number of rounds may grow, and only when asked.
func (ev *event) claimFolder(extend bool) error {
	if err := os.MkdirAll(ev.out, 0o755); err != nil {
		return fmt.Errorf("output folder: %w", err)
	}
	c, id := ev.cfg, ev.identity()
	path := filepath.Join(ev.out, "event.json")
	if b, err := os.ReadFile(path); err == nil {
		var old identity
		if err := json.Unmarshal(b, &old); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		planned := old.Rounds
		grown := planned < id.Rounds
		old.Rounds = id.Rounds
		if !reflect.DeepEqual(normal(old), normal(id)) {
			return fmt.Errorf("%s holds a different event than %s (engines, rule, clock or format changed); use a new output folder", ev.out, c.File)
		}
		if grown && !extend {
			return fmt.Errorf("%s now asks for %d rounds, more than the event in %s; add -extend to play them", c.File, id.Rounds, ev.out)
		}
		if id.Rounds < planned {
			return fmt.Errorf("%s now asks for %d rounds, but the event in %s was planned for %d; an event cannot shrink", c.File, id.Rounds, ev.out, planned)
		}
		if !grown {
			return nil
		}
	} else if !os.IsNotExist(err) {
		return err
	}
	b, err := json.MarshalIndent(id, "", "  ")
	if err != nil {
		return err
	}
	return results.WriteFile(path, b)
}

// normal round-trips an identity through JSON so that nil and empty values
// compare equal.
func normal(id identity) identity {
	b, _ := json.Marshal(id)
	var out identity
	json.Unmarshal(b, &out)
	return out
}

// total is the number of games in the event, when it is known in advance.
func (ev *event) total(done []*results.Record) int {
	fs, err := ev.t.Fixtures()
	if err != nil {
		n := len(ev.cfg.Engines)
		return ev.t.Rounds * (n / 2)
	}
	return len(fs)
}

// interrupts turns the first Ctrl-C into drain (no new games) and the
// second, or SIGTERM, into abort (stop the games in progress).
func interrupts(stderr io.Writer) (drain, abort context.Context, stop func()) {
	drain, stopDrain := context.WithCancel(context.Background())
	abort, stopAbort := context.WithCancel(context.Background())
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	quit := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-sig:
				if s == os.Interrupt && drain.Err() == nil {
					fmt.Fprintln(stderr, "\narena: stopping: no new games start; the games in progress finish (Ctrl-C again to abort them)")
					stopDrain()
					continue
				}
				fmt.Fprintln(stderr, "\narena: aborting the games in progress")
				stopDrain()
				stopAbort()
			case <-quit:
				return
			}
		}
	}()
	return drain, abort, func() {
		signal.Stop(sig)
		close(quit)
		stopDrain()
		stopAbort()
	}
}

// played counts the games among records (byes are records too).
func played(recs []*results.Record) int {
	n := 0
	for _, r := range recs {
		if r.End != results.ByeEnd {
			n++
		}
	}
	return n
}

// writeTRF writes the Swiss event so far as a TRF-16 report (event.trf),
// which any pairing engine can check: arena pair event.trf pairs the next
// round. An event too big for TRF-16's starting ranks is written in the
// JSON event form instead (event-pairing.json, for arena pair).
func (ev *event) writeTRF(round int, all []*results.Record) error {
	trf := &pairing.TRF{Name: ev.cfg.Name, Rounds: ev.t.Rounds, ByePoints: ev.t.ByePoints, Games: ev.t.SwissHistory(all, round+1)}
	for _, e := range ev.cfg.Engines {
		trf.Players = append(trf.Players, pairing.TRFPlayer{Name: e.Name, Rating: e.Rating})
	}
	var b bytes.Buffer
	name, write := "event.trf", pairing.WriteTRF
	if len(trf.Players) > 9999 {
		name, write = "event-pairing.json", pairing.WriteEventJSON
	}
	if err := write(&b, trf); err != nil {
		return err
	}
	return results.WriteFile(filepath.Join(ev.out, name), b.Bytes())
}
