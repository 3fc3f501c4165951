package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"gomoku-arena/check"
	"gomoku-arena/event"
	"gomoku-arena/event/identity"
	"gomoku-arena/event/outputs"
	"gomoku-arena/internal/config"
	"gomoku-arena/rules"
)

// playedFrom are the settings each front end's command builds, read back
// from event (event.Played), without playing: an event file's lines (under
// a minimal event of engines a and b), arena match's flags and
// c-gomoku-cli's tokens (before engines a and b).
func playedFrom(t *testing.T, front string, given []string) event.Played {
	t.Helper()
	dir := t.TempDir()
	switch front {
	case "toml":
		path := filepath.Join(dir, "e.toml")
		src := "name = \"e\"\nrule = \"freestyle\"\n"
		for _, l := range given {
			src += l + "\n"
		}
		src += "\n[[engine]]\nname = \"a\"\ncommand = \"builtin:greedy\"\n\n[[engine]]\nname = \"b\"\ncommand = \"builtin:random\"\n"
		os.WriteFile(path, []byte(src), 0o644)
		cfg, err := config.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		ev, err := event.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return ev.Played()
	case "match":
		args := append([]string{"-rule", "freestyle", "-out", filepath.Join(dir, "out")}, given...)
		p, err := parseMatch(append(args, "a=builtin:greedy", "b=builtin:random"), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		return p.Match.Played()
	case "gomoku-cli":
		args := append(append([]string{}, given...), "-engine", "cmd=builtin:greedy", "name=a", "-engine", "cmd=builtin:random", "name=b")
		p, err := parseCli(args, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		return p.Match.Played()
	}
	t.Fatalf("no front end %q", front)
	return event.Played{}
}

// Each match-wide setting reaches what is played as the same value,
// whichever front end gives it: an event file's key, arena match's flag,
// c-gomoku-cli's token where it has one (nil where it has none: its start
// timeout is the engine's, its processes live as its workers' do, its
// games open as its list says).
func TestEachMatchSettingTheSameInEveryFrontEnd(t *testing.T) {
	book := filepath.Join(t.TempDir(), "book.txt")
	os.WriteFile(book, []byte("0,0\n1,1\n0,2\n"), 0o644)
	cases := []struct {
		key   string
		file  []string
		flag  []string
		token []string
		want  func(p event.Played) bool
	}{
		{"size", []string{"size = 19"}, []string{"-size", "19"}, []string{"-boardsize", "19"}, func(p event.Played) bool { return p.Size == 19 }},
		{"move_cap", []string{"move_cap = 50"}, []string{"-move-cap", "50"}, []string{"-drawafter", "50"}, func(p event.Played) bool { return p.MoveCap == 50 }},
		{"start_timeout", []string{`start_timeout = "3s"`}, []string{"-start-timeout", "3s"}, nil, func(p event.Played) bool { return p.StartTimeout == 3*time.Second }},
		{"concurrency", []string{"concurrency = 3"}, []string{"-concurrency", "3"}, []string{"-concurrency", "3"}, func(p event.Played) bool { return p.Concurrency == 3 }},
		{"process_lifetime", []string{`process_lifetime = "game"`}, []string{"-process-lifetime", "game"}, nil, func(p event.Played) bool { return p.Lifetime == config.LifetimeGame }},
		{"opening_procedure", []string{`opening_procedure = "swap2"`}, []string{"-opening-procedure", "swap2"}, nil, func(p event.Played) bool { return p.Procedure == rules.Swap2Procedure }},
		{"openings", []string{`openings = "` + book + `"`}, []string{"-openings", book}, []string{"-openings", "file=" + book}, func(p event.Played) bool { return p.Openings == 3 }},
		{"sandbox", []string{`sandbox = "auto"`}, []string{"-sandbox", "auto"}, []string{"-sandbox", "auto"}, func(p event.Played) bool { return p.Confinement.Sandbox == config.SandboxAuto }},
		{"freeze_idle", []string{"freeze_idle = true"}, []string{"-freeze-idle"}, []string{"-freeze-idle"}, func(p event.Played) bool { return p.Confinement.FreezeIdle }},
		// The outputs, in the front ends that have them: c-gomoku-cli keeps
		// no folder, an event's files are its folder's.
		{"output", []string{`output = "games-out"`}, []string{"-out", "games-out"}, nil, func(p event.Played) bool {
			return filepath.Base(p.Outputs.Folder) == "games-out" && p.Outputs.Records == outputs.RecordsFiles
		}},
		{"records", nil, []string{"-records", "collection"}, nil, func(p event.Played) bool { return p.Outputs.Records == outputs.RecordsCollection }},
		{"pgn", nil, []string{"-pgn", "g.pgn"}, []string{"-pgn", "g.pgn"}, func(p event.Played) bool { return p.Outputs.PGN == "g.pgn" }},
		{"sgf", nil, nil, []string{"-sgf", "g.sgf"}, func(p event.Played) bool { return p.Outputs.SGF == "g.sgf" }},
		{"msg", nil, nil, []string{"-msg", "g.msg"}, func(p event.Played) bool { return p.Outputs.Msg == "g.msg" }},
		{"log", nil, nil, []string{"-log"}, func(p event.Played) bool { return p.Outputs.Log != "" }},
		{"sample", nil, []string{"-sample", "file=s.csv"}, []string{"-sample", "file=s.csv"}, func(p event.Played) bool { return filepath.Base(p.Outputs.Samples) == "s.csv" }},
	}
	for _, c := range cases {
		t.Run(c.key, func(t *testing.T) {
			for _, f := range []struct {
				front string
				given []string
			}{{"toml", c.file}, {"match", c.flag}, {"gomoku-cli", c.token}} {
				if f.given == nil {
					continue
				}
				if p := playedFrom(t, f.front, f.given); !c.want(p) {
					t.Errorf("%s %q: %+v", f.front, f.given, p)
				}
			}
		})
	}
}

// Every front end plays under the same defaults, but for those that
// c-gomoku-cli's users expect of arena gomoku-cli (no clock, its tolerance,
// max_memory told as 367001600 and not held, processes that live as its
// workers' do) and an event's Gomocup memory limit, which an authors'
// match does not hold unless asked (-max-memory).
func TestEveryFrontEndHasTheSameDefaults(t *testing.T) {
	want := playedFrom(t, "toml", nil)
	if want.Size != 15 || want.MoveCap != 0 || want.StartTimeout != 10*time.Second || want.Concurrency != 1 || want.Lifetime != config.LifetimeReuse ||
		want.Procedure != rules.NoProcedure || want.Openings != 0 || want.Confinement != (event.Confinement{}) {
		t.Fatalf("an event file's defaults: %+v", want)
	}
	if o := want.Outputs; o.Folder == "" || o.Records != outputs.RecordsFiles || o != (event.Outputs{Folder: o.Folder}) {
		t.Errorf("an event file's outputs: %+v, want its folder and every game's files there", o)
	}
	for _, front := range []string{"match", "gomoku-cli"} {
		got := playedFrom(t, front, nil)
		w := want
		w.Entrants = nil
		// Deliberate: an authors' match keeps its folder (out/match-TIME
		// unless -out says) with every game's files, as an event does;
		// c-gomoku-cli writes nothing it is not asked for.
		if front == "match" {
			w.Outputs = event.Outputs{Folder: got.Outputs.Folder, Records: outputs.RecordsFiles}
			if got.Outputs.Folder == "" {
				t.Errorf("match: no output folder")
			}
		} else {
			w.Outputs = event.Outputs{}
		}
		if front == "gomoku-cli" {
			w.Lifetime = config.LifetimePair // deliberate: c-gomoku-cli's workers
		}
		ents := got.Entrants
		got.Entrants = nil
		if jsonOf(t, got) != jsonOf(t, w) {
			t.Errorf("%s: %+v\nwant %+v", front, got, w)
		}
		for i, e := range ents {
			ev := want.Entrants[i]
			switch front {
			case "match": // deliberate: no memory held or told unless asked
				ev.MaxMemoryBytes, ev.Info = 0, nil
			case "gomoku-cli": // deliberate: c-gomoku-cli's untimed games and its told-only maxmemory
				ev.MaxMemoryBytes, ev.Clock = 0, e.Clock
				if e.Clock != (identity.Clock{ToleranceMS: 3000}) {
					t.Errorf("%s: engine %d: clock %+v, want c-gomoku-cli's (untimed, 3 s tolerance)", front, i, e.Clock)
				}
			}
			if got, want := jsonOf(t, e), jsonOf(t, ev); got != want { // as event.json keeps them: nil and empty alike
				t.Errorf("%s: engine %d: %s\nwant %s", front, i, got, want)
			}
		}
	}
}

func jsonOf(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkedUnder are the settings arena check probes under: from an event
// file's lines (arena check EVENT.toml, event.Event.CheckSettings) or
// from arena check's flags.
func checkedUnder(t *testing.T, front string, given []string) check.Settings {
	t.Helper()
	if front == "toml" {
		dir := t.TempDir()
		path := filepath.Join(dir, "e.toml")
		src := "name = \"e\"\n"
		for _, l := range given {
			src += l + "\n"
		}
		src += "\n[[engine]]\nname = \"a\"\ncommand = \"builtin:greedy\"\n\n[[engine]]\nname = \"b\"\ncommand = \"builtin:random\"\n"
		os.WriteFile(path, []byte(src), 0o644)
		cfg, err := config.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		ev, err := event.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return ev.CheckSettings()
	}
	fs := newFlags("check", "", "", io.Discard)
	gf := addGameFlags(fs)
	if err := fs.Parse(given); err != nil {
		t.Fatal(err)
	}
	s, err := gf.checkSettings()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// arena check probes under the settings the event plays under, given in
// its file or as its flags: each the same value, and without either the
// same defaults (the rule outer-open on its board, strict, no opening
// procedure, the engines' own start timeout).
func TestCheckSettingsTheSameFromFileAndFlags(t *testing.T) {
	cases := []struct {
		key  string
		file []string
		flag []string
		want func(s check.Settings) bool
	}{
		{"defaults", nil, nil, func(s check.Settings) bool {
			return s.Rule.Name() == "outer-open" && s.Size == 15 && !s.ArbiterOpens && s.Procedure == rules.NoProcedure && s.StartTimeout == 0
		}},
		{"rule", []string{`rule = "renju"`}, []string{"-rule", "renju"}, func(s check.Settings) bool { return s.Rule.Name() == "renju" }},
		{"size", []string{`rule = "freestyle"`, "size = 19"}, []string{"-rule", "freestyle", "-size", "19"}, func(s check.Settings) bool { return s.Size == 19 }},
		{"opening_policy", []string{`opening_policy = "arbiter-opens"`}, []string{"-opening-policy", "arbiter-opens"}, func(s check.Settings) bool { return s.ArbiterOpens }},
		{"opening_procedure", []string{`rule = "freestyle"`, `opening_procedure = "swap2"`}, []string{"-rule", "freestyle", "-opening-procedure", "swap2"},
			func(s check.Settings) bool { return s.Procedure == rules.Swap2Procedure }},
		{"start_timeout", []string{`start_timeout = "3s"`}, []string{"-start-timeout", "3s"}, func(s check.Settings) bool { return s.StartTimeout == 3*time.Second }},
	}
	for _, c := range cases {
		t.Run(c.key, func(t *testing.T) {
			for _, f := range []struct {
				front string
				given []string
			}{{"toml", c.file}, {"check", c.flag}} {
				if s := checkedUnder(t, f.front, f.given); !c.want(s) {
					t.Errorf("%s %q: rule %v size %d arbiter opens %v procedure %v start %v", f.front, f.given, s.Rule.Name(), s.Size, s.ArbiterOpens, s.Procedure, s.StartTimeout)
				}
			}
		})
	}
}
