package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"gomoku-arena/internal/bundled"
	"gomoku-arena/internal/proctest"
	"gomoku-arena/results/journal"
)

// The test binary is also the arena command (ARENA_TEST_MAIN=1) and the
// bundled engines (engine NAME), so the tests run real subprocesses.
func TestMain(m *testing.M) {
	bundled.ServeIfAsked()
	if os.Getenv("ARENA_TEST_MAIN") == "1" {
		os.Exit(arena(commandLine(os.Args), os.Stdout, os.Stderr))
	}
	// The checks' memory (check.DefaultMemory) is the test run's own, not
	// the user's cache.
	cache, err := os.MkdirTemp("", "arena-test-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CACHE_HOME", cache)
	code := m.Run()
	os.RemoveAll(cache)
	os.Exit(code)
}

func runArena(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	code = arena(args, &o, &e)
	return o.String(), e.String(), code
}

// The README's demo, as the README runs it (a few seconds: it stays in
// -short).
func TestDemoConfigRunsAndResumes(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "demo.toml")
	src, err := os.ReadFile("../../configs/demo.toml")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(cfg, src, 0o644)
	t.Chdir(dir) // the demo writes to out/demo in the current directory
	out, errOut, code := runArena(t, "run", "-quiet", cfg)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "demo — standings") {
		t.Fatalf("no standings in\n%s", out)
	}
	recs, err := journal.Read(filepath.Join(dir, "out", "demo", "journal.jsonl"))
	if err != nil || len(recs) != 12 {
		t.Fatalf("journal: %v, %d records", err, len(recs))
	}
	// A demo shows what standings mean: every entrant its own place, on
	// points alone, the same on every machine (fixed depths and seeds).
	b, err := os.ReadFile(filepath.Join(dir, "out", "demo", "standings.json"))
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Standings []struct {
			Rank   int     `json:"rank"`
			RankTo int     `json:"rank_to"`
			Name   string  `json:"name"`
			Points float64 `json:"points"`
		} `json:"standings"`
	}
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range st.Standings {
		got = append(got, fmt.Sprintf("%d-%d %s %g", s.Rank, s.RankTo, s.Name, s.Points))
	}
	want := []string{"1-1 search 6", "2-2 search-d2 4", "3-3 greedy 2", "4-4 random 0"}
	if !slices.Equal(got, want) {
		t.Errorf("demo standings %q, want %q", got, want)
	}
	// Run again, it says what it continues (what the event does on a
	// continued run: event.TestTornJournalLineIsRepaired).
	out, errOut, code = runArena(t, "run", "-quiet", cfg)
	if code != 0 || !strings.Contains(out, "continuing demo: 12 games already finished") {
		t.Errorf("second run: exit %d\n%s\n%s", code, out, errOut)
	}
}

// writeEvent writes a small deterministic event: the faulty engine plays the
// same moves every time, so an interrupted run and an uninterrupted one must
// end with the same results. Its start timeout and tolerance are generous, so
// that a busy machine makes no forfeit the other run does not have.
func writeEvent(t *testing.T, dir, name, extra string) string {
	t.Helper()
	cfg := filepath.Join(dir, name+".toml")
	src := `name = "` + name + `"
rule = "freestyle"
format = "double-round-robin"
concurrency = 2
output = "out"
# no engine forfeits by the machine's load: only the crasher's crashes are faults
start_timeout = "2m"
` + extra + `
[clock]
match = "30s"
tolerance = "5s"

[[engine]]
name = "slow"
command = "builtin:faulty"
args = ["think=40ms"]

[[engine]]
name = "crasher"
command = "builtin:faulty"
args = ["crash-at=4", "think=20ms"]

[[engine]]
name = "greedy"
command = "builtin:greedy"

[[engine]]
name = "slower"
command = "builtin:faulty"
args = ["think=60ms", "spawn-child"]
`
	if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestKilledArbiterResumesWithEveryGameOnce(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg := writeEvent(t, dir, "killed", "")
	journalPath := filepath.Join(dir, "out", "journal.jsonl")

	cmd := exec.Command(self, "run", cfg)
	cmd.Env = append(os.Environ(), "ARENA_TEST_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		recs, _ := journal.Read(journalPath)
		if len(recs) >= 3 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no games journaled in time: %s", stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	proctest.WaitNoEngines(t, self)

	// The same command continues the event.
	out, errOut, code := runArena(t, "run", "-quiet", cfg)
	if code != 0 {
		t.Fatalf("resume: exit %d\n%s\n%s", code, out, errOut)
	}
	recs, err := journal.Read(journalPath)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[[2]int]int{}
	for _, r := range recs {
		seen[[2]int{r.Round, r.Game}]++
	}
	for k, n := range seen {
		if n != 1 {
			t.Errorf("round %d game %d journaled %d times", k[0], k[1], n)
		}
	}
	if len(recs) != 12 {
		t.Errorf("%d records, want the 12 games of a 4-entrant double round robin", len(recs))
	}

	// An uninterrupted run of the same event ends with the same standings.
	dir2 := t.TempDir()
	cfg2 := writeEvent(t, dir2, "killed", "")
	if _, errOut, code := runArena(t, "run", "-quiet", "-no-check", cfg2); code != 0 {
		t.Fatalf("uninterrupted: exit %d: %s", code, errOut)
	}
	a, _ := os.ReadFile(filepath.Join(dir, "out", "standings.json"))
	b, _ := os.ReadFile(filepath.Join(dir2, "out", "standings.json"))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Errorf("standings differ:\nresumed:\n%s\nuninterrupted:\n%s", a, b)
	}
	proctest.WaitNoEngines(t, self)
}

func TestCommandLineErrors(t *testing.T) {
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no command", nil, exitUsage, "usage: arena COMMAND"},
		{"unknown command", []string{"tourney"}, exitUsage, `unknown command "tourney"`},
		{"bad flag", []string{"match", "-gamez", "3", "a", "b"}, exitUsage, "flag provided but not defined: -gamez"},
		{"missing engine program", []string{"match", "-games", "1", "./no-such-engine", "builtin:random"}, exitError, `engine "no-such-engine": command "./no-such-engine": no such file or directory`},
		{"unknown bundled engine", []string{"match", "-games", "1", "builtin:grredy", "builtin:random"}, exitError, `no bundled engine "grredy"`},
		{"unknown rule", []string{"match", "-rule", "go", "builtin:random", "builtin:random"}, exitUsage, `unknown rule "go"`},
		{"missing config", []string{"run", "nope.toml"}, exitError, "nope.toml"},
		{"help", []string{"help", "match"}, exitOK, "-games"},
		{"pair a TRF", []string{"pair", "../../pairing/testdata/swiss5.trf"}, exitOK, "3\n2 1\n5 4\n3 0\n"},
		{"pair a file that is not TRF", []string{"pair", "../../README.md"}, exitError, "no player lines"},
		{"pair the JSON event form", []string{"pair", "../../pairing/testdata/swiss5.json"}, exitOK, "3\n2 1\n5 4\n3 0\n"},
		// Numbers from the command line are bounded as a config's are (issue 27).
		{"thousands of games at once", []string{"match", "-concurrency", "10000", "builtin:random", "builtin:random"}, exitUsage, "-concurrency: 10000: want 1 to 1024 games at once"},
		{"games past memory", []string{"match", "-games", "1000000000000000000", "builtin:random", "builtin:random"}, exitUsage, "more than 4194304 games"},
		{"rounds past memory", []string{"gomoku-cli", "-engine", "cmd=builtin:random", "-engine", "cmd=builtin:random", "-rounds", "100000000", "-games", "100"}, exitUsage, "more than 4194304 games"},
		{"gomoku-cli games past memory", []string{"gomoku-cli", "-engine", "cmd=builtin:random", "-engine", "cmd=builtin:random", "-games", "1000000000000", "-repeat"}, exitUsage, "more than 4194304 games"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := tc.args
			if len(args) > 0 && args[0] == "match" {
				args = append([]string{"match", "-out", t.TempDir()}, args[1:]...)
			}
			out, errOut, code := runArena(t, args...)
			if code != tc.code || !strings.Contains(out+errOut, tc.want) {
				t.Fatalf("exit %d, want %d; output:\n%s%s\nwant it to contain %q", code, tc.code, out, errOut, tc.want)
			}
			// "usage" is said of usage errors only.
			if (code == exitUsage) != strings.Contains(errOut, "usage") {
				t.Errorf("exit %d, and the message says usage %v:\n%s", code, strings.Contains(errOut, "usage"), errOut)
			}
		})
	}
}

// A bad flag is answered with the error and the command's usage, on
// stderr; -h prints the usage on stdout.
func TestBadFlagPrintsUsageOnStderr(t *testing.T) {
	for _, args := range [][]string{
		{"match", "-gamez", "3", "a", "b"},
		{"run", "-extnd", "x.toml"},
		{"standings", "-x"},
		{"gomoku-cli", "-bogus"},
	} {
		out, errOut, code := runArena(t, args...)
		want := "usage: arena " + args[0]
		if code != exitUsage || out != "" || !strings.Contains(errOut, want) || strings.Index(errOut, want) < strings.Index(errOut, "\n") {
			t.Errorf("%v: exit %d, stdout %q, stderr:\n%s\nwant exit %d, the error, then the usage on stderr", args, code, out, errOut, exitUsage)
		}
	}
	out, errOut, code := runArena(t, "run", "-h")
	if code != exitOK || !strings.HasPrefix(out, "usage: arena run") || errOut != "" {
		t.Errorf("-h: exit %d, stdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

// A match prints a line per game and the final score (the games it
// writes, SGF and psq each: event.TestKilledMatchContinues).
func TestMatchPrintsEveryGame(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := runArena(t, "match", "-games", "4", "-tc", "10s", "-out", dir, "builtin:greedy", "r=builtin:random seed=2")
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	if n := strings.Count(out, "\ngame ") + map[bool]int{true: 1}[strings.HasPrefix(out, "game ")]; n != 4 {
		t.Errorf("%d game lines in\n%s", n, out)
	}
	if !strings.Contains(out, "greedy") || !strings.Contains(out, " - ") {
		t.Errorf("no final score in\n%s", out)
	}
}

func TestRulesCommand(t *testing.T) {
	// Black D8 E8 F8 G9 G10 H9 I10 (renju letters) with White far away: G8
	// would be 4-3-3, forbidden as 3-3 (RULES.md).
	const pos = "d8a1e8a3f8a5g7o1g6o3h7o5i6a7"
	cases := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"forbidden points", []string{"rules", "-rule", "renju", pos}, exitOK, []string{"black to move", "g8 forbidden 3-3"}},
		{"renju notation", []string{"rules", "-rule", "renju", "-notation", "renju", "D8A1E8A3F8A5G7O1G6O3H7O5I6A7"}, exitOK, []string{"black to move", "G8 forbidden 3-3"}},
		{"json", []string{"rules", "-rule", "renju", "-json", pos}, exitOK, []string{`"pos": "g8"`, `"renju": "G8"`, `"x": 6`, `"y": 7`, `"kind": "forbidden 3-3"`}},
		{"forbidden move played", []string{"rules", "-rule", "renju", pos + "g8"}, exitOK, []string{"game over after g8: white (forbidden 3-3)"}},
		{"five", []string{"rules", "-rule", "freestyle", "h8a1i8a2j8a3k8a4l8"}, exitOK, []string{"black (five)"}},
		{"outer-open first stone", []string{"rules", "h8"}, exitOK, []string{"white (" + "first stone outside"}},
		{"overlapping stones", []string{"rules", "-rule", "freestyle", "h8h8i9"}, exitError, []string{"move 2 (white h8): occupied, and more moves follow"}},
		{"occupied last stone is the forfeit", []string{"rules", "-rule", "freestyle", "h8i9h8"}, exitOK, []string{"refused black stone h8: occupied", "white (occupied)"}},
		{"stones after the end", []string{"rules", "-rule", "freestyle", "h8a1i8a2j8a3k8a4l8a5"}, exitError, []string{"move 10 (white a5): follows the end of the game at move 9 (five)"}},
		{"caro five from the edge", []string{"rules", "-rule", "caro", "a2f2b2a5c2b5d2c5e2"}, exitOK, []string{"black (five)"}},
		{"pente on 6x6", []string{"rules", "-rule", "pente", "-size", "6", "c3"}, exitError, []string{"pente needs a board of at least 7x7, not 6x6"}},
		{"bad notation", []string{"rules", "-notation", "sgf", "h8"}, exitUsage, []string{"want pos, renju or go"}},
		{"outer-open shows its own lettering", []string{"rules", "a1"}, exitOK, []string{"bottom and right: go lettering", " A B C D E F G H J K L M N O P"}},
		{"outer-open zone in its own lettering", []string{"rules", "-notation", "go", "P15h8"}, exitOK, []string{" 15 . . . . . . . . . . . . . . X 15", "black to move"}},
		{"outer-open: no I in its lettering", []string{"rules", "-notation", "go", "I8"}, exitError, []string{"GTP letters skip I"}},
		{"a record ending on an occupied stone", []string{"rules", "testdata/ends-on-occupied.sgf"}, exitOK, []string{"refused white stone h8: occupied", "the record says: black (illegal move)"}},
		{"a record ending off the board", []string{"rules", "testdata/ends-off-board.sgf"}, exitOK, []string{"refused white stone 15,3: off board", "the record says: black (illegal move)"}},
		{"a record whose winner is swapped", []string{"rules", "testdata/swapped-winner.sgf"}, exitError,
			[]string{"game over after l8: black (five)", "THE RECORD DISAGREES WITH ITS MOVES: the record says white wins (five), but the stones say black wins (five) (move 9, five)"}},
		{"setup stones", []string{"rules", "testdata/setup-renju.sgf"}, exitOK, []string{"14 stones on the board", "black to move", "g8 forbidden 3-3"}},
		{"variations refused", []string{"rules", "testdata/variations.sgf"}, exitError, []string{"variations.sgf:2:15: a variation"}},
		{"off the board", []string{"rules", "-rule", "freestyle", "h8z99"}, exitError, []string{"z99"}},
		{"a psq names no rule", []string{"rules", "testdata/no-rule.psq"}, exitUsage, []string{"no-rule.psq names no rule: say which with -rule (", "renju"}},
		{"a psq judged under the rule given", []string{"rules", "testdata/no-rule.psq", "-rule", "freestyle"}, exitOK, []string{"white to move"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runArena(t, tc.args...)
			for _, w := range tc.want {
				if code != tc.code || !strings.Contains(out+errOut, w) {
					t.Fatalf("exit %d (want %d), output:\n%s%s\nwant %q", code, tc.code, out, errOut, w)
				}
			}
		})
	}
}

// -extend lets a Swiss go on for more rounds (what the event allows and
// refuses: event.TestExtendingASwiss).
func TestExtendFlag(t *testing.T) {
	dir := t.TempDir()
	write := func(rounds int) string {
		src := fmt.Sprintf("name = \"ext\"\nrule = \"freestyle\"\nformat = \"swiss\"\nrounds = %d\noutput = \"out\"\n[clock]\nmatch = \"30s\"\n", rounds)
		for i := 0; i < 3; i++ {
			src += fmt.Sprintf("[[engine]]\nname = \"r%d\"\ncommand = \"builtin:random\"\nargs = [\"seed=%d\"]\n", i, i+1)
		}
		cfg := filepath.Join(dir, "ext.toml")
		os.WriteFile(cfg, []byte(src), 0o644)
		return cfg
	}
	if _, e, code := runArena(t, "run", "-quiet", "-no-check", write(1)); code != 0 {
		t.Fatalf("1 round: %s", e)
	}
	if _, e, code := runArena(t, "run", "-quiet", write(2)); code == 0 || !strings.Contains(e, "-extend") {
		t.Fatalf("2 rounds without -extend: exit %d %s", code, e)
	}
	if o, e, code := runArena(t, "run", "-quiet", "-extend", write(2)); code != 0 || !strings.Contains(o, "continuing ext: 1 games already finished") {
		t.Fatalf("2 rounds with -extend: exit %d\n%s\n%s", code, o, e)
	}
}

// A crash's last stderr line ends its game line (what the event records
// and the transcripts it keeps: event.TestRunKeepsTranscriptsAndLastWords).
func TestRunPrintsACrashsLastWords(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "words.toml")
	os.WriteFile(cfg, []byte(`rule = "freestyle"
format = "double-round-robin"
output = "out"
[clock]
match = "30s"
[[engine]]
name = "greedy"
command = "builtin:greedy"
[[engine]]
name = "asserter"
command = "builtin:faulty"
args = ["assert-at=3"]
`), 0o644)
	out, errOut, code := runArena(t, "run", "-no-check", cfg)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	const last = "faulty: engine.c:42: brain_turn: Assertion `move 3 < 0' failed."
	// The detail (exit status 134) is event.TestRunKeepsTranscriptsAndLastWords's.
	if n := strings.Count(out, "  crash: "); n != 2 || strings.Count(out, "  stderr: "+last+"\n") != 2 {
		t.Errorf("want two game lines ending in the assertion:\n%s", out)
	}
}
