package main

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gomoku-arena/event"
	"gomoku-arena/internal/config"
)

// Each rule about settings is checked in one place, whichever front end
// the settings come from, and its error says where the setting was given:
// the file, line and key of an event config, the flag of arena match, the
// engine and token of a c-gomoku-cli command line. The rule's own words
// appear once.
func TestEachSettingsRuleFiresOnceWithItsLocation(t *testing.T) {
	const event = `name = "rules"
rule = "freestyle"
concurrency = 1

[clock]
match = "1m"

[[engine]]
name = "a"
command = "builtin:greedy"

[[engine]]
name = "b"
command = "builtin:random"
`
	type frontEnd struct {
		args []string // arena's arguments; "EVENT" is the config's path
		edit [2]string
		want string // the location, with the rule's words
	}
	cases := []struct {
		rule   string // the rule's own words, which must appear once
		fronts []frontEnd
	}{
		{"needs a match time", []frontEnd{
			{edit: [2]string{`match = "1m"`, "match = \"0s\"\nincrement = \"1s\""}, want: `rules.toml:7: clock.increment: engine "a": 1s needs a match time`},
			{edit: [2]string{"command = \"builtin:random\"\n", "command = \"builtin:random\"\n[engine.clock]\nmatch = \"0s\"\nincrement = \"2s\"\n"},
				want: `rules.toml:17: engine[1].clock.increment: engine "b": 2s needs a match time`},
			{args: []string{"match", "-tc", "0s", "-inc", "1s", "builtin:greedy", "builtin:random"}, want: `-inc: engine "greedy": clock increment: 1s needs a match time`},
			{args: []string{"gomoku-cli", "-engine", "cmd=builtin:greedy", "tc=0/0+1", "-engine", "cmd=builtin:random"}, want: `engine 1: tc: clock increment: 1s needs a match time`},
			{args: []string{"check", "-tc", "0s", "-inc", "1s", "builtin:greedy", "builtin:random"}, want: `-inc: engine "greedy": clock increment: 1s needs a match time`},
		}},
		{"is longer than 596h31m23.647s", []frontEnd{
			{edit: [2]string{`match = "1m"`, "match = \"1m\"\nhang = \"600h\""}, want: `rules.toml:7: clock.hang: 600h0m0s is longer than 596h31m23.647s`},
			{args: []string{"match", "-hang", "600h", "builtin:greedy", "builtin:random"}, want: `-hang: engine "greedy": clock hang: 600h0m0s is longer than 596h31m23.647s`},
			{args: []string{"gomoku-cli", "-engine", "cmd=builtin:greedy", "hang=600h", "-engine", "cmd=builtin:random"}, want: `engine 1: hang: clock hang: 600h0m0s is longer than 596h31m23.647s`},
			{args: []string{"gomoku-cli", "-engine", "cmd=builtin:greedy", "tc=2160000", "-engine", "cmd=builtin:random"}, want: `engine 1: tc: clock match: 600h0m0s is longer than 596h31m23.647s`},
			{args: []string{"gomoku-cli", "-engine", "cmd=builtin:greedy", "tolerance=2160000", "-engine", "cmd=builtin:random"}, want: `engine 1: tolerance: clock tolerance: 600h0m0s is longer than 596h31m23.647s`},
			{args: []string{"check", "-hang", "600h", "builtin:greedy", "builtin:random"}, want: `-hang: engine "greedy": clock hang: 600h0m0s is longer than 596h31m23.647s`},
		}},
		{"negative duration -1s", []frontEnd{ // clock.CheckDuration
			{edit: [2]string{`concurrency = 1`, "concurrency = 1\nstart_timeout = \"-1s\""}, want: `rules.toml:4: start_timeout: negative duration -1s`},
			{args: []string{"match", "-start-timeout", "-1s", "builtin:greedy", "builtin:random"}, want: `-start-timeout: negative duration -1s`},
			{args: []string{"check", "-start-timeout", "-1s", "builtin:greedy", "builtin:random"}, want: `-start-timeout: negative duration -1s`},
		}},
		{"want 1 to 1024 games at once", []frontEnd{ // bounds.CheckConcurrency
			{edit: [2]string{`concurrency = 1`, `concurrency = 2000`}, want: `rules.toml:3: concurrency: 2000: want 1 to 1024 games at once`},
			{args: []string{"match", "-concurrency", "2000", "builtin:greedy", "builtin:random"}, want: `-concurrency: 2000: want 1 to 1024 games at once`},
			{args: []string{"gomoku-cli", "-concurrency", "2000", "-engine", "cmd=builtin:greedy", "-engine", "cmd=builtin:random"}, want: `-concurrency: 2000: want 1 to 1024 games at once`},
			// An event file's 0 is its default (1); a command line's is refused.
			{edit: [2]string{`concurrency = 1`, `concurrency = -1`}, want: `rules.toml:3: concurrency: -1: want 1 to 1024 games at once`},
			{args: []string{"match", "-concurrency", "0", "builtin:greedy", "builtin:random"}, want: `-concurrency: 0: want 1 to 1024 games at once`},
			{args: []string{"gomoku-cli", "-concurrency", "-1", "-engine", "cmd=builtin:greedy", "-engine", "cmd=builtin:random"}, want: `-concurrency: -1: want 1 to 1024 games at once`},
		}},
		// arena check's -concurrency is its own setting, engines checked at
		// once, 0 its default (check.Settings.Validate), with the event's
		// file or with engines.
		{"is not 0 (the default, half the processors) to 1024", []frontEnd{
			{args: []string{"check", "-concurrency", "2000", "builtin:greedy", "builtin:random"}, want: `-concurrency: 2000 is not 0 (the default, half the processors) to 1024`},
			{args: []string{"check", "-concurrency", "-1", "EVENT"}, want: `-concurrency: -1 is not 0 (the default, half the processors) to 1024`},
		}},
		{"is not 0 (the default, 2) to 100", []frontEnd{ // arena check's -games, check games per engine
			{args: []string{"check", "-games", "200", "builtin:greedy", "builtin:random"}, want: `-games: 200 is not 0 (the default, 2) to 100`},
		}},
		{"the RIF opening needs an odd board of at least 7x7, not 14x14", []frontEnd{ // rules.Procedure.Check; c-gomoku-cli has no opening procedure
			{edit: [2]string{`concurrency = 1`, "concurrency = 1\nsize = 14\nopening_procedure = \"rif\""}, want: `rules.toml:5: opening_procedure: the RIF opening needs an odd board of at least 7x7, not 14x14`},
			{args: []string{"match", "-size", "14", "-opening-procedure", "rif", "builtin:greedy", "builtin:random"}, want: `-opening-procedure: the RIF opening needs an odd board of at least 7x7, not 14x14`},
			{args: []string{"check", "-size", "14", "-opening-procedure", "rif", "builtin:greedy", "builtin:random"}, want: `-opening-procedure: the RIF opening needs an odd board of at least 7x7, not 14x14`},
		}},
		{"want KEY=VALUE", []frontEnd{
			{edit: [2]string{"command = \"builtin:random\"\n", "command = \"builtin:random\"\nenv = [\"B\"]\n"}, want: `rules.toml:15: engine[1].env: engine "b": "B": want KEY=VALUE`},
			{args: []string{"match", "-env", "random:B", "builtin:greedy", "builtin:random"}, want: `-env random:B: engine "random": "B": want KEY=VALUE`},
			{args: []string{"gomoku-cli", "-engine", "cmd=builtin:greedy", "env=B", "-engine", "cmd=builtin:random"}, want: `-engine: env=B: "B": want KEY=VALUE`},
			{args: []string{"check", "-env", "random:B", "builtin:greedy", "builtin:random"}, want: `-env random:B: engine "random": "B": want KEY=VALUE`},
		}},
		{"must not be negative (0: no limit)", []frontEnd{ // bounds.CheckProcesses
			{edit: [2]string{`concurrency = 1`, "concurrency = 1\nmax_processes = -1"}, want: `rules.toml:4: max_processes: -1: must not be negative (0: no limit)`},
			{edit: [2]string{"command = \"builtin:random\"\n", "command = \"builtin:random\"\nmax_processes = -1\n"}, want: `rules.toml:15: engine[1].max_processes: engine "b": -1: must not be negative (0: no limit)`},
			{args: []string{"match", "-max-processes", "random:-1", "builtin:greedy", "builtin:random"}, want: `-max-processes random:-1: engine "random": -1: must not be negative (0: no limit)`},
			{args: []string{"gomoku-cli", "-engine", "cmd=builtin:greedy", "max_processes=-1", "-engine", "cmd=builtin:random"}, want: `-engine: max_processes=-1: -1: must not be negative (0: no limit)`},
			{args: []string{"check", "-max-processes", "random:-1", "builtin:greedy", "builtin:random"}, want: `-max-processes random:-1: engine "random": -1: must not be negative (0: no limit)`},
		}},
		{"a name must not hold control characters", []frontEnd{ // config.CheckName
			{edit: [2]string{`name = "b"`, `name = "b\u0001"`}, want: `rules.toml:13: engine[1].name: engine "b\x01": a name must not hold control characters`},
			{args: []string{"match", "builtin:greedy", "b\x01=builtin:random"}, want: `engine 2: engine "b\x01": a name must not hold control characters`},
			{args: []string{"gomoku-cli", "-engine", "cmd=builtin:greedy", "-engine", "cmd=builtin:random", "name=b\x01"}, want: `engine 2: name: engine "b\x01": a name must not hold control characters`},
			{args: []string{"check", "builtin:greedy", "b\x01=builtin:random"}, want: `engine 2: engine "b\x01": a name must not hold control characters`},
		}},
		{"unknown opening format \"xyz\"", []frontEnd{ // rules.CheckOpeningFormat; an event file detects the form per line
			{args: []string{"match", "-openings-format", "xyz", "builtin:greedy", "builtin:random"}, want: `-openings-format: unknown opening format "xyz" (want "offset", "pos" or empty to detect)`},
			{args: []string{"gomoku-cli", "-openings", "file=BOOK", "type=xyz", "-engine", "cmd=builtin:greedy", "-engine", "cmd=builtin:random"}, want: `-openings type=: unknown opening format "xyz" (want "offset", "pos" or empty to detect)`},
		}},
		{"must be one word and one line", []frontEnd{
			{edit: [2]string{"command = \"builtin:random\"\n", "command = \"builtin:random\"\n[engine.info]\n\"hash size\" = \"64\"\n"}, want: `rules.toml:16: engine[1].info.hash size: engine "b": INFO "hash size" "64" must be one word and one line`},
			{args: []string{"match", "-info", "hash size=64", "builtin:greedy", "builtin:random"}, want: `-info "hash size=64": INFO "hash size" "64" must be one word and one line`},
			{args: []string{"gomoku-cli", "-engine", "cmd=builtin:greedy", "option.hash size=64", "-engine", "cmd=builtin:random"}, want: `-engine: option.hash size=64: INFO "hash size" "64" must be one word and one line`},
			{args: []string{"check", "-info", "hash size=64", "builtin:greedy", "builtin:random"}, want: `-info "hash size=64": INFO "hash size" "64" must be one word and one line`},
		}},
		{"needs a board of at least 7x7", []frontEnd{
			{edit: [2]string{`rule = "freestyle"`, "rule = \"pente\"\nsize = 6"}, want: `rules.toml:3: size: pente needs a board of at least 7x7, not 6x6`},
			{args: []string{"match", "-rule", "pente", "-size", "6", "builtin:greedy", "builtin:random"}, want: `-size: pente needs a board of at least 7x7, not 6x6`},
			{args: []string{"gomoku-cli", "-rule", "pente", "-boardsize", "6", "-engine", "cmd=builtin:greedy", "-engine", "cmd=builtin:random"}, want: `-boardsize: pente needs a board of at least 7x7, not 6x6`},
			{args: []string{"check", "-rule", "pente", "-size", "6", "builtin:greedy", "builtin:random"}, want: `-size: pente needs a board of at least 7x7, not 6x6`},
		}},
		{"out of range 5..", []frontEnd{
			{edit: [2]string{`rule = "freestyle"`, "rule = \"freestyle\"\nsize = 99"}, want: `rules.toml:3: size: board size 99 out of range 5..`},
			{args: []string{"match", "-size", "99", "builtin:greedy", "builtin:random"}, want: `-size: board size 99 out of range 5..`},
			{args: []string{"gomoku-cli", "-boardsize", "99", "-engine", "cmd=builtin:greedy", "-engine", "cmd=builtin:random"}, want: `-boardsize: board size 99 out of range 5..`},
			{args: []string{"check", "-size", "99", "builtin:greedy", "builtin:random"}, want: `-size: board size 99 out of range 5..`},
		}},
		{"first stone outside the outer-open zone", []frontEnd{
			{edit: [2]string{`rule = "freestyle"`, "rule = \"outer-open\"\nopenings = \"BOOK\""}, want: `BOOK:1: "0,0": opening: stone 1 (h8) under outer-open: first stone outside the outer-open zone`},
			{args: []string{"match", "-openings", "BOOK", "builtin:greedy", "builtin:random"}, want: `BOOK:1: "0,0": opening: stone 1 (h8) under outer-open: first stone outside the outer-open zone`},
			{args: []string{"gomoku-cli", "-rule", "outer-open", "-openings", "file=BOOK", "-engine", "cmd=builtin:greedy", "-engine", "cmd=builtin:random"}, want: `BOOK:1: "0,0": opening: stone 1 (h8) under outer-open: first stone outside the outer-open zone`},
		}},
		{"no such file or directory", []frontEnd{
			{edit: [2]string{`rule = "freestyle"`, "rule = \"freestyle\"\nopenings = \"NOBOOK\""}, want: `rules.toml:3: openings: open NOBOOK: no such file or directory`},
			{args: []string{"match", "-openings", "NOBOOK", "builtin:greedy", "builtin:random"}, want: `openings: open NOBOOK: no such file or directory`},
			{args: []string{"gomoku-cli", "-openings", "file=NOBOOK", "-engine", "cmd=builtin:greedy", "-engine", "cmd=builtin:random"}, want: `openings: open NOBOOK: no such file or directory`},
		}},
		{"no bundled engine", []frontEnd{
			{edit: [2]string{`command = "builtin:random"`, `command = "builtin:nope"`}, want: `rules.toml:14: engine[1].command: engine "b": no bundled engine "nope"`},
			{args: []string{"match", "builtin:greedy", "builtin:nope"}, want: `engine "nope": no bundled engine "nope"`},
			{args: []string{"gomoku-cli", "-engine", "cmd=builtin:greedy", "-engine", "cmd=builtin:nope"}, want: `engine "nope": no bundled engine "nope"`},
			{args: []string{"check", "builtin:greedy", "builtin:nope"}, want: `engine "nope": no bundled engine "nope"`},
		}},
		// The match-wide settings' words, each where its front end has it
		// (arena check takes no sandbox, lifetime, move cap or outputs: it
		// plays its own games; an event file takes no opening order,
		// transform, records or samples: an event deals as its format does
		// and keeps its records itself).
		{`is not one of none, bwrap, auto`, []frontEnd{
			{edit: [2]string{`concurrency = 1`, "concurrency = 1\nsandbox = \"chroot\""}, want: `rules.toml:4: sandbox: sandbox "chroot" is not one of none, bwrap, auto`},
			{args: []string{"match", "-sandbox", "chroot", "builtin:greedy", "builtin:random"}, want: `-sandbox: sandbox "chroot" is not one of none, bwrap, auto`},
			{args: []string{"gomoku-cli", "-sandbox", "chroot", "-engine", "cmd=builtin:greedy", "-engine", "cmd=builtin:random"}, want: `-sandbox: sandbox "chroot" is not one of none, bwrap, auto`},
		}},
		{`is not one of reuse, pair, game`, []frontEnd{
			{edit: [2]string{`concurrency = 1`, "concurrency = 1\nprocess_lifetime = \"forever\""}, want: `rules.toml:4: process_lifetime: process lifetime "forever" is not one of reuse, pair, game`},
			{args: []string{"match", "-process-lifetime", "forever", "builtin:greedy", "builtin:random"}, want: `-process-lifetime: process lifetime "forever" is not one of reuse, pair, game`},
		}},
		{`is not one of none, swap2, rif`, []frontEnd{
			{edit: [2]string{`concurrency = 1`, "concurrency = 1\nopening_procedure = \"swap3\""}, want: `rules.toml:4: opening_procedure: opening procedure "swap3" is not one of none, swap2, rif`},
			{args: []string{"match", "-opening-procedure", "swap3", "builtin:greedy", "builtin:random"}, want: `-opening-procedure: opening procedure "swap3" is not one of none, swap2, rif`},
			{args: []string{"check", "-opening-procedure", "swap3", "builtin:greedy", "builtin:random"}, want: `-opening-procedure: opening procedure "swap3" is not one of none, swap2, rif`},
		}},
		{`is not one of strict, arbiter-opens`, []frontEnd{
			{edit: [2]string{`concurrency = 1`, "concurrency = 1\nopening_policy = \"lenient\""}, want: `rules.toml:4: opening_policy: opening policy "lenient" is not one of strict, arbiter-opens`},
			{args: []string{"match", "-opening-policy", "lenient", "builtin:greedy", "builtin:random"}, want: `-opening-policy: opening policy "lenient" is not one of strict, arbiter-opens`},
			{args: []string{"check", "-opening-policy", "lenient", "builtin:greedy", "builtin:random"}, want: `-opening-policy: opening policy "lenient" is not one of strict, arbiter-opens`},
		}},
		{`unknown rule "chess"`, []frontEnd{
			{edit: [2]string{`rule = "freestyle"`, `rule = "chess"`}, want: `rules.toml:2: rule: unknown rule "chess"`},
			{args: []string{"match", "-rule", "chess", "builtin:greedy", "builtin:random"}, want: `-rule: unknown rule "chess"`},
			{args: []string{"check", "-rule", "chess", "builtin:greedy", "builtin:random"}, want: `-rule: unknown rule "chess"`},
		}},
		{`want 0 (freestyle), 1 (exact five), 4 (renju)`, []frontEnd{ // c-gomoku-cli's rules are codes
			{args: []string{"gomoku-cli", "-rule", "99", "-engine", "cmd=builtin:greedy", "-engine", "cmd=builtin:random"}, want: `-rule: rule code 99: want 0 (freestyle), 1 (exact five), 4 (renju)`},
		}},
		{`must not be negative (0: none)`, []frontEnd{ // bounds.CheckMoveCap; arena check plays its own games
			{edit: [2]string{`concurrency = 1`, "concurrency = 1\nmove_cap = -1"}, want: `rules.toml:4: move_cap: -1: must not be negative (0: none)`},
			{args: []string{"match", "-move-cap", "-1", "builtin:greedy", "builtin:random"}, want: `-move-cap: -1: must not be negative (0: none)`},
			{args: []string{"gomoku-cli", "-drawafter", "-1", "-engine", "cmd=builtin:greedy", "-engine", "cmd=builtin:random"}, want: `-drawafter: -1: must not be negative (0: none)`},
		}},
		{`0: must be at least 1`, []frontEnd{ // a match's games and rounds (schedule.Match.Validate); an event's come from its format
			{args: []string{"match", "-games", "0", "builtin:greedy", "builtin:random"}, want: `-games: 0: must be at least 1`},
			{args: []string{"gomoku-cli", "-games", "0", "-engine", "cmd=builtin:greedy", "-engine", "cmd=builtin:random"}, want: `-games: 0: must be at least 1`},
			{args: []string{"gomoku-cli", "-rounds", "0", "-engine", "cmd=builtin:greedy", "-engine", "cmd=builtin:random"}, want: `-rounds: 0: must be at least 1`},
		}},
		{`opening order "shuffled" is not one of sequential, random, passes`, []frontEnd{
			{args: []string{"match", "-order", "shuffled", "builtin:greedy", "builtin:random"}, want: `-order: opening order "shuffled" is not one of sequential, random, passes`},
			{args: []string{"gomoku-cli", "-openings", "order=shuffled", "-engine", "cmd=builtin:greedy", "-engine", "cmd=builtin:random"}, want: `-openings: opening order "shuffled" is not one of sequential, random, passes`},
		}},
		{`is not one of none, cycle, random`, []frontEnd{ // c-gomoku-cli's -transform is a switch
			{args: []string{"match", "-transform", "flip", "builtin:greedy", "builtin:random"}, want: `-transform: transform "flip" is not one of none, cycle, random`},
		}},
		{`must not be negative (0: only at the end)`, []frontEnd{ // arena match's own; c-gomoku-cli prints what it prints
			{args: []string{"match", "-report", "-1", "builtin:greedy", "builtin:random"}, want: `-report: -1: must not be negative (0: only at the end)`},
		}},
		{`must not be negative (0: the default, 10s)`, []frontEnd{ // arena match's own: a batch's shards under an SPRT
			{args: []string{"match", "-sync", "-1s", "builtin:greedy", "builtin:random"}, want: `-sync: -1s: must not be negative (0: the default, 10s)`},
		}},
		{`want files, collection or none`, []frontEnd{ // an event keeps its files; c-gomoku-cli writes none
			{args: []string{"match", "-records", "some", "builtin:greedy", "builtin:random"}, want: `-records: records "some": want files, collection or none`},
		}},
		{`freq="x": not a number`, []frontEnd{
			{args: []string{"match", "-sample", "freq=x", "builtin:greedy", "builtin:random"}, want: `-sample: freq="x": not a number`},
			{args: []string{"gomoku-cli", "-sample", "freq=x", "-engine", "cmd=builtin:greedy", "-engine", "cmd=builtin:random"}, want: `-sample: freq="x": not a number`},
		}},
	}
	for _, c := range cases {
		for _, f := range c.fronts {
			name := c.rule + "/toml"
			if f.args != nil {
				name = c.rule + "/" + f.args[0]
			}
			t.Run(name, func(t *testing.T) {
				dir := t.TempDir()
				book := filepath.Join(dir, "book.txt")
				os.WriteFile(book, []byte("0,0\n"), 0o644) // the centre: outside outer-open's zone
				nobook := filepath.Join(dir, "nobook.txt")
				for _, name := range []struct{ from, to string }{{"NOBOOK", nobook}, {"BOOK", book}} {
					f.edit[1] = strings.ReplaceAll(f.edit[1], name.from, name.to)
					f.want = strings.ReplaceAll(f.want, name.from, name.to)
					f.args = slices.Clone(f.args)
					for i := range f.args {
						f.args[i] = strings.ReplaceAll(f.args[i], name.from, name.to)
					}
				}
				args := f.args
				path := filepath.Join(dir, "rules.toml")
				if i := slices.Index(args, "EVENT"); i >= 0 {
					os.WriteFile(path, []byte(event), 0o644)
					args[i] = path
				}
				if args == nil {
					src := strings.Replace(event, f.edit[0], f.edit[1], 1)
					if src == event {
						t.Fatalf("the edit %q changes nothing", f.edit[0])
					}
					os.WriteFile(path, []byte(src), 0o644)
					args = []string{"run", path}
					f.want = strings.ReplaceAll(f.want, "rules.toml", path)
				} else if args[0] == "match" {
					args = append([]string{"match", "-out", filepath.Join(dir, "out")}, args[1:]...)
				} else {
					t.Chdir(dir)
				}
				out, errOut, code := runArena(t, args...)
				said := strings.ReplaceAll(errOut, dir, "DIR") // the folder is named after the test
				if code == 0 || !strings.Contains(errOut, f.want) || strings.Count(said, c.rule) != 1 {
					t.Fatalf("exit %d\nstderr %q\nwant it to hold %q once", code, errOut, f.want)
				}
				if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
					t.Errorf("settings refused, yet an output folder was made\n%s", out)
				}
			})
		}
	}
}

// Each per-engine setting reaches the entrant as the same value, whichever
// front end it is given in: an event file's [[engine]] key, arena match's
// flag for one engine, c-gomoku-cli's token (where it has one), each
// through event.EngineSettings and its one builder.
func TestEachEngineSettingTheSameInEveryFrontEnd(t *testing.T) {
	type entrant = struct {
		memory, hard int64
		processes    int
		board, swap2 bool
		match, turn  time.Duration
		inc, tol     time.Duration
		hang         time.Duration
		dir          string
		env, files   []string
		infos        map[string]string
	}
	cases := []struct {
		key   string
		file  string   // lines of the [[engine]] table
		flag  []string // arena match's, for engine a
		token string   // c-gomoku-cli's, "" where it has none
		want  func(e entrant) bool
	}{
		{"board_mode", "board_mode = true", []string{"-board-mode=a"}, "board_mode=true", func(e entrant) bool { return e.board }},
		{"swap2_colors", "swap2_colors = true", []string{"-swap2-colors=a"}, "swap2_colors=true", func(e entrant) bool { return e.swap2 }},
		{"clock.match", "[engine.clock]\nmatch = \"20s\"", []string{"-tc", "a:20s"}, "tc=20/20", func(e entrant) bool { return e.match == 20*time.Second }},
		{"clock.turn", "[engine.clock]\nmatch = \"20s\"\nturn = \"5s\"", []string{"-tc", "a:20s", "-turn", "a:5s"}, "tc=20/5", func(e entrant) bool { return e.turn == 5*time.Second }},
		{"clock.increment", "[engine.clock]\nmatch = \"20s\"\nincrement = \"1s\"", []string{"-tc", "a:20s", "-inc", "a:1s"}, "tc=20/20+1", func(e entrant) bool { return e.inc == time.Second }},
		{"clock.tolerance", "[engine.clock]\ntolerance = \"2s\"", []string{"-tolerance", "a:2s"}, "tolerance=2", func(e entrant) bool { return e.tol == 2*time.Second }},
		{"clock.hang", "[engine.clock]\nhang = \"1m\"", []string{"-hang", "a:1m"}, "hang=1m", func(e entrant) bool { return e.hang == time.Minute }},
		{"max_memory", `max_memory = "100MiB"`, []string{"-max-memory", "a:100MiB"}, "", func(e entrant) bool {
			return e.memory == 100<<20 && e.infos["max_memory"] == "104857600"
		}},
		{"hard_memory", `hard_memory = "1GiB"`, []string{"-hard-memory", "a:1GiB"}, "hard_memory=1GiB", func(e entrant) bool { return e.hard == 1<<30 }},
		{"max_processes", "max_processes = 8", []string{"-max-processes", "a:8"}, "max_processes=8", func(e entrant) bool { return e.processes == 8 }},
		{"dir", `dir = "/tmp/arena-a"`, []string{"-dir", "a:/tmp/arena-a"}, "dir=/tmp/arena-a", func(e entrant) bool { return e.dir == "/tmp/arena-a" }},
		{"files", `files = ["WEIGHTS"]`, []string{"-files", "a:WEIGHTS"}, "files=WEIGHTS", func(e entrant) bool { // the sandbox's and the check's
			return len(e.files) == 1 && filepath.Base(e.files[0]) == "weights" && filepath.IsAbs(e.files[0])
		}},
		{"env", `env = ["THREADS=2"]`, []string{"-env", "a:THREADS=2"}, "env=THREADS=2", func(e entrant) bool { return slices.Contains(e.env, "THREADS=2") }},
		{"info", "[engine.info]\nhash = \"64\"", []string{"-info", "a:hash=64"}, "option.hash=64", func(e entrant) bool { return e.infos["hash"] == "64" }},
		{"info max_memory", "[engine.info]\nmax_memory = \"64\"", []string{"-info", "a:max_memory=64"}, "option.max_memory=64", func(e entrant) bool { return e.infos["max_memory"] == "64" }},
	}
	of := func(es event.EngineSettings) entrant {
		a := es.Entrant()
		e := entrant{memory: a.Spec.Limits.Memory, hard: a.Spec.Limits.HardMemory, processes: a.Spec.Limits.Processes, board: a.BoardMode, swap2: a.Swap2Colors,
			match: a.Clock.Match, turn: a.Clock.Turn, inc: a.Clock.Increment, tol: a.Clock.Tolerance, hang: a.Clock.Hang, dir: a.Spec.Dir, env: a.Spec.Env, files: a.Spec.Files, infos: map[string]string{}}
		for _, in := range a.Infos {
			if _, twice := e.infos[in.Key]; twice {
				e.infos[in.Key] = "told twice"
				continue
			}
			e.infos[in.Key] = in.Value
		}
		return e
	}
	for _, c := range cases {
		t.Run(c.key, func(t *testing.T) {
			dir := t.TempDir()
			weights := filepath.Join(dir, "weights")
			os.Mkdir(weights, 0o755)
			c.file, c.token = strings.ReplaceAll(c.file, "WEIGHTS", weights), strings.ReplaceAll(c.token, "WEIGHTS", weights)
			c.flag = slices.Clone(c.flag)
			for i := range c.flag {
				c.flag[i] = strings.ReplaceAll(c.flag[i], "WEIGHTS", weights)
			}
			path := filepath.Join(dir, "e.toml")
			os.WriteFile(path, []byte("name = \"e\"\nrule = \"freestyle\"\n\n[[engine]]\nname = \"b\"\ncommand = \"builtin:random\"\n\n[[engine]]\nname = \"a\"\ncommand = \"builtin:greedy\"\n"+c.file+"\n"), 0o644)
			cfg, err := config.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			list, err := event.EngineSettingsOf(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if e := of(list[1]); !c.want(e) {
				t.Errorf("event file: %+v", e)
			}
			fs := newFlags("match", "", "", io.Discard)
			gf := addGameFlags(fs)
			if err := fs.Parse(c.flag); err != nil {
				t.Fatal(err)
			}
			flagged, err := gf.engines([]string{"b=builtin:random", "a=builtin:greedy"})
			if err != nil {
				t.Fatal(err)
			}
			if e := of(flagged[1]); !c.want(e) {
				t.Errorf("arena match %v: %+v", c.flag, e)
			}
			if c.token == "" {
				return
			}
			p, err := parseCli([]string{"-engine", "cmd=builtin:random", "name=b", "-engine", "cmd=builtin:greedy", "name=a", c.token}, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			a := p.Match.View().Engines[1]
			e := entrant{memory: a.Memory, hard: a.HardMemory, processes: a.Processes, board: a.BoardMode, swap2: a.Swap2Colors,
				match: a.Clock.Match, turn: a.Clock.Turn, inc: a.Clock.Increment, tol: a.Clock.Tolerance, hang: a.Clock.Hang, dir: a.Dir, env: a.Env, files: a.Files, infos: map[string]string{}}
			for _, in := range a.Infos {
				if _, twice := e.infos[in.Key]; twice {
					e.infos[in.Key] = "told twice"
					continue
				}
				e.infos[in.Key] = in.Value
			}
			if !c.want(e) {
				t.Errorf("gomoku-cli %s: %+v", c.token, e)
			}
		})
	}
}
