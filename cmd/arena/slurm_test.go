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
	"gomoku-arena/results/journal"
	"gomoku-arena/results/record"
)

// A batch submitted with the repository's jobs/slurm-array.sh as a Slurm
// job array (numbered from 3, so the shard is the task id less
// SLURM_ARRAY_TASK_MIN) on a real single-node cluster, each task running
// `arena match ... -shard auto`, merges into the games
// and statistics of one process playing the batch. Skips, naming what is
// missing, without slurm-wlm and munge or without root.
func TestSlurmJobArrayBatch(t *testing.T) {
	c := slurmtest.Start(t)
	// The arena binary: this test binary, which is the arena command under
	// ARENA_TEST_MAIN=1, copied where slurmd's jobs can run it.
	bin := filepath.Join(c.Dir, "arena")
	copyFile(t, bin)
	batch := filepath.Join(c.Dir, "batch")
	// The repository's job script, given the batch's match arguments as a
	// user gives them: everything but -out, which the script sets.
	var args []string
	for i, all := 1, batchArgs(batch); i < len(all); i++ {
		if all[i] == "-out" {
			i++
			continue
		}
		args = append(args, all[i])
	}
	script, err := filepath.Abs(filepath.Join("..", "..", "jobs", "slurm-array.sh"))
	if err != nil {
		t.Fatal(err)
	}
	logs := filepath.Join(c.Dir, "log", "arena-%A_%a.out")
	env := "--export=ALL,ARENA_TEST_MAIN=1,ARENA=" + bin + ",BATCH=" + batch
	job, err := c.Submit(append([]string{"--array=3-5", "-o", logs, env, script}, args...)...)
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

// A task of the array requeued by the scheduler while it plays (scontrol
// requeue, as a preemption or node failure does) runs the same command
// again and continues its shard: merged, every game of the batch is there
// once.
func TestSlurmRequeuedTaskContinues(t *testing.T) {
	if testing.Short() {
		t.Skip("a requeue waits for Slurm to restart the task: not in -short")
	}
	c := slurmtest.Start(t)
	bin := filepath.Join(c.Dir, "arena")
	copyFile(t, bin)
	batch := filepath.Join(c.Dir, "batch")
	script, err := filepath.Abs(filepath.Join("..", "..", "jobs", "slurm-array.sh"))
	if err != nil {
		t.Fatal(err)
	}
	env := "--export=ALL,ARENA_TEST_MAIN=1,ARENA=" + bin + ",BATCH=" + batch
	job, err := c.Submit("--array=0-1", "-o", filepath.Join(c.Dir, "log", "arena-%A_%a.out"), env, script,
		"-report", "0", "-rule", "freestyle", "-games", "16", "-tc", "30s", "-records", "none",
		"slow=builtin:faulty think=40ms", "builtin:greedy")
	if err != nil {
		t.Fatalf("%v\n%s", err, c.Logs())
	}
	shard := filepath.Join(batch, "shard-1-of-2", "journal.jsonl")
	deadline := time.Now().Add(time.Minute)
	for len(readJournalQuietly(shard)) < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("task 1 journaled no 2 games in a minute\n%s", c.Logs())
		}
		time.Sleep(50 * time.Millisecond)
	}
	before := len(readJournalQuietly(shard))
	if out, err := c.Command("scontrol", "requeue", job+"_1").CombinedOutput(); err != nil {
		t.Fatalf("scontrol requeue: %v: %s", err, out)
	}
	if err := c.Wait(job, 3*time.Minute); err != nil {
		t.Fatalf("%v\n%s", err, c.Logs())
	}
	recs := readJournalQuietly(shard)
	eachGameOnce(t, recs)
	if len(recs) != 8 || before >= 8 {
		t.Errorf("task 1 journaled %d games (%d before the requeue), want its 8 once each", len(recs), before)
	}
	mo, me, code := runArena(t, "merge", batch)
	if code != 0 || !strings.Contains(mo, "2 of 2 shards, 16 games") {
		t.Fatalf("merge: exit %d\n%s%s\n%s", code, mo, me, c.Logs())
	}
	logs, _ := filepath.Glob(filepath.Join(c.Dir, "log", "arena-*_1.out"))
	for _, l := range logs {
		if b, _ := os.ReadFile(l); !strings.Contains(string(b), "continuing") {
			t.Logf("task 1's log (the requeued run's, if Slurm kept it):\n%s", b)
		}
	}
}

func readJournalQuietly(path string) []*record.Record {
	recs, _ := journal.Read(path)
	return recs
}
