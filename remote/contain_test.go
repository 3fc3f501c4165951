package remote

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"gomoku-arena/engine"
)

// TestLocalProcessCannotDriveARelay attacks a running relay as an
// unconfined local engine would: it looks for the relay's socket and
// secret in every process's environment and for the gateway's socket among
// the machine's unix sockets, and speaks to what it finds as a relay would.
// Nothing may be found: the relay's only link to the gateway is the
// descriptor it inherited. The real relay still plays.
func TestLocalProcessCannotDriveARelay(t *testing.T) {
	g, tokens := startGateway(t, time.Minute)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var log strings.Builder
	c := g.client(tokens["a"])
	c.Engine, c.Log = []string{os.Args[0], "engine", "random"}, &log
	go c.Run(ctx)
	for deadline := time.Now().Add(30 * time.Second); g.sessionOf("a") == nil; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the client did not connect: %s", log.String())
		}
	}
	e, err := engine.Start(engine.Spec{Name: "a", Command: "builtin:relay", Args: []string{"a"},
		Inherit: func() (*os.File, error) { return g.RelayFile("a") }})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if err := e.NewGame(15, nil, time.Now().Add(30*time.Second)); err != nil {
		t.Fatal(err)
	}
	if r := e.Begin(time.Now().Add(30 * time.Second)); r.Fault != "" {
		t.Fatalf("the relay does not play: %s %s %v", r.Fault, r.Detail, e.Stderr())
	}

	// The attack.
	var secrets []string
	procs, _ := filepath.Glob("/proc/[0-9]*/environ")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		for _, kv := range strings.Split(string(b), "\x00") {
			if strings.HasPrefix(kv, "ARENA_RELAY") {
				secrets = append(secrets, p+": "+kv)
			}
		}
	}
	if len(secrets) > 0 {
		t.Errorf("a local process reads the relay's secrets: %q", secrets)
	}
	// Any named unix socket the gateway (in this process) listens on is a
	// way in for a process that can name it.
	ours := map[string]bool{}
	fds, _ := filepath.Glob("/proc/self/fd/*")
	for _, fd := range fds {
		if l, err := os.Readlink(fd); err == nil && strings.HasPrefix(l, "socket:[") {
			ours[strings.TrimSuffix(strings.TrimPrefix(l, "socket:["), "]")] = true
		}
	}
	nets, err := os.ReadFile("/proc/net/unix")
	if err != nil {
		t.Skip(err)
	}
	for _, l := range strings.Split(string(nets), "\n") {
		f := strings.Fields(l) // Num RefCount Protocol Flags Type St Inode Path
		if len(f) < 8 || !ours[f[6]] {
			continue
		}
		name := f[7] // "@…" is an abstract name
		conn, err := net.Dial("unix", name)
		if err != nil {
			continue
		}
		fmt.Fprintf(conn, "HELLO %s a\n", strings.Repeat("0", 64))
		conn.Close()
		t.Errorf("a local process connects to the gateway's socket %s", name)
	}
}

// TestReconnectionByReplacementCounts: an entrant that opens a new
// connection without closing the old one restarts its engine as surely as
// one that drops; each counts against max_disconnects (1 here), and one
// too many forfeits.
func TestReconnectionByReplacementCounts(t *testing.T) {
	g, tokens := startGateway(t, time.Minute) // MaxDisconnects 1
	r := relayInGame(t, g, "START 15\n", 30*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var conns []*websocket.Conn
	defer func() {
		for _, c := range conns {
			c.CloseNow()
		}
	}()
	// Each connection is left open, and read until its engine is opened.
	var prev *session
	for i := range 3 {
		conn, _, err := dial(t, g.client(tokens["a"]))
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, conn)
		go func() {
			for {
				_, data, err := conn.Read(ctx)
				if err != nil {
					return
				}
				var m message
				json.Unmarshal(data, &m)
			}
		}()
		// The next connection replaces this one only once it is attached:
		// a new session, not the one before it (the client's dial can
		// return before the gateway has registered the new session, and
		// the old one is still attached then).
		// The third is one too many: it is never attached, the stream
		// is forfeited.
		for deadline := time.Now().Add(20 * time.Second); i < 2; time.Sleep(5 * time.Millisecond) {
			if st := g.streamsOf("a"); len(st) == 1 {
				if s := attachedTo(st[0]); s != nil && s != prev && s == g.sessionOf("a") {
					prev = s
					break
				}
			}
			if time.Now().After(deadline) {
				t.Fatal("the new connection was never attached")
			}
		}
	}
	wantSecondDisconnectForfeit(t, r, ": replacing the connection did not count")
}

func attachedTo(st *stream) *session {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.sess
}

func (g *Gateway) sessionOf(name string) *session {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.sessions[name]
}

// TestPlantedRemoteFolderIsNotFollowed: OUTPUT/remote replaced by a link
// to another folder (the output folder may be shared): the event's TLS key
// and tokens are not written there, nor read from there.
func TestPlantedRemoteFolderIsNotFollowed(t *testing.T) {
	out, elsewhere := t.TempDir(), t.TempDir()
	if err := os.Symlink(elsewhere, filepath.Join(out, "remote")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Certificate(out, "", ""); err == nil || !strings.Contains(err.Error(), "is a link") {
		t.Errorf("Certificate: %v, want the link refused", err)
	}
	if err := writeHashes(out, map[string]string{"a": "b"}); err == nil || !strings.Contains(err.Error(), "is a link") {
		t.Errorf("writeHashes: %v, want the link refused", err)
	}
	if ents, _ := os.ReadDir(elsewhere); len(ents) != 0 {
		t.Errorf("written through the link: %s holds %s", elsewhere, ents[0].Name())
	}
}
