package live_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"gomoku-arena/event"
	"gomoku-arena/event/outfolder"
	"gomoku-arena/live"
	"gomoku-arena/results/journal"
	"gomoku-arena/results/record"
)

// TestResumedEventPageInBrowser stops a real Swiss after 4 games and
// continues it with its page open in Chromium: before any game of the
// continued run ends, the page lists the journal's 4 games, shows "4 of 9"
// (the withdrawal of the refusing entrant left 9 of the 12 first planned)
// and every entrant's program and version that the journal knows; at the
// end it lists all 9, and a replay of a game won by five marks the five on
// the last move only.
func TestResumedEventPageInBrowser(t *testing.T) {
	ctx := browser(t)
	cfg := resumable(t)
	ev, err := event.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	drain, stop := context.WithCancel(context.Background())
	defer stop()
	if _, err := ev.Run(drain, context.Background(), &stopAfter{n: 4, stop: stop}); err == nil {
		t.Fatal("the first run was not stopped")
	}
	recs, err := journal.Read(filepath.Join(ev.Folder(), outfolder.JournalFile))
	if err != nil {
		t.Fatal(err)
	}
	answered := map[string]bool{} // entrants whose ABOUT the journal has
	for _, r := range recs {
		answered[r.Black] = answered[r.Black] || r.BlackAbout != ""
		answered[r.White] = answered[r.White] || r.WhiteAbout != ""
	}

	ev, pg := serveEvent(t, cfg)
	atStart, proceed := make(chan struct{}), make(chan struct{})
	first := true
	gate := observerFunc(func(u event.Update) {
		if _, ok := u.(event.GameStarted); ok && first {
			first = false
			close(atStart)
			<-proceed // the continued run's first game waits for the page to be read
		}
	})
	done := make(chan error, 1)
	go func() {
		_, err := ev.Run(context.Background(), context.Background(), event.Observers{pg, gate})
		done <- err
	}()
	<-atStart
	do(t, ctx, chromedp.Navigate(pg.URL), chromedp.WaitVisible(chromedp.CSS("#conn.ok")))
	poll(t, ctx, `document.querySelectorAll("#games tbody tr").length === 4`)
	if p := text(t, ctx, "#progress"); !strings.HasPrefix(p, "4 of 9 games finished") {
		t.Errorf("the page says %q, want 4 of 9 games finished", p)
	}
	rows := eval[[][]string](t, ctx, `[...document.querySelectorAll("#entrants tbody tr")].map(r => [...r.cells].map(c => c.textContent))`)
	for _, r := range rows {
		if answered[r[0]] && (r[1] == "" || r[2] == "") {
			t.Errorf("entrant %s shows program %q version %q, though the journal has its ABOUT", r[0], r[1], r[2])
		}
	}
	screenshot(t, ctx, "event-resumed")
	close(proceed)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, `document.querySelectorAll("#games tbody tr").length === 9 && document.getElementById("progress").textContent.startsWith("9 of 9")`)

	// A game won by five, replayed: the five is marked on the last
	// position, not before it.
	recs, _ = journal.Read(filepath.Join(ev.Folder(), outfolder.JournalFile))
	var won *record.Record
	for _, r := range recs {
		if r.End == record.Five {
			won = r
			break
		}
	}
	if won == nil {
		t.Fatal("no game of the event was won by five")
	}
	do(t, ctx, chromedp.Navigate(fmt.Sprintf("%s#game=%d.%d", pg.URL, won.Round, won.Game)),
		chromedp.WaitVisible(chromedp.CSS("#replay-board svg")))
	poll(t, ctx, fmt.Sprintf(`document.getElementById("replay-ply").textContent === "%d / %d"`, len(won.Moves), len(won.Moves)))
	marked := eval[[][]int](t, ctx, `[...document.querySelectorAll("#replay-board circle.five")].map(c => [+c.getAttribute("cx"), +c.getAttribute("cy")])`)
	if len(marked) < 5 {
		t.Errorf("the winning row is marked with %d rings, want 5 or more", len(marked))
	}
	last := won.Moves[len(won.Moves)-1].Point
	cx, cy := 24+last.X*26, 24+last.Y*26 // drawBoard's geometry
	if !containsPoint(marked, cx, cy) {
		t.Errorf("the marked row %v does not go through the winning stone %v", marked, last)
	}
	screenshot(t, ctx, "event-replay-five")
	do(t, ctx, chromedp.KeyEvent(kb.ArrowLeft))
	if n := eval[int](t, ctx, `document.querySelectorAll("#replay-board circle.five").length`); n != 0 {
		t.Errorf("a move before the end, %d stones are marked as the five", n)
	}
}

func containsPoint(ps [][]int, x, y int) bool {
	for _, p := range ps {
		if len(p) == 2 && p[0] == x && p[1] == y {
			return true
		}
	}
	return false
}

// TestOpeningStonesInBrowser: the stones the arbiter places (outer-open's
// arbiter-opens, an opening list) are on the page's board while White
// thinks about its first reply, with White's clock running; and each line
// of the messages pane names the engine that sent it.
func TestOpeningStonesInBrowser(t *testing.T) {
	ctx := browser(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "openings.txt"), []byte("h8i8i11\n"), 0o644)
	for _, tc := range []struct {
		name, rule, extra string
		stones            int
	}{
		{"arbiter-opens", "outer-open", `opening_policy = "arbiter-opens"`, 1},
		{"opening list", "freestyle", `openings = "openings.txt"`, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := `name = "opening ` + tc.name + `"
rule = "` + tc.rule + `"
format = "round-robin"
move_cap = ` + fmt.Sprint(tc.stones+2) + `
output = "out-` + strings.ReplaceAll(tc.name, " ", "-") + `"
` + tc.extra + `
[clock]
match = "60s"
[[engine]]
name = "alpha"
command = "builtin:faulty"
args = ["think=1500ms", "say=thinking hard"]
[[engine]]
name = "beta"
command = "builtin:faulty"
args = ["think=1500ms", "say=thinking hard"]
`
			ev, pg := serveEvent(t, loadEvent(t, dir, "event.toml", src))
			do(t, ctx, chromedp.Navigate(pg.URL), chromedp.WaitVisible(chromedp.CSS("#conn.ok")))
			done := make(chan error, 1)
			go func() { _, err := ev.Run(context.Background(), context.Background(), pg); done <- err }()
			// White thinks 1.5 s on its first reply: the opening is on the
			// board meanwhile, White to move, its clock running.
			poll(t, ctx, `document.querySelectorAll("article.game circle.stone").length > 0`)
			if n := eval[int](t, ctx, `document.querySelectorAll("article.game circle.stone").length`); n != tc.stones {
				t.Fatalf("the board first showed %d stones, want the opening's %d before White's reply", n, tc.stones)
			}
			if side := eval[string](t, ctx, `document.querySelector("article.game .side.to-move").className`); !strings.Contains(side, "white") {
				t.Errorf("to move after the opening: %q, want White", side)
			}
			screenshot(t, ctx, "opening-"+strings.ReplaceAll(tc.name, " ", "-"))
			poll(t, ctx, `[...document.querySelectorAll("article.game .messages")].some(p => p.textContent.trim() !== "")`)
			lines := eval[[]string](t, ctx, `document.querySelector("article.game .messages").textContent.split("\n").filter(l => l)`)
			for _, l := range lines {
				if !strings.HasPrefix(l, "alpha: ") && !strings.HasPrefix(l, "beta: ") {
					t.Errorf("message line %q does not name its engine", l)
				}
			}
			if err := <-done; err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestPenteReplayInBrowser: a Pente game's replay takes captured stones off
// the board and says how many each side has captured, at every move.
func TestPenteReplayInBrowser(t *testing.T) {
	ctx := browser(t)
	// Two random movers (seeded: the same games every time) capture pairs.
	dir := t.TempDir()
	src := `name = "pente"
rule = "pente"
format = "double-round-robin"
move_cap = 150
output = "out"
[clock]
match = "60s"
[[engine]]
name = "r1"
command = "builtin:random"
args = ["seed=1"]
[[engine]]
name = "r2"
command = "builtin:random"
args = ["seed=2"]
`
	ev, err := event.New(loadEvent(t, dir, "pente.toml", src))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ev.Run(context.Background(), context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	out := ev.Folder()
	recs, err := journal.Read(filepath.Join(out, outfolder.JournalFile))
	if err != nil {
		t.Fatal(err)
	}
	var game *record.Record // the game with the most captures
	most := 0
	for _, r := range recs {
		n := 0
		for _, m := range r.Moves {
			n += len(m.Captured)
		}
		if n > most {
			game, most = r, n
		}
	}
	if game == nil {
		t.Fatal("no game of the match captured a pair")
	}
	srv, h := live.NewServer(), live.NewHub()
	path := srv.Add("pente", out, h)
	ln, err := live.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go live.Follow(sctx, out, h, 20*time.Millisecond)
	go srv.Serve(sctx, ln)
	url := "http://" + ln.Addr().String() + path
	do(t, ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("#conn.ok")))
	poll(t, ctx, `document.querySelectorAll("#games tbody tr").length === 2`)
	do(t, ctx, chromedp.Navigate(fmt.Sprintf("%s#game=%d.%d", url, game.Round, game.Game)), chromedp.WaitVisible(chromedp.CSS("#replay-board svg")))
	poll(t, ctx, fmt.Sprintf(`document.getElementById("replay-ply").textContent === "%d / %d"`, len(game.Moves), len(game.Moves)))
	// The final position, and the positions before and after each capture,
	// compared with the record's.
	plies := []int{len(game.Moves)}
	for i, m := range game.Moves {
		if len(m.Captured) > 0 {
			plies = append(plies, i, i+1)
		}
	}
	for _, ply := range plies {
		eval[any](t, ctx, fmt.Sprintf("showPly(%d); null", ply))
		took := map[string]int{}
		on := map[[2]int]bool{}
		for _, m := range game.Moves[:ply] {
			if m.Refused != "" || m.Raw != "" {
				continue
			}
			on[[2]int{m.Point.X, m.Point.Y}] = true
			for _, c := range m.Captured {
				delete(on, [2]int{c.X, c.Y})
			}
			took[m.Color.String()] += len(m.Captured)
		}
		want := fmt.Sprintf("Captures: Black %s, White %s", pairs(took["black"]), pairs(took["white"]))
		if got := text(t, ctx, "#replay-captures"); got != want {
			t.Fatalf("move %d: the page says %q, the record %q", ply, got, want)
		}
		if n := eval[int](t, ctx, `document.querySelectorAll("#replay-board circle.stone").length`); n != len(on) {
			t.Fatalf("move %d: %d stones on the page's board, %d on the record's", ply, n, len(on))
		}
	}
	screenshot(t, ctx, "pente-replay")
}

func pairs(stones int) string {
	unit := " pairs"
	if stones == 2 {
		unit = " pair"
	}
	return fmt.Sprintf("%d%s (%d stones)", stones/2, unit, stones)
}
