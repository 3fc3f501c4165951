package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gomoku-arena/internal/slurmtest"
)

// A batch submitted as a Slurm job array (numbered from 3, so the shard is
// the task id less SLURM_ARRAY_TASK_MIN) on a real single-node cluster,
// each task running `arena match ... -shard auto`, merges into the games
// and statistics of one process playing the batch. Skips, naming what is
// missing, without slurm-wlm and munge or without root.
func TestSlurmJobArrayBatch(t *testing.T) {
	c := slurmtest.Start(t)
	// The arena binary: this test binary, which is the arena command under
	// ARENA_TEST_MAIN=1, copied where slurmd's jobs can run it.
	bin := filepath.Join(c.Dir, "arena")
	copyFile(t, bin)
	batch := filepath.Join(c.Dir, "batch")
	var quoted []string
	for _, a := range batchArgs(batch, "-shard", "auto") {
		quoted = append(quoted, "'"+strings.ReplaceAll(a, "'", `'\''`)+"'")
	}
	script := filepath.Join(c.Dir, "arena-array.sh")
	body := "#!/bin/sh\nexport ARENA_TEST_MAIN=1\nexec " + bin + " " + strings.Join(quoted, " ") + "\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	logs := filepath.Join(c.Dir, "log", "arena-%A_%a.out")
	job, err := c.Submit("--array=3-5", "-o", logs, script)
	if err != nil {
		t.Fatalf("%v\n%s", err, c.Logs())
	}
	if err := c.Wait(job, 2*time.Minute); err != nil {
		t.Fatalf("%v\n%s", err, c.Logs())
	}
	mo, me, code := runArena(t, "merge", batch)
	if code != 0 {
		t.Fatalf("merge: exit %d\n%s%s\n%s", code, mo, me, c.Logs())
	}
	if !strings.Contains(mo, "3 of 3 shards, 36 games") {
		t.Errorf("the array did not play 3 shards of 36 games:\n%s\n%s", mo, c.Logs())
	}
	whole := filepath.Join(t.TempDir(), "whole")
	wo, we, code := runArena(t, batchArgs(whole)...)
	if code != 0 {
		t.Fatalf("one process: exit %d\n%s%s", code, wo, we)
	}
	if a, b := gamesByNumber(mustJournal(t, filepath.Join(batch, "journal.jsonl"))), gamesByNumber(mustJournal(t, filepath.Join(whole, "journal.jsonl"))); a != b {
		t.Errorf("the Slurm batch's games differ from one process's:\n%s\nwant\n%s", a, b)
	}
	if a, b := summaryOf(mo), summaryOf(wo); a != b {
		t.Errorf("the Slurm batch's statistics differ from one process's:\n%s\nwant\n%s", a, b)
	}
}

// copyFile copies this test binary to dst, executable.
func copyFile(t *testing.T, dst string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(fmt.Errorf("%s: %w", dst, err))
	}
}
