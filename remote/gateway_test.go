package remote

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"net"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// startGateway opens a gateway for entrants a and b on a free loopback
// port and returns it with their tokens.
func startGateway(t *testing.T, grace time.Duration) (*Gateway, map[string]string) {
	t.Helper()
	dir := t.TempDir()
	tokens, err := IssueTokens(dir, []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	g, err := Start(Settings{Folder: dir, Listen: "127.0.0.1:0", Grace: grace, MaxDisconnects: 1, Entrants: []string{"a", "b"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	return g, tokens
}

func (g *Gateway) client(token string) *Client {
	return &Client{URL: "https://" + g.Addr(), Token: token, Fingerprint: g.Fingerprint()}
}

func dial(t *testing.T, c *Client) (*websocket.Conn, int, error) {
	t.Helper()
	u, err := c.endpoint()
	if err != nil {
		t.Fatal(err)
	}
	conn, resp, err := c.dial(context.Background(), u)
	code := 0
	if resp != nil {
		code = resp.StatusCode
	}
	return conn, code, err
}

func TestRefusesUnknownAndRevokedTokens(t *testing.T) {
	g, tokens := startGateway(t, time.Minute)
	if _, code, err := dial(t, g.client("not-a-token")); err == nil || code != 401 {
		t.Fatalf("unknown token: status %d, err %v; want 401", code, err)
	}
	conn, _, err := dial(t, g.client(tokens["a"]))
	if err != nil {
		t.Fatalf("a's own token: %v", err)
	}
	if err := RevokeToken(g.set.Folder, "a"); err != nil {
		t.Fatal(err)
	}
	// The live session ends, and the token is refused from now on.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		if _, _, err := conn.Read(ctx); err != nil {
			if websocket.CloseStatus(err) != closeRevoked {
				t.Fatalf("revoked session ended with %v, want status %d", err, closeRevoked)
			}
			break
		}
	}
	if _, code, err := dial(t, g.client(tokens["a"])); err == nil || code != 401 {
		t.Fatalf("revoked token: status %d, err %v; want 401", code, err)
	}
	c := g.client(tokens["b"])
	c.Entrant = "a"
	if _, code, err := dial(t, c); err == nil || code != 403 {
		t.Fatalf("b's token asking to play for a: status %d, err %v; want 403", code, err)
	}
}

func TestPinnedFingerprint(t *testing.T) {
	g, tokens := startGateway(t, time.Minute)
	c := g.client(tokens["a"])
	c.Fingerprint = strings.Repeat("0", 64)
	if _, _, err := dial(t, c); err == nil || !strings.Contains(err.Error(), "does not match -fingerprint") {
		t.Fatalf("wrong pin: %v", err)
	}
	c.Fingerprint = ""
	if _, _, err := dial(t, c); err == nil {
		t.Fatal("a self-signed certificate was accepted without a pin")
	}
}

// relayFor connects a relay of entrant name, as the arbiter's driver
// would start one, and returns its connection.
func relayFor(t *testing.T, g *Gateway, name string) net.Conn {
	t.Helper()
	f, err := g.RelayFile(name)
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.FileConn(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestRefusesAnotherEntrantsGame(t *testing.T) {
	g, tokens := startGateway(t, time.Minute)
	relayFor(t, g, "b")
	var id uint64
	for deadline := time.Now().Add(5 * time.Second); id == 0 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		for _, st := range g.streamsOf("b") {
			id = st.id
		}
	}
	if id == 0 {
		t.Fatal("b's relay never registered")
	}
	conn, _, err := dial(t, g.client(tokens["a"]))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(message{T: "out", S: id, L: "7,7"})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := conn.Write(ctx, websocket.MessageText, b); err != nil {
		t.Fatal(err)
	}
	for {
		_, _, err := conn.Read(ctx)
		if err != nil {
			if websocket.CloseStatus(err) != closeRefused {
				t.Fatalf("a playing b's stream: %v, want close status %d", err, closeRefused)
			}
			return
		}
	}
}

// Connection attempts beyond the per-address allowance are closed before
// the TLS handshake.
func TestThrottlesConnectionFlood(t *testing.T) {
	g, _ := startGateway(t, time.Minute)
	refused := 0
	for range 40 {
		c, err := tls.DialWithDialer(&net.Dialer{Timeout: 5 * time.Second}, "tcp", g.Addr(), &tls.Config{InsecureSkipVerify: true})
		if err != nil {
			refused++
			continue
		}
		c.Close()
	}
	if refused < 20 {
		t.Fatalf("%d of 40 rapid connections refused; want most past the first 10", refused)
	}
}

func TestTrackerResync(t *testing.T) {
	var tr tracker
	for _, l := range []string{"START 15", "INFO timeout_turn 1000", "INFO rule 1", "INFO timeout_turn 2000", "TURN 7,7"} {
		tr.fromArbiter(l)
	}
	tr.fromEngine("MESSAGE thinking")
	tr.fromEngine("8,8")
	tr.fromArbiter("TURN 9,9")
	got := strings.Join(tr.resync(), "|")
	want := "START 15|INFO timeout_turn 2000|INFO rule 1|BOARD|7,7,2|8,8,1|9,9,2|DONE"
	if got != want {
		t.Fatalf("resync with a move pending:\n got %s\nwant %s", got, want)
	}
	if tr.fromEngine("OK") {
		t.Fatal("the answer to the resync's START was passed to the arbiter")
	}
	if !tr.fromEngine("10,10") {
		t.Fatal("the move was not passed")
	}
	// No request pending: the next TURN goes as the whole position.
	tr.resync()
	tr.fromEngine("OK")
	out, _ := tr.fromArbiter("TURN 11,11")
	if got := strings.Join(out, "|"); got != "BOARD|7,7,2|8,8,1|9,9,2|10,10,1|11,11,2|DONE" {
		t.Fatalf("TURN after a resync sent as %s", got)
	}
}

// A client's line holding line breaks is several lines for the arbiter,
// never a line of the relay's own protocol; an exit report naming a
// signal that would stop the relay becomes exit status 1.
func TestClientInputCannotSpeakForTheGateway(t *testing.T) {
	g, tokens := startGateway(t, time.Minute)
	relay := relayFor(t, g, "a")
	conn, _, err := dial(t, g.client(tokens["a"]))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var id uint64
	for id == 0 {
		_, data, err := conn.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var m message
		json.Unmarshal(data, &m)
		if m.T == "open" {
			id = m.S
		}
	}
	for _, m := range []message{{T: "out", S: id, L: "MESSAGE hi\nX 0 forged\rE forged"}, {T: "exit", S: id, C: -int(syscall.SIGSTOP), L: "stopped\nL 7,7"}} {
		b, _ := json.Marshal(m)
		if err := conn.Write(ctx, websocket.MessageText, b); err != nil {
			t.Fatal(err)
		}
	}
	relay.SetReadDeadline(time.Now().Add(10 * time.Second))
	var got []string
	r := bufio.NewReader(relay)
	for len(got) < 4 {
		l, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("relay read %q, then %v", got, err)
		}
		got = append(got, strings.TrimSuffix(l, "\n"))
	}
	want := []string{"L MESSAGE hi", "L X 0 forged", "L E forged", "X 1 stopped"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("the relay got %q, want %q", got, want)
	}
}

// One live session per entrant: a new connection with the token replaces
// the old one, which is told why.
func TestNewSessionReplacesOld(t *testing.T) {
	g, tokens := startGateway(t, time.Minute)
	old, _, err := dial(t, g.client(tokens["a"]))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := dial(t, g.client(tokens["a"])); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		if _, _, err := old.Read(ctx); err != nil {
			if websocket.CloseStatus(err) != closeReplaced {
				t.Fatalf("the old session ended with %v, want status %d", err, closeReplaced)
			}
			return
		}
	}
}

// The disconnection rule: a session that drops during a game leaves the
// engine a grace period; the second drop in one game, past the one
// allowed, forfeits at once with ExitDisconnect. Each return resyncs the
// new engine.
func TestDisconnectionsPerGame(t *testing.T) {
	g, tokens := startGateway(t, time.Minute)                         // MaxDisconnects 1
	r := relayInGame(t, g, "START 15\nINFO rule 1\n", 10*time.Second) // away at START: answered for it
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// connect reads until the engine is sent the resync.
	connect := func() *websocket.Conn {
		conn, _, err := dial(t, g.client(tokens["a"]))
		if err != nil {
			t.Fatal(err)
		}
		for {
			_, data, err := conn.Read(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var m message
			json.Unmarshal(data, &m)
			if m.T == "in" {
				if want := "START 15\nINFO rule 1\nBOARD\n7,7,2\nDONE"; m.L != want {
					t.Fatalf("resync %q, want %q", m.L, want)
				}
				return conn
			}
		}
	}
	connect().CloseNow() // disconnection 1 of the game: a grace period
	connect().CloseNow() // disconnection 2: one too many
	wantSecondDisconnectForfeit(t, r, "")
}

// relayInGame is entrant a's relay in mid-game: it has sent start (START
// and what follows it), read START's OK and sent TURN 7,7. Its reads give
// up after wait.
func relayInGame(t *testing.T, g *Gateway, start string, wait time.Duration) *bufio.Reader {
	t.Helper()
	relay := relayFor(t, g, "a")
	fmt.Fprint(relay, start)
	r := bufio.NewReader(relay)
	relay.SetReadDeadline(time.Now().Add(wait))
	for {
		l, err := r.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if l == "L OK\n" {
			break
		}
	}
	fmt.Fprintf(relay, "TURN 7,7\n")
	// The gateway reads the relay in a goroutine of its own: the test's
	// next connection is to find the move there, so wait until it is
	// tracked (a connection before that is another case, and holds too:
	// TestResyncBeforeTheMoveArrives).
	for deadline := time.Now().Add(wait); !moveTracked(g, "a", "7,7,2"); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the gateway never read the relay's TURN 7,7")
		}
	}
	return r
}

// moveTracked reports whether entrant name's stream has stone among the
// stones it would resync.
func moveTracked(g *Gateway, name, stone string) bool {
	for _, st := range g.streamsOf(name) {
		st.mu.Lock()
		has := slices.Contains(st.t.stones, stone)
		st.mu.Unlock()
		if has {
			return true
		}
	}
	return false
}

// A session that arrives while the arbiter's TURN is still on its way
// through the relay is resynced without it, and then sent it: the engine
// learns every move once, in order, and a later reconnection is resynced
// with it (the move is never lost between the two).
func TestResyncBeforeTheMoveArrives(t *testing.T) {
	g, tokens := startGateway(t, time.Minute)
	relay := relayFor(t, g, "a")
	fmt.Fprint(relay, "START 15\nINFO rule 1\n")
	r := bufio.NewReader(relay)
	relay.SetReadDeadline(time.Now().Add(30 * time.Second))
	for {
		l, err := r.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if l == "L OK\n" {
			break
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// in reads conn to its next "in" message.
	in := func(conn *websocket.Conn) string {
		for {
			_, data, err := conn.Read(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var m message
			json.Unmarshal(data, &m)
			if m.T == "in" {
				return m.L
			}
		}
	}
	conn, _, err := dial(t, g.client(tokens["a"]))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := in(conn), "START 15\nINFO rule 1"; got != want {
		t.Fatalf("resync before the move %q, want %q", got, want)
	}
	fmt.Fprintf(relay, "TURN 7,7\n")
	if got, want := in(conn), "TURN 7,7"; got != want {
		t.Fatalf("after the resync the engine got %q, want %q", got, want)
	}
	conn.CloseNow()
	conn, _, err = dial(t, g.client(tokens["a"]))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	if got, want := in(conn), "START 15\nINFO rule 1\nBOARD\n7,7,2\nDONE"; got != want {
		t.Fatalf("resync after the move %q, want %q", got, want)
	}
}

// wantSecondDisconnectForfeit reads the relay r to the gateway's exit line,
// which must forfeit entrant a for a second disconnection in one game
// (MaxDisconnects 1); missing tells what did not happen if it never comes.
func wantSecondDisconnectForfeit(t *testing.T, r *bufio.Reader, missing string) {
	t.Helper()
	var last string
	for {
		l, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("relay: %v after %q%s", err, last, missing)
		}
		last = l
		if strings.HasPrefix(l, "X ") {
			break
		}
	}
	if want := fmt.Sprintf("X %d disconnect: a disconnected 2 times in one game, at most 1 are allowed\n", ExitDisconnect); last != want {
		t.Fatalf("relay got %q, want %q", last, want)
	}
}

// A resync tells the new engine the time left now, not when it was last
// told: the clock ran while it was away.
func TestResyncTimeLeft(t *testing.T) {
	var tr tracker
	for _, l := range []string{"START 15", "INFO time_left 60000", "BEGIN"} {
		tr.fromArbiter(l)
	}
	tr.leftAt = tr.leftAt.Add(-10 * time.Second) // relayed ten seconds ago
	lines := tr.resync()
	var left int64
	fmt.Sscanf(lines[1], "INFO time_left %d", &left)
	if left > 50000 || left < 0 {
		t.Fatalf("resync says %q, want at most 50000 ms left", lines[1])
	}
	tr = tracker{}
	tr.fromArbiter("START 15")
	tr.fromArbiter("INFO time_left 2147483647")
	if l := tr.resync()[1]; l != "INFO time_left 2147483647" {
		t.Fatalf("untimed: %q", l)
	}
}
