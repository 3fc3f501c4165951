package main

import (
	"context"
	"fmt"
	"io"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"golang.org/x/sync/errgroup"

	"gomoku-arena/event/identity"
	"gomoku-arena/live"
)

func runServe(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("serve", "[flags] FOLDER...",
		"Serves the live page of each event or match folder, finished or being written by another\n"+
			"arena: standings, crosstable, finished games to replay and download, and a match's\n"+
			"statistics and plots, updated as the journal grows. Boards of games in progress are\n"+
			"shown only by the arena that plays them (arena run -serve, arena match -serve).\n"+
			"Read-only; every asset is in the program (no internet needed).", stdout)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (host:port; 0.0.0.0:PORT shows the page to the network)")
	poll := fs.Duration("poll", 500*time.Millisecond, "how often to look for new games in the folders")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("%w: want at least one event folder", errUsage)
	}
	if *poll <= 0 {
		return fmt.Errorf("%w: -poll must be positive", errUsage)
	}
	srv := live.NewServer()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	g, ctx := errgroup.WithContext(ctx)
	for _, folder := range fs.Args() {
		_, err := identity.Read(filepath.Join(folder, identity.File))
		if err != nil {
			return fmt.Errorf("%s is not an event folder: %w", folder, err)
		}
		h := live.NewHub()
		// Named after the folder itself: every match is called "match".
		abs, err := filepath.Abs(folder)
		if err != nil {
			return err
		}
		path := srv.Add(filepath.Base(abs), folder, h)
		fmt.Fprintf(stdout, "%s: %s\n", folder, path)
		g.Go(func() error { return live.Follow(ctx, folder, h, *poll) })
	}
	ln, err := live.Listen(*addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "live page: http://%s/ (Ctrl-C stops)\n", ln.Addr())
	g.Go(func() error { return srv.Serve(ctx, ln) })
	return g.Wait()
}

// startPage serves a running event's live page and says where.
func startPage(addr, name, folder string, stdout io.Writer) (*live.Page, error) {
	page, err := live.Start(addr, name, folder)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(stdout, "live page: %s\n", page.URL)
	return page, nil
}
