// Package batch folds a batch back into one match. A batch is a match
// played as shards (schedule.Shard), each in its own folder shard-K-of-N
// inside the batch's folder, each with its own event.json and journal.
// Read folds them back into one match: the games of every shard counted
// in the batch's order (game number), which is the order one process
// playing the whole batch with one game at a time counts them, so the
// statistics and the SPRT's decision are the ones that process reaches.
// Write merges them into the batch's folder (arena merge). A shard under
// an SPRT reads its batch again and again through a Reader; the tasks of
// a spread event follow each other's journals through one too.
package batch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gomoku-arena/arbiter"
	"gomoku-arena/event/identity"
	"gomoku-arena/event/outfolder"
	"gomoku-arena/event/outputs"
	"gomoku-arena/event/verify"
	"gomoku-arena/internal/bounds"
	"gomoku-arena/internal/durable"
	"gomoku-arena/results/journal"
	"gomoku-arena/results/rating"
	"gomoku-arena/results/record"
	"gomoku-arena/results/sample"
	"gomoku-arena/schedule"
)

// Batch is a batch folder read back.
type Batch struct {
	Dir      string
	Identity *identity.Identity // the shards' event.json, without the shard
	Count    int                // shards in the batch
	Shards   []Shard
	// Match is the batch's schedule with every journaled game counted in
	// game order; its encounters hold the merged tallies.
	Match      *schedule.Match
	Encounters []*schedule.Encounter
	// Records are the journaled games, by game number, each once.
	Records []*record.Record
	// Duplicates are games journaled more than once (by two shards, or
	// twice by one), with the folders that hold them; a batch with
	// duplicates is not merged.
	Duplicates []Duplicate
	// Missing are the schedule's games no shard journaled (not counting
	// those after an SPRT decision, which need not be played).
	Missing []int
	// Decided is the game count (in the batch's order) at which the SPRT
	// decided, 0 without a decision; After is the number of games counted
	// after it (played by shards before they heard of the decision).
	Decided, After int
	Decision       rating.Decision
	Unplayed       int // games of the schedule not played because the SPRT decided
}

// Shard is one shard's folder as found.
type Shard struct {
	Shard  schedule.Shard
	Dir    string // "" when the folder is missing
	Games  int
	Misfit []string // records that are not this shard's games
}

// Duplicate is a game journaled more than once.
type Duplicate struct {
	Game    int
	Folders []string
}

var shardFolder = regexp.MustCompile(`^shard-([0-9]+)-of-([0-9]+)$`)

// FolderShard reads a shard folder's name, shard-K-of-N (Shard.Folder's):
// ok is false for an entry that is no folder of that name; a number too
// long for an int gives n = -1, a count no split has (bounds.MaxShards).
func FolderShard(e os.DirEntry) (k, n int, ok bool) {
	m := shardFolder.FindStringSubmatch(e.Name())
	if m == nil || !e.IsDir() {
		return 0, 0, false
	}
	k, err1 := strconv.Atoi(m[1])
	n, err2 := strconv.Atoi(m[2])
	if err1 != nil || err2 != nil {
		return 0, -1, true
	}
	return k, n, true
}

// Read reads every shard folder of dir. It fails when the folder
// holds no shards, shards of different counts, or shards of different
// matches; missing shards, duplicate and missing games are reported in the
// Batch, for the caller to say.
func Read(dir string) (*Batch, error) { return new(Reader).Read(dir) }

// Reader reads a batch folder again and again (a shard under an SPRT
// watching it): each journal is followed by a journal.Tail, so a read costs
// the new games, not the whole batch.
type Reader struct {
	tails map[string]*journal.Tail
}

// Journal returns every record of the journal at path, reading only the
// complete lines added since the last call.
func (r *Reader) Journal(path string) ([]*record.Record, error) {
	if r.tails == nil {
		r.tails = map[string]*journal.Tail{}
	}
	t := r.tails[path]
	if t == nil {
		t = journal.NewTail(path)
		r.tails[path] = t
	}
	if _, _, err := t.Read(); err != nil {
		return nil, err
	}
	return t.Records(), nil
}

// Read reads the batch folder dir as Read does, each journal from where
// the last read left it.
func (r *Reader) Read(dir string) (*Batch, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("batch: %w", err)
	}
	b := &Batch{Dir: dir}
	found := map[int]string{}
	for _, e := range entries {
		k, n, ok := FolderShard(e)
		if !ok {
			continue
		}
		if n < 1 || n > bounds.MaxShards {
			return nil, fmt.Errorf("%s: %s: a batch has 1 to %d shards", dir, e.Name(), bounds.MaxShards)
		}
		if b.Count == 0 {
			b.Count = n
		}
		if n != b.Count || k >= n {
			return nil, fmt.Errorf("%s: %s does not belong with shard-K-of-%d folders: one batch folder holds one split", dir, e.Name(), b.Count)
		}
		found[k] = filepath.Join(dir, e.Name())
	}
	if b.Count == 0 {
		return nil, fmt.Errorf("%s: no shard-K-of-N folders: not a batch folder (arena match -shard writes them)", dir)
	}
	var first string
	journals := map[int][]*record.Record{}
	for k := range b.Count {
		sh := Shard{Shard: schedule.Shard{Index: k, Count: b.Count}, Dir: found[k]}
		if sh.Dir != "" {
			id, err := identity.Read(filepath.Join(sh.Dir, identity.File))
			if err != nil {
				if errors.Is(err, os.ErrNotExist) {
					sh.Dir = "" // created, never started
					b.Shards = append(b.Shards, sh)
					continue
				}
				return nil, err
			}
			if err := b.adopt(id, sh, &first); err != nil {
				return nil, err
			}
			recs, err := r.Journal(filepath.Join(sh.Dir, outfolder.JournalFile))
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				return nil, err
			}
			journals[k] = recs
			sh.Games = len(recs)
		}
		b.Shards = append(b.Shards, sh)
	}
	if b.Identity == nil {
		return nil, fmt.Errorf("%s: no shard has started (no event.json in any shard folder)", dir)
	}
	m, err := verify.Match(b.Identity)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", first, err)
	}
	b.Match = m
	var fixtures []arbiter.Fixture
	b.Encounters, fixtures = m.Schedule()
	where := map[int][]string{}
	byGame := map[int]*record.Record{}
	for k := range b.Count {
		for _, rec := range journals[k] {
			sh := &b.Shards[k]
			if rec.Game < 1 || rec.Game > len(fixtures) {
				sh.Misfit = append(sh.Misfit, fmt.Sprintf("game %d is not in the batch's %d games", rec.Game, len(fixtures)))
				continue
			}
			if owner := m.ShardOf(rec.Game, b.Count); owner != k {
				sh.Misfit = append(sh.Misfit, fmt.Sprintf("game %d belongs to shard %d", rec.Game, owner))
			}
			where[rec.Game] = append(where[rec.Game], sh.Dir)
			byGame[rec.Game] = rec
		}
	}
	for g, dirs := range where {
		if len(dirs) > 1 {
			b.Duplicates = append(b.Duplicates, Duplicate{Game: g, Folders: dirs})
		}
	}
	sort.Slice(b.Duplicates, func(i, j int) bool { return b.Duplicates[i].Game < b.Duplicates[j].Game })
	for _, f := range fixtures {
		if rec := byGame[f.Number]; rec != nil {
			b.Records = append(b.Records, rec)
		}
	}
	counted, err := m.Replay(b.Records)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	for i, g := range counted {
		if g.Decided {
			b.Decided, b.Decision, b.After = g.Played, g.Encounter.Decision, len(counted)-i-1
		}
	}
	for _, f := range fixtures {
		if byGame[f.Number] == nil {
			if b.Decided > 0 {
				b.Unplayed++
			} else {
				b.Missing = append(b.Missing, f.Number)
			}
		}
	}
	return b, nil
}

// adopt takes a shard's identity as the batch's, or checks that it is the
// same match as the shards before.
func (b *Batch) adopt(id *identity.Identity, sh Shard, first *string) error {
	if id.Kind != identity.KindMatch || id.Match == nil {
		return fmt.Errorf("%s: holds %s, not a shard of a match", sh.Dir, identity.KindName[id.Kind])
	}
	if want := sh.Shard.String(); id.Match.Shard != want {
		return fmt.Errorf("%s: event.json says shard %q, the folder's name %q", sh.Dir, id.Match.Shard, want)
	}
	plain := *id
	settings := *id.Match
	settings.Shard = ""
	plain.Match = &settings
	if b.Identity == nil {
		b.Identity, *first = &plain, sh.Dir
		return nil
	}
	if d := identity.Difference(b.Identity, &plain); d != "" {
		return fmt.Errorf("%s and %s hold different matches (%s); a batch folder holds the shards of one command", *first, sh.Dir, d)
	}
	return nil
}

// Problems lists what keeps the batch from being whole, one line each:
// missing shards, misplaced games, duplicate and missing games. None when
// it is complete (or decided by its SPRT).
func (b *Batch) Problems() []string {
	var out []string
	for _, sh := range b.Shards {
		if sh.Dir == "" {
			out = append(out, fmt.Sprintf("shard %d of %d: no folder %s (never started)", sh.Shard.Index, b.Count, filepath.Join(b.Dir, sh.Shard.Folder())))
		}
		for _, m := range sh.Misfit {
			out = append(out, fmt.Sprintf("%s: %s", sh.Dir, m))
		}
	}
	for _, d := range b.Duplicates {
		out = append(out, fmt.Sprintf("game %d journaled %d times: %s", d.Game, len(d.Folders), strings.Join(d.Folders, ", ")))
	}
	if len(b.Missing) > 0 {
		out = append(out, fmt.Sprintf("%d of %d games missing: %s", len(b.Missing), len(b.Missing)+len(b.Records)+b.Unplayed, Ranges(b.Missing)))
	}
	return out
}

// Ranges writes sorted numbers as "1-4, 9, 12-13".
func Ranges(ns []int) string {
	var parts []string
	for i := 0; i < len(ns); {
		j := i
		for j+1 < len(ns) && ns[j+1] == ns[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, strconv.Itoa(ns[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", ns[i], ns[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// Write folds the batch into its folder: event.json (the match without a
// shard) and journal.jsonl (every game once, in game order), each written
// whole. A batch with duplicate or misplaced games is refused: which copy
// is the game is not for the merge to guess.
func (b *Batch) Write() error {
	if len(b.Duplicates) > 0 {
		return fmt.Errorf("%s: %d games journaled more than once (game %d first); not merged", b.Dir, len(b.Duplicates), b.Duplicates[0].Game)
	}
	for _, sh := range b.Shards {
		if len(sh.Misfit) > 0 {
			return fmt.Errorf("%s: %s; not merged", sh.Dir, sh.Misfit[0])
		}
	}
	if err := b.Identity.Write(filepath.Join(b.Dir, identity.File)); err != nil {
		return err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, rec := range b.Records {
		if err := enc.Encode(rec); err != nil {
			return fmt.Errorf("game %d: %w", rec.Game, err)
		}
	}
	return durable.WriteFile(filepath.Join(b.Dir, outfolder.JournalFile), buf.Bytes())
}

// Sampling is the batch's -sample setting, or nil.
func (b *Batch) Sampling() (*outputs.Sampling, error) {
	s := b.Identity.Match.Sample
	if s == nil {
		return nil, nil
	}
	f, err := sample.ParseFormat(s.Format)
	if err != nil {
		return nil, fmt.Errorf("%s: event.json: %w", b.Dir, err)
	}
	// The merge writes it into the batch folder by its base name: never
	// over a file of the folder's own.
	switch base := filepath.Base(s.File); base {
	case identity.File, outfolder.JournalFile, outfolder.LockFile, outputs.CollectionFile, outputs.GamesDir, ".", "..", "/":
		return nil, fmt.Errorf("%s: event.json: match.sample.file %q would be written over the batch folder's %s", b.Dir, s.File, base)
	}
	return &outputs.Sampling{Freq: s.Freq, Format: f, File: s.File}, nil
}
