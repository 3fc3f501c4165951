package event

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gomoku-arena/event/identity"
	"gomoku-arena/event/outfolder"
	"gomoku-arena/event/outputs"
	"gomoku-arena/event/tables"
	"gomoku-arena/internal/bundled"
	"gomoku-arena/internal/config"
	"gomoku-arena/pairing"
	"gomoku-arena/results/report"
)

// The test binary is also the bundled engines (engine NAME), so events run
// real subprocesses.
func TestMain(m *testing.M) {
	bundled.ServeIfAsked()
	os.Exit(m.Run())
}

// smallEvent is a double round robin of three bundled engines (one bye a
// round) in its own folder.
func smallEvent(t *testing.T, format string) *config.Event {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "small.toml")
	src := `name = "small"
rule = "freestyle"
format = "` + format + `"
rounds = 3
output = "out"

[clock]
match = "30s"

[[engine]]
name = "greedy"
command = "builtin:greedy"

[[engine]]
name = "random"
command = "builtin:random"
args = ["seed=3"]

[[engine]]
name = "slow"
command = "builtin:faulty"
args = ["think=5ms"]
`
	os.WriteFile(path, []byte(src), 0o644)
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// liveCheck compares, whenever the standings change, standings.md in the
// folder with the standings computed from the journal alone (what arena
// standings prints).
type liveCheck struct {
	t       *testing.T
	folder  string
	games   int
	updates int
}

func (c *liveCheck) Observe(u Update) {
	switch u.(type) {
	case GameFinished:
		c.games++
	case StandingsUpdated:
		c.updates++
		onDisk, err := os.ReadFile(filepath.Join(c.folder, "standings.md"))
		if err != nil {
			c.t.Errorf("after %d games: %v", c.games, err)
			return
		}
		rep, _, err := tables.Standings(c.folder)
		if err != nil {
			c.t.Errorf("after %d games: %v", c.games, err)
			return
		}
		var want bytes.Buffer
		rep.WriteStandings(&want, report.Markdown)
		if !bytes.Equal(onDisk, want.Bytes()) {
			c.t.Errorf("after %d games standings.md says\n%s\nbut the journal says\n%s", c.games, onDisk, want.Bytes())
		}
	}
}

func TestStandingsAreLiveDuringARun(t *testing.T) {
	for _, format := range []string{"double-round-robin", "swiss"} {
		t.Run(format, func(t *testing.T) {
			cfg := smallEvent(t, format)
			ev, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			c := &liveCheck{t: t, folder: ev.Folder()}
			if _, err := ev.Run(context.Background(), context.Background(), c); err != nil {
				t.Fatal(err)
			}
			if c.games == 0 || c.updates < c.games {
				t.Errorf("%d games, the standings updated %d times", c.games, c.updates)
			}
		})
	}
}

// In an event of thousands, where rewriting the standings takes long, the
// games that end while the next rewrite waits are published together, and
// the files Run leaves hold every game. Here the event counts as big and
// the wait after a rewrite outlasts it.
func TestBigEventsStandingsAreRewrittenLessOften(t *testing.T) {
	defer func(from, spacing int) { rewriteFrom, rewriteSpacing = from, spacing }(rewriteFrom, rewriteSpacing)
	rewriteFrom, rewriteSpacing = 0, 1_000_000
	ev, err := New(smallEvent(t, "swiss"))
	if err != nil {
		t.Fatal(err)
	}
	o := newRecorder()
	rep, err := ev.Run(context.Background(), context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	games, updates := 0, 0
	for _, u := range o.all() {
		switch u.(type) {
		case GameFinished:
			games++
		case StandingsUpdated:
			updates++
		}
	}
	if games < 3 || updates != 1 {
		t.Errorf("%d games, %d rewrites announced; want only the first rewrite before the end", games, updates)
	}
	want, _, err := tables.Standings(ev.Folder())
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	rep.WriteStandings(&a, report.Markdown)
	want.WriteStandings(&b, report.Markdown)
	onDisk, err := os.ReadFile(filepath.Join(ev.Folder(), "standings.md"))
	if err != nil || !bytes.Equal(a.Bytes(), b.Bytes()) || !bytes.Equal(onDisk, b.Bytes()) {
		t.Errorf("the journal says\n%s\nRun returned\n%s\nstandings.md says\n%s (%v)", b.Bytes(), a.Bytes(), onDisk, err)
	}
}

// Games that end while a rewrite waits are published by a timer when no
// later game comes to carry them, and a timed rewrite's failure is
// returned by the next game's.
func TestPublisherTimerWritesTheLastGames(t *testing.T) {
	id, recs := swissAfterRound1(10)
	dir := t.TempDir()
	rewrites := make(chan int, 10)
	p := &publisher{out: dir, id: id, updated: func(rep *report.Report) {
		n := 0
		for _, s := range rep.Standings {
			n += s.Games
		}
		rewrites <- n / 2
	}}
	if err := p.add(recs[0]); err != nil {
		t.Fatal(err)
	}
	if n := <-rewrites; n != 1 {
		t.Fatalf("first rewrite with %d games, want 1", n)
	}
	p.mu.Lock()
	p.after = time.Now().Add(200 * time.Millisecond) // as after a slow rewrite
	p.mu.Unlock()
	for _, rec := range recs[1:3] {
		if err := p.add(rec); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case n := <-rewrites:
		if n != 3 {
			t.Fatalf("the timed rewrite has %d games, want 3", n)
		}
	case <-time.After(time.Minute):
		t.Fatal("no rewrite after the wait")
	}
	notDir := filepath.Join(dir, "standings.md")
	p.mu.Lock()
	p.out, p.after = filepath.Join(notDir, "sub"), time.Now().Add(50*time.Millisecond)
	p.mu.Unlock()
	if err := p.add(recs[3]); err != nil {
		t.Fatalf("a deferred rewrite failed at once: %v", err)
	}
	deadline := time.Now().Add(time.Minute)
	for {
		p.mu.Lock()
		failed := p.err != nil
		p.mu.Unlock()
		if failed || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := p.add(recs[4]); err == nil || !strings.Contains(err.Error(), notDir) {
		t.Fatalf("after a failed timed rewrite, add says %v", err)
	}
	if _, err := p.close(); err == nil {
		t.Fatal("close hid the failed rewrite")
	}
}

// A Swiss too big for TRF-16 writes its rounds in the JSON event form, which
// pairs the next round as the event itself does.
func TestSwissBeyondTRFWritesTheJSONForm(t *testing.T) {
	defer func(old int) { maxTRFPlayers = old }(maxTRFPlayers)
	maxTRFPlayers = 2 // the event's three entrants are too many
	cfg := smallEvent(t, "swiss")
	ev, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ev.Run(context.Background(), context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(ev.Folder(), "event.trf")); err == nil {
		t.Error("event.trf written for an event beyond TRF-16")
	}
	f, err := os.Open(filepath.Join(ev.Folder(), "event-pairing.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	report, err := pairing.ReadEventJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(report.Players) != 3 || report.Rounds != 3 {
		t.Errorf("%d players, %d rounds; want the event's 3 and 3", len(report.Players), report.Rounds)
	}
	_, done, err := tables.Standings(ev.Folder())
	if err != nil {
		t.Fatal(err)
	}
	rank := map[string]int{"": 0}
	for i, e := range cfg.Engines {
		rank[e.Name] = i + 1
	}
	games := report.Games
	for r := 1; r <= 3; r++ {
		var inFile int
		for _, g := range games {
			if g.Round == r {
				inFile++
			}
		}
		var played []string
		for _, rec := range done {
			if rec.Round == r {
				played = append(played, fmt.Sprintf("%d %d", rank[rec.Black], rank[rec.White]))
			}
		}
		if inFile != len(played) || inFile != 2 {
			t.Errorf("round %d: %d games and byes in the file, %d in the journal, want 2", r, inFile, len(played))
		}
		if r == 1 {
			continue
		}
		// The rounds before r, paired from the file: round r as played.
		report.Games = slices.DeleteFunc(slices.Clone(games), func(g pairing.Game) bool { return g.Round >= r })
		var js, plain bytes.Buffer
		if err := pairing.WriteEventJSON(&js, report); err != nil {
			t.Fatal(err)
		}
		if err := pairing.PairJSON(&js, &plain); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(plain.String()), "\n")[1:]
		slices.Sort(lines)
		slices.Sort(played)
		if !slices.Equal(lines, played) {
			t.Errorf("round %d: the file pairs %q, the event played %q", r, lines, played)
		}
	}
}

func TestUpdatesOfARun(t *testing.T) {
	cfg := smallEvent(t, "round-robin")
	ev, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	o := newRecorder()
	if _, err := ev.Run(context.Background(), context.Background(), o); err != nil {
		t.Fatal(err)
	}
	b, ok := o.all()[0].(Began)
	if !ok || b.Total != 3 || b.Finished != 0 || b.Name != "small" {
		t.Fatalf("first update %#v, want Began of 3 games", o.all()[0])
	}
	started, finished := map[int]bool{}, map[int]bool{}
	for _, u := range o.all() {
		switch u := u.(type) {
		case GameStarted:
			started[u.Number] = true
		case MovePlayed:
			if !started[u.Number] || finished[u.Number] {
				t.Errorf("a move of game %d outside the game", u.Number)
			}
		case GameFinished:
			if !started[u.Record.Game] {
				t.Errorf("game %d finished unstarted", u.Record.Game)
			}
			finished[u.Record.Game] = true
		}
	}
	if len(finished) != 3 {
		t.Errorf("%d games finished, want 3", len(finished))
	}

	// Run again, the event is over: nothing is played.
	ev, _ = New(cfg)
	o = newRecorder()
	if _, err := ev.Run(context.Background(), context.Background(), o); err != nil {
		t.Fatal(err)
	}
	for _, u := range o.all() {
		switch u := u.(type) {
		case Began:
			if u.Finished != 3 {
				t.Errorf("continued with %d games finished, want 3", u.Finished)
			}
		case GameStarted, GameFinished:
			t.Errorf("the finished event played again: %#v", u)
		}
	}
}

// gamesOnly is a recorder that follows games, not their stones.
type gamesOnly struct{ *recorder }

func (gamesOnly) SkipsMoves() bool { return true }

// An observer that follows games and not their stones (GamesObserver)
// hears of every game and of no stone: none is made for it. Beside an
// observer that takes the stones, it is passed them as before.
func TestAGamesObserverIsSparedTheMoves(t *testing.T) {
	for _, beside := range []bool{false, true} {
		ev, err := New(smallEvent(t, "round-robin"))
		if err != nil {
			t.Fatal(err)
		}
		games, all := gamesOnly{newRecorder()}, newRecorder()
		var obs Observer = games
		if beside {
			obs = Observers{games, all}
		}
		if _, err := ev.Run(context.Background(), context.Background(), obs); err != nil {
			t.Fatal(err)
		}
		moves, finished := len(kinds[MovePlayed](games.recorder)), len(kinds[GameFinished](games.recorder))
		switch {
		case finished != 3:
			t.Errorf("beside one that takes the stones %v: %d games finished, want 3", beside, finished)
		case !beside && moves != 0:
			t.Errorf("alone: %d moves made for an observer that skips them", moves)
		case beside && (moves == 0 || len(kinds[MovePlayed](all)) != moves):
			t.Errorf("beside one that takes the stones: %d and %d moves, want the same, some", moves, len(kinds[MovePlayed](all)))
		}
	}
}

func TestEventJSONRoundTrip(t *testing.T) {
	ev, err := New(smallEvent(t, "swiss"))
	if err != nil {
		t.Fatal(err)
	}
	id := ev.identity()
	path := filepath.Join(t.TempDir(), identity.File)
	if err := id.Write(path); err != nil {
		t.Fatal(err)
	}
	back, err := identity.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if d := identity.Difference(back, id); d != "" {
		t.Errorf("read back differently: %s", d)
	}
	b, _ := os.ReadFile(path)
	for _, want := range []string{`"format": 2`, `"opening_suite": {`, `"kind": "event"`, `"match_ms": 30000`, `"pairing": "swiss"`, `"rounds": 3`} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("no %s in\n%s", want, b)
		}
	}
}

// A folder has one owner at a time: a second claim, or a rebuild of its
// files, is refused naming the owner's pid, and allowed again once the
// owner lets go.
func TestFolderHasOneOwner(t *testing.T) {
	cfg := smallEvent(t, "round-robin")
	ev := runEvent(t, cfg)
	f, err := outfolder.Claim(ev.Folder(), ev.identity(), ev.check, ev.t.Resume)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("in use by another arena (pid %d)", os.Getpid())
	ev2, _ := New(cfg)
	if _, err := ev2.Run(context.Background(), context.Background(), nil); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a second run: %v, want %q", err, want)
	}
	if _, err := tables.Rebuild(ev.Folder()); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a rebuild: %v, want %q", err, want)
	}
	f.Close()
	if _, err := tables.Rebuild(ev.Folder()); err != nil {
		t.Errorf("a rebuild after the owner let go: %v", err)
	}
}

// The files derived from the journal are not waited for on the disk (see
// durable), so a run that begins rebuilds any a crash left stale: a game
// file emptied or torn, the standings gone. Files that are right are left
// alone.
func TestDerivedFilesAreRestored(t *testing.T) {
	cfg := smallEvent(t, "round-robin")
	ev := runEvent(t, cfg)
	out := ev.Folder()
	games, _ := filepath.Glob(filepath.Join(out, outputs.GamesDir, "*"))
	if len(games) < 4 {
		t.Fatalf("%d game files", len(games))
	}
	want := map[string][]byte{}
	for _, f := range append(games, filepath.Join(out, "standings.md")) {
		want[f], _ = os.ReadFile(f)
	}
	os.WriteFile(games[0], nil, 0o644)                 // emptied
	os.WriteFile(games[1], want[games[1]][:10], 0o644) // torn
	os.Remove(filepath.Join(out, "standings.md"))      // gone
	untouched, _ := os.Stat(games[2])

	runEvent(t, cfg)
	for f, b := range want {
		if got, err := os.ReadFile(f); err != nil || !bytes.Equal(got, b) {
			t.Errorf("%s not restored (%v)", filepath.Base(f), err)
		}
	}
	if st, _ := os.Stat(games[2]); !st.ModTime().Equal(untouched.ModTime()) {
		t.Errorf("%s was rewritten, though right", filepath.Base(games[2]))
	}
}

// runEvent runs the event of cfg to its end (or continues it).
func runEvent(t *testing.T, cfg *config.Event) *Event {
	t.Helper()
	ev, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ev.Run(context.Background(), context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	return ev
}
