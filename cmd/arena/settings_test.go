package main

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"gomoku-arena/arbiter"
	"gomoku-arena/engine"
	"gomoku-arena/event"
	"gomoku-arena/results/journal"
	"gomoku-arena/results/record"
)

// Every per-engine setting of an event file is a flag of arena match, for
// every engine or with NAME: for one, a later value winning; a value that
// cannot be used is an error naming the flag and the engine.
func TestEngineSettingFlags(t *testing.T) {
	ents := func() []event.EngineSettings {
		return []event.EngineSettings{{Name: "new"}, {Name: "old"}}
	}
	tests := []struct {
		name    string
		args    []string
		check   func(e []arbiter.Entrant) bool
		wantErr string
	}{
		{"swap2 colours for all", []string{"-swap2-colors"}, func(e []arbiter.Entrant) bool { return e[0].Swap2Colors && e[1].Swap2Colors }, ""},
		{"swap2 colours for one by name", []string{"-swap2-colors=old"}, func(e []arbiter.Entrant) bool { return !e[0].Swap2Colors && e[1].Swap2Colors }, ""},
		{"swap2 colours off for one", []string{"-swap2-colors", "-swap2-colors=new:false"}, func(e []arbiter.Entrant) bool { return !e[0].Swap2Colors && e[1].Swap2Colors }, ""},
		{"board mode for one", []string{"-board-mode=new:true"}, func(e []arbiter.Entrant) bool { return e[0].BoardMode && !e[1].BoardMode }, ""},
		{"clock for all, then one", []string{"-tc", "20s", "-tc", "old:1m", "-turn", "old:5s"}, func(e []arbiter.Entrant) bool {
			return e[0].Clock.Match == 20*time.Second && e[1].Clock.Match == time.Minute && e[1].Clock.Turn == 5*time.Second && e[0].Clock.Turn == 0
		}, ""},
		{"memory: limit and INFO", []string{"-max-memory", "old:350MiB"}, func(e []arbiter.Entrant) bool {
			return e[1].Spec.Limits.Memory == 350<<20 && reflect.DeepEqual(e[1].Infos, []engine.Info{{Key: "max_memory", Value: "367001600"}}) &&
				e[0].Spec.Limits.Memory == 0 && e[0].Infos == nil
		}, ""},
		{"memory as arena match wrote it", []string{"-max-memory", "350M"}, func(e []arbiter.Entrant) bool { return e[0].Spec.Limits.Memory == 350<<20 }, ""},
		{"hard memory and processes", []string{"-hard-memory", "1GiB", "-max-processes", "new:8"}, func(e []arbiter.Entrant) bool {
			return e[0].Spec.Limits.HardMemory == 1<<30 && e[0].Spec.Limits.Processes == 8 && e[1].Spec.Limits.Processes == 0
		}, ""},
		{"environment", []string{"-env", "A=1", "-env", "old:B=x:y"}, func(e []arbiter.Entrant) bool {
			return reflect.DeepEqual(e[0].Spec.Env, []string{"A=1"}) && reflect.DeepEqual(e[1].Spec.Env, []string{"A=1", "B=x:y"})
		}, ""},
		{"folder", []string{"-dir", "old:/tmp/x"}, func(e []arbiter.Entrant) bool { return e[1].Spec.Dir == "/tmp/x" && e[0].Spec.Dir == "" }, ""},
		{"unknown engine", []string{"-hard-memory", "nobody:1G"}, nil, `-hard-memory nobody:1G: no engine named "nobody"`},
		{"bad bool", []string{"-swap2-colors=new:maybe"}, nil, `engine "new": "maybe" is not true or false`},
		{"bad duration", []string{"-tc", "old:fast"}, nil, `-tc old:fast: engine "old": "fast" is not a duration`},
		{"bad memory", []string{"-max-memory", "lots"}, nil, "not an amount of memory"},
		{"bad count", []string{"-max-processes", "-3"}, nil, `-max-processes -3: engine "new": -3: must not be negative (0: no limit)`},
		{"not a count", []string{"-max-processes", "x"}, nil, `"x" is not a whole number`},
		{"env without =", []string{"-env", "old:B"}, nil, "want KEY=VALUE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ef engineFlags
			fs := flag.NewFlagSet("match", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			ef.define(fs)
			if err := fs.Parse(tt.args); err != nil {
				t.Fatal(err)
			}
			e := ents()
			err := ef.apply(e)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if built := event.Entrants(e); !tt.check(built) {
				t.Errorf("entrants %+v", built)
			}
		})
	}
}

// arena gomoku-cli takes the same settings as tokens of -engine and -each.
func TestGomokuCliTakesTheSettings(t *testing.T) {
	p, err := parseCli([]string{"-engine", "cmd=builtin:faulty", "name=a", "swap2_colors=true", "hard_memory=1GiB",
		"-engine", "cmd=builtin:greedy", "name=b", "-each", "board_mode=1", "hang=1m"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	es := p.Match.View().Engines
	a, b := es[0], es[1]
	if !a.Swap2Colors || b.Swap2Colors || a.HardMemory != 1<<30 || !a.BoardMode || !b.BoardMode || b.Clock.Hang != time.Minute {
		t.Errorf("entrants %+v", es)
	}
	if _, err := parseCli([]string{"-engine", "cmd=builtin:faulty", "swap2_colors=perhaps", "-engine", "cmd=builtin:greedy"}, io.Discard); err == nil ||
		!strings.Contains(err.Error(), "swap2_colors=perhaps") {
		t.Errorf("a bad setting: %v", err)
	}
}

// An engine that wants SWAP2BOARD stones as x,y,c (as Rapfi does) forfeits
// the Swap2 games in which it is shown stones unless told so; with its stone format set on the
// command line it plays every game to the board.
func TestSwap2ColoursOnTheCommandLine(t *testing.T) {
	play := func(flags ...string) []*record.Record {
		t.Helper()
		dir := t.TempDir()
		args := append([]string{"match", "-quiet", "-games", "2", "-tc", "10s", "-rule", "freestyle", "-opening-procedure", "swap2", "-out", dir}, flags...)
		args = append(args, "picky=builtin:faulty swap2-colors", "builtin:greedy")
		if o, errOut, code := runArena(t, args...); code != 0 {
			t.Fatalf("exit %d\n%s%s", code, o, errOut)
		}
		recs, err := journal.Read(filepath.Join(dir, "journal.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		return recs
	}
	// Without it, the game in which it is shown stones is lost: it reads an
	// empty board and answers three stones where one, two or SWAP is due.
	forfeits := 0
	for _, rec := range play() {
		if rec.End.Forfeit() {
			forfeits++
		}
	}
	if forfeits == 0 {
		t.Fatal("without -swap2-colors the picky engine never forfeited: the test shows nothing")
	}
	for _, rec := range play("-swap2-colors=picky") {
		if rec.End.Forfeit() {
			t.Errorf("game %d: %s by %s: %s", rec.Game, rec.Winner, rec.End, rec.Detail)
		}
	}
}

// arena match plays the build a folder holds for the rule and size, and
// refuses a folder without one before any game.
func TestMatchEngineFolderOfBuilds(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	builds := filepath.Join(dir, "x")
	os.Mkdir(builds, 0o755)
	script := func(name, args string) {
		src := "#!/bin/sh\nexec " + strconv.Quote(exe) + " engine faulty " + args + "\n"
		if err := os.WriteFile(filepath.Join(builds, name), []byte(src), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	script("pbrain-x_freestyle-15", "")
	script("pbrain-x_renju", "crash-at=1")
	script("pbrain-x", "crash-at=1")
	out := filepath.Join(dir, "out")
	if o, errOut, code := runArena(t, "match", "-quiet", "-games", "2", "-tc", "10s", "-rule", "freestyle", "-out", out, "x="+builds, "builtin:greedy"); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, o, errOut)
	}
	recs, err := journal.Read(filepath.Join(out, "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		if rec.End.Forfeit() {
			t.Errorf("game %d: %s (%s): the wrong build played", rec.Game, rec.End, rec.Detail)
		}
	}
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	out2 := filepath.Join(dir, "out2")
	o, errOut, code := runArena(t, "match", "-quiet", "-games", "2", "-out", out2, empty, "builtin:greedy")
	if code == 0 || !strings.Contains(errOut, "folder "+empty+" holds no pbrain-* program") {
		t.Errorf("a folder without builds: exit %d\n%s%s", code, o, errOut)
	}
	if _, err := os.Stat(filepath.Join(out2, "journal.jsonl")); err == nil {
		t.Error("a game was played")
	}
}
