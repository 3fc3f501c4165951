package event

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"gomoku-arena/event/identity"
	"gomoku-arena/event/outfolder"
	"gomoku-arena/event/outputs"
	"gomoku-arena/event/spread"
	"gomoku-arena/event/tables"
	"gomoku-arena/internal/config"
	"gomoku-arena/results/journal"
	"gomoku-arena/schedule"
)

// spreadConfig is a deterministic event of five engines (greedy, and the
// faulty engine's plain play; one bye a round) in dir/out.
func spreadConfig(t *testing.T, dir, format string) *config.Event {
	t.Helper()
	src := "name = \"spread\"\nrule = \"freestyle\"\nformat = \"" + format + "\"\nrounds = 4\noutput = \"out\"\n[clock]\nmatch = \"30s\"\n"
	for i := range 5 {
		cmd := "builtin:greedy"
		if i%2 == 1 {
			cmd = "builtin:faulty"
		}
		src += fmt.Sprintf("[[engine]]\nname = \"e%d\"\ncommand = %q\n", i, cmd)
	}
	path := filepath.Join(dir, "spread.toml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// The tasks of a spread event, run at once in this process, merge into the
// event one process plays: the same records (games, byes) and standings.
func TestSpreadEventEqualsOneProcess(t *testing.T) {
	defer func(p time.Duration) { spreadPoll = p }(spreadPoll)
	spreadPoll = 10 * time.Millisecond
	for _, format := range []string{"round-robin", "swiss"} {
		t.Run(format, func(t *testing.T) {
			cfg := spreadConfig(t, t.TempDir(), format)
			var wg sync.WaitGroup
			errs := make([]error, 3)
			for k := range 3 {
				ev, err := NewTask(cfg, schedule.Shard{Index: k, Count: 3})
				if err != nil {
					t.Fatal(err)
				}
				wg.Go(func() { _, errs[k] = ev.Run(context.Background(), context.Background(), newRecorder()) })
			}
			wg.Wait()
			for k, err := range errs {
				if err != nil {
					t.Fatalf("task %d: %v", k, err)
				}
			}
			out := cfg.OutputDir()
			m, err := spread.Merge(out)
			if err != nil {
				t.Fatal(err)
			}
			if p := m.Problems(); len(p) > 0 {
				t.Fatalf("problems: %q", p)
			}
			if _, err := m.Write(); err != nil {
				t.Fatal(err)
			}
			if _, err := m.Write(); err != nil {
				t.Errorf("merged again: %v", err)
			}
			whole := spreadConfig(t, t.TempDir(), format)
			ev, err := New(whole)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := ev.Run(context.Background(), context.Background(), newRecorder()); err != nil {
				t.Fatal(err)
			}
			a, b := recordsOf(t, out), recordsOf(t, whole.OutputDir())
			if a != b {
				t.Errorf("merged records\n%s\nwant\n%s", a, b)
			}
			for _, f := range []string{"standings.json", "crosstable.json"} {
				x, _ := os.ReadFile(filepath.Join(out, f))
				y, _ := os.ReadFile(filepath.Join(whole.OutputDir(), f))
				if len(x) == 0 || string(x) != string(y) {
					t.Errorf("%s:\n%s\nwant\n%s", f, x, y)
				}
			}
			// A journal of another event in the folder is not merged over.
			other, _ := os.ReadFile(filepath.Join(whole.OutputDir(), outfolder.JournalFile))
			lines := strings.SplitAfter(string(other), "\n")
			lines[0] = strings.Replace(lines[0], `"black":"e`, `"black":"x`, 1)
			os.WriteFile(filepath.Join(out, outfolder.JournalFile), []byte(strings.Join(lines, "")), 0o644)
			if _, err := m.Write(); err == nil || !strings.Contains(err.Error(), "which no task journaled") {
				t.Errorf("merged over another journal: %v", err)
			}
		})
	}
}

// recordsOf lists a journal's records without their times, one a line, in
// the journal's order after sorting as the merge does.
func recordsOf(t *testing.T, dir string) string {
	t.Helper()
	recs, err := journal.Read(filepath.Join(dir, outfolder.JournalFile))
	if err != nil {
		t.Fatal(err)
	}
	spread.SortRecords(recs)
	var lines []string
	for _, r := range recs {
		lines = append(lines, fmt.Sprintf("round %d game %d %s %s %v %s %d moves", r.Round, r.Game, r.Black, r.White, r.Winner, r.End, len(r.Moves)))
	}
	return strings.Join(lines, "\n")
}

// A game journaled by two tasks, or by a task it does not belong to, is
// named and the event is not merged.
func TestMergeSpreadRefusesDoubledAndMisplacedGames(t *testing.T) {
	cfg := spreadConfig(t, t.TempDir(), "round-robin")
	var wg sync.WaitGroup
	for k := range 2 {
		ev, err := NewTask(cfg, schedule.Shard{Index: k, Count: 2})
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() { ev.Run(context.Background(), context.Background(), newRecorder()) })
	}
	wg.Wait()
	out := cfg.OutputDir()
	task1 := filepath.Join(out, "shard-1-of-2", outfolder.JournalFile)
	clean, _ := os.ReadFile(task1)
	first, _, _ := strings.Cut(string(clean), "\n")
	// Task 0's first game, journaled by task 1 too.
	t0, _ := os.ReadFile(filepath.Join(out, "shard-0-of-2", outfolder.JournalFile))
	var game0 string
	for _, l := range strings.Split(string(t0), "\n") {
		if strings.Contains(l, `"game":`) && !strings.Contains(l, `"end":"bye"`) {
			game0 = l
			break
		}
	}
	os.WriteFile(task1, []byte(string(clean)+game0+"\n"), 0o644)
	m, err := spread.Merge(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Write(); err == nil || !strings.Contains(err.Error(), "journaled more than once") {
		t.Errorf("a doubled game merged: %v", err)
	}
	// Moved rather than doubled: misplaced.
	os.WriteFile(filepath.Join(out, "shard-0-of-2", outfolder.JournalFile), []byte(strings.Replace(string(t0), game0+"\n", "", 1)), 0o644)
	m, err = spread.Merge(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Write(); err == nil || !strings.Contains(err.Error(), "belongs to task 0") {
		t.Errorf("a misplaced game merged: %v (task 1's first line %s)", err, first)
	}
}

// Remote entrants connect to one server: their event is not spread.
func TestSpreadRefusesRemoteEntrants(t *testing.T) {
	cfg := spreadConfig(t, t.TempDir(), "round-robin")
	cfg.Engines[1] = config.Engine{Name: cfg.Engines[1].Name, Remote: true}
	if _, err := NewTask(cfg, schedule.Shard{Index: 0, Count: 2}); err == nil || !strings.Contains(err.Error(), "remote") {
		t.Errorf("err = %v", err)
	}
}

// A forged Swiss round (two boards' colours exchanged in the pairer's
// round file, and in the journals that played them) matches itself, but
// not the pairing the seed and the results give: the merge refuses it and
// writes nothing, so that once the honest files are back the next merge
// goes through.
func TestMergeSpreadWritesNothingItRefuses(t *testing.T) {
	defer func(p time.Duration) { spreadPoll = p }(spreadPoll)
	spreadPoll = 10 * time.Millisecond
	cfg := spreadConfig(t, t.TempDir(), "swiss")
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for k := range 2 {
		ev, err := NewTask(cfg, schedule.Shard{Index: k, Count: 2})
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() { _, errs[k] = ev.Run(context.Background(), context.Background(), newRecorder()) })
	}
	wg.Wait()
	for k, err := range errs {
		if err != nil {
			t.Fatalf("task %d: %v", k, err)
		}
	}
	out := cfg.OutputDir()
	// Round 2's first two boards exchange colours, in the round file and
	// in every journal line of round 2 that names their entrants.
	roundPath := filepath.Join(out, "shard-0-of-2", spread.RoundsDir, "round-2.json")
	honestRound, _ := os.ReadFile(roundPath)
	var rf spread.RoundFile
	if err := json.Unmarshal(honestRound, &rf); err != nil {
		t.Fatal(err)
	}
	swapped := map[[2]string]bool{}
	for i := range rf.Pairings[:2] {
		p := &rf.Pairings[i]
		if p.White < 0 {
			t.Fatalf("round 2 board %d is a bye; the test wants two games", i+1)
		}
		swapped[[2]string{fmt.Sprintf("e%d", p.Black), fmt.Sprintf("e%d", p.White)}] = true
		p.Black, p.White = p.White, p.Black
	}
	forged, _ := json.Marshal(rf)
	os.WriteFile(roundPath, forged, 0o644)
	honest := map[string][]byte{}
	for k := range 2 {
		path := filepath.Join(out, fmt.Sprintf("shard-%d-of-2", k), outfolder.JournalFile)
		b, _ := os.ReadFile(path)
		honest[path] = b
		var lines []string
		for _, l := range strings.SplitAfter(string(b), "\n") {
			var m map[string]any
			if json.Unmarshal([]byte(l), &m) == nil && m["round"] == float64(2) && swapped[[2]string{fmt.Sprint(m["black"]), fmt.Sprint(m["white"])}] {
				m["black"], m["white"] = m["white"], m["black"]
				m["black_about"], m["white_about"] = m["white_about"], m["black_about"]
				for _, k := range []string{"black_about", "white_about"} {
					if m[k] == nil {
						delete(m, k)
					}
				}
				nb, _ := json.Marshal(m)
				l = string(nb) + "\n"
			}
			lines = append(lines, l)
		}
		os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644)
	}
	m, err := spread.Merge(out)
	if err != nil {
		t.Fatal(err)
	}
	if p := m.Problems(); len(p) > 0 {
		t.Fatalf("the forgery is not self-consistent (problems %q): the test no longer tests the schedule's check", p)
	}
	if _, err := m.Write(); err == nil || !strings.Contains(err.Error(), "not merged") {
		t.Errorf("a forged round merged: %v", err)
	}
	for _, f := range []string{outfolder.JournalFile, identity.File, "standings.md", tables.PageFile, outputs.GamesDir} {
		if _, err := os.Lstat(filepath.Join(out, f)); err == nil {
			t.Errorf("the refused merge wrote %s", f)
		}
	}
	// The honest files back: the merge goes through.
	os.WriteFile(roundPath, honestRound, 0o644)
	for path, b := range honest {
		os.WriteFile(path, b, 0o644)
	}
	m, err = spread.Merge(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Write(); err != nil {
		t.Fatalf("the honest merge after a refused one: %v", err)
	}
}
