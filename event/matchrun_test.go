package event

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pierrec/lz4/v4"

	"gomoku-arena/clock"
	"gomoku-arena/event/batch"
	"gomoku-arena/event/outfolder"
	"gomoku-arena/event/outputs"
	"gomoku-arena/results/journal"
	"gomoku-arena/results/rating"
	"gomoku-arena/results/record"
	"gomoku-arena/results/sample"
	"gomoku-arena/rules"
)

// The end-to-end behaviour of authors' matches, as `arena match` plays
// them (cmd/arena keeps only what it parses and prints): an SPRT stopping
// early, a round robin's tallies and ratings, a match killed and continued,
// a second match refused a running one's folder, a forged record refused.

// playSetup is a freestyle match as arena match's flags give one: pairs
// from the empty board, one round, games per pair, every engine under ctl.
// An engine is NAME=COMMAND ARGS or COMMAND ARGS (named after the command).
// The fields are set one by one, as a front end sets them.
func playSetup(t testing.TB, out string, games int, ctl clock.Control, engines ...string) MatchSetup {
	t.Helper()
	var s MatchSetup
	rule, err := rules.ByName("freestyle")
	if err != nil {
		t.Fatal(err)
	}
	order, _ := ParseOrder("sequential")
	s.Name, s.Rule, s.Size, s.Order = "match", rule, 15, order
	s.Games, s.Rounds, s.Concurrency, s.Pairs, s.RuleOpenings, s.Out = games, 1, 1, true, true, out
	for _, arg := range engines {
		name, cmd, named := strings.Cut(arg, "=")
		if !named || strings.Contains(name, " ") {
			cmd = arg
			name = strings.TrimPrefix(strings.Fields(cmd)[0], "builtin:")
		}
		f := strings.Fields(cmd)
		s.Engines = append(s.Engines, EngineSettings{Name: name, Command: f[0], Args: f[1:], Clock: ctl})
	}
	UniqueEngineNames(s.Engines)
	return s
}

// turnOnly is arena match's -tc 0 -turn 5s: no match clock, 5 s a move.
var turnOnly = clock.Control{Turn: 5 * time.Second, Tolerance: clock.DefaultTolerance}

// playMatch builds s's match and runs it to its end.
func playMatch(t *testing.T, s MatchSetup) (*Match, *recorder) {
	t.Helper()
	m, err := s.Match()
	if err != nil {
		t.Fatal(err)
	}
	obs := newRecorder()
	if err := m.Run(context.Background(), context.Background(), obs); err != nil {
		t.Fatal(err)
	}
	return m, obs
}

// The decent bundled engine against random under an SPRT: a sweep, which
// the normalized model with bounds [0, 15] decides after 50 pairs (see
// results/sprt.go), far below the 400 games allowed; the match stops
// starting games once one game has decided it.
func TestMatchSPRTStopsEarlyWithH1(t *testing.T) {
	s := playSetup(t, t.TempDir(), 400, turnOnly, "builtin:search nodes=300", "builtin:random seed=1")
	s.Concurrency = 2
	s.SPRT = &rating.SPRT{Elo0: 0, Elo1: 15, Alpha: 0.05, Beta: 0.05, Model: rating.ModelNormalized}
	m, obs := playMatch(t, s)
	encs := m.Encounters()
	if len(encs) != 1 || encs[0].Decision != rating.H1 {
		t.Fatalf("encounters %+v, want one that accepted H1", encs)
	}
	decided := 0
	for _, g := range kinds[MatchGameCounted](obs) {
		if g.Decided {
			decided++
		}
	}
	if decided != 1 {
		t.Errorf("%d games decided the SPRT, want 1", decided)
	}
	recs := readJournal(t, s.Out)
	if len(recs) >= 400 || len(recs) < 20 {
		t.Errorf("%d games played; want an early stop well before 400", len(recs))
	}
	if p := encs[0].Penta; p[0]+p[1]+p[2]+p[3]+p[4] == 0 {
		t.Errorf("no pentanomial counts: %v", p)
	}
}

// A round robin of three plays each pair its games, tallies each pair,
// rates the three (Bradley–Terry), and appends every game's result to the
// PGN, which rating tools read.
func TestMatchRoundRobinRatingsAndPGN(t *testing.T) {
	dir := t.TempDir()
	s := playSetup(t, dir, 2, turnOnly, "builtin:greedy", "a=builtin:random seed=1", "b=builtin:random seed=2")
	s.Concurrency = 3
	s.PGN = filepath.Join(dir, "games.pgn")
	m, obs := playMatch(t, s)
	encs := m.Encounters()
	if len(encs) != 3 {
		t.Fatalf("%d encounters, want 3", len(encs))
	}
	for _, e := range encs {
		if e.WDL.Games() != 2 {
			t.Errorf("encounter %d-%d: %d games, want 2", e.First, e.Second, e.WDL.Games())
		}
	}
	if n := len(obs.finished()); n != 6 || m.GamesPlayed() != 6 {
		t.Errorf("%d games finished, %d counted; want 6 (3 encounters x 2)", n, m.GamesPlayed())
	}
	list, _, err := m.Ratings()
	if err != nil || len(list.Ratings) != 3 || len(list.LOS) != 3 {
		t.Fatalf("ratings %+v, %v", list, err)
	}
	names := map[string]bool{}
	for _, r := range list.Ratings {
		names[r.Name] = true
	}
	if !names["greedy"] || !names["a"] || !names["b"] {
		t.Errorf("rated %v", names)
	}
	b, err := os.ReadFile(s.PGN)
	if err != nil {
		t.Fatal(err)
	}
	if c := strings.Count(string(b), "[Result "); c != 6 {
		t.Errorf("%d results in the PGN, want 6:\n%s", c, b)
	}
}

// killedMatch is a deterministic match: the faulty engine plays the same
// moves every time, and greedy answers the same way (arena match -games 8
// -concurrency 2 -tc 30s).
func killedMatch(t testing.TB, out string, match time.Duration) MatchSetup {
	s := playSetup(t, out, 8, clock.Control{Match: match, Tolerance: clock.DefaultTolerance}, "slow=builtin:faulty think=30ms", "builtin:greedy")
	s.Concurrency = 2
	return s
}

// killedEnv tells the test binary run again by killedAt what to play
// until it is killed.
const killedEnv = "GOMOKU_ARENA_TEST_KILLED"

// killedAt runs the test t in a process of its own (this test binary run
// again, with killedEnv set to value), and kills it with SIGKILL once the
// journal at path holds n games. The test, finding killedEnv set, plays
// and never returns before it is killed (killedPlay).
func killedAt(t *testing.T, value, path string, n int) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "-test.run=^"+t.Name()+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), killedEnv+"="+value)
	var buf strings.Builder
	cmd.Stdout, cmd.Stderr = &buf, &buf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if recs, _ := journal.Read(path); len(recs) >= n {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("not %d games journaled in time:\n%s", n, buf.String())
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
}

// killedPlay plays s in the process killedAt kills.
func killedPlay(t *testing.T, s MatchSetup) {
	m, err := s.Match()
	if err == nil {
		err = m.Run(context.Background(), context.Background(), newRecorder())
	}
	if err != nil {
		t.Fatal(err)
	}
}

// An authors' match killed (SIGKILL) mid-run continues from the same
// settings and ends with exactly the games of an uninterrupted run, each
// game once, its game files written once; changed settings are refused,
// and once finished the same settings play nothing more.
func TestKilledMatchContinues(t *testing.T) {
	if out := os.Getenv(killedEnv); out != "" {
		killedPlay(t, killedMatch(t, out, 30*time.Second))
		return
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "m")
	killedAt(t, out, filepath.Join(out, outfolder.JournalFile), 3)
	files, _ := filepath.Glob(filepath.Join(out, "games", "*.sgf"))
	before := map[string]time.Time{}
	for _, f := range files {
		if st, err := os.Stat(f); err == nil {
			before[f] = st.ModTime()
		}
	}

	changed, err := killedMatch(t, out, 20*time.Second).Match()
	if err != nil {
		t.Fatal(err)
	}
	if err := changed.Run(context.Background(), context.Background(), newRecorder()); err == nil || !strings.Contains(err.Error(), "clock.match_ms: 30000 in the folder, 20000 now") {
		t.Errorf("changed settings: %v, want a refusal naming the clock", err)
	}
	_, obs := playMatch(t, killedMatch(t, out, 30*time.Second))
	if b := kinds[Began](obs); len(b) != 1 || b[0].Finished < 3 || b[0].Finished+len(obs.finished()) != 8 {
		t.Fatalf("continued: began %+v, played %d; want at least the 3 games before the kill finished, and the rest of 8 played", b, len(obs.finished()))
	}
	// Once finished, the same settings play nothing more.
	_, obs = playMatch(t, killedMatch(t, out, 30*time.Second))
	if b := kinds[Began](obs); len(b) != 1 || b[0].Finished != 8 || len(obs.finished()) != 0 {
		t.Fatalf("a finished match again: began %+v, %d games played", b, len(obs.finished()))
	}
	resumed := readJournal(t, out)
	eachGameOnce(t, resumed)
	for f, mod := range before {
		if st, err := os.Stat(f); err != nil || !st.ModTime().Equal(mod) {
			t.Errorf("%s was rewritten by the continued match", filepath.Base(f))
		}
	}
	for _, ext := range []string{"sgf", "psq"} {
		if files, _ = filepath.Glob(filepath.Join(out, "games", "*."+ext)); len(files) != 8 {
			t.Errorf("%d %s files, want 8", len(files), ext)
		}
	}

	whole := filepath.Join(dir, "whole")
	playMatch(t, killedMatch(t, whole, 30*time.Second))
	if a, b := gamesByNumber(resumed), gamesByNumber(readJournal(t, whole)); a != b {
		t.Errorf("the continued match differs from an uninterrupted one:\n%s\nwant\n%s", a, b)
	}
}

// eachGameOnce fails the test for a game journaled more than once.
func eachGameOnce(t *testing.T, recs []*record.Record) {
	t.Helper()
	seen := map[[2]int]int{}
	for _, r := range recs {
		seen[[2]int{r.Round, r.Game}]++
	}
	for k, n := range seen {
		if n != 1 {
			t.Errorf("round %d game %d journaled %d times", k[0], k[1], n)
		}
	}
}

// gamesByNumber lists the games by number: players, result and moves.
func gamesByNumber(recs []*record.Record) string {
	lines := make([]string, len(recs)+1)
	for _, r := range recs {
		if r.Game >= 0 && r.Game < len(lines) {
			var points []string
			for _, m := range r.Moves {
				points = append(points, fmt.Sprintf("%d,%d", m.Point.X, m.Point.Y))
			}
			lines[r.Game] = fmt.Sprintf("%d %s-%s %v %s  %s", r.Game, r.Black, r.White, r.Winner, r.End, strings.Join(points, " "))
		}
	}
	return strings.Join(lines, "\n")
}

// A second match on the folder of a running one is refused at once, naming
// the running one's pid, and leaves its journal alone.
func TestSecondMatchOnAFolderIsRefused(t *testing.T) {
	out := filepath.Join(t.TempDir(), "m")
	first, err := killedMatch(t, out, 30*time.Second).Match()
	if err != nil {
		t.Fatal(err)
	}
	obs := newRecorder()
	ran := make(chan error, 1)
	go func() { ran <- first.Run(context.Background(), context.Background(), obs) }()
	wait, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	waitFor[GameFinished](t, wait, obs, 1)
	second, err := killedMatch(t, out, 30*time.Second).Match()
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("in use by another arena (pid %d)", os.Getpid())
	if err := second.Run(context.Background(), context.Background(), newRecorder()); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("the second match: %v, want %q", err, want)
	}
	if err := <-ran; err != nil {
		t.Fatalf("the running match: %v", err)
	}
	recs := readJournal(t, out)
	if len(recs) != 8 {
		t.Fatalf("journal: %d records, want 8", len(recs))
	}
	eachGameOnce(t, recs)
}

// A match game's record replaced by another game's (another opening of the
// list, colours and number kept) is refused when the match is continued:
// the journal check compares every game's opening with the suite's deal,
// from the suite event.json records.
func TestMatchGameWithAnotherOpeningIsRefused(t *testing.T) {
	dir := t.TempDir()
	book := filepath.Join(dir, "book.txt")
	os.WriteFile(book, []byte("0,0\n-4,-4\n3,3\n-5,5\n"), 0o644)
	out := filepath.Join(dir, "m")
	setup := func() MatchSetup {
		s := playSetup(t, out, 4, clock.Control{Match: clock.DefaultMatch, Tolerance: clock.DefaultTolerance}, "builtin:greedy", "builtin:random")
		s.Openings = book
		return s
	}
	playMatch(t, setup())
	path := filepath.Join(out, outfolder.JournalFile)
	b, _ := os.ReadFile(path)
	lines := strings.SplitAfter(strings.TrimSuffix(string(b), "\n"), "\n")
	var first, third map[string]any
	json.Unmarshal([]byte(lines[0]), &first)
	json.Unmarshal([]byte(lines[2]), &third)
	for _, k := range []string{"game", "black", "white", "black_about", "white_about"} {
		if v, ok := first[k]; ok {
			third[k] = v
		} else {
			delete(third, k)
		}
	}
	forged, _ := json.Marshal(third)
	lines[0] = string(forged) + "\n"
	os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644)
	m, err := setup().Match()
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Run(context.Background(), context.Background(), newRecorder()); err == nil || !strings.Contains(err.Error(), "but the schedule deals game 1 [7,7]") {
		t.Errorf("continued over a game with another opening: %v; want an error naming game 1's opening", err)
	}
}

// shardSetup is shard ("" the whole) of a batch of 12 games a pair played
// into out, its games kept as one collection and its samples in
// dir/train.bin.lz4 (arena match -records collection -sample
// format=bin_lz4 -shard K/N).
func shardSetup(t testing.TB, dir, out, shard string) MatchSetup {
	s := killedMatch(t, out, 30*time.Second)
	s.Games, s.Records = 12, outputs.RecordsCollection
	f, err := sample.ParseFormat("bin_lz4")
	if err != nil {
		t.Fatal(err)
	}
	s.Sample = &outputs.Sampling{Freq: 1, Format: f, File: filepath.Join(dir, "train.bin.lz4")}
	if shard != "" {
		if s.Shard, err = TaskShard(shard, func(string) string { return "" }); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// A shard killed mid-batch and run again (what a scheduler's requeue does)
// continues from its journal: merged, nothing is lost and nothing played
// twice, the tallies are one process's, and its sample file is rebuilt
// from the journal.
func TestKilledShardRequeued(t *testing.T) {
	if v := os.Getenv(killedEnv); v != "" {
		dir, batchDir, _ := strings.Cut(v, "|")
		killedPlay(t, shardSetup(t, dir, batchDir, "1/2"))
		return
	}
	dir := t.TempDir()
	batchDir := filepath.Join(dir, "batchDir")
	shard := filepath.Join(batchDir, "shard-1-of-2")
	killedAt(t, dir+"|"+batchDir, filepath.Join(shard, outfolder.JournalFile), 2)
	if n := len(readJournal(t, shard)); n >= 6 {
		t.Fatalf("the shard finished (%d games) before it was killed; the test needs it mid-batchDir", n)
	}
	b, err := batch.Read(batchDir)
	if err != nil {
		t.Fatal(err)
	}
	if p := strings.Join(b.Problems(), "\n"); !strings.Contains(p, "shard 0 of 2: no folder") || len(b.Missing) == 0 {
		t.Errorf("a batchDir with a shard never started: problems %q, %d games missing; want the shard and the missing games named", p, len(b.Missing))
	}
	for _, k := range []string{"1/2", "0/2"} {
		playMatch(t, shardSetup(t, dir, batchDir, k))
	}
	if b, err = batch.Read(batchDir); err != nil {
		t.Fatal(err)
	}
	if p := b.Problems(); len(p) != 0 {
		t.Errorf("the requeued batchDir: %q", p)
	}
	s, err := b.Sampling()
	if err != nil || s == nil {
		t.Fatalf("sampling %v, %v", s, err)
	}
	if err := b.Write(); err != nil {
		t.Fatal(err)
	}
	if err := outputs.WriteSamples(filepath.Join(batchDir, filepath.Base(s.File)), s, b.Identity.Match.Seed, b.Records); err != nil {
		t.Fatal(err)
	}
	requeued := readJournal(t, shard)
	eachGameOnce(t, requeued)
	if len(requeued) != 6 {
		t.Errorf("the requeued shard journaled %d games, want its 6", len(requeued))
	}
	whole := filepath.Join(dir, "whole")
	m, _ := playMatch(t, shardSetup(t, dir, whole, ""))
	if a, b := gamesByNumber(readJournal(t, batchDir)), gamesByNumber(readJournal(t, whole)); a != b {
		t.Errorf("the requeued batchDir differs from one process's:\n%s\nwant\n%s", a, b)
	}
	if a, w := b.Encounters, m.Encounters(); len(a) != 1 || len(w) != 1 || a[0].WDL != w[0].WDL || a[0].Penta != w[0].Penta {
		t.Errorf("merged tallies %+v, one process's %+v", a, w)
	}
	// The samples of the killed shard were rebuilt, so the merge's file
	// holds every game's; the one process's file has the same entries (in
	// the order its games finished).
	got, want := readSamples(t, filepath.Join(batchDir, "train.bin.lz4")), readSamples(t, filepath.Join(dir, "train.bin.lz4"))
	slices.Sort(got)
	slices.Sort(want)
	if len(got) == 0 || !slices.Equal(got, want) {
		t.Errorf("merged samples: %d entries, one process %d, or they differ", len(got), len(want))
	}
}

// readSamples are the entries of a bin_lz4 sample file, each in hex.
func readSamples(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	raw, err := io.ReadAll(lz4.NewReader(f))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []string
	for len(raw) > 0 {
		if len(raw) < 4 {
			t.Fatalf("%s: %d bytes left, not an entry", path, len(raw))
		}
		ply := int(uint16(raw[0])|uint16(raw[1])<<8) >> 2 & 0x1ff
		n := 4 + 2*ply
		if len(raw) < n {
			t.Fatalf("%s: entry of %d bytes cut at %d", path, n, len(raw))
		}
		out = append(out, fmt.Sprintf("%x", raw[:n]))
		raw = raw[n:]
	}
	return out
}

// A match of two engines whose names map to one working folder is refused
// before anything is played, naming both (an event's:
// TestNamesApartHaveFilesApart).
func TestMatchNamesOfOneFolderAreRefused(t *testing.T) {
	out := filepath.Join(t.TempDir(), "m")
	m, err := playSetup(t, out, 2, turnOnly, "aé=builtin:greedy", "aè=builtin:random").Match()
	if err != nil {
		t.Fatal(err)
	}
	err = m.Run(context.Background(), context.Background(), newRecorder())
	if err == nil || !strings.Contains(err.Error(), `engines "aé" and "aè" would share the working folder engines/a__`) {
		t.Errorf("a match of two names of one folder: %v", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("refused, yet the output folder was made")
	}
}
