package event

import (
	"gomoku-arena/schedule"
	"strings"
	"testing"
)

// TestTaskShardFromTheEnvironment reads the shard of a job-array task as
// Slurm and Kubernetes describe it, including arrays numbered from an
// offset or by a step, and refuses what cannot be a shard, saying why.
func TestTaskShardFromTheEnvironment(t *testing.T) {
	for _, tc := range []struct {
		name string
		spec string
		env  map[string]string
		want schedule.Shard
		err  string
	}{
		{"given", "2/5", nil, schedule.Shard{Index: 2, Count: 5}, ""},
		{"none", "", nil, schedule.Shard{}, ""},
		{"slurm from 0", "auto", map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "4"}, schedule.Shard{Index: 3, Count: 4}, ""},
		{"slurm offset", "auto", map[string]string{"SLURM_ARRAY_TASK_ID": "12", "SLURM_ARRAY_TASK_MIN": "10", "SLURM_ARRAY_TASK_COUNT": "4"}, schedule.Shard{Index: 2, Count: 4}, ""},
		{"slurm step", "auto/3", map[string]string{"SLURM_ARRAY_TASK_ID": "9", "SLURM_ARRAY_TASK_MIN": "5", "SLURM_ARRAY_TASK_STEP": "2", "SLURM_ARRAY_TASK_COUNT": "3"}, schedule.Shard{Index: 2, Count: 3}, ""},
		{"slurm count disagrees", "auto/8", map[string]string{"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "4"}, schedule.Shard{}, "has 4 tasks, not 8"},
		{"slurm list not a range", "auto", map[string]string{"SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "3"}, schedule.Shard{}, "one range"},
		{"slurm garbage", "auto", map[string]string{"SLURM_ARRAY_TASK_ID": "x"}, schedule.Shard{}, `SLURM_ARRAY_TASK_ID="x"`},
		{"kubernetes", "auto/8", map[string]string{"JOB_COMPLETION_INDEX": "7"}, schedule.Shard{Index: 7, Count: 8}, ""},
		{"kubernetes without count", "auto", map[string]string{"JOB_COMPLETION_INDEX": "7"}, schedule.Shard{}, "auto/N"},
		{"kubernetes past the count", "auto/4", map[string]string{"JOB_COMPLETION_INDEX": "4"}, schedule.Shard{}, "0 <= K < N"},
		{"no array", "auto", nil, schedule.Shard{}, "not in a job array"},
		{"bad auto", "auto/x", nil, schedule.Shard{}, "auto/N"},
		// One bound for every way a count arrives (bounds.MaxShards):
		// past it, a task would wait on billions of folders.
		{"given past the bound", "0/4294967297", nil, schedule.Shard{}, "at most 65536"},
		{"auto/N past the bound", "auto/4294967297", map[string]string{"JOB_COMPLETION_INDEX": "0"}, schedule.Shard{}, "1 to 65536"},
		{"slurm count past the bound", "auto", map[string]string{"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "4294967297"}, schedule.Shard{}, "at most 65536"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := TaskShard(tc.spec, func(k string) string { return tc.env[k] })
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %v, %v; want an error saying %q", got, err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}
