package event

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"gomoku-arena/arbiter"
	"gomoku-arena/clock"
	"gomoku-arena/engine"
	"gomoku-arena/internal/config"
	"gomoku-arena/internal/durable"
	"gomoku-arena/pairing"
	"gomoku-arena/results/record"
	"gomoku-arena/results/report"
	"gomoku-arena/rules"
)

// Event is a tournament read from a config, ready to run in its output
// folder.
type Event struct {
	// Extend allows continuing an event whose config now asks for more
	// rounds than the folder's event was planned for.
	Extend bool

	cfg     *config.Event
	t       *arbiter.Tournament
	out     string
	notices []string // for the person running it, sent when it runs
}

// Folder is the event's output folder.
func (ev *Event) Folder() string { return ev.out }

// Run plays the event, or continues it when its folder already holds it:
// the journal's games are kept and unfinished ones are replayed from the
// start. The folder is locked for the whole run. After every game the
// journal, the game's files, the standings and the crosstable are written
// before obs hears of it. Cancelling drain stops new games from starting;
// cancelling abort also stops the games in progress. Every engine process is
// ended before Run returns. The report is the standings of every finished
// game, nil when there are none to give (the folder could not be claimed).
func (ev *Event) Run(drain, abort context.Context, obs Observer) (*report.Report, error) {
	s := &stream{obs: obs}
	for _, n := range ev.notices {
		s.send(Notice{Text: n})
	}
	id := ev.identity()
	f, err := claim(ev.out, id, ev.check)
	if err != nil {
		return nil, err
	}
	defer f.close()
	defer ev.t.Close()
	done := f.done
	if err := writeMissingGames(ev.out, done); err != nil {
		return nil, err
	}
	s.send(Began{Name: ev.cfg.Name, Identity: id, Total: ev.total(), Finished: played(done)})
	s.watch(ev.t.Director)
	ev.t.Notice = func(text string) { s.send(Notice{Text: text}) }
	ev.t.RoundDone = ev.writeTRF
	runErr := ev.t.Run(drain, abort, done, func(rec *record.Record) error {
		if err := f.append(rec); err != nil {
			return err
		}
		done = append(done, rec)
		if rec.End != record.ByeEnd {
			if err := writeGame(ev.out, rec); err != nil {
				return err
			}
		}
		rep, err := writeStandings(ev.out, id, done)
		if err != nil {
			return err
		}
		if rec.End != record.ByeEnd {
			s.send(GameFinished{Record: rec})
		}
		s.send(StandingsUpdated{Report: rep})
		return nil
	})
	if runErr == nil && (drain.Err() != nil || abort.Err() != nil) {
		runErr = fmt.Errorf("stopped: %d finished games are in %s; run the same command to continue", played(done), ev.out)
	}
	rep, err := writeStandings(ev.out, id, done)
	if err != nil && runErr == nil {
		runErr = err
	}
	return rep, runErr
}

// New turns a checked config into an event ready to run in its output
// folder: entrants with their limits and clocks, the pairing format, the
// openings.
func New(cfg *config.Event) (*Event, error) {
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
	ev := &Event{cfg: cfg, out: out}
	for _, e := range cfg.Engines {
		ent, notice, err := entrant(cfg, e, out)
		if err != nil {
			return nil, err
		}
		if notice != "" && len(ev.notices) == 0 {
			ev.notices = append(ev.notices, notice)
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
	ev.t = t
	return ev, nil
}

// entrant is engine e of the event, and a notice when its sandbox could not
// be set up and it runs unconfined.
func entrant(cfg *config.Event, e config.Engine, out string) (ent arbiter.Entrant, notice string, err error) {
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
			return arbiter.Entrant{}, "", fmt.Errorf("%s: %w", cfg.File, err)
		case err != nil:
			notice = fmt.Sprintf("%v; engines run unconfined", err)
		default:
			spec.Sandbox = &engine.Sandbox{Bwrap: bw, Hide: hidden(cfg, e, out)}
		}
	}
	ent = arbiter.Entrant{Spec: spec, BoardMode: e.BoardMode, Clock: clockOf(cfg.Clock, e.Clock)}
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
	return ent, notice, ent.Clock.Validate()
}

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

// identity is what event.json keeps of the event.
func (ev *Event) identity() *Identity {
	c := ev.cfg
	id := &Identity{Kind: KindEvent, Name: c.Name, Rule: c.Rule, Size: c.Size, MoveCap: c.MoveCap,
		OpeningProcedure: c.OpeningProcedure, OpeningPolicy: c.OpeningPolicy, Openings: c.Openings,
		Pairing: string(ev.t.Format), Rounds: ev.t.Rounds, Seed: c.Seed, ByePoints: c.ByePoints, Tiebreaks: c.Tiebreaks}
	for i, a := range ev.t.Entrants {
		e := entrantOf(a)
		// As the config wrote them: the event stays the same event when
		// it is continued from another working directory.
		e.Command, e.Dir, e.Rating = c.Engines[i].Command, c.Engines[i].Dir, c.Engines[i].Rating
		id.Engines = append(id.Engines, e)
	}
	return id
}

// check accepts a folder that holds this event. Only the number of rounds
// may grow, and only when asked (Extend).
func (ev *Event) check(old, now *Identity) (rewrite bool, err error) {
	planned := old.Rounds
	grown := planned < now.Rounds
	same := *old
	same.Rounds = now.Rounds
	if d := Difference(&same, now); d != "" {
		return false, fmt.Errorf("%s holds a different event than %s (%s); use a new output folder", ev.out, ev.cfg.File, d)
	}
	if grown && !ev.Extend {
		return false, fmt.Errorf("%s now asks for %d rounds, more than the event in %s; add -extend to play them", ev.cfg.File, now.Rounds, ev.out)
	}
	if now.Rounds < planned {
		return false, fmt.Errorf("%s now asks for %d rounds, but the event in %s was planned for %d; an event cannot shrink", ev.cfg.File, now.Rounds, ev.out, planned)
	}
	return grown, nil
}

// total is the number of games in the event, when it is known in advance,
// else an estimate.
func (ev *Event) total() int {
	fs, err := ev.t.Fixtures()
	if err != nil {
		n := len(ev.cfg.Engines)
		return ev.t.Rounds * (n / 2)
	}
	return len(fs)
}

// writeTRF writes the Swiss event so far as a TRF-16 report (event.trf),
// which any pairing engine can check: arena pair event.trf pairs the next
// round.
func (ev *Event) writeTRF(round int, all []*record.Record) error {
	trf := &pairing.TRF{Name: ev.cfg.Name, Rounds: ev.t.Rounds, ByePoints: ev.t.ByePoints, Games: ev.t.SwissHistory(all, round+1)}
	for _, e := range ev.cfg.Engines {
		trf.Players = append(trf.Players, pairing.TRFPlayer{Name: e.Name, Rating: e.Rating})
	}
	var b bytes.Buffer
	if err := pairing.WriteTRF(&b, trf); err != nil {
		return err
	}
	return durable.WriteFile(filepath.Join(ev.out, "event.trf"), b.Bytes())
}
