package live_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"

	"gomoku-arena/event"
	"gomoku-arena/event/tables"
)

// firstGame closes its channel when the files are first rewritten after a
// game (the page with it).
type firstGame struct {
	once sync.Once
	ch   chan struct{}
}

func (f *firstGame) Observe(u event.Update) {
	if _, ok := u.(event.StandingsUpdated); ok {
		f.once.Do(func() { close(f.ch) })
	}
}

// TestSignedPageAndHallInBrowser plays an outer-open event between an
// engine that sends ESC and BEL in its messages and refuses the rule_name
// extension (as Rapfi does) and another, with the hall screen and the
// printable page open in Chromium: mid-event the page reads PROVISIONAL and
// "1 of 2 games"; at the end it is final and carries the organizer's
// details, the opening stones and each side's time; the hall screen never
// shows a raw control character nor the engine's ERROR.
func TestSignedPageAndHallInBrowser(t *testing.T) {
	ctx := browser(t)
	dir := t.TempDir()
	src := `name = "hall"
rule = "outer-open"
format = "double-round-robin"
openings = "openings.txt"
output = "out"
[clock]
match = "60s"
[details]
title = "Hall Cup, final"
venue = "Brno"
chief_arbiter = "IA Petr Svoboda"
organizer = "Brno Club"
start_date = "2026-11-28"
[[engine]]
name = "noisy"
command = "builtin:faulty"
args = ["think=150ms", "info-error", "say=\u001b[31mred\u0007 text"]
[[engine]]
name = "calm"
command = "builtin:faulty"
args = ["think=150ms"]
`
	if err := writeFile(filepath.Join(dir, "openings.txt"), "-7,-7, -6,-7, -7,-5\n"); err != nil {
		t.Fatal(err)
	}
	ev, pg := serveEvent(t, loadEvent(t, dir, "hall.toml", src))
	bg := context.Background()
	first := &firstGame{ch: make(chan struct{})}
	done := make(chan error, 1)
	do(t, ctx, chromedp.Navigate(pg.URL), chromedp.WaitVisible(chromedp.CSS("#conn.ok")))
	go func() { _, err := ev.Run(bg, bg, event.Observers{first, pg}); done <- err }()
	do(t, ctx, chromedp.WaitVisible(chromedp.CSS("article.game .messages")))
	poll(t, ctx, `[...document.querySelectorAll("article.game .messages")].some(p => p.textContent.includes("red"))`)
	hall := eval[string](t, ctx, `document.body.innerText`)
	for _, bad := range []string{"\x1b", "\a", "ERROR", "OUTER-OPEN"} {
		if strings.Contains(hall, bad) {
			t.Errorf("the hall screen shows %q:\n%s", bad, hall)
		}
	}
	<-first.ch
	page := "file://" + filepath.Join(ev.Folder(), tables.PageFile)
	do(t, ctx, chromedp.Navigate(page), chromedp.WaitVisible(chromedp.CSS("#status")))
	if status := text(t, ctx, "#status"); !strings.Contains(status, "PROVISIONAL") || !strings.Contains(status, "of 2 games played") {
		t.Errorf("the mid-event page's status reads %q", status)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	do(t, ctx, chromedp.Navigate(page), chromedp.WaitVisible(chromedp.CSS("#status")))
	body := eval[string](t, ctx, `document.body.innerText`)
	for _, want := range []string{"Final: 2 of 2 games played", "Hall Cup, final", "Brno", "IA Petr Svoboda", "Brno Club", "UTC", "1 min per side", "A15 B15 A13"} {
		if !strings.Contains(body, want) {
			t.Errorf("the final page lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "PROVISIONAL") || strings.Contains(body, "\x1b") {
		t.Errorf("the final page says PROVISIONAL or holds a raw ESC:\n%s", body)
	}
	screenshot(t, ctx, "signed-page")
}

func writeFile(path, s string) error { return os.WriteFile(path, []byte(s), 0o644) }
