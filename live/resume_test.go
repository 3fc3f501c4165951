package live_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"gomoku-arena/arbiter"
	"gomoku-arena/clock"
	"gomoku-arena/engine"
	"gomoku-arena/event"
	"gomoku-arena/event/outfolder"
	"gomoku-arena/internal/config"
	"gomoku-arena/live"
	"gomoku-arena/results/journal"
	"gomoku-arena/rules"
	"gomoku-arena/schedule"
)

// resumable writes a 6-entrant Swiss of 4 rounds whose top seed refuses to
// play and is withdrawn after its first game (3 games a round, then 2: 9
// games, not the 12 first planned), and returns its config.
func resumable(t *testing.T) *config.Event {
	t.Helper()
	dir := t.TempDir()
	src := `name = "resumed"
rule = "freestyle"
size = 9
format = "swiss"
rounds = 4
withdraw_after = 1
output = "out"
[clock]
match = "20s"
[[engine]]
name = "refuser"
command = "builtin:faulty"
args = ["refuse-start"]
[[engine]]
name = "greedy"
command = "builtin:greedy"
[[engine]]
name = "r1"
command = "builtin:random"
args = ["seed=1"]
[[engine]]
name = "r2"
command = "builtin:random"
args = ["seed=2"]
[[engine]]
name = "r3"
command = "builtin:random"
args = ["seed=3"]
[[engine]]
name = "r4"
command = "builtin:random"
args = ["seed=4"]
`
	return loadEvent(t, dir, "resumed.toml", src)
}

// stopAfter drains the event once n games have finished.
type stopAfter struct {
	n     int
	games int
	stop  context.CancelFunc
}

func (s *stopAfter) Observe(u event.Update) {
	if _, ok := u.(event.GameFinished); ok {
		if s.games++; s.games == s.n {
			s.stop()
		}
	}
}

// pageState is what api/state says, in the fields these tests read.
type pageState struct {
	Total    int  `json:"total"`
	Finished int  `json:"finished"`
	Live     bool `json:"live"`
	Entrants []struct {
		Name    string `json:"name"`
		Program string `json:"program"`
		Version string `json:"version"`
	} `json:"entrants"`
	Games []struct {
		Round  int    `json:"round"`
		Number int    `json:"number"`
		End    string `json:"end"`
	} `json:"games"`
}

func getState(t *testing.T, url string) pageState {
	t.Helper()
	resp, err := http.Get(url + "api/state")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var m struct {
		Data pageState `json:"data"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("api/state: %v\n%s", err, b)
	}
	return m.Data
}

// waitState polls api/state until ok says it is there.
func waitState(t *testing.T, url string, ok func(pageState) bool) pageState {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		s := getState(t, url)
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("api/state never got there: %+v", s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// checkAbout: every entrant that answered ABOUT in a journaled game is
// shown with its program and version.
func checkAbout(t *testing.T, when string, s pageState, folder string) {
	t.Helper()
	recs, err := journal.Read(filepath.Join(folder, outfolder.JournalFile))
	if err != nil {
		t.Fatal(err)
	}
	answered := map[string]bool{}
	for _, r := range recs {
		answered[r.Black] = answered[r.Black] || r.BlackAbout != ""
		answered[r.White] = answered[r.White] || r.WhiteAbout != ""
	}
	for _, e := range s.Entrants {
		if answered[e.Name] && (e.Program == "" || e.Version == "") {
			t.Errorf("%s: %s shows no program or version, though the journal has its ABOUT", when, e.Name)
		}
	}
}

// A Swiss stopped after 4 games and continued with its page: the page
// knows the journal's games and ABOUT answers before any game of the new
// run ends, and counts the games the withdrawal left (9, not 12); arena
// serve of the finished folder says the same.
func TestResumedEventState(t *testing.T) {
	cfg := resumable(t)
	ev, err := event.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	drain, stop := context.WithCancel(context.Background())
	defer stop()
	// The first run's page: 12 games planned, 9 once the refuser is
	// withdrawn (before round 2 is paired).
	first, err := live.Start("127.0.0.1:0", cfg.Name, ev.Folder())
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	if got := waitState(t, first.URL, func(pageState) bool { return true }); got.Total != 0 {
		t.Fatalf("a page before the event began: total %d", got.Total)
	}
	if _, err := ev.Run(drain, context.Background(), event.Observers{first, &stopAfter{n: 4, stop: stop}}); err == nil {
		t.Fatal("the first run was not stopped")
	}
	waitState(t, first.URL, func(s pageState) bool { return s.Finished == 4 && s.Total == 9 })

	ev, pg := serveEvent(t, cfg)
	// The first game of the continued run waits until the page has been
	// read: nothing of this run has finished yet.
	var before pageState
	gate := observerFunc(func(u event.Update) {
		if _, ok := u.(event.GameStarted); ok && before.Total == 0 {
			before = waitState(t, pg.URL, func(s pageState) bool { return s.Finished == 4 })
		}
	})
	if _, err := ev.Run(context.Background(), context.Background(), event.Observers{pg, gate}); err != nil {
		t.Fatal(err)
	}
	if len(before.Games) != 4 || before.Total != 9 {
		t.Errorf("continued: %d games listed, %d of %d finished; want the journal's 4 of 9", len(before.Games), before.Finished, before.Total)
	}
	checkAbout(t, "continued, before a game of the run ended", before, ev.Folder())
	after := waitState(t, pg.URL, func(s pageState) bool { return s.Finished == 9 })
	if len(after.Games) != 9 || after.Total != 9 {
		t.Errorf("finished: %d games listed, %d of %d finished; want 9 of 9", len(after.Games), after.Finished, after.Total)
	}
	checkAbout(t, "finished", after, ev.Folder())

	// arena serve of the folder.
	srv, h := live.NewServer(), live.NewHub()
	path := srv.Add(cfg.Name, ev.Folder(), h)
	ln, err := live.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go live.Follow(ctx, ev.Folder(), h, 20*time.Millisecond)
	go srv.Serve(ctx, ln)
	served := waitState(t, "http://"+ln.Addr().String()+path, func(s pageState) bool { return s.Finished == 9 })
	if len(served.Games) != 9 || served.Total != 9 || served.Live {
		t.Errorf("served folder: %d games listed, %d of %d finished, live %v; want 9 of 9 from the files", len(served.Games), served.Finished, served.Total, served.Live)
	}
	checkAbout(t, "served folder", served, ev.Folder())
}

type observerFunc func(event.Update)

func (f observerFunc) Observe(u event.Update) { f(u) }

// A match stopped after 4 games and continued with its page: before a game
// of the continued run ends, the page's encounter counts the journal's 4
// games (and its plot their 2 pairs); at the end all 8.
func TestResumedMatchState(t *testing.T) {
	out := filepath.Join(t.TempDir(), "m")
	free, _ := rules.ByName("freestyle")
	newMatch := func() *event.Match {
		m := event.NewMatch("resumed match", free, 9)
		ctl := clock.Control{Match: time.Minute, Tolerance: time.Second}
		m.Out, m.Plan.Games, m.Plan.Suite = out, 8, schedule.Suite{Pairs: true}
		m.Plan.Director.Entrants = []arbiter.Entrant{{Spec: engine.Spec{Name: "greedy", Command: "builtin:greedy"}, Clock: ctl},
			{Spec: engine.Spec{Name: "random", Command: "builtin:random", Args: []string{"seed=3"}}, Clock: ctl}}
		return m
	}
	drain, stop := context.WithCancel(context.Background())
	defer stop()
	if err := newMatch().Run(drain, context.Background(), &stopAfter{n: 4, stop: stop}); err != nil {
		t.Fatal(err)
	}
	pg, err := live.Start("127.0.0.1:0", "resumed match", out)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	type matchState struct {
		Finished int `json:"finished"`
		Match    []struct {
			W, D, L int
			Points  []any `json:"points"`
		} `json:"match"`
	}
	read := func() matchState {
		resp, err := http.Get(pg.URL + "api/state")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m struct{ Data matchState }
		json.NewDecoder(resp.Body).Decode(&m)
		return m.Data
	}
	var before matchState
	gate := observerFunc(func(u event.Update) {
		if _, ok := u.(event.GameStarted); ok && before.Finished == 0 {
			waitState(t, pg.URL, func(s pageState) bool { return s.Finished == 4 })
			before = read()
		}
	})
	if err := newMatch().Run(context.Background(), context.Background(), event.Observers{pg, gate}); err != nil {
		t.Fatal(err)
	}
	if len(before.Match) != 1 || before.Match[0].W+before.Match[0].D+before.Match[0].L != 4 || len(before.Match[0].Points) != 2 {
		t.Errorf("continued, before a game of the run ended: %+v; want the journal's 4 games, 2 points", before.Match)
	}
	after := waitState(t, pg.URL, func(s pageState) bool { return s.Finished == 8 })
	if m := read().Match; after.Total != 8 || len(m) != 1 || m[0].W+m[0].D+m[0].L != 8 || len(m[0].Points) != 4 {
		t.Errorf("finished: total %d, %+v; want 8 games, 4 points", after.Total, m)
	}
}
