package event

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"gomoku-arena/arbiter"
	"gomoku-arena/engine"
	"gomoku-arena/internal/bundled"
	"gomoku-arena/internal/config"
	"gomoku-arena/internal/transcript"
	"gomoku-arena/results/rating"
	"gomoku-arena/results/record"
	"gomoku-arena/results/sample"
	"gomoku-arena/rules"
	"gomoku-arena/schedule"
)

// Match is an authors' match, from `arena match` flags or a c-gomoku-cli
// command line. With an output folder it is an event like any other: it
// owns the folder, journals every game, and the same match run again
// continues from its journal; a changed match is refused.
type Match struct {
	*schedule.Match        // what is played: engines, rule, schedule, SPRT
	Out             string // folder for event.json, the journal and the game files; "" = none
	PGN             string // results appended in the rating tools' PGN form
	SGF             string // games appended to one SGF collection
	Msg             string // engine messages appended, grouped by game
	Log             string // every line to and from the engines, appended with times
	// FileStyle is whose forms PGN, SGF and Msg take: the arena's, or under
	// schedule.StyleCGomokuCli c-gomoku-cli's (record.WriteCGomokuCliSGF and
	// WriteCGomokuCliPGN), whose SGF carries RuleCode as RU.
	FileStyle schedule.Style
	RuleCode  string
	// Records is how the folder keeps the games beyond the journal.
	Records Records
	// Sample, if set, writes training positions from every game.
	Sample *Sampling
	// SyncEvery is how often a shard under an SPRT reads the batch folder
	// (DefaultSyncEvery when 0).
	SyncEvery time.Duration

	openings   string        // where Suite.Openings came from, for event.json
	policy     config.Policy // outer-open's opening policy, for event.json
	seedChosen bool          // Suite.Seed was chosen by this run
	encounters []*schedule.Encounter
}

// NewMatch is a match between entrants added later: several instances of
// an engine may play at once, as authors' matches want.
func NewMatch(name string, rule rules.Rule, size int) *Match {
	return &Match{Match: &schedule.Match{Director: &arbiter.Director{Event: name, Rule: rule, Size: size, Concurrency: 1, Instances: true}, Games: 1, Rounds: 1}}
}

// NewMatchFolder is the output folder of a match that names none: a new
// one under out/, named after the time.
func NewMatchFolder() string {
	return filepath.Join("out", "match-"+time.Now().Format("20060102-150405"))
}

// LoadOpenings sets the match's openings: the list in file (in format
// "offset", "pos" or "" for detected per line), checked for the rule and
// board, or with no file under outer-open's arbiter-opens policy a first
// stone from the outer zone.
func (m *Match) LoadOpenings(file, format string, policy config.Policy) error {
	m.openings, m.policy = file, policy
	if file != "" {
		f, err := os.Open(file)
		if err != nil {
			return fmt.Errorf("openings: %w", err)
		}
		defer f.Close()
		list, err := rules.ReadOpenings(f, file, format, m.Size)
		if err != nil {
			return err
		}
		if err := schedule.CheckOpenings(list, file, m.Rule, m.Size); err != nil {
			return err
		}
		m.Suite.Openings = list
		return nil
	}
	// Without a list, the rule's own: renju's 26 canonical openings, or
	// outer-open's zone when the arbiter opens.
	m.Suite.Openings = schedule.DefaultOpenings(m.Rule, m.Size, policy == config.PolicyArbiterOpens)
	if len(m.Suite.Openings) > 0 {
		return schedule.CheckOpenings(m.Suite.Openings, "the default openings", m.Rule, m.Size)
	}
	return nil
}

// UniqueNames suffixes engines that share a name with #1, #2, ... so
// records and statistics can tell them apart (self-play).
func UniqueNames(ents []arbiter.Entrant) {
	count := map[string]int{}
	for _, e := range ents {
		count[e.Spec.Name]++
	}
	seen := map[string]int{}
	for i := range ents {
		n := ents[i].Spec.Name
		if count[n] > 1 {
			seen[n]++
			ents[i].Spec.Name = fmt.Sprintf("%s#%d", n, seen[n])
		}
	}
}

// CheckEngines checks that every engine's program exists, and that no two
// names share a working folder (engine.FolderName: one name, one file),
// before anything is played; a command that names a folder of Gomocup
// builds is replaced by the build for the match's rule and size
// (engine.GomocupBuild).
func (m *Match) CheckEngines() error {
	folders := map[string]string{}
	for _, e := range m.Entrants {
		f := engine.FolderName(e.Spec.Name)
		if other, dup := folders[f]; dup {
			return fmt.Errorf("engines %q and %q would share the working folder engines/%s: name them apart (NAME=COMMAND)", other, e.Spec.Name, f)
		}
		folders[f] = e.Spec.Name
	}
	for i := range m.Entrants {
		e := &m.Entrants[i]
		c, err := engine.GomocupBuild(e.Spec.Command, m.Rule.Code(), m.Size)
		if err != nil {
			return fmt.Errorf("engine %q: %w", e.Spec.Name, err)
		}
		e.Spec.Command = c
		if err := bundled.Check(e.Spec); err != nil {
			return err
		}
	}
	return nil
}

// Encounters are the match's pairs of engines with their tallies (after
// Run has begun).
func (m *Match) Encounters() []*schedule.Encounter { return m.encounters }

// Run plays the match, or with an output folder that holds it already,
// continues it: the journaled games are counted as they were and only the
// others are played. Cancelling drain stops new games from starting;
// cancelling abort also stops the games in progress. Every engine process is
// ended before Run returns.
func (m *Match) Run(drain, abort context.Context, obs Observer) error {
	if err := m.Validate(); err != nil {
		return err
	}
	if err := m.CheckEngines(); err != nil {
		return err
	}
	if !m.Shard.Whole() && m.Out == "" {
		return fmt.Errorf("shard %s: a shard of a batch needs the batch's output folder", m.Shard)
	}
	if m.Sample != nil {
		if err := (sample.Options{Freq: m.Sample.Freq}).Validate(); err != nil {
			return err
		}
		if _, err := sample.RuleCode(m.Rule.Name()); err != nil {
			return err
		}
	}
	s := &stream{obs: obs}
	if m.Suite.Seed == 0 && (m.Suite.Order == schedule.OrderRandom || m.Suite.Transform == schedule.TransformRandom) {
		if !m.Shard.Whole() {
			return fmt.Errorf("shard %s: a random opening order or transform needs a seed (-seed N) given to every shard: each would choose its own from the clock", m.Shard)
		}
		m.Suite.Seed, m.seedChosen = uint64(time.Now().UnixNano()), true
	}
	var done []*record.Record
	var f *folder
	dir := m.Folder()
	var collection, samples *gameLog
	if dir != "" {
		for i := range m.Entrants {
			if m.Entrants[i].Spec.Dir == "" {
				m.Entrants[i].Spec.Dir = filepath.Join(dir, "engines", engine.FolderName(m.Entrants[i].Spec.Name))
			}
		}
		var err error
		if f, err = claim(dir, m.identity(), m.check); err != nil {
			return err
		}
		defer f.close()
		done = f.done
		switch m.Records {
		case RecordsFiles:
			err = restoreGames(dir, done)
		case RecordsCollection:
			collection, err = openGameLog(filepath.Join(dir, CollectionFile), true, done, sgfSink)
		}
		if err != nil {
			return err
		}
		defer collection.close()
	}
	if m.Sample != nil {
		var err error
		if samples, err = openGameLog(m.SampleFile(), dir != "", done, sampleSink(m.Sample, m.Suite.Seed)); err != nil {
			return fmt.Errorf("sample: %w", err)
		}
		defer samples.close()
	}
	m.encounters, _ = m.Schedule()
	if _, err := m.Replay(done); err != nil {
		return fmt.Errorf("%s: %w", filepath.Join(dir, JournalFile), err)
	}
	began := Began{Name: m.Event, Identity: m.identity(), Total: len(m.Share()), Finished: len(done), Capped: m.SPRT != nil,
		Done: done}
	if m.seedChosen {
		began.Seed = m.Suite.Seed
	}
	s.send(began)

	files := map[*string]*os.File{}
	for _, name := range []*string{&m.PGN, &m.SGF, &m.Msg, &m.Log} {
		if *name == "" {
			continue
		}
		f, err := os.OpenFile(*name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		files[name] = f
	}
	if log := files[&m.Log]; log != nil {
		shareTranscript(m.Entrants, log)
	}
	defer m.Close() // before the files close: the transcript ends with END
	s.watch(m.Director)
	kept := func(rec *record.Record) error {
		if f != nil {
			if err := f.append(rec); err != nil {
				return err
			}
		}
		s.send(GameFinished{Record: rec})
		return nil
	}
	counted := func(g schedule.MatchGame) error {
		if dir != "" && m.Records == RecordsFiles {
			if err := writeGame(dir, g.Record); err != nil {
				return err
			}
		}
		if err := collection.add(g.Record); err != nil {
			return err
		}
		if err := samples.add(g.Record); err != nil {
			return err
		}
		if g.Collect {
			write := appendGame
			if m.FileStyle == schedule.StyleCGomokuCli {
				write = m.appendCGomokuCliGame
			}
			if err := write(files[&m.PGN], files[&m.SGF], files[&m.Msg], g.Record); err != nil {
				return err
			}
		}
		s.send(MatchGameCounted{g})
		return nil
	}
	if m.SPRT != nil && !m.Shard.Whole() {
		// The merged test decides for every shard.
		var wg sync.WaitGroup
		defer wg.Wait()
		ctx, cancel := context.WithCancel(drain)
		defer cancel()
		wg.Add(1)
		go func() { defer wg.Done(); m.watchBatch(ctx, cancel, s) }()
		drain = ctx
	}
	return m.Match.Run(drain, abort, kept, counted)
}

// identity is what event.json keeps of the match.
func (m *Match) identity() *Identity {
	id := &Identity{Kind: KindMatch, Name: m.Event, Rule: m.Rule.Name(), Size: m.Size, MoveCap: m.MoveCap,
		OpeningProcedure: m.Procedure.String(), OpeningPolicy: m.policy.String(), Openings: m.openings,
		Match: &MatchSettings{Games: m.Games, Rounds: m.Rounds, Gauntlet: m.Gauntlet, Order: m.Suite.Order.String(),
			Transform: m.Suite.Transform.String(), Pairs: m.Suite.Pairs, Seed: m.Suite.Seed, FatalError: m.FatalError,
			Shard: m.Shard.String(), Sample: m.Sample.settings()}}
	if t := m.SPRT; t != nil {
		id.Match.SPRT = &SPRT{Elo0: t.Elo0, Elo1: t.Elo1, Alpha: t.Alpha, Beta: t.Beta, Model: m.SPRTModel()}
	}
	for _, a := range m.Entrants {
		e := entrantOf(a)
		e.Dir = "" // the folder's own
		id.Engines = append(id.Engines, e)
	}
	return id
}

// check accepts a folder that holds this match: the same settings, with a
// seed chosen from the clock replaced by the folder's.
func (m *Match) check(old, now *Identity) (rewrite bool, err error) {
	if m.seedChosen && old.Match != nil {
		m.Suite.Seed, m.seedChosen = old.Match.Seed, false
		now.Match.Seed = old.Match.Seed
	}
	if d := Difference(old, now); d != "" {
		return false, fmt.Errorf("%s holds a different match (%s); run the same command to continue it, or use a new output folder", m.Folder(), d)
	}
	return false, nil
}

// shareTranscript appends every line to and from the engines to one log,
// in the transcript package's form (c-gomoku-cli's -log keeps one file).
func shareTranscript(ents []arbiter.Entrant, log io.Writer) {
	var mu sync.Mutex
	for i := range ents {
		name := ents[i].Spec.Name
		ents[i].Spec.Transcript = func(pid int, sent bool, line string) {
			b := transcript.Format(name, pid, sent, line)
			mu.Lock()
			defer mu.Unlock()
			log.Write(b)
		}
	}
}

// appendGame adds a finished game to the files that collect every game; a
// nil file is not written.
func appendGame(pgn, sgf, msg *os.File, rec *record.Record) error {
	if pgn != nil && rec.End != record.DoubleForfeit { // no game, no rating
		if err := rating.WriteRatingPGN(pgn, rec.Black, rec.White, rec.Score()); err != nil {
			return err
		}
	}
	if sgf != nil {
		if err := record.WriteSGF(sgf, rec); err != nil {
			return err
		}
		if _, err := io.WriteString(sgf, "\n"); err != nil {
			return err
		}
	}
	if msg != nil {
		var b strings.Builder
		fmt.Fprintf(&b, "Game %d: %s x %s\n", rec.Game, rec.Black, rec.White)
		for _, m := range rec.Messages {
			b.WriteString(m + "\n")
		}
		b.WriteString("\n")
		if _, err := io.WriteString(msg, b.String()); err != nil {
			return err
		}
	}
	return nil
}

// appendCGomokuCliGame is appendGame in c-gomoku-cli's forms. The game's
// round and its number within the round follow from its number, as the
// schedule is c-gomoku-cli's job order (every round, every encounter's
// games).
func (m *Match) appendCGomokuCliGame(pgn, sgf, msg *os.File, rec *record.Record) error {
	perRound := max(len(m.encounters)*m.Games, 1)
	g := record.CGomokuCliGame{Round: (rec.Game-1)/perRound + 1, InRound: (rec.Game-1)%perRound + 1, Rule: m.RuleCode}
	if pgn != nil && rec.End != record.DoubleForfeit { // no game, no rating, as in appendGame
		if err := record.WriteCGomokuCliPGN(pgn, rec, g); err != nil {
			return err
		}
	}
	if sgf != nil {
		if err := record.WriteCGomokuCliSGF(sgf, rec, g); err != nil {
			return err
		}
	}
	if msg != nil {
		// c-gomoku-cli's header; its lines are "PLY) NAME: MESSAGE", the
		// arena keeps "NAME: LINE" without the ply.
		var b strings.Builder
		fmt.Fprintf(&b, "----------------------------------------\nGame ID: %d\nEngines: %s x %s\n", rec.Game, rec.Black, rec.White)
		for _, line := range rec.Messages {
			b.WriteString(line + "\n")
		}
		if _, err := io.WriteString(msg, b.String()); err != nil {
			return err
		}
	}
	return nil
}

// Tally is a match that counts games as the match in a folder counted them,
// without engines to play: feed it the journal's records with Replay, in
// order, to follow a match from its files (the live page of another
// process's match does).
func Tally(id *Identity) (*schedule.Match, error) {
	if id.Kind != KindMatch || id.Match == nil {
		return nil, fmt.Errorf("%s holds %s, not an authors' match", id.Name, kindName[id.Kind])
	}
	m, err := id.schedule()
	if err != nil {
		return nil, err
	}
	m.Schedule()
	return m, nil
}
