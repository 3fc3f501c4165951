package slurmtest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestArrayTasksSeeTheirIndex runs a three-task job array and checks that each
// task saw the index and count a shard reads.
func TestArrayTasksSeeTheirIndex(t *testing.T) {
	c := Start(t)
	out := t.TempDir()
	os.Chmod(out, 0o777)
	script := filepath.Join(c.Dir, "job.sh")
	os.WriteFile(script, []byte("#!/bin/sh\necho \"$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT\" > "+out+"/task.$SLURM_ARRAY_TASK_ID\n"), 0o755)
	job, err := c.Submit("--array=0-2", "-o", filepath.Join(c.Dir, "log", "job-%A_%a.out"), script)
	if err != nil {
		t.Fatalf("%v\n%s", err, c.Logs())
	}
	if err := c.Wait(job, 2*time.Minute); err != nil {
		t.Fatalf("%v\n%s", err, c.Logs())
	}
	for i := range 3 {
		b, err := os.ReadFile(filepath.Join(out, fmt.Sprintf("task.%d", i)))
		if want := fmt.Sprintf("%d/3\n", i); err != nil || string(b) != want {
			t.Errorf("task %d wrote %q (%v), want %q\n%s", i, b, err, want, c.Logs())
		}
	}
}
