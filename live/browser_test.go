package live_test

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"gomoku-arena/event"
	"gomoku-arena/event/tables"
	"gomoku-arena/internal/bundled"
	"gomoku-arena/live"
)

func TestMain(m *testing.M) {
	bundled.ServeIfAsked()
	if spec := os.Getenv("LIVE_VIEWERS"); spec != "" {
		viewersProcess(spec) // BenchmarkViewers' pages
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// browser starts a headless Chromium for the test, or skips saying what is
// missing. A JavaScript dialog (alert) fails the test: nothing an engine
// says may run as script.
func browser(t *testing.T) context.Context {
	t.Helper()
	var path string
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		t.Skip("no headless browser: install Debian's chromium package (.ci/run does)")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox,
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.WindowSize(1300, 1500))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelTime := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(func() { cancelTime(); cancel(); cancelAlloc() })
	err := chromedp.Listen(ctx, func(ev any) {
		if d, ok := ev.(*page.EventJavascriptDialogOpening); ok {
			t.Errorf("a script ran in the page and opened a dialog: %q", d.Message)
			go chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
		}
	})
	if err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	return ctx
}

// screenshot keeps a picture of the page in the test's folder, and in
// $ARENA_SCREENSHOTS when set (the README's pictures are made so).
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Errorf("screenshot %s: %v", name, err)
		return
	}
	dirs := []string{t.TempDir()}
	if d := os.Getenv("ARENA_SCREENSHOTS"); d != "" {
		dirs = append(dirs, d)
	}
	for _, d := range dirs {
		if err := os.WriteFile(filepath.Join(d, name+".png"), png, 0o644); err != nil {
			t.Error(err)
		}
	}
}

// moveLog records when the event reported each stone, on this machine's
// clock, which the browser shares.
type moveLog struct {
	mu    sync.Mutex
	moves map[string]int64 // "round.number.stones" -> Unix ms
}

func (l *moveLog) Observe(u event.Update) {
	if m, ok := u.(event.MovePlayed); ok {
		l.mu.Lock()
		l.moves[fmt.Sprintf("%d.%d.%d", m.Round, m.Number, m.Stones)] = time.Now().UnixMilli()
		l.mu.Unlock()
	}
}

const hostile = `<script>alert("engine")</script><img src=x onerror=alert(2)>`

// TestEventPageInBrowser plays a real event (two engines that think 300 ms a
// move, one of them sending markup as MESSAGE) with its page open in
// Chromium, and checks what a spectator sees.
func TestEventPageInBrowser(t *testing.T) {
	ctx := browser(t)
	dir := t.TempDir()
	src := `name = "browser <test>"
rule = "freestyle"
format = "double-round-robin"
move_cap = 16
output = "out"
[clock]
match = "60s"
[[engine]]
name = "alpha"
command = "builtin:faulty"
args = ["think=300ms", 'say=` + hostile + `']
[[engine]]
name = "beta"
command = "builtin:faulty"
args = ["think=300ms"]
`
	ev, pg := serveEvent(t, loadEvent(t, dir, "event.toml", src))
	log := &moveLog{moves: map[string]int64{}}
	bg := context.Background()
	done := make(chan error, 1)

	// The page is open before the first game starts.
	do(t, ctx, chromedp.Navigate(pg.URL), chromedp.WaitVisible(chromedp.CSS("#conn.ok")))
	// Every change of a board is noted with the browser's clock.
	watch := `window.__seen = {};
new MutationObserver(() => {
  for (const card of document.querySelectorAll("article.game")) {
    const n = card.querySelectorAll("circle.stone").length;
    const k = card.id + "." + n;
    if (!(k in window.__seen)) window.__seen[k] = Date.now();
  }
}).observe(document.getElementById("running"), {subtree: true, childList: true});`
	eval[any](t, ctx, watch)
	go func() { _, err := ev.Run(bg, bg, event.Observers{log, pg}); done <- err }()

	// The boards show, and a clock runs.
	do(t, ctx, chromedp.WaitVisible(chromedp.CSS("article.game circle.stone")))
	first := text(t, ctx, "article.game .to-move .clock")
	do(t, ctx, chromedp.Sleep(250*time.Millisecond))
	later := text(t, ctx, "article.game .to-move .clock")
	if first == later || !regexp.MustCompile(`^\d+:\d\d\.\d$`).MatchString(first) {
		t.Errorf("the clock of the side to move read %q and then %q: not running", first, later)
	}
	// What the engine said is shown as text, never run or rendered.
	poll(t, ctx, `[...document.querySelectorAll("article.game .messages")].some(p => p.textContent.includes("<script>"))`)
	said := eval[string](t, ctx, `[...document.querySelectorAll("article.game .messages")].map(p => p.textContent).join("\n")`)
	if !strings.Contains(said, hostile) {
		t.Errorf("the engine's MESSAGE is not shown as sent: %q", said)
	}
	scripts, images := eval[int](t, ctx, `document.scripts.length`), eval[int](t, ctx, `document.images.length`)
	if scripts != 1 || images != 0 {
		t.Errorf("the page has %d scripts and %d images: an engine's text became markup", scripts, images)
	}
	screenshot(t, ctx, "event-running")

	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// A finished game updates the standings: both rows count two games.
	poll(t, ctx, `document.querySelectorAll("#standings tbody tr").length === 2 &&
document.querySelectorAll("#games tbody tr").length === 2`)
	rows := eval[[]string](t, ctx, `[...document.querySelectorAll("#standings tbody tr")].map(r => r.textContent)`)
	rep, _, err := tables.Standings(ev.Folder())
	if err != nil {
		t.Fatal(err)
	}
	tab := rep.StandingsTable()
	for i, r := range tab.Rows {
		if i >= len(rows) || rows[i] != strings.Join(r, "") {
			t.Errorf("standings row %d in the browser %q, from the journal %q", i+1, rows, r)
		}
	}

	// Each stone appeared on the page, pushed, typically within a second of
	// being played. On a loaded machine (the CI runs packages side by side)
	// one stone may be late, so the test asks it of the median and reports
	// the slowest: a timing it cannot promise is not an assertion.
	seen := eval[map[string]float64](t, ctx, `window.__seen`)
	var delays []int64
	for k, at := range seen {
		var round, number, stones int
		if _, err := fmt.Sscanf(k, "game-%d-%d.%d", &round, &number, &stones); err != nil || stones == 0 {
			continue
		}
		log.mu.Lock()
		played, ok := log.moves[fmt.Sprintf("%d.%d.%d", round, number, stones)]
		log.mu.Unlock()
		if !ok {
			continue // opening stones come with the first move
		}
		delays = append(delays, int64(at)-played)
	}
	slices.Sort(delays)
	if len(delays) < 10 {
		t.Fatalf("only %d stones were seen arriving: %v", len(delays), seen)
	}
	if median := delays[len(delays)/2]; median > 1000 {
		t.Errorf("half the stones reached the page more than %d ms after they were played", median)
	}
	t.Logf("%d stones reached the page: median %d ms, slowest %d ms after they were played", len(delays),
		delays[len(delays)/2], delays[len(delays)-1])

	// A finished game replays to its last move.
	do(t, ctx, chromedp.Navigate(pg.URL+"#game=1.1"), chromedp.WaitVisible(chromedp.CSS("#replay-board svg")))
	ply := text(t, ctx, "#replay-ply")
	stones := eval[int](t, ctx, `document.querySelectorAll("#replay-board circle.stone").length`)
	if ply != "16 / 16" || stones != 16 {
		t.Errorf("replay shows %q with %d stones, want the 16 moves of the move cap", ply, stones)
	}
	do(t, ctx, chromedp.KeyEvent(kb.ArrowLeft))
	if ply := text(t, ctx, "#replay-ply"); ply != "15 / 16" {
		t.Errorf("the left arrow key shows %q, want 15 / 16", ply)
	}
	screenshot(t, ctx, "event-replay")
}

// TestMatchPageInBrowser runs `arena match -serve` as a real process with an
// SPRT and checks that the LLR plot gains a point per finished game pair.
func TestMatchPageInBrowser(t *testing.T) {
	ctx := browser(t)
	arena := buildArena(t)
	out := filepath.Join(t.TempDir(), "m")
	cmd := exec.Command(arena, "match", "-serve", "127.0.0.1:0", "-out", out, "-games", "12", "-rule", "freestyle",
		"-move-cap", "10", "-report", "0", "-sprt", "elo0=0,elo1=50", "a=builtin:faulty think=80ms", "b=builtin:faulty think=80ms")
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(stdout)
	var url string
	for lines.Scan() {
		if u, ok := strings.CutPrefix(lines.Text(), "live page: "); ok {
			url = u
			break
		}
	}
	if url == "" {
		t.Fatal("arena match -serve printed no page address")
	}
	do(t, ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("#conn.ok")))
	// Count the plot's points as the games finish, read from the page.
	last := 0
	for pairs := 1; pairs <= 3; pairs++ {
		poll(t, ctx, fmt.Sprintf(`document.querySelectorAll(".llr-plot circle.dot").length >= %d`, pairs))
		points := eval[int](t, ctx, `document.querySelectorAll(".llr-plot circle.dot").length`)
		if points < last {
			t.Errorf("the LLR plot lost points: %d after %d", points, last)
		}
		last = points
	}
	games := eval[int](t, ctx, `(() => { const m = /games (\d+)/.exec(document.querySelector("#match .stats").textContent); return m ? +m[1] : -1 })()`)
	if games/2 != last && games/2 != last+1 { // the page may be a game ahead of the plot
		t.Errorf("%d games counted but %d LLR points: want one per pair", games, last)
	}
	screenshot(t, ctx, "match")
	cmd.Process.Kill()
	cmd.Wait()
}

// buildArena builds the arena command for tests that run it as a process.
func buildArena(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "arena")
	out, err := exec.Command("go", "build", "-o", bin, "gomoku-arena/cmd/arena").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		t.Fatalf("%s: %v", sel, err)
	}
	return v
}

// poll waits until expr is true in the page.
func poll(t *testing.T, ctx context.Context, expr string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr)); err != nil {
		t.Fatalf("waiting for %s: %v", expr, err)
	}
}

// TestPageReconnects closes the server under an open page and starts it
// again on the same address (arena serve of the finished event's folder):
// the page says it is reconnecting, comes back by itself and shows the
// event again.
func TestPageReconnects(t *testing.T) {
	ctx := browser(t)
	arena := buildArena(t)
	out := filepath.Join(t.TempDir(), "m")
	if b, err := exec.Command(arena, "match", "-out", out, "-games", "2", "-rule", "freestyle", "-quiet",
		"builtin:greedy", "builtin:random seed=5").CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	ln, err := live.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	serve := func(ln net.Listener) (stop func()) {
		srv := live.NewServer()
		h := live.NewHub()
		srv.Add("match", out, h)
		sctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { live.Follow(sctx, out, h, 50*time.Millisecond) }()
		go func() { srv.Serve(sctx, ln); close(done) }()
		return func() { cancel(); <-done }
	}
	stop := serve(ln)
	do(t, ctx, chromedp.Navigate("http://"+addr+"/e/match/"), chromedp.WaitVisible(chromedp.CSS("#conn.ok")))
	poll(t, ctx, `document.querySelectorAll("#games tbody tr").length === 2`)
	eval[any](t, ctx, `window.__old = state; null`) // the page's state before the restart
	stop()
	poll(t, ctx, `document.getElementById("conn").textContent.startsWith("reconnecting")`)
	ln, err = net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("the address was taken in between: %v", err)
	}
	defer serve(ln)()
	// Caught up: a new whole state from the new server, not the old one kept.
	poll(t, ctx, `document.getElementById("conn").classList.contains("ok") && state !== window.__old &&
document.querySelectorAll("#games tbody tr").length === 2`)
}
