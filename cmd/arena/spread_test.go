package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"gomoku-arena/internal/slurmtest"
	"gomoku-arena/results/record"
)

// writeSpreadEvent writes a deterministic event of n engines (greedy, and
// the faulty engine's plain play slowed by think) into dir, its output
// "out" beside it; extra goes before the engines.
func writeSpreadEvent(t *testing.T, dir string, n int, think, extra string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("name = \"spread\"\nrule = \"freestyle\"\noutput = \"out\"\n" + extra + "\n[clock]\nmatch = \"30s\"\n")
	for i := range n {
		if i%2 == 0 {
			fmt.Fprintf(&b, "\n[[engine]]\nname = \"g%d\"\ncommand = \"builtin:greedy\"\n", i)
		} else {
			fmt.Fprintf(&b, "\n[[engine]]\nname = \"f%d\"\ncommand = \"builtin:faulty\"\nargs = [\"think=%s\"]\n", i, think)
		}
	}
	cfg := filepath.Join(dir, "spread.toml")
	if err := os.WriteFile(cfg, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// submitSpread submits the repository's jobs/slurm-event.sh as a job array
// of tasks playing cfg, the arena being this test binary.
func submitSpread(t *testing.T, c *slurmtest.Cluster, array, cfg string) string {
	t.Helper()
	bin := filepath.Join(c.Dir, "arena")
	if _, err := os.Stat(bin); err != nil {
		copyFile(t, bin)
	}
	script, err := filepath.Abs(filepath.Join("..", "..", "jobs", "slurm-event.sh"))
	if err != nil {
		t.Fatal(err)
	}
	job, err := c.Submit("--array="+array, "-o", filepath.Join(c.Dir, "log", "event-%A_%a.out"),
		"--export=ALL,ARENA_TEST_MAIN=1,ARENA="+bin, script, cfg)
	if err != nil {
		t.Fatalf("%v\n%s", err, c.Logs())
	}
	return job
}

// sameEvent checks that the merged spread event in out has the games,
// standings and tables of the one-process event in one.
func sameEvent(t *testing.T, out, one string, files ...string) {
	t.Helper()
	a, b := mustJournal(t, filepath.Join(out, "journal.jsonl")), mustJournal(t, filepath.Join(one, "journal.jsonl"))
	if x, y := recordLines(a), recordLines(b); x != y {
		t.Errorf("the spread event's journal differs from one process's:\n%s\nwant\n%s", x, y)
	}
	for _, f := range files {
		x, _ := os.ReadFile(filepath.Join(out, f))
		y, _ := os.ReadFile(filepath.Join(one, f))
		if len(x) == 0 || !bytes.Equal(x, y) {
			t.Errorf("%s differs:\nspread:\n%s\none process:\n%s", f, x, y)
		}
	}
}

// recordLines lists every record, games and byes, by round and game: the
// players, the result, the opening and the moves, all but the times.
func recordLines(recs []*record.Record) string {
	var lines []string
	for _, r := range recs {
		var points []string
		for _, m := range r.Moves {
			points = append(points, fmt.Sprintf("%d,%d", m.Point.X, m.Point.Y))
		}
		lines = append(lines, fmt.Sprintf("round %03d game %04d %s vs %s %v %s %s  %s", r.Round, r.Game, r.Black, r.White, r.Winner, r.End, r.Detail, strings.Join(points, " ")))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// noEngineTwice checks that no engine was in two games at once anywhere:
// each engine's games, by start, each finished before the next began (the
// tasks ran on one machine, so their clocks agree).
func noEngineTwice(t *testing.T, recs []*record.Record) {
	t.Helper()
	by := map[string][]*record.Record{}
	for _, r := range recs {
		if r.IsGame() {
			by[r.Black] = append(by[r.Black], r)
			by[r.White] = append(by[r.White], r)
		}
	}
	for name, games := range by {
		sort.Slice(games, func(i, j int) bool { return games[i].Start.Before(games[j].Start) })
		for i := 1; i < len(games); i++ {
			if games[i].Start.Before(games[i-1].Finish) {
				t.Errorf("%s played games %d and %d at once", name, games[i-1].Game, games[i].Game)
			}
		}
	}
}

// A league (mini-matches of 2 openings) played by a 4-task Slurm array from
// the repository's jobs/slurm-event.sh, merged, is the league one process
// plays: the same games and byes, standings, crosstable and pair table; no
// engine played two games at once. Outside -short, task 1 is requeued
// (killed) mid-game and run again by Slurm: nothing is lost or doubled.
func TestSlurmSpreadRoundRobin(t *testing.T) {
	c := slurmtest.Start(t)
	list := filepath.Join(c.Dir, "event", "openings.txt")
	os.MkdirAll(filepath.Dir(list), 0o755)
	os.WriteFile(list, []byte("0,0, 1,0\n0,0, 0,1\n0,0, 1,1\n"), 0o644)
	extra := "format = \"round-robin\"\nopenings = \"openings.txt\"\nopenings_per_pairing = 2\nseed = 4\n"
	n, think := 7, "15ms" // 21 mini-matches of 4 games
	if testing.Short() {
		n, think = 5, "5ms" // 10
	}
	games := n * (n - 1) / 2 * 4
	cfg := writeSpreadEvent(t, filepath.Join(c.Dir, "event"), n, think, extra)
	out := filepath.Join(c.Dir, "event", "out")
	job := submitSpread(t, c, "0-3", cfg)
	requeued := false
	if !testing.Short() {
		// Task 1 plays 21 pairings' mini-matches of 4 games, 4 of every 4:
		// requeue it once it has journaled some, with more to play.
		shard := filepath.Join(out, "shard-1-of-4", "journal.jsonl")
		deadline := time.Now().Add(2 * time.Minute)
		for len(readJournalQuietly(shard)) < 2 {
			if time.Now().After(deadline) {
				t.Fatalf("task 1 journaled no 2 games in 2 minutes\n%s", c.Logs())
			}
			time.Sleep(20 * time.Millisecond)
		}
		if n := len(readJournalQuietly(shard)); n >= 20 {
			t.Fatalf("task 1 finished (%d games) before it could be requeued", n)
		}
		if o, err := c.Command("scontrol", "requeue", job+"_1").CombinedOutput(); err != nil {
			t.Fatalf("scontrol requeue: %v: %s", err, o)
		}
		requeued = true
	}
	if err := c.Wait(job, 5*time.Minute); err != nil {
		t.Fatalf("%v\n%s", err, c.Logs())
	}
	if requeued {
		recs := readJournalQuietly(filepath.Join(out, "shard-1-of-4", "journal.jsonl"))
		eachGameOnce(t, recs)
		if len(recs) != 20 {
			t.Errorf("requeued task 1 journaled %d games, want its 5 mini-matches of 4 once each", len(recs))
		}
	}
	mo, me, code := runArena(t, "merge", out)
	if code != 0 || !strings.Contains(mo, fmt.Sprintf("4 of 4 tasks, %d games", games)) {
		t.Fatalf("merge: exit %d, want 4 tasks and %d games\n%s%s\n%s", code, games, mo, me, c.Logs())
	}
	merged := mustJournal(t, filepath.Join(out, "journal.jsonl"))
	eachGameOnce(t, merged)
	noEngineTwice(t, merged)

	oneCfg := writeSpreadEvent(t, filepath.Join(t.TempDir(), "one"), n, think, extra)
	os.WriteFile(filepath.Join(filepath.Dir(oneCfg), "openings.txt"), []byte("0,0, 1,0\n0,0, 0,1\n0,0, 1,1\n"), 0o644)
	if o, e, code := runArena(t, "run", "-quiet", "-no-check", oneCfg); code != 0 {
		t.Fatalf("one process: exit %d\n%s%s", code, o, e)
	}
	sameEvent(t, out, filepath.Join(filepath.Dir(oneCfg), "out"), "standings.json", "crosstable.json", "pairs.json")
}

// A Swiss of 14 entrants played by a 4-task Slurm array is the Swiss one
// process plays, round for round: the pairer (task 0) pairs each round from
// every task's journal once the round before is complete.
func TestSlurmSpreadSwiss(t *testing.T) {
	if testing.Short() {
		t.Skip("a Swiss of 14 over a Slurm array and in one process: not in -short")
	}
	c := slurmtest.Start(t)
	extra := "format = \"swiss\"\nrounds = 5\n"
	cfg := writeSpreadEvent(t, filepath.Join(c.Dir, "event"), 14, "5ms", extra)
	out := filepath.Join(c.Dir, "event", "out")
	job := submitSpread(t, c, "0-3", cfg)
	if err := c.Wait(job, 5*time.Minute); err != nil {
		t.Fatalf("%v\n%s", err, c.Logs())
	}
	mo, me, code := runArena(t, "merge", out)
	if code != 0 || !strings.Contains(mo, "4 of 4 tasks, 35 games") {
		t.Fatalf("merge: exit %d, want 4 tasks and 35 games\n%s%s\n%s", code, mo, me, c.Logs())
	}
	noEngineTwice(t, mustJournal(t, filepath.Join(out, "journal.jsonl")))
	oneCfg := writeSpreadEvent(t, filepath.Join(t.TempDir(), "one"), 14, "5ms", extra)
	if o, e, code := runArena(t, "run", "-quiet", "-no-check", oneCfg); code != 0 {
		t.Fatalf("one process: exit %d\n%s%s", code, o, e)
	}
	one := filepath.Join(filepath.Dir(oneCfg), "out")
	sameEvent(t, out, one, "standings.json", "crosstable.json")
	// Round for round: the pairer's report of the last round is the one
	// process's.
	a, _ := os.ReadFile(filepath.Join(out, "shard-0-of-4", "event.trf"))
	b, _ := os.ReadFile(filepath.Join(one, "event.trf"))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Errorf("the pairer's event.trf differs from one process's:\n%s\nwant\n%s", a, b)
	}
}

// A shard count past bounds.MaxShards is refused by every command that
// reads one, before anything is played or written: a task of 4294967297
// once played a game, then spun reading folders that could not exist.
func TestShardCountBeyondTheBound(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "e.toml")
	os.WriteFile(cfg, []byte("name = \"e\"\n[[engine]]\nname = \"a\"\ncommand = \"builtin:random\"\n[[engine]]\nname = \"b\"\ncommand = \"builtin:random\"\n"), 0o644)
	t.Chdir(dir)
	for _, args := range [][]string{
		{"run", "-quiet", "-shard", "0/4294967297", cfg},
		{"run", "-quiet", "-shard", "auto/65537", cfg},
		{"match", "-quiet", "-out", "batch", "-games", "2", "-shard", "0/4294967297", "builtin:random", "builtin:random"},
	} {
		_, errOut, code := runArena(t, args...)
		if code != 2 || !strings.Contains(errOut, "65536") {
			t.Errorf("arena %s: exit %d, %q; want exit 2 naming the bound 65536", strings.Join(args, " "), code, errOut)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("a refused shard left %d entries in the folder, want only the config", len(entries))
	}
}
