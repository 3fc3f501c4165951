package remote_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"gomoku-arena/engine"
	"gomoku-arena/internal/bundled"
	"gomoku-arena/remote"
	"gomoku-arena/rules"
)

// The test binary is also the bundled engines and the relay (engine NAME).
func TestMain(m *testing.M) {
	bundled.ServeIfAsked()
	os.Exit(m.Run())
}

// benchMoves asks e for a move on the same small position b.N times: the
// per-move cost of the path to the engine (the engine itself answers at
// once).
func benchMoves(b *testing.B, e *engine.Engine) {
	if err := e.NewGame(15, nil, time.Now().Add(30*time.Second)); err != nil {
		b.Fatal(err)
	}
	stones := []engine.Stone{{Point: rules.Point{X: 7, Y: 7}, Field: 2}, {Point: rules.Point{X: 8, Y: 8}, Field: 1}}
	b.ResetTimer()
	for range b.N {
		r := e.Board(stones, time.Now().Add(30*time.Second))
		if r.Fault != "" {
			b.Fatalf("%s: %s", r.Fault, r.Detail)
		}
	}
	b.StopTimer() // ending the engine (and the gateway) is not a move
}

// BenchmarkMove compares a move request to a local engine with the same
// request to the same engine playing remotely over loopback: relay, unix
// socket, gateway, TLS WebSocket, arena connect's client, and back.
func BenchmarkMove(b *testing.B) {
	b.Run("local", func(b *testing.B) {
		e, err := engine.Start(engine.Spec{Name: "random", Command: "builtin:random"})
		if err != nil {
			b.Fatal(err)
		}
		defer e.Close()
		benchMoves(b, e)
	})
	b.Run("remote", func(b *testing.B) {
		dir := b.TempDir()
		tokens, err := remote.IssueTokens(dir, []string{"far"})
		if err != nil {
			b.Fatal(err)
		}
		g, err := remote.Start(remote.Settings{Folder: dir, Listen: "127.0.0.1:0", Grace: time.Minute, MaxDisconnects: 3, Entrants: []string{"far"}})
		if err != nil {
			b.Fatal(err)
		}
		defer g.Close()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var log strings.Builder
		c := &remote.Client{URL: "https://" + g.Addr(), Token: tokens["far"], Fingerprint: g.Fingerprint(),
			Engine: []string{os.Args[0], "engine", "random"}, Log: &log}
		go c.Run(ctx)
		if missing := g.WaitEntrants(ctx); len(missing) > 0 {
			b.Fatalf("the client did not connect: %s", log.String())
		}
		e, err := engine.Start(engine.Spec{Name: "far", Command: "builtin:relay", Args: []string{"far"},
			Inherit: func() (*os.File, error) { return g.RelayFile("far") }})
		if err != nil {
			b.Fatal(err)
		}
		defer e.Close()
		benchMoves(b, e)
	})
}
