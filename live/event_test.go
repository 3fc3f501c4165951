package live_test

import (
	"os"
	"path/filepath"
	"testing"

	"gomoku-arena/event"
	"gomoku-arena/internal/config"
	"gomoku-arena/live"
)

// loadEvent writes src as dir/name and loads it, as arena run would.
func loadEvent(tb testing.TB, dir, name, src string) *config.Event {
	tb.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		tb.Fatal(err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		tb.Fatal(err)
	}
	return cfg
}

// serveEvent makes the event cfg describes and serves its live page on a
// free local port, closed when the test ends.
func serveEvent(tb testing.TB, cfg *config.Event) (*event.Event, *live.Page) {
	tb.Helper()
	ev, err := event.New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	pg, err := live.Start("127.0.0.1:0", cfg.Name, ev.Folder())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { pg.Close() })
	return ev, pg
}
