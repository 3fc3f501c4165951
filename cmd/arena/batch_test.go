package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gomoku-arena/results/journal"
	"gomoku-arena/results/record"
)

// batchArgs is a deterministic batch: greedy and a depth-limited search
// play the same moves every time, from openings dealt by the seed (random
// order, random symmetry per pair).
func batchArgs(out string, extra ...string) []string {
	args := []string{"match", "-quiet", "-report", "0", "-games", "12", "-opening-policy", "arbiter-opens",
		"-order", "random", "-transform", "random", "-seed", "7", "-records", "none", "-out", out}
	args = append(args, extra...)
	return append(args, "builtin:greedy", "deep=builtin:search depth=2 nodes=3000", "shallow=builtin:search depth=1 nodes=3000")
}

// summaryOf is the final summary a match or a merge prints: from the
// first stats line to the line naming where the games went.
func summaryOf(out string) string {
	var keep []string
	lines := strings.Split(out, "\n")
	for len(lines) > 0 && !strings.HasPrefix(lines[0], "stats  ") {
		lines = lines[1:]
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "games written") || strings.HasPrefix(l, "merged into") || strings.HasPrefix(l, "samples written") {
			break
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "\n")
}

func mustJournal(t *testing.T, path string) []*record.Record {
	t.Helper()
	recs, err := journal.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// A batch played as three shards and merged has the games, statistics and
// rating list of one process playing it whole, and the same training
// samples, byte for byte.
func TestShardedBatchEqualsOneProcess(t *testing.T) {
	dir := t.TempDir()
	for _, format := range []string{"bin", "csv"} {
		t.Run(format, func(t *testing.T) {
			sampleArg := "freq=0.5,format=" + format + ",file=" + filepath.Join(dir, format+".whole")
			whole := filepath.Join(dir, "whole-"+format)
			wo, we, code := runArena(t, batchArgs(whole, "-sample", sampleArg)...)
			if code != 0 {
				t.Fatalf("one process: exit %d\n%s%s", code, wo, we)
			}
			batch := filepath.Join(dir, "batch-"+format)
			for k := range 3 {
				if o, e, code := runArena(t, batchArgs(batch, "-shard", fmt.Sprintf("%d/3", k), "-sample", sampleArg)...); code != 0 {
					t.Fatalf("shard %d: exit %d\n%s%s", k, code, o, e)
				}
			}
			mo, me, code := runArena(t, "merge", batch)
			if code != 0 {
				t.Fatalf("merge: exit %d\n%s%s", code, mo, me)
			}
			if a, b := gamesByNumber(mustJournal(t, filepath.Join(batch, "journal.jsonl"))), gamesByNumber(mustJournal(t, filepath.Join(whole, "journal.jsonl"))); a != b {
				t.Errorf("merged games differ from one process's:\n%s\nwant\n%s", a, b)
			}
			if a, b := summaryOf(mo), summaryOf(wo); a != b || !strings.Contains(a, "rating list") || !strings.Contains(a, "ptnml") {
				t.Errorf("merged statistics differ from one process's:\n%s\nwant\n%s", a, b)
			}
			got, err1 := os.ReadFile(filepath.Join(batch, format+".whole"))
			want, err2 := os.ReadFile(filepath.Join(dir, format+".whole"))
			if err1 != nil || err2 != nil || len(want) == 0 || !bytes.Equal(got, want) {
				t.Errorf("merged samples (%d bytes, %v) differ from one process's (%d bytes, %v)", len(got), err1, len(want), err2)
			}
			// Each shard kept only its own share.
			for k := range 3 {
				n := len(mustJournal(t, filepath.Join(batch, fmt.Sprintf("shard-%d-of-3", k), "journal.jsonl")))
				if n != 12 {
					t.Errorf("shard %d played %d games, want 12 (18 pairs dealt to 3 shards)", k, n)
				}
			}
		})
	}
}

// arena merge of a batch with a shard never started names the shard and
// the games missing, merges what there is and ends in an error (what a
// killed and requeued shard does to the batch: event.TestKilledShardRequeued).
func TestMergeNamesAShardNeverStarted(t *testing.T) {
	batch := filepath.Join(t.TempDir(), "batch")
	if o, e, code := runArena(t, "match", "-quiet", "-rule", "freestyle", "-games", "4", "-tc", "30s", "-out", batch, "-shard", "1/2",
		"builtin:greedy", "builtin:random"); code != 0 {
		t.Fatalf("shard 1/2: exit %d\n%s%s", code, o, e)
	}
	o, e, code := runArena(t, "merge", batch)
	if code != exitError || !strings.Contains(o, "shard 0 of 2: no folder") || !strings.Contains(o, "2 of 4 games missing") || !strings.Contains(e, "incomplete batch: 2 games missing") {
		t.Errorf("merging a batch with a shard never started: exit %d, want the shard and the missing games named\n%s%s", code, o, e)
	}
}

// A game journaled by two shards is named with both folders and the batch
// is not merged.
func TestMergeRefusesDuplicates(t *testing.T) {
	batch := filepath.Join(t.TempDir(), "batch")
	for _, k := range []string{"0/2", "1/2"} {
		if o, e, code := runArena(t, batchArgs(batch, "-shard", k)...); code != 0 {
			t.Fatalf("shard %s: exit %d\n%s%s", k, code, o, e)
		}
	}
	first, _ := os.ReadFile(filepath.Join(batch, "shard-0-of-2", "journal.jsonl"))
	line, _, _ := strings.Cut(string(first), "\n")
	f, err := os.OpenFile(filepath.Join(batch, "shard-1-of-2", "journal.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(line + "\n")
	f.Close()
	o, e, code := runArena(t, "merge", batch)
	if code == 0 || !strings.Contains(o, "journaled 2 times") || !strings.Contains(o, "belongs to shard 0") || !strings.Contains(e, "not merged") {
		t.Errorf("merge of a duplicate: exit %d\n%s%s", code, o, e)
	}
	if _, err := os.Stat(filepath.Join(batch, "journal.jsonl")); err == nil {
		t.Errorf("a batch with duplicates was merged")
	}
}

// Shards of a batch under an SPRT read the batch folder and stop once the
// merged test decides; the merge reports the decision, at the game count
// one process playing the batch reaches it, and the games played after.
func TestSPRTAcrossShards(t *testing.T) {
	dir := t.TempDir()
	args := func(out string, extra ...string) []string {
		a := []string{"match", "-quiet", "-report", "0", "-rule", "freestyle", "-games", "200", "-tc", "30s",
			"-sprt", "elo0=0,elo1=100", "-records", "none", "-out", out}
		a = append(a, extra...)
		return append(a, "slow=builtin:faulty think=20ms", "builtin:greedy")
	}
	batch := filepath.Join(dir, "batch")
	var shards []*bytes.Buffer
	done := make(chan error, 2)
	for k := range 2 {
		cmd, buf := startArena(t, nil, args(batch, "-shard", fmt.Sprintf("%d/2", k), "-sync", "100ms")...)
		shards = append(shards, buf)
		go func() { done <- cmd.Wait() }()
	}
	for range 2 {
		if err := <-done; err != nil {
			t.Fatalf("a shard failed: %v\n%s\n%s", err, shards[0], shards[1])
		}
	}
	for k, buf := range shards {
		if !strings.Contains(buf.String(), "accepted across the batch") {
			t.Errorf("shard %d did not hear of the decision:\n%s", k, buf)
		}
	}
	mo, me, code := runArena(t, "merge", batch)
	if code != 0 {
		t.Fatalf("merge: exit %d\n%s%s", code, mo, me)
	}
	wo, we, code := runArena(t, args(filepath.Join(dir, "whole"))...)
	if code != 0 {
		t.Fatalf("one process: exit %d\n%s%s", code, wo, we)
	}
	// The same verdict; and after the same games wherever the batch holds
	// every game the one process counted. Which games a shard plays before
	// it hears of the decision depends on timing: a game of that prefix
	// left unplayed moves the merge's decision to a later game, never
	// elsewhere.
	decision := regexp.MustCompile(`SPRT: (H[01]) accepted after (\d+) games`)
	a, b := decision.FindStringSubmatch(mo), decision.FindStringSubmatch(wo)
	if a == nil || b == nil || a[1] != b[1] {
		t.Fatalf("merge decided %q, one process %q\n%s", a, b, mo)
	}
	recs := mustJournal(t, filepath.Join(batch, "journal.jsonl"))
	played := map[int]bool{}
	for _, r := range recs {
		played[r.Game] = true
	}
	whole, _ := strconv.Atoi(b[2])
	prefix := true
	for g := 1; g <= whole; g++ {
		prefix = prefix && played[g]
	}
	merged, _ := strconv.Atoi(a[2])
	if prefix && merged != whole || merged < whole {
		t.Errorf("merge decided after %d games, one process after %d (the batch holds all of its first %d: %v)\n%s", merged, whole, whole, prefix, mo)
	}
	if !regexp.MustCompile(`\d+ games played after the decision`).MatchString(mo) {
		t.Errorf("the merge does not count the games after the decision:\n%s", mo)
	}
	if n := len(recs); n >= 100 {
		t.Errorf("the shards played %d games: they did not stop", n)
	}
}

// arena gomoku-cli takes c-gomoku-cli's -sample tokens and writes the
// samples of every game, checked here against the layout: csv lines of
// "position,move,result" with every engine move of the decided games, and
// a bin file whose entries the layout reader splits whole.
func TestGomokuCliSample(t *testing.T) {
	dir := t.TempDir()
	csv, bin := filepath.Join(dir, "s.csv"), filepath.Join(dir, "s.bin")
	for _, s := range [][]string{{"format=csv", "file=" + csv}, {"freq=1.0", "format=bin", "file=" + bin}} {
		args := []string{"gomoku-cli", "-each", "tc=0/5", "-engine", "cmd=builtin:search nodes=300", "-engine", "cmd=builtin:greedy",
			"-games", "2", "-rule", "0", "-sample"}
		if out, errOut, code := runArena(t, append(args, s...)...); code != 0 {
			t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
		}
	}
	b, err := os.ReadFile(csv)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	form := regexp.MustCompile(`^([a-o]([1-9]|1[0-5]))*,[a-o]([1-9]|1[0-5]),[012]$`)
	for i, l := range lines {
		if !form.MatchString(l) {
			t.Fatalf("line %d %q: not position,move,result", i+1, l)
		}
	}
	raw, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	entries := 0
	for len(raw) > 0 {
		ply := int(uint16(raw[0])|uint16(raw[1])<<8) >> 2 & 0x1ff
		if len(raw) < 4+2*ply {
			t.Fatalf("entry %d cut", entries)
		}
		raw = raw[4+2*ply:]
		entries++
	}
	if entries != len(lines) || entries == 0 {
		t.Errorf("%d bin entries, %d csv lines: the same games give the same positions", entries, len(lines))
	}
	if _, _, code := runArena(t, "gomoku-cli", "-engine", "cmd=builtin:greedy", "-engine", "cmd=builtin:greedy", "-sample", "format=zip"); code != exitUsage {
		t.Errorf("-sample format=zip: exit %d, want a usage error", code)
	}
}

// Shards of different commands in one batch folder are not merged: the
// merge names the setting that differs.
func TestMergeRefusesShardsOfDifferentMatches(t *testing.T) {
	batch := filepath.Join(t.TempDir(), "batch")
	if o, e, code := runArena(t, batchArgs(batch, "-shard", "0/2")...); code != 0 {
		t.Fatalf("shard 0: exit %d\n%s%s", code, o, e)
	}
	if o, e, code := runArena(t, batchArgs(batch, "-shard", "1/2", "-seed", "8")...); code != 0 {
		t.Fatalf("shard 1: exit %d\n%s%s", code, o, e)
	}
	if o, e, code := runArena(t, "merge", batch); code == 0 || !strings.Contains(e, "hold different matches (match.seed: 7 in the folder, 8 now)") {
		t.Errorf("merge of two commands' shards: exit %d\n%s%s", code, o, e)
	}
	// The same shard run with another command is refused by its folder.
	if o, e, code := runArena(t, batchArgs(batch, "-shard", "0/2", "-seed", "8")...); code == 0 || !strings.Contains(e, "shard-0-of-2 holds a different match") {
		t.Errorf("shard 0 again with another seed: exit %d\n%s%s", code, o, e)
	}
}

// A shard's journal is checked as resume checks it, and the batch folder's
// files are written through no link planted there (issue 27).
func TestMergeTrustsNoShard(t *testing.T) {
	batch := filepath.Join(t.TempDir(), "batch")
	sampleArg := "freq=1,format=csv,file=" + filepath.Join(t.TempDir(), "s.csv")
	for _, k := range []string{"0/2", "1/2"} {
		if o, e, code := runArena(t, batchArgs(batch, "-shard", k, "-sample", sampleArg)...); code != 0 {
			t.Fatalf("shard %s: exit %d\n%s%s", k, code, o, e)
		}
	}
	path := filepath.Join(batch, "shard-1-of-2", "journal.jsonl")
	orig, _ := os.ReadFile(path)
	lines := strings.SplitAfter(string(orig), "\n")
	five := -1
	for i, l := range lines {
		if l != "" && decodeLine(t, l).End == record.Five {
			five = i
			break
		}
	}
	if five < 0 {
		t.Fatal("no game won by a five in shard 1")
	}
	forge := func(f func(*record.Record)) string {
		rec := decodeLine(t, lines[five])
		f(rec)
		b, _ := json.Marshal(rec)
		l := append([]string(nil), lines...)
		l[five] = string(b) + "\n"
		return strings.Join(l, "")
	}
	game := decodeLine(t, lines[five]).Game
	for _, tc := range []struct{ name, journal, want string }{
		{"winner flipped", forge(func(r *record.Record) { r.Winner = r.Winner.Opponent() }), fmt.Sprintf("journal.jsonl:%d: game %d", five+1, game)},
		{"colours exchanged", forge(func(r *record.Record) { r.Black, r.White = r.White, r.Black }), fmt.Sprintf("game %d (", game)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			os.WriteFile(path, []byte(tc.journal), 0o644)
			o, e, code := runArena(t, "merge", batch)
			if code == 0 || !strings.Contains(e, tc.want) {
				t.Errorf("merge of a forged shard: exit %d\n%s%s\nwant an error containing %q", code, o, e, tc.want)
			}
			if _, err := os.Stat(filepath.Join(batch, "journal.jsonl")); err == nil {
				t.Errorf("a forged batch was merged")
			}
		})
	}
	os.WriteFile(path, orig, 0o644)

	// Links planted where the merge writes: the files they point at stay.
	victim := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(victim, []byte("precious"), 0o644)
	for _, name := range []string{"games.sgf", "s.csv", "journal.jsonl", "event.json"} {
		if err := os.Symlink(victim, filepath.Join(batch, name)); err != nil {
			t.Fatal(err)
		}
	}
	if o, e, code := runArena(t, "merge", batch); code != 0 {
		t.Fatalf("merge: exit %d\n%s%s", code, o, e)
	}
	if b, _ := os.ReadFile(victim); string(b) != "precious" {
		t.Errorf("the merge wrote through a planted link: %q", b)
	}
	for _, name := range []string{"games.sgf", "s.csv", "journal.jsonl", "event.json"} {
		if fi, err := os.Lstat(filepath.Join(batch, name)); err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 {
			t.Errorf("%s is not the merge's own file: %v %v", name, fi, err)
		}
	}
	// -records files: a games folder that is a link is refused, not
	// written through.
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(batch, "games")); err != nil {
		t.Fatal(err)
	}
	if o, e, code := runArena(t, "merge", "-records", "files", batch); code == 0 || !strings.Contains(e, "link") {
		t.Errorf("merge into a linked games folder: exit %d\n%s%s", code, o, e)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("the merge wrote %d files through the linked games folder", len(entries))
	}
}

// arena match -sample with a relative file and no -shard writes the
// samples into the match folder, beside its journal, not into the current
// directory; the summary says where.
func TestMatchSamplesGoIntoTheMatchFolder(t *testing.T) {
	out := filepath.Join(t.TempDir(), "m")
	name := fmt.Sprintf("samples-%d.csv", os.Getpid())
	stdout, errOut, code := runArena(t, "match", "-games", "2", "-tc", "0", "-rule", "freestyle", "-size", "9", "-out", out,
		"-sample", "file="+name, "builtin:greedy", "builtin:random seed=1")
	defer os.Remove(name) // the old behaviour's file, if any
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, errOut)
	}
	if _, err := os.Stat(name); err == nil {
		t.Errorf("samples written into the current directory")
	}
	if b, err := os.ReadFile(filepath.Join(out, name)); err != nil || len(b) == 0 {
		t.Errorf("no samples in the match folder: %v", err)
	}
	if !strings.Contains(stdout, "samples written to "+filepath.Join(out, name)) {
		t.Errorf("the summary does not say where the samples are:\n%s", stdout)
	}
}

func decodeLine(t *testing.T, line string) *record.Record {
	t.Helper()
	rec := new(record.Record)
	if err := json.Unmarshal([]byte(line), rec); err != nil {
		t.Fatal(err)
	}
	return rec
}
