package event

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"gomoku-arena/arbiter"
	"gomoku-arena/clock"
	"gomoku-arena/engine"
	"gomoku-arena/event/identity"
	"gomoku-arena/event/outfolder"
	"gomoku-arena/event/outputs"
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
	Plan *schedule.Match // what is played: engines, rule, schedule, SPRT
	Out  string          // folder for event.json, the journal and the game files; "" = none
	PGN  string          // results appended in the rating tools' PGN form
	SGF  string          // games appended to one SGF collection
	Msg  string          // engine messages appended, grouped by game
	Log  string          // every line to and from the engines, appended with times
	// FileStyle is whose forms PGN, SGF and Msg take: the arena's, or under
	// schedule.StyleCGomokuCli c-gomoku-cli's (record.WriteCGomokuCliSGF and
	// WriteCGomokuCliPGN), whose SGF carries RuleCode as RU.
	FileStyle schedule.Style
	RuleCode  string
	// Records is how the folder keeps the games beyond the journal.
	Records outputs.Records
	// Sample, if set, writes training positions from every game.
	Sample *outputs.Sampling
	// SyncEvery is how often a shard under an SPRT reads the batch folder
	// (DefaultSyncEvery when 0).
	SyncEvery time.Duration
	// Confinement sandboxes and freezes the engines as an event's
	// sandbox and freeze_idle do (confine).
	Confinement Confinement

	files      [][]string    // per entrant, its declared files (EngineSettings.Files), for the sandbox
	openings   string        // where Suite.Openings came from, for event.json
	policy     config.Policy // outer-open's opening policy, for event.json
	seedChosen bool          // Suite.Seed was chosen by this run
	encounters []*schedule.Encounter
}

// NewMatch is a match between entrants added later: several instances of
// an engine may play at once, as authors' matches want.
func NewMatch(name string, rule rules.Rule, size int) *Match {
	return &Match{Plan: &schedule.Match{Director: &arbiter.Director{Event: name, Rule: rule, Size: size, Concurrency: 1, Instances: true}, Games: 1, Rounds: 1}}
}

// NewMatchFolder is the output folder of a match that names none: a new
// one under out/, named after the time.
func NewMatchFolder() string {
	return filepath.Join("out", "match-"+time.Now().Format("20060102-150405"))
}

// LoadOpenings sets the match's openings: the list in file (in format
// "offset", "pos" or "" for detected per line), or without a file the
// rule's own (readOpenings).
func (m *Match) LoadOpenings(file, format string, policy config.Policy) error {
	m.openings, m.policy = file, policy
	list, err := readOpenings(file, format, m.Plan.Director.Rule, m.Plan.Director.Size, policy)
	if _, unread := errors.AsType[*fs.PathError](err); unread {
		return fmt.Errorf("openings: %w", err) // the file, not its contents
	}
	m.Plan.Suite.Openings = list
	return err
}

// readOpenings is the one loader of openings, for events and matches: the
// list in file (in format "offset", "pos" or "" for detected per line),
// or without a file the rule's own (renju's 26 canonical openings, which
// the RIF procedure falls back to as well; under outer-open with the
// arbiter-opens policy, Black's first stone from the outer zone; none
// otherwise). Every opening is checked for the rule and the board
// (schedule.CheckOpenings), its error naming the list and the line.
func readOpenings(file, format string, rule rules.Rule, size int, policy config.Policy) ([]rules.Opening, error) {
	if file == "" {
		list := schedule.DefaultOpenings(rule, size, policy == config.PolicyArbiterOpens)
		if len(list) == 0 {
			return nil, nil
		}
		return list, schedule.CheckOpenings(list, "the default openings", rule, size)
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	list, err := rules.ReadOpenings(f, file, format, size)
	if err != nil {
		return nil, err
	}
	return list, schedule.CheckOpenings(list, file, rule, size)
}

// UniqueNames suffixes engines that share a name with #1, #2, ... so
// records and statistics can tell them apart (self-play).
func UniqueNames(ents []arbiter.Entrant) {
	names := make([]*string, len(ents))
	for i := range ents {
		names[i] = &ents[i].Spec.Name
	}
	uniqueNames(names)
}

// UniqueEngineNames is UniqueNames for engines' settings, before they
// are built: a NAME: prefix then names one engine.
func UniqueEngineNames(list []EngineSettings) {
	names := make([]*string, len(list))
	for i := range list {
		names[i] = &list[i].Name
	}
	uniqueNames(names)
}

func uniqueNames(names []*string) {
	count := map[string]int{}
	for _, n := range names {
		count[*n]++
	}
	seen := map[string]int{}
	for _, n := range names {
		if count[*n] > 1 {
			seen[*n]++
			*n = fmt.Sprintf("%s#%d", *n, seen[*n])
		}
	}
}

// CheckEngines checks that every engine's program exists, and that no two
// names share a working folder (engine.FolderName: one name, one file),
// before anything is played; a command that names a folder of Gomocup
// builds is replaced by the build for the match's rule and size
// (engine.GomocupBuild).
func (m *Match) CheckEngines() error {
	names := make([]string, len(m.Plan.Director.Entrants))
	for i, e := range m.Plan.Director.Entrants {
		names[i] = e.Spec.Name
	}
	if i, j := sharedFolder(names); i >= 0 {
		return fmt.Errorf("engines %q and %q would share the working folder engines/%s: name them apart (NAME=COMMAND)", names[j], names[i], engine.FolderName(names[i]))
	}
	for i := range m.Plan.Director.Entrants {
		c, err := runnable(m.Plan.Director.Entrants[i].Spec, m.Plan.Director.Rule, m.Plan.Director.Size)
		if err != nil {
			return err
		}
		m.Plan.Director.Entrants[i].Spec.Command = c
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
	if err := m.Plan.Validate(); err != nil {
		return err
	}
	if err := m.CheckEngines(); err != nil {
		return err
	}
	if !m.Plan.Shard.Whole() && m.Out == "" {
		return fmt.Errorf("shard %s: a shard of a batch needs the batch's output folder", m.Plan.Shard)
	}
	if m.Sample != nil {
		if err := (sample.Options{Freq: m.Sample.Freq}).Validate(); err != nil {
			return err
		}
		if _, err := sample.RuleCode(m.Plan.Director.Rule.Name()); err != nil {
			return err
		}
	}
	s := &stream{obs: obs}
	if m.Plan.Suite.Seed == 0 && m.Plan.Suite.Seeded() {
		if !m.Plan.Shard.Whole() {
			return fmt.Errorf("shard %s: a random opening order or transform needs a seed (-seed N) given to every shard: each would choose its own from the clock", m.Plan.Shard)
		}
		m.Plan.Suite.Seed, m.seedChosen = uint64(time.Now().UnixNano()), true
	}
	var done []*record.Record
	var f *outfolder.Folder
	dir := m.Folder()
	var collection, samples *outputs.GameLog
	if dir != "" {
		for i := range m.Plan.Director.Entrants {
			if spec := &m.Plan.Director.Entrants[i].Spec; spec.Dir == "" { // below the match's folder, no link is followed
				spec.Dir, spec.Within = filepath.Join(dir, "engines", engine.FolderName(spec.Name)), dir
			}
		}
	}
	notices, err := m.confine()
	if err != nil {
		return err
	}
	for _, n := range notices {
		s.send(Notice{Text: n})
	}
	if dir != "" {
		var err error
		resume := func(done []*record.Record) error {
			m.encounters, _ = m.Plan.Schedule()
			return m.Plan.Resume(done)
		}
		if f, err = outfolder.Claim(dir, m.identity(), m.check, resume); err != nil {
			return err
		}
		defer f.Close()
		done = f.Done
		switch m.Records {
		case outputs.RecordsFiles:
			err = outputs.RestoreGames(dir, record.Heading{}, done)
		case outputs.RecordsCollection:
			collection, err = outputs.OpenGameLog(filepath.Join(dir, outputs.CollectionFile), true, done, outputs.SGFSink)
		}
		if err != nil {
			return err
		}
		defer collection.Close()
	}
	if m.Sample != nil {
		var err error
		if samples, err = outputs.OpenGameLog(m.SampleFile(), dir != "", done, outputs.SampleSink(m.Sample, m.Plan.Suite.Seed)); err != nil {
			return fmt.Errorf("sample: %w", err)
		}
		defer samples.Close()
	}
	if f == nil { // no folder: nothing to resume
		m.encounters, _ = m.Plan.Schedule()
	}
	began := Began{Name: m.Plan.Director.Event, Identity: m.identity(), Total: len(m.Plan.Share()), Finished: len(done), Capped: m.Plan.SPRT != nil,
		Done: done}
	if m.seedChosen {
		began.Seed = m.Plan.Suite.Seed
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
		shareTranscript(m.Plan.Director.Entrants, log)
	}
	defer m.Plan.Director.Close() // before the files close: the transcript ends with END
	s.watch(m.Plan.Director)
	kept := func(rec *record.Record) error {
		if f != nil {
			if err := f.Append(rec); err != nil {
				return err
			}
		}
		s.send(GameFinished{Record: rec})
		return nil
	}
	counted := func(g schedule.MatchGame) error {
		if dir != "" && m.Records == outputs.RecordsFiles {
			if err := outputs.WriteGame(dir, record.Heading{}, g.Record); err != nil {
				return err
			}
		}
		if err := collection.Add(g.Record); err != nil {
			return err
		}
		if err := samples.Add(g.Record); err != nil {
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
	if m.Plan.SPRT != nil && !m.Plan.Shard.Whole() {
		// The merged test decides for every shard.
		var wg sync.WaitGroup
		defer wg.Wait()
		ctx, cancel := context.WithCancel(drain)
		defer cancel()
		wg.Add(1)
		go func() { defer wg.Done(); m.watchBatch(ctx, cancel, s) }()
		drain = ctx
	}
	m.Plan.Counted = counted
	return m.Plan.Run(drain, abort, kept)
}

// About starts every engine of the match once, confined as the match
// runs it (Confinement), and asks it ABOUT, as c-gomoku-cli does when it
// starts an engine: the answers, one per entrant, zero for an engine that
// did not start or answer (its games will say what is wrong with it). The
// error is a sandbox that cannot be set up.
func (m *Match) About() ([]engine.About, error) {
	if _, err := m.confine(); err != nil {
		return nil, err
	}
	ents := m.Plan.Director.Entrants
	about := make([]engine.About, len(ents))
	for i := range ents {
		e, err := engine.Start(ents[i].Spec)
		if err != nil {
			continue
		}
		a, err := e.About(time.Now().Add(ents[i].Clock.Tolerance + time.Second))
		e.Close()
		if err == nil {
			about[i] = a
		}
	}
	return about, nil
}

// confine sandboxes and freezes the match's engines (Confinement), which
// must not see the match's folder and the files it writes, its openings,
// nor the folder the match is run from.
func (m *Match) confine() ([]string, error) {
	org := organizers{}
	for _, f := range []string{m.Folder(), m.openings, m.PGN, m.SGF, m.Msg, m.Log, m.SampleFile()} {
		if f != "" {
			org.Hide = append(org.Hide, f)
		}
	}
	if wd, err := os.Getwd(); err == nil {
		org.Private = append(org.Private, wd)
	}
	return confine(m.Plan.Director.Entrants, m.files, nil, m.Confinement, org, "sandbox")
}

// identity is what event.json keeps of the match.
func (m *Match) identity() *identity.Identity {
	id := &identity.Identity{Kind: identity.KindMatch, Name: m.Plan.Director.Event, Rule: m.Plan.Director.Rule.Name(), Size: m.Plan.Director.Size, MoveCap: m.Plan.Director.MoveCap,
		OpeningProcedure: m.Plan.Director.Procedure.String(), OpeningPolicy: m.policy.String(), Openings: m.openings,
		Match: &identity.MatchSettings{Games: m.Plan.Games, Rounds: m.Plan.Rounds, Gauntlet: m.Plan.Gauntlet, Order: m.Plan.Suite.Order.String(),
			Transform: m.Plan.Suite.Transform.String(), Pairs: m.Plan.Suite.Pairs, Seed: m.Plan.Suite.Seed, FatalError: m.Plan.FatalError,
			Shard: m.Plan.Shard.String(), Sample: m.Sample.Settings()}}
	var list [][]rules.Point
	for _, o := range m.Plan.Suite.Openings {
		list = append(list, o.Stones)
	}
	id.OpeningSuite = identity.SuiteOf(list)
	if m.Plan.Suite.Style == schedule.StyleCGomokuCli {
		id.Match.Style = m.Plan.Suite.Style.String()
	}
	if t := m.Plan.SPRT; t != nil {
		id.Match.SPRT = &identity.SPRT{Elo0: t.Elo0, Elo1: t.Elo1, Alpha: t.Alpha, Beta: t.Beta, Model: m.Plan.SPRTModel()}
	}
	for _, a := range m.Plan.Director.Entrants {
		e := entrantOf(a)
		e.Dir = "" // the folder's own
		id.Engines = append(id.Engines, e)
	}
	return id
}

// check accepts a folder that holds this match: the same settings, with a
// seed chosen from the clock replaced by the folder's.
func (m *Match) check(old, now *identity.Identity) (rewrite bool, err error) {
	if m.seedChosen && old.Match != nil {
		m.Plan.Suite.Seed, m.seedChosen = old.Match.Seed, false
		now.Match.Seed = old.Match.Seed
	}
	// A match begun while arena match's flags applied the hang's default
	// themselves keeps it as 300000 ms: the same clock as none (0, which
	// clock.Control.HangLimit makes the default).
	for i := range min(len(old.Engines), len(now.Engines)) {
		if c := &old.Engines[i].Clock; c.HangMS == clock.DefaultHang.Milliseconds() && now.Engines[i].Clock.HangMS == 0 {
			c.HangMS = 0
		}
	}
	if d := identity.Difference(old, now); d != "" {
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
	perRound := max(len(m.encounters)*m.Plan.Games, 1)
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
