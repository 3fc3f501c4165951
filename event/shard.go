package event

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"gomoku-arena/event/batch"
	"gomoku-arena/internal/bounds"
	"gomoku-arena/results/rating"
	"gomoku-arena/schedule"
)

// TaskShard reads a -shard value: "K/N" (shard K of N, K from 0, read by
// schedule.ParseShard), or
// "auto" / "auto/N" for a task of a job array, its index and count read
// from the scheduler's environment through getenv:
//
//   - Slurm (sbatch --array=MIN-MAX[:STEP]): SLURM_ARRAY_TASK_ID,
//     SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_STEP (1 when unset) and
//     SLURM_ARRAY_TASK_COUNT; the shard is (ID-MIN)/STEP, so an array
//     numbered from any offset works. With "auto/N", N must equal the
//     array's count.
//   - Kubernetes (an Indexed Job): JOB_COMPLETION_INDEX; the Job API puts
//     no count in the environment, so the completions are given as N in
//     "auto/N".
func TaskShard(s string, getenv func(string) string) (schedule.Shard, error) {
	if s == "" {
		return schedule.Shard{}, nil
	}
	rest, ok := strings.CutPrefix(s, "auto")
	if !ok {
		return schedule.ParseShard(s)
	}
	given := 0
	if rest != "" {
		n, ok := strings.CutPrefix(rest, "/")
		var err error
		if given, err = strconv.Atoi(n); !ok || err != nil || given < 1 || given > bounds.MaxShards {
			return schedule.Shard{}, fmt.Errorf("shard %q: want auto, or auto/N with N the number of tasks (1 to %d)", s, bounds.MaxShards)
		}
	}
	num := func(name string) (int, bool, error) {
		v := getenv(name)
		if v == "" {
			return 0, false, nil
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return 0, true, fmt.Errorf("shard auto: %s=%q is not a whole number", name, v)
		}
		return n, true, nil
	}
	if id, ok, err := num("SLURM_ARRAY_TASK_ID"); ok || err != nil {
		if err != nil {
			return schedule.Shard{}, err
		}
		lo, _, err1 := num("SLURM_ARRAY_TASK_MIN")
		count, hasCount, err2 := num("SLURM_ARRAY_TASK_COUNT")
		step, hasStep, err3 := num("SLURM_ARRAY_TASK_STEP")
		for _, err := range []error{err1, err2, err3} {
			if err != nil {
				return schedule.Shard{}, err
			}
		}
		if !hasStep || step == 0 {
			step = 1
		}
		if !hasCount {
			return schedule.Shard{}, fmt.Errorf("shard auto: SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not")
		}
		if id < lo || (id-lo)%step != 0 {
			return schedule.Shard{}, fmt.Errorf("shard auto: task %d is not in the array's range from %d by %d; submit the array as --array=MIN-MAX[:STEP]", id, lo, step)
		}
		sh := schedule.Shard{Index: (id - lo) / step, Count: count}
		if given != 0 && given != count {
			return schedule.Shard{}, fmt.Errorf("shard %s: the Slurm array has %d tasks, not %d", s, count, given)
		}
		if sh.Index >= count {
			return schedule.Shard{}, fmt.Errorf("shard auto: task %d is shard %d but the array has %d tasks: submit the array as one range --array=MIN-MAX[:STEP]", id, sh.Index, count)
		}
		if err := sh.Validate(); err != nil {
			return schedule.Shard{}, fmt.Errorf("shard auto: SLURM_ARRAY_TASK_COUNT=%d: %w", count, err)
		}
		return sh, nil
	}
	if k, ok, err := num("JOB_COMPLETION_INDEX"); ok || err != nil {
		if err != nil {
			return schedule.Shard{}, err
		}
		if given == 0 {
			return schedule.Shard{}, fmt.Errorf("shard auto: JOB_COMPLETION_INDEX=%d but Kubernetes gives no count: use -shard auto/N with N the Job's completions", k)
		}
		sh := schedule.Shard{Index: k, Count: given}
		return sh, sh.Validate()
	}
	return schedule.Shard{}, fmt.Errorf("shard %s: not in a job array: none of SLURM_ARRAY_TASK_ID (Slurm) or JOB_COMPLETION_INDEX (Kubernetes) is set; use -shard K/N", s)
}

// DefaultSyncEvery is how often a shard under an SPRT reads the batch
// folder to learn whether the merged test has decided.
const DefaultSyncEvery = 10 * time.Second

// watchBatch cancels stop once the batch's merged SPRT has decided, reading
// the batch folder every interval until ctx ends, and sends a Notice.
func (m *Match) watchBatch(ctx context.Context, stop context.CancelFunc, s *stream) {
	every := m.SyncEvery
	if every <= 0 {
		every = DefaultSyncEvery
	}
	t := time.NewTicker(every)
	defer t.Stop()
	var r batch.Reader
	for {
		if m.batchDecided(&r, s) {
			stop()
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// batchDecided reads the batch folder and reports whether its SPRT has
// decided. A folder that cannot be read now (a shard starting) is read
// again next time.
func (m *Match) batchDecided(r *batch.Reader, s *stream) bool {
	b, err := r.Read(m.Out)
	if err != nil || b.Decided == 0 {
		return false
	}
	s.send(BatchDecided{Decision: b.Decision, Games: b.Decided})
	return true
}

// BatchDecided: the SPRT of the batch this shard belongs to has decided,
// counting every shard's games in the batch's order; the shard starts no
// more games (the ones in progress finish).
type BatchDecided struct {
	Decision rating.Decision
	Games    int // games counted when it decided
}

func (BatchDecided) update() {}
