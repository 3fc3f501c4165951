package event

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gomoku-arena/arbiter"
	"gomoku-arena/engine"
	"gomoku-arena/event/identity"
	"gomoku-arena/event/outfolder"
	"gomoku-arena/event/outputs"
	"gomoku-arena/event/rulings"
	"gomoku-arena/event/tables"
	"gomoku-arena/event/verify"
	"gomoku-arena/internal/config"
	"gomoku-arena/internal/durable"
	"gomoku-arena/internal/transcript"
	"gomoku-arena/pairing"
	"gomoku-arena/remote"
	"gomoku-arena/results/record"
	"gomoku-arena/results/report"
	"gomoku-arena/schedule"
)

// Event is a tournament read from a config, ready to run in its output
// folder.
type Event struct {
	// Extend allows continuing an event whose config now asks for more
	// rounds than the folder's event was planned for.
	Extend bool

	s       *EventSettings
	t       *schedule.Tournament
	out     string
	shard   schedule.Shard // a task of a spread event (NewTask), or the whole event
	notices []string       // for the person running it, sent when it runs
	// transcripts are the engines' protocol transcripts (the transcript
	// key); a file is made at its first line, after the folder is claimed.
	transcripts []*transcript.Log
}

// Folder is the event's output folder.
func (ev *Event) Folder() string { return ev.out }

// Run plays the event, or continues it when its folder already holds it:
// the journal's games are kept and unfinished ones are replayed from the
// start. The folder is locked for the whole run. After every game the
// journal and the game's files are written before obs hears of it
// (GameFinished); the standings, crosstable and page follow, after every
// game in all but events of thousands (see publisher), each rewrite
// announced by StandingsUpdated. Cancelling drain stops new games from starting;
// cancelling abort also stops the games in progress. Every engine process is
// ended before Run returns. The report is the standings of every finished
// game, nil when there are none to give (the folder could not be claimed).
func (ev *Event) Run(drain, abort context.Context, obs Observer) (*report.Report, error) {
	s := &stream{obs: obs}
	for _, n := range ev.notices {
		s.send(Notice{Text: n})
	}
	id := ev.identity()
	// The same check as verify.Journal's, on the tournament that plays on: Run
	// continues from the rounds it paired.
	f, err := outfolder.Claim(ev.out, id, ev.check, ev.t.Resume)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if len(ev.transcripts) > 0 { // a transcripts folder planted as a link is refused before any game, not noted at the end
		if err := durable.MkdirIn(ev.out, "transcripts"); err != nil {
			return nil, err
		}
	}
	gw, err := ev.startGateway(s)
	if err != nil {
		return nil, err
	}
	if gw != nil {
		defer gw.Close()                                             // after the engines, whose relays it serves
		if tables.Played(f.Done) < verify.PlannedGames(id, f.Done) { // a finished event has nothing to wait for
			s.send(Notice{Text: "remote: waiting for the remote entrants to connect (at most the grace period)"})
			if missing := gw.WaitEntrants(drain); len(missing) > 0 {
				s.send(Notice{Text: fmt.Sprintf("remote: starting without %s; their games wait for them as for a disconnection", strings.Join(missing, ", "))})
			}
		}
	}
	defer ev.closeTranscripts(s) // after the engines, whose END they record
	defer ev.t.Director.Close()
	done := f.Done
	if err := outputs.RestoreGames(ev.out, id.Heading(), done); err != nil {
		return nil, err
	}
	if len(done) > 0 { // derived from the journal, and maybe left stale (see durable)
		if _, err := tables.Write(ev.out, id, done); err != nil {
			return nil, err
		}
	}
	for _, rec := range done { // what the entrants refused in the games so far
		ev.learnRefusals(rec, nil)
	}
	total := verify.PlannedGames(id, done)
	s.send(Began{Name: ev.s.Name, Identity: id, Total: total, Finished: tables.Played(done), Done: slices.Clip(done)})
	s.watch(ev.t.Director)
	ev.t.Notice = func(text string) { s.send(Notice{Text: text}) }
	if !ev.shard.Whole() {
		sp := &taskFolders{dir: filepath.Dir(ev.out), shard: ev.shard, id: id, n: len(ev.s.Engines), notice: ev.t.Notice}
		ev.t.Task = sp.task()
	}
	ev.t.RoundDone = ev.writeTRF
	// One look per run at the arbiter's decisions: it follows the run's records.
	ev.t.Decisions = rulings.Due(ev.out)
	ev.t.Requested = func() ([]*record.Record, error) {
		return rulings.ReadDecisions(filepath.Join(ev.out, rulings.DecisionFile))
	}
	pub := &publisher{out: ev.out, id: id, done: slices.Clip(done), // appends go to an array of its own
		updated: func(rep *report.Report) { s.send(StandingsUpdated{Report: rep}) }}
	runErr := ev.t.Run(drain, abort, func(rec *record.Record) error {
		if err := f.Append(rec); err != nil {
			return err
		}
		if rec.End == record.Withdrawn {
			if now := verify.PlannedGames(id, append(pub.records(), rec)); now != total {
				total = now
				s.send(Replanned{Total: total})
			}
		}
		if rec.IsGame() {
			if err := outputs.WriteGame(ev.out, id.Heading(), rec); err != nil {
				return err
			}
			s.send(GameFinished{Record: rec})
			ev.learnRefusals(rec, func(text string) { s.send(Notice{Text: text}) })
		}
		if rec.End == record.Decided {
			// The game ruled on, as the decision leaves it.
			d := DecisionJournaled{Line: rec}
			for _, r := range record.Ruled(append(pub.records(), rec)) {
				if r.IsGame() && r.Game == rec.Game {
					if err := outputs.WriteGame(ev.out, id.Heading(), r); err != nil {
						return err
					}
					d.Game = r
				}
			}
			s.send(d)
		}
		return pub.add(rec)
	})
	if runErr == nil && (drain.Err() != nil || abort.Err() != nil) {
		runErr = fmt.Errorf("stopped: %d finished games are in %s; run the same command to continue", pub.played(), ev.out)
	}
	if gw != nil && runErr == nil {
		gw.Over() // the clients stop rather than wait for a continuation
	}
	rep, err := pub.close()
	if err != nil && runErr == nil {
		runErr = err
	}
	return rep, runErr
}

// startGateway opens the server of the remote entrants, if the event has
// any, and points their relays at it.
func (ev *Event) startGateway(s *stream) (*remote.Gateway, error) {
	names := ev.s.RemoteNames()
	if len(names) == 0 {
		return nil, nil
	}
	r := ev.s.Remote
	gw, err := remote.Start(remote.Settings{Folder: ev.out, Listen: r.Listen, CertFile: r.CertFile, KeyFile: r.KeyFile,
		Grace: r.Grace, MaxDisconnects: r.MaxDisconnects, Entrants: names,
		Notice: func(text string) { s.send(Notice{Text: text}) }})
	if err != nil {
		return nil, fmt.Errorf("%s: remote: %w", ev.s.File, err)
	}
	for i, e := range ev.s.Engines {
		if e.Remote {
			ev.t.Director.Entrants[i].Spec.Inherit = func() (*os.File, error) { return gw.RelayFile(e.Name) }
		}
	}
	return gw, nil
}

// closeTranscripts closes the transcripts; one that could not be written
// is a notice, not a failure of the event.
func (ev *Event) closeTranscripts(s *stream) {
	for _, l := range ev.transcripts {
		if err := l.Close(); err != nil {
			s.send(Notice{Text: err.Error()})
		}
	}
}

// New turns a checked config into an event ready to run in its output
// folder: its settings (SettingsOf), entrants with their limits and
// clocks, the pairing format, the openings.
func New(cfg *config.Event) (*Event, error) {
	s, err := SettingsOf(cfg)
	if err != nil {
		return nil, err
	}
	return newEvent(s, schedule.Shard{})
}

// newEvent is the event of s, whole or one task of a spread event.
func newEvent(s *EventSettings, shard schedule.Shard) (*Event, error) {
	out := s.Out
	if !shard.Whole() {
		out = filepath.Join(out, shard.Folder())
	}
	d := &arbiter.Director{Event: s.Name, Rule: s.Rule, Size: s.Size}
	s.direct(d)
	ev := &Event{s: s, out: out, shard: shard}
	ents, notices, err := entrants(s, out)
	if err != nil {
		return nil, err
	}
	ev.notices = notices
	for i, e := range s.Engines {
		ent := ents[i]
		ent.Spec.Refused = &engine.Extensions{} // learnt from its games (learnRefusals)
		if s.Transcript > 0 {
			file := engine.FolderName(e.Name) + ".log" // one name, one file: SettingsOf refuses two names of one file
			l := transcript.New(out, filepath.Join("transcripts", file), e.Name, s.Transcript)
			ent.Spec.Transcript = l.Line
			ev.transcripts = append(ev.transcripts, l)
		}
		d.Entrants = append(d.Entrants, ent)
	}
	t := &schedule.Tournament{Director: d, Format: pairing.Resolve(s.Format, len(s.Engines)), Rounds: s.Rounds, ByePoints: s.ByePoints,
		Seed: s.Seed, WithdrawAfter: s.WithdrawAfter,
		Requests: func() ([]schedule.WithdrawalRequest, error) {
			return rulings.ReadWithdrawalRequests(filepath.Join(out, rulings.WithdrawalFile))
		}}
	t.Openings, err = openings(s)
	if err != nil {
		return nil, err
	}
	if n := s.OpeningsPerPairing; n > 0 {
		if len(t.Openings) < n {
			list := "the default openings of " + s.Rule.Name()
			if s.Openings != "" {
				list = s.Openings
			}
			return nil, fmt.Errorf("%s: openings_per_pairing = %d, but %s holds %d openings", s.File, n, list, len(t.Openings))
		}
		t.OpeningsPerPairing = n
	}
	ev.t = t
	return ev, nil
}

// identity is what event.json keeps of the event.
func (ev *Event) identity() *identity.Identity {
	c := ev.s
	id := &identity.Identity{Kind: identity.KindEvent, Name: c.Name, Rule: c.Rule.Name(), Size: c.Size, MoveCap: c.MoveCap,
		OpeningProcedure: c.Procedure.String(), OpeningPolicy: c.Policy.String(), Openings: c.written.openings,
		Pairing: string(ev.t.Format), OpeningsPerPairing: c.OpeningsPerPairing, Rounds: ev.t.Rounds, Seed: int64(c.Seed), ByePoints: c.ByePoints, Tiebreaks: c.Tiebreaks,
		WithdrawAfter: ev.t.WithdrawAfter, Shard: ev.shard.String(), OpeningSuite: identity.SuiteOf(ev.t.Openings)}
	if !c.Details.Empty() {
		d := c.Details
		id.Details = &d
	}

	for i, a := range ev.t.Director.Entrants {
		e := entrantOf(a)
		// As the config wrote them: the event stays the same event when
		// it is continued from another working directory.
		e.Command, e.Dir, e.Rating = c.written.command[i], c.written.dir[i], c.Ratings[i]
		if c.Engines[i].Remote {
			e.Args, e.Env, e.Remote = nil, nil, true
		}
		id.Engines = append(id.Engines, e)
	}
	return id
}

// check accepts a folder that holds this event. Only the number of rounds
// may grow, and only when asked (Extend).
func (ev *Event) check(old, now *identity.Identity) (rewrite bool, err error) {
	planned := old.Rounds
	grown := planned < now.Rounds
	same := *old
	same.Rounds = now.Rounds
	same.Details = now.Details // the signed record's names, editable
	if d := identity.Difference(&same, now); d != "" {
		return false, fmt.Errorf("%s holds a different event than %s (%s); use a new output folder", ev.out, ev.s.File, d)
	}
	if grown && !ev.Extend {
		return false, fmt.Errorf("%s now asks for %d rounds, more than the event in %s; add -extend to play them", ev.s.File, now.Rounds, ev.out)
	}
	if now.Rounds < planned {
		return false, fmt.Errorf("%s now asks for %d rounds, but the event in %s was planned for %d; an event cannot shrink", ev.s.File, now.Rounds, ev.out, planned)
	}
	return grown || identity.Difference(&identity.Identity{Details: old.Details}, &identity.Identity{Details: now.Details}) != "", nil
}

// maxTRFPlayers is where writeTRF turns to the JSON event form; a variable
// so that tests need not run events of 10,000.
var maxTRFPlayers = pairing.MaxTRFPlayers

// writeTRF writes the Swiss event so far as a TRF-16 report (event.trf),
// which any pairing engine can check: arena pair event.trf pairs the next
// round. An event too big for TRF-16's starting ranks is written in the
// JSON event form instead (event-pairing.json, for arena pair).
func (ev *Event) writeTRF(round int, all []*record.Record) error {
	return writeTRFOf(ev.out, ev.s.Name, &ev.s.Details, ev.s.Ratings, ev.t, round, all)
}

// writeTRFOf writes the report of a Swiss event's rounds up to round (the
// tournament t, its entrants rated as given) with the organizer's header
// lines: the one writer of event.trf, for a run and for a decision
// journaled between runs.
func writeTRFOf(out, name string, d *config.Details, ratings []int, t *schedule.Tournament, round int, all []*record.Record) error {
	trf, err := t.TRF(name, ratings, all, round+1)
	if err != nil {
		return err
	}
	if !d.Empty() { // the organizer's header lines
		trf.Name = cmp.Or(d.Title, trf.Name)
		trf.City, trf.Federation, trf.StartDate, trf.EndDate, trf.ChiefArbiter = d.Venue, d.Federation, d.StartDate, d.EndDate, d.ChiefArbiter
	}
	var b bytes.Buffer
	file, write := "event.trf", pairing.WriteTRF
	if len(trf.Players) > maxTRFPlayers {
		file, write = "event-pairing.json", pairing.WriteEventJSON
	}
	if err := write(&b, trf); err != nil {
		return err
	}
	return durable.WriteFile(filepath.Join(out, file), b.Bytes())
}

// learnRefusals notes, from a game's record, the extension INFO keys an
// entrant refused (engine.RefusedExtension: Rapfi's "ERROR Unknown command:
// OUTER-OPEN" for INFO rule_name outer-open): the key is not sent to it
// again, in this run or, read back from the journal, in a continued one.
// notice, when set, hears of a refusal seen for the first time.
func (ev *Event) learnRefusals(rec *record.Record, notice func(string)) {
	if !rec.IsGame() {
		return
	}
	for _, m := range rec.Messages {
		name, note, ok := strings.Cut(m, ": ")
		if !ok {
			continue
		}
		key, refused := engine.RefusedExtension(note, ev.t.Director.Rule)
		if !refused {
			continue
		}
		for _, e := range ev.t.Director.Entrants {
			if e.Spec.Name == name && e.Spec.Refused != nil && e.Spec.Refused.Refuse(key) && notice != nil {
				notice(fmt.Sprintf("%s does not take the extension INFO %s: it is no longer sent to it", name, key))
			}
		}
	}
}
