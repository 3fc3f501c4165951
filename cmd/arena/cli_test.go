package main

import (
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"gomoku-arena/engine"
	"gomoku-arena/results/rating"
)

func TestParseCliTC(t *testing.T) {
	tests := []struct {
		in               string
		match, turn, inc time.Duration
		bad              bool
	}{
		{"180/30", 180 * time.Second, 30 * time.Second, 0, false},
		{"180", 180 * time.Second, 180 * time.Second, 0, false}, // turn defaults to match
		{"60/5+0.5", time.Minute, 5 * time.Second, 500 * time.Millisecond, false},
		{"0/2", 0, 2 * time.Second, 0, false}, // no match clock
		{"1.5+1", 1500 * time.Millisecond, 1500 * time.Millisecond, time.Second, false},
		{"x/1", 0, 0, 0, true},
		{"-5", 0, 0, 0, true},
	}
	for _, tt := range tests {
		m, tu, inc, err := parseCliTC(tt.in)
		if tt.bad {
			if err == nil {
				t.Errorf("%q accepted", tt.in)
			}
			continue
		}
		if err != nil || m != tt.match || tu != tt.turn || inc != tt.inc {
			t.Errorf("%q: %v/%v+%v %v; want %v/%v+%v", tt.in, m, tu, inc, err, tt.match, tt.turn, tt.inc)
		}
	}
}

func TestParseCli(t *testing.T) {
	args := strings.Fields("-each tc=10/2 depth=6 option.style=1 -engine cmd=./pbrain-new name=new tc=99 nodes=5000 thread=4 " +
		"-engine cmd=builtin:random maxmemory=1000 tolerance=0.5 -rule 4 -boardsize 15 -games 8 -rounds 2 -repeat -transform " +
		"-openings type=pos order=random srand=9 -sprt elo1=10 alpha=0.1 -concurrency 3 -drawafter 100 -sendbyboard -fatalerror")
	p, err := parseCli(args, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	mv := p.Match.View()
	if mv.Rule != "renju" || mv.Size != 15 || mv.Games != 8 || mv.Rounds != 2 || mv.Concurrency != 3 || mv.MoveCap != 100 || !mv.FatalError {
		t.Errorf("match %+v", mv)
	}
	if mv.Order != "random" || mv.Seed != 9 || mv.Transform != "cycle" || !mv.Pairs || !mv.CGomokuCli {
		t.Errorf("openings %+v", mv)
	}
	if mv.SPRT == nil || mv.SPRT.Elo1 != 10 || mv.SPRT.Alpha != 0.1 || mv.SPRT.Beta != 0.05 || mv.SPRT.Model != rating.ModelCGomokuCli {
		t.Errorf("sprt %+v", mv.SPRT)
	}
	n, r := mv.Engines[0], mv.Engines[1]
	if n.Name != "new" || r.Name != "random" || n.Dir != "" || !n.BoardMode {
		t.Errorf("entrants %+v %+v", n, r)
	}
	// -each wins over the engine's own tc, as in c-gomoku-cli.
	if n.Clock.Match != 10*time.Second || n.Clock.Turn != 2*time.Second || n.Clock.Tolerance != 3*time.Second {
		t.Errorf("new's clock %+v", n.Clock)
	}
	if r.Clock.Tolerance != 500*time.Millisecond {
		t.Errorf("random's clock %+v", r.Clock)
	}
	wantNew := []engine.Info{{Key: "max_memory", Value: "367001600"}, {Key: "thread_num", Value: "4"}, {Key: "max_depth", Value: "6"},
		{Key: "max_node", Value: "5000"}, {Key: "style", Value: "1"}}
	wantRandom := []engine.Info{{Key: "max_memory", Value: "1000"}, {Key: "max_depth", Value: "6"},
		{Key: "style", Value: "1"}}
	if !reflect.DeepEqual(n.Infos, wantNew) || !reflect.DeepEqual(r.Infos, wantRandom) {
		t.Errorf("infos\n%v\n%v\nwant\n%v\n%v", n.Infos, r.Infos, wantNew, wantRandom)
	}
}

func TestParseCliErrors(t *testing.T) {
	tests := []struct{ args, want string }{
		{"-engine cmd=a", "at least 2 engines"},
		{"-engine cmd=a -engine cmd=b -rule 2", "rule code 2"},
		{"-engine cmd=a -engine cmd=b -boardsize 99", "out of range"},
		{"-engine cmd=a bogus -engine cmd=b", `illegal syntax "bogus"`},
		{"-engine cmd=a -engine cmd=b -frobnicate", `unknown option "-frobnicate"`},
		{"-engine cmd=a -engine cmd=b -games", "-games needs a value"},
		{"-engine cmd=a -engine cmd=b -openings order=shuffled", "opening order"},
		{"-engine cmd=a -engine cmd=b -sprt elo0=5", "elo1 is required"},
		{"-engine cmd=a -engine name=b", "no cmd="},
	}
	for _, tt := range tests {
		_, err := parseCli(strings.Fields(tt.args), io.Discard)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err %v, want %q", tt.args, err, tt.want)
		}
	}
}

// A gauntlet with -loseonly writes only the games the first engine lost.
func TestGomokuCliGauntletLoseOnly(t *testing.T) {
	dir := t.TempDir()
	pgn, sgf := filepath.Join(dir, "g.pgn"), filepath.Join(dir, "g.sgf")
	out, errOut, code := runArena(t, "gomoku-cli", "-each", "tc=0/5",
		"-engine", "cmd=builtin:random seed=1", "name=weak",
		"-engine", "cmd=builtin:search nodes=300",
		"-engine", "cmd=builtin:greedy",
		"-gauntlet", "-loseonly", "-games", "2", "-rule", "0", "-pgn", pgn, "-sgf", sgf, "-concurrency", "2")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "Score of weak vs search: ") || !strings.Contains(out, "Score of weak vs greedy: ") {
		t.Errorf("no c-gomoku-cli score lines in\n%s", out)
	}
	if strings.Contains(out, "search vs greedy") {
		t.Errorf("a gauntlet played the others against each other:\n%s", out)
	}
	p, _ := os.ReadFile(pgn)
	s, _ := os.ReadFile(sgf)
	// The last Score line of each pair holds its tally: W - L - D.
	lost := map[string]int{}
	for _, m := range regexp.MustCompile(`(?m)^Score of weak vs (\S+): \d+ - (\d+) - \d+ `).FindAllStringSubmatch(out, -1) {
		lost[m[1]], _ = strconv.Atoi(m[2])
	}
	losses := 0
	for _, n := range lost {
		losses += n
	}
	if c := strings.Count(string(p), "[Result "); c != losses || losses == 0 || strings.Count(string(s), "(;FF[4]") != c {
		t.Errorf("%d PGN games and %d SGF games, want %d (weak's losses)\n%s", c, strings.Count(string(s), "(;FF[4]"), losses, out)
	}
}

// Installed under c-gomoku-cli's name (a link to the arena), the program
// takes c-gomoku-cli's command line as is: no `gomoku-cli` word first.
func TestInstalledAsCGomokuCli(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "c-gomoku-cli")
	if err := os.Symlink(self, link); err != nil {
		t.Skip("no symlinks here:", err)
	}
	cmd, out := startArenaAs(t, link, nil, nil,
		"-engine", "cmd=builtin:random seed=1", "-engine", "cmd=builtin:greedy",
		"-each", "tc=0/5", "-games", "2", "-rule", "0")
	if err := cmd.Wait(); err != nil {
		t.Fatalf("c-gomoku-cli: %v\n%s", err, out)
	}
	if !strings.Contains(out.String(), "Score of random vs greedy: ") {
		t.Errorf("no c-gomoku-cli score line in\n%s", out)
	}
	// The same arguments to the arena under its own name are no command.
	cmd, out = startArenaAs(t, self, nil, nil, "-engine", "cmd=builtin:random")
	if err := cmd.Wait(); err == nil || !strings.Contains(out.String(), "unknown command") {
		t.Errorf("the arena took c-gomoku-cli's arguments without the gomoku-cli word: %v\n%s", err, out)
	}
}

// -log appends every line to and from the engines to c-gomoku-cli.log.
func TestGomokuCliLog(t *testing.T) {
	t.Chdir(t.TempDir())
	out, errOut, code := runArena(t, "gomoku-cli", "-each", "tc=0/5",
		"-engine", "cmd=builtin:random seed=1", "name=one", "-engine", "cmd=builtin:greedy", "name=two",
		"-games", "2", "-rule", "0", "-log")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	b, err := os.ReadFile("c-gomoku-cli.log")
	if err != nil {
		t.Fatal(err)
	}
	log := string(b)
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^\d\d:\d\d:\d\d\.\d{3} one\[\d+\] -> START 15$`),
		regexp.MustCompile(`(?m)^\d\d:\d\d:\d\d\.\d{3} two\[\d+\] <- OK$`),
		regexp.MustCompile(`(?m)^\S+ one\[\d+\] -> (BEGIN|TURN \d+,\d+)$`),
		regexp.MustCompile(`(?m)^\S+ two\[\d+\] <- \d+,\d+$`),
		regexp.MustCompile(`(?m)^\S+ one\[\d+\] -> END$`),
	} {
		if !want.MatchString(log) {
			t.Errorf("the transcript has no line like %v:\n%s", want, log)
		}
	}
}

// srand= is read as c-gomoku-cli's atoll reads it: the seed, and so the
// shuffle, is the same for every value that tool takes.
func TestCliSrand(t *testing.T) {
	tests := []struct {
		in   string
		want uint64
		bad  bool
	}{
		{"42", 42, false},
		{"-1", 18446744073709551615, false},
		{"9223372036854775807", 9223372036854775807, false},
		{"18446744073709551615", 9223372036854775807, false}, // saturates, as strtoll
		{"-99999999999999999999", 9223372036854775808, false},
		{"x", 0, true},
		{"", 0, true},
	}
	for _, tt := range tests {
		got, err := cliSrand(tt.in)
		if (err != nil) != tt.bad || (!tt.bad && got != tt.want) {
			t.Errorf("%q: %d, %v; want %d (error %v)", tt.in, got, err, tt.want, tt.bad)
		}
	}
}
