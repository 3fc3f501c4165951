package event

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"gomoku-arena/arbiter"
	"gomoku-arena/event/batch"
	"gomoku-arena/event/identity"
	"gomoku-arena/event/outfolder"
	"gomoku-arena/event/spread"
	"gomoku-arena/internal/config"
	"gomoku-arena/internal/durable"
	"gomoku-arena/pairing"
	"gomoku-arena/results/record"
	"gomoku-arena/schedule"
)

// A spread event is an event from a config played by the tasks of a job
// array (a Slurm array, a Kubernetes Indexed Job) that share its output
// folder: task K of N plays in OUTPUT/shard-K-of-N, with its own lock,
// event.json (with "shard": "K/N") and journal, the games of the pairings
// dealt to it (schedule.Task). The tasks learn of each other's games by
// reading each other's journals, and of a Swiss round's pairing from the
// pairer's (shard 0's) folder, rounds/round-R.json, written once when the
// round before is complete. spread.Merge folds the tasks' journals into the
// event's own journal.jsonl in OUTPUT, which is then the event one process
// would have recorded: arena standings, the live page and a later arena
// run read it as any event's.

// NewTask is New for task shard of a spread event: its folder, engines'
// working folders and transcripts are in OUTPUT/shard-K-of-N. Remote
// entrants are refused: they connect to one server, which a task is not.
func NewTask(cfg *config.Event, shard schedule.Shard) (*Event, error) {
	if err := shard.Validate(); err != nil || shard.Whole() {
		return nil, fmt.Errorf("%s: a task of a spread event is shard K/N with 0 <= K < N", cfg.File)
	}
	if names := cfg.RemoteNames(); len(names) > 0 {
		return nil, fmt.Errorf("%s: engine %q is remote: remote entrants connect to one server, so their event is played by one process, not spread over tasks", cfg.File, names[0])
	}
	s, err := SettingsOf(cfg)
	if err != nil {
		return nil, err
	}
	return newEvent(s, shard)
}

// spreadPoll is how often a waiting task reads the other tasks' folders
// again; spreadPatience how long it waits before saying what it waits
// for. Variables for tests.
var (
	spreadPoll     = 250 * time.Millisecond
	spreadPatience = time.Minute
)

// taskFolders are the shared folder of a spread event as one task sees it.
type taskFolders struct {
	dir    string // the event's folder, holding the tasks' shard folders
	shard  schedule.Shard
	id     *identity.Identity // this task's, to check the others' against
	n      int                // entrants
	notice func(string)

	r       batch.Reader
	checked map[int]bool // tasks whose event.json is this event's
}

// task is the arbiter's view of the spread folder.
func (s *taskFolders) task() *schedule.Task {
	return &schedule.Task{Shard: s.shard, Await: s.await, Publish: s.publish, Published: s.published, Pairing: s.pairing}
}

func (s *taskFolders) folder(k int) string {
	return filepath.Join(s.dir, schedule.Shard{Index: k, Count: s.shard.Count}.Folder())
}

// records reads every task's journal (only what was added since the last
// read) and returns their records in the order one process journals them.
// A read costs the task folders that exist, not the count of tasks: the
// folder is listed once, and the wait stops between two folders when ctx
// ends.
func (s *taskFolders) records(ctx context.Context) ([]*record.Record, error) {
	if s.checked == nil {
		s.checked = map[int]bool{}
	}
	tasks, err := s.started()
	if err != nil {
		return nil, err
	}
	var all []*record.Record
	for _, k := range tasks {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		dir := s.folder(k)
		if !s.checked[k] {
			id, err := identity.Read(filepath.Join(dir, identity.File))
			if errors.Is(err, os.ErrNotExist) {
				continue // not started yet
			}
			if err != nil {
				return nil, err
			}
			if err := spread.SameEvent(s.id, id, dir); err != nil {
				return nil, err
			}
			s.checked[k] = true
		}
		recs, err := s.r.Journal(filepath.Join(dir, outfolder.JournalFile))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		all = append(all, recs...)
	}
	spread.SortRecords(all)
	return all, nil
}

// started lists the tasks of this array whose folder exists, in order.
func (s *taskFolders) started() ([]int, error) {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, fmt.Errorf("spread event: %w", err)
	}
	var out []int
	for _, e := range entries {
		if k, n, ok := batch.FolderShard(e); ok && n == s.shard.Count && k < n {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out, nil
}

// await waits until every game of keys is in some task's journal.
func (s *taskFolders) await(ctx context.Context, keys []arbiter.Key) ([]*record.Record, error) {
	start := time.Now()
	told := false
	for {
		all, err := s.records(ctx)
		if err != nil {
			return nil, err
		}
		have := map[arbiter.Key]bool{}
		for _, r := range all {
			if r.IsGame() {
				have[arbiter.KeyOf(r)] = true
			}
		}
		var missing []arbiter.Key
		for _, k := range keys {
			if !have[k] {
				missing = append(missing, k)
			}
		}
		if len(missing) == 0 {
			return all, nil
		}
		if !told && time.Since(start) > spreadPatience && s.notice != nil {
			told = true
			s.notice(fmt.Sprintf("task %s: waiting for game %d (round %d) and %d more, played by other tasks; a task that died must be run again", s.shard, missing[0].Number, missing[0].Round, len(missing)-1))
		}
		if err := sleep(ctx, spreadPoll); err != nil {
			return nil, err
		}
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func (s *taskFolders) roundPath(r int) string {
	return filepath.Join(s.folder(0), spread.RoundsDir, fmt.Sprintf("round-%d.json", r))
}

// publish writes round r's pairing durably: once it is there, it is the
// round's.
func (s *taskFolders) publish(r int, round []pairing.Pairing) error {
	f := spread.RoundFile{Format: 1, Round: r, Pairings: []spread.RoundPairing{}}
	for _, p := range round {
		f.Pairings = append(f.Pairings, spread.RoundPairing{Black: p.Black, White: p.White})
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	// Inside the batch folder, which every task writes: no folder below it is followed if a link.
	rel, err := filepath.Rel(s.dir, s.roundPath(r))
	if err != nil {
		return err
	}
	return durable.WriteFileIn(s.dir, rel, append(b, '\n'), 0o644)
}

// published reads round r's pairing if the pairer has published it.
func (s *taskFolders) published(r int) ([]pairing.Pairing, bool, error) {
	return spread.ReadRound(s.roundPath(r), r, s.n)
}

// pairing waits for round r's pairing.
func (s *taskFolders) pairing(ctx context.Context, r int) ([]pairing.Pairing, error) {
	start := time.Now()
	told := false
	for {
		round, ok, err := s.published(r)
		if err != nil || ok {
			return round, err
		}
		if !told && time.Since(start) > spreadPatience && s.notice != nil {
			told = true
			s.notice(fmt.Sprintf("task %s: waiting for round %d's pairing from the pairer (task 0), made when round %d is complete", s.shard, r, r-1))
		}
		if err := sleep(ctx, spreadPoll); err != nil {
			return nil, err
		}
	}
}
