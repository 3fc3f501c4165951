// Package spread owns what the tasks of a spread event share in its output
// folder beyond their own: the pairer's published Swiss rounds
// (rounds/round-R.json), the order one process journals records in, the
// check that a task's event.json is the same event, and the merge of the
// tasks' journals into the event's own (Merge, arena merge), after which
// the folder is the event one process would have recorded. Playing a task
// (waiting for the others' games, publishing a round) is event's.
package spread

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gomoku-arena/arbiter"
	"gomoku-arena/engine"
	"gomoku-arena/event/batch"
	"gomoku-arena/event/identity"
	"gomoku-arena/event/outfolder"
	"gomoku-arena/event/tables"
	"gomoku-arena/event/verify"
	"gomoku-arena/internal/bounds"
	"gomoku-arena/internal/durable"
	"gomoku-arena/pairing"
	"gomoku-arena/results/journal"
	"gomoku-arena/results/record"
	"gomoku-arena/results/report"
	"gomoku-arena/rules"
	"gomoku-arena/schedule"
)

// RoundsDir is the folder of the pairer's published Swiss rounds, inside
// its shard folder.
const RoundsDir = "rounds"

// SameEvent checks that a task's event.json is the event of id, but for
// the shard.
func SameEvent(id, other *identity.Identity, dir string) error {
	if other.Kind != identity.KindEvent {
		return fmt.Errorf("%s holds %s, not a task of the event %q", dir, identity.KindName[other.Kind], id.Name)
	}
	same := *other
	same.Shard, same.Format = id.Shard, id.Format
	if d := identity.Difference(&same, id); d != "" {
		return fmt.Errorf("%s is a task of a different event (%s); the tasks of one array play one event", dir, d)
	}
	return nil
}

// SortRecords puts records in the order one process journals them: round
// by round, each round's withdrawals, then its byes, then its games by
// number. (One process journals a round's games as they end; the order of
// games within a round changes nothing that reads the journal.)
func SortRecords(recs []*record.Record) {
	rank := func(r *record.Record) int {
		switch r.End {
		case record.Withdrawn:
			return 0
		case record.ByeEnd:
			return 1
		}
		return 2
	}
	slices.SortStableFunc(recs, func(a, b *record.Record) int {
		return cmp.Or(cmp.Compare(a.Round, b.Round), cmp.Compare(rank(a), rank(b)), cmp.Compare(a.Game, b.Game), strings.Compare(a.Black, b.Black))
	})
}

// RoundFile is a published Swiss round.
type RoundFile struct {
	Format   int            `json:"format"`
	Round    int            `json:"round"`
	Pairings []RoundPairing `json:"pairings"`
}

// RoundPairing is one board: entrants by number from 0; white -1 is
// black's bye.
type RoundPairing struct {
	Black int `json:"black"`
	White int `json:"white"`
}

// ReadRound reads and checks a published round: the round it says, every
// entrant a number of the event, none on two boards.
func ReadRound(path string, r, n int) ([]pairing.Pairing, bool, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	var f RoundFile
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, false, fmt.Errorf("%s: %v", path, err)
	}
	if f.Format != 1 || f.Round != r {
		return nil, false, fmt.Errorf("%s: format %d, round %d: want format 1, round %d", path, f.Format, f.Round, r)
	}
	seen := map[int]bool{}
	var out []pairing.Pairing
	for i, p := range f.Pairings {
		for _, e := range []int{p.Black, p.White} {
			if e == pairing.Bye && e == p.White {
				continue
			}
			if e < 0 || e >= n || seen[e] {
				return nil, false, fmt.Errorf("%s: pairing %d: entrant %d is not one of the %d, or on two boards", path, i+1, e, n)
			}
			seen[e] = true
		}
		out = append(out, pairing.Pairing{Round: r, Black: p.Black, White: p.White})
	}
	return out, true, nil
}

// Spread is a spread event's folder read back: the tasks' games folded
// into the event's.
type Spread struct {
	Dir      string
	Identity *identity.Identity // the tasks' event.json, without the shard
	Count    int                // tasks
	Started  int                // tasks that have an event.json
	// Records are every task's records, in the order one process journals
	// them, each game once.
	Records    []*record.Record
	Duplicates []batch.Duplicate
	Misfits    []string // records that are not their task's, or not the schedule's
	Missing    []int    // games of the schedule no task journaled
	Unpaired   int      // Swiss rounds not yet paired
}

// Merge reads the task folders of a spread event in dir.
func Merge(dir string) (*Spread, error) {
	count, err := shardCount(dir)
	if err != nil {
		return nil, err
	}
	m := &Spread{Dir: dir, Count: count}
	where := map[arbiter.Key][]string{}
	type owned struct {
		rec  *record.Record
		task int
	}
	var recs []owned
	var first string
	for k := range count {
		sdir := filepath.Join(dir, schedule.Shard{Index: k, Count: count}.Folder())
		id, err := identity.Read(filepath.Join(sdir, identity.File))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if want := (schedule.Shard{Index: k, Count: count}).String(); id.Kind != identity.KindEvent || id.Shard != want {
			return nil, fmt.Errorf("%s: event.json says kind %q, shard %q: want a task of an event, shard %q", sdir, id.Kind, id.Shard, want)
		}
		if m.Identity == nil {
			plain := *id
			plain.Shard = ""
			m.Identity, first = &plain, sdir
		} else if err := SameEvent(m.Identity, id, sdir); err != nil {
			return nil, fmt.Errorf("%w (the first task found is %s)", err, first)
		}
		m.Started++
		journal, err := new(batch.Reader).Journal(filepath.Join(sdir, outfolder.JournalFile))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		for _, rec := range journal {
			if !rec.IsGame() {
				if k != 0 {
					m.Misfits = append(m.Misfits, fmt.Sprintf("%s: round %d: a %s of %q: only the pairer (task 0) journals those", sdir, rec.Round, rec.End, rec.Black))
				}
				recs = append(recs, owned{rec, k})
				continue
			}
			key := arbiter.KeyOf(rec)
			where[key] = append(where[key], sdir)
			if len(where[key]) == 1 {
				recs = append(recs, owned{rec, k})
			}
		}
	}
	if m.Identity == nil {
		return nil, fmt.Errorf("%s: no task has started (no event.json in any shard folder)", dir)
	}
	for key, dirs := range where {
		if len(dirs) > 1 {
			m.Duplicates = append(m.Duplicates, batch.Duplicate{Game: key.Number, Folders: dirs})
		}
	}
	slices.SortFunc(m.Duplicates, func(a, b batch.Duplicate) int { return a.Game - b.Game })
	fs, err := m.schedule()
	if err != nil {
		return nil, err
	}
	byKey := map[arbiter.Key]arbiter.Fixture{}
	for _, f := range fs {
		byKey[arbiter.Key{Round: f.Round, Number: f.Number}] = f
	}
	names := m.Identity.Engines
	have := map[arbiter.Key]bool{}
	for _, o := range recs {
		m.Records = append(m.Records, o.rec)
		if !o.rec.IsGame() {
			continue
		}
		key := arbiter.KeyOf(o.rec)
		have[key] = true
		f, ok := byKey[key]
		task := schedule.Task{Shard: schedule.Shard{Index: o.task, Count: count}}
		switch {
		case !ok:
			m.Misfits = append(m.Misfits, fmt.Sprintf("task %d: round %d game %d is not a game of the event's schedule", o.task, key.Round, key.Number))
		case names[f.Black].Name != o.rec.Black || names[f.White].Name != o.rec.White:
			m.Misfits = append(m.Misfits, fmt.Sprintf("task %d: game %d is %s vs %s; the schedule has %s vs %s", o.task, key.Number, o.rec.Black, o.rec.White, names[f.Black].Name, names[f.White].Name))
		case !task.Owns(f):
			m.Misfits = append(m.Misfits, fmt.Sprintf("task %d: game %d belongs to task %d", o.task, key.Number, f.Pairing%count))
		}
	}
	for _, f := range fs {
		if !have[arbiter.Key{Round: f.Round, Number: f.Number}] {
			m.Missing = append(m.Missing, f.Number)
		}
	}
	SortRecords(m.Records)
	return m, nil
}

// shardCount is the N of the shard-K-of-N folders in dir.
func shardCount(dir string) (int, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, fmt.Errorf("spread event: %w", err)
	}
	count := 0
	for _, e := range entries {
		k, n, ok := batch.FolderShard(e)
		if !ok {
			continue
		}
		if n < 1 || n > bounds.MaxShards || k >= n || (count != 0 && n != count) {
			return 0, fmt.Errorf("%s: %s does not belong with the other shard folders: one folder holds one array's tasks", dir, e.Name())
		}
		count = n
	}
	if count == 0 {
		return 0, fmt.Errorf("%s: no shard-K-of-N folders: not a spread event's folder (arena run -shard writes them)", dir)
	}
	return count, nil
}

// schedule lays out the event's games as its tasks did: a round robin's
// from the format, a Swiss's from the rounds the pairer published.
func (m *Spread) schedule() ([]arbiter.Fixture, error) {
	id := m.Identity
	rule, err := rules.ByName(id.Rule)
	if err != nil {
		return nil, err
	}
	t := &schedule.Tournament{Director: &arbiter.Director{Event: id.Name, Rule: rule, Size: id.Size}, Format: pairing.Format(id.Pairing),
		Rounds: id.Rounds, OpeningsPerPairing: id.OpeningsPerPairing}
	for _, e := range id.Engines {
		t.Director.Entrants = append(t.Director.Entrants, arbiter.Entrant{Spec: engine.Spec{Name: e.Name}})
	}
	if t.Format != pairing.SwissFormat {
		return t.Fixtures()
	}
	var rounds [][]pairing.Pairing
	pairer := filepath.Join(m.Dir, schedule.Shard{Index: 0, Count: m.Count}.Folder(), RoundsDir)
	for r := 1; r <= id.Rounds; r++ {
		round, ok, err := ReadRound(filepath.Join(pairer, fmt.Sprintf("round-%d.json", r)), r, len(id.Engines))
		if err != nil {
			return nil, err
		}
		if !ok {
			m.Unpaired = id.Rounds - r + 1
			break
		}
		rounds = append(rounds, round)
	}
	return t.FixturesOf(rounds), nil
}

// Games is the number of games among the records.
func (m *Spread) Games() int { return tables.Played(m.Records) }

// Problems lists what keeps the event from being whole, one line each.
func (m *Spread) Problems() []string {
	var out []string
	if m.Started < m.Count {
		out = append(out, fmt.Sprintf("%d of %d tasks never started", m.Count-m.Started, m.Count))
	}
	out = append(out, m.Misfits...)
	for _, d := range m.Duplicates {
		out = append(out, fmt.Sprintf("game %d journaled %d times: %s", d.Game, len(d.Folders), strings.Join(d.Folders, ", ")))
	}
	if len(m.Missing) > 0 {
		out = append(out, fmt.Sprintf("%d games missing: %s", len(m.Missing), batch.Ranges(m.Missing)))
	}
	if m.Unpaired > 0 {
		out = append(out, fmt.Sprintf("%d Swiss rounds not yet paired", m.Unpaired))
	}
	return out
}

// Write folds the tasks' records into the event's folder: event.json (the
// event without a shard) and journal.jsonl, each written whole, then the
// game files, standings, crosstable and page as arena standings writes
// them. Duplicate or misplaced games are refused: which copy is the game
// is not for the merge to guess. Everything it writes is checked first,
// as arena standings would check it (verify.Journal, the standings): a refused
// merge writes nothing, and leaves the folder as the next merge wants it.
func (m *Spread) Write() (*report.Report, error) {
	if len(m.Duplicates) > 0 {
		return nil, fmt.Errorf("%s: %d games journaled more than once (game %d first); not merged", m.Dir, len(m.Duplicates), m.Duplicates[0].Game)
	}
	if len(m.Misfits) > 0 {
		return nil, fmt.Errorf("%s; not merged", m.Misfits[0])
	}
	if err := verify.Journal(m.Identity, m.Records); err != nil {
		return nil, fmt.Errorf("%s: the tasks' journals: %w; not merged", m.Dir, err)
	}
	if _, err := tables.StandingsOf(m.Identity, m.Records); err != nil {
		return nil, fmt.Errorf("%s: %w; not merged", m.Dir, err)
	}
	lock, err := outfolder.Lock(m.Dir)
	if err != nil {
		return nil, err
	}
	err = m.write()
	outfolder.Unlock(lock)
	if err != nil {
		return nil, err
	}
	return tables.Rebuild(m.Dir)
}

func (m *Spread) write() error {
	// A journal already there is a merge before this one, of fewer games;
	// one with a record no task holds is another event's, not to be lost.
	old, err := journal.Read(filepath.Join(m.Dir, outfolder.JournalFile))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	have := map[string]bool{}
	for _, r := range m.Records {
		have[recordKey(r)] = true
	}
	for _, r := range old {
		if !have[recordKey(r)] {
			return fmt.Errorf("%s holds round %d game %d (%s vs %s), which no task journaled: not merged over it; merge into the event's own folder", filepath.Join(m.Dir, outfolder.JournalFile), r.Round, r.Game, r.Black, r.White)
		}
	}
	if err := m.Identity.Write(filepath.Join(m.Dir, identity.File)); err != nil {
		return err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, rec := range m.Records {
		if err := enc.Encode(rec); err != nil {
			return fmt.Errorf("round %d game %d: %w", rec.Round, rec.Game, err)
		}
	}
	return durable.WriteFile(filepath.Join(m.Dir, outfolder.JournalFile), buf.Bytes())
}

// recordKey identifies a record in a journal: its round, game, players
// and ending (a bye or a withdrawal has game 0).
func recordKey(r *record.Record) string {
	return fmt.Sprintf("%d %d %s %q %q", r.Round, r.Game, r.End, r.Black, r.White)
}

// Kind reports whether dir's shard folders are a spread event's
// tasks (KindEvent) or a batch's shards (KindMatch), from the first shard
// folder that has an event.json.
func Kind(dir string) (string, error) {
	count, err := shardCount(dir)
	if err != nil {
		return "", err
	}
	for k := range count {
		id, err := identity.Read(filepath.Join(dir, schedule.Shard{Index: k, Count: count}.Folder(), identity.File))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		return id.Kind, nil
	}
	return identity.KindMatch, nil // none started: batch.Read says so
}
