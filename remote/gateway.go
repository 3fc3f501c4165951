package remote

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/coder/websocket"
)

// Settings are an event's remote settings.
type Settings struct {
	Folder string // the event folder: token hashes, generated certificate
	// Listen is the TCP address of the TLS server ("host:port").
	Listen string
	// CertFile and KeyFile are the organizer's certificate; "" generates
	// one in the folder.
	CertFile, KeyFile string
	// Grace is how long an entrant may stay away during a game before it
	// forfeits; MaxDisconnects how many times per game it may go.
	Grace          time.Duration
	MaxDisconnects int
	// Entrants are the names of the remote entrants.
	Entrants []string
	// Notice tells the person running the event (connections, tokens).
	Notice func(string)
}

// Gateway is an event's server for remote entrants: the TLS WebSocket
// endpoint clients connect to, and one socket pair per relay. A relay gets
// its end of the pair as an inherited descriptor (RelayFile): there is no
// address to connect to and no secret in an environment or a file, so no
// other process of the machine (an unconfined local engine reading
// /proc/PID/environ, say) can speak for a relay and drive a remote
// entrant's engine.
type Gateway struct {
	set         Settings
	fingerprint string
	addr        string
	srv         *http.Server

	mu       sync.Mutex
	hashes   map[string]string // token hashes, reread when the file changes
	hashFile os.FileInfo       // the tokens file as it was when they were read
	sessions map[string]*session
	arrivals uint64 // requests counted as they arrive, before the handshake (session.arrival)
	streams  map[uint64]*stream
	next     uint64
	closed   bool
	over     bool          // the event is over (Over)
	done     chan struct{} // closed by Close
	wg       sync.WaitGroup
}

// Start opens the gateway. Remote entrants without a token get one, told
// through Notice (the only time it is shown).
func Start(set Settings) (*Gateway, error) {
	if set.Notice == nil {
		set.Notice = func(string) {}
	}
	fresh, err := IssueTokens(set.Folder, set.Entrants)
	if err != nil {
		return nil, err
	}
	for _, n := range set.Entrants {
		if t, ok := fresh[n]; ok {
			set.Notice(fmt.Sprintf("remote: token for %s: %s (shown once; `arena tokens` makes new ones)", n, t))
		}
	}
	cert, fp, err := Certificate(set.Folder, set.CertFile, set.KeyFile)
	if err != nil {
		return nil, err
	}
	g := &Gateway{set: set, fingerprint: fp,
		sessions: map[string]*session{}, streams: map[uint64]*stream{}, done: make(chan struct{})}
	if err := g.reloadTokens(); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", set.Listen)
	if err != nil {
		return nil, fmt.Errorf("remote: listen: %w", err)
	}
	g.addr = ln.Addr().String()
	tl := tls.NewListener(newThrottled(ln, newLimiter(10, 3*time.Second)), &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
	mux := http.NewServeMux()
	mux.HandleFunc("/connect", g.connect)
	g.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, MaxHeaderBytes: 8 << 10,
		ErrorLog: log.New(io.Discard, "", 0), IdleTimeout: 30 * time.Second} // a flood of failed handshakes is not news
	g.wg.Add(2)
	go func() { defer g.wg.Done(); g.srv.Serve(tl) }()
	go func() { defer g.wg.Done(); g.watchTokens() }()
	set.Notice(fmt.Sprintf("remote: listening on https://%s/connect, certificate sha256 %s", g.addr, fp))
	return g, nil
}

// Addr is the address the server listens on.
func (g *Gateway) Addr() string { return g.addr }

// Fingerprint is the hex SHA-256 of the server's certificate.
func (g *Gateway) Fingerprint() string { return g.fingerprint }

// RelayFile makes a socket pair for one relay of entrant name, serves the
// gateway's end and returns the relay's, which the relay process inherits
// as descriptor 3 (engine.Spec.Inherit; the caller closes its copy once
// the relay started). Each relay process gets a pair of its own: the one
// connection it will ever have, made by its parent.
func (g *Gateway) RelayFile(name string) (*os.File, error) {
	if !contains(g.set.Entrants, name) {
		return nil, fmt.Errorf("remote: %q is not a remote entrant", name)
	}
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("remote: relay socket: %w", err)
	}
	ours, theirs := os.NewFile(uintptr(fds[0]), "gateway"), os.NewFile(uintptr(fds[1]), "relay "+name)
	c, err := net.FileConn(ours)
	ours.Close() // c holds its own descriptor
	if err != nil {
		theirs.Close()
		return nil, fmt.Errorf("remote: relay socket: %w", err)
	}
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		c.Close()
		theirs.Close()
		return nil, errors.New("remote: the gateway is closed")
	}
	g.wg.Add(1)
	g.mu.Unlock()
	go func() { defer g.wg.Done(); g.serveRelay(c, name) }()
	return theirs, nil
}

// Over marks the event as finished: Close then tells the clients so, and
// they stop instead of reconnecting.
func (g *Gateway) Over() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.over = true
}

// Close ends every session and relay and stops the servers.
func (g *Gateway) Close() error {
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return nil
	}
	g.closed = true
	close(g.done)
	var ss []*session
	for _, s := range g.sessions {
		ss = append(ss, s)
	}
	var st []*stream
	for _, s := range g.streams {
		st = append(st, s)
	}
	g.mu.Unlock()
	code, reason := websocket.StatusGoingAway, "the event stopped"
	if g.over {
		code, reason = closeOver, "the event is over"
	}
	for _, s := range ss {
		s.close(code, reason)
	}
	for _, s := range st {
		s.relay.Close()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	g.srv.Shutdown(ctx)
	g.wg.Wait()
	return nil
}

// reloadTokens rereads the token hashes when the file changed (arena
// tokens revoked or renewed one) and ends the sessions whose token is no
// longer valid.
func (g *Gateway) reloadTokens() error {
	st, err := os.Stat(tokensPath(g.set.Folder))
	if err != nil {
		return err
	}
	// The file is replaced whole (a new file renamed over it), so one
	// written within the clock's tick of the last has its time and a new
	// identity: the time alone would miss the change.
	g.mu.Lock()
	old := g.hashFile
	g.mu.Unlock()
	same := old != nil && os.SameFile(st, old) && st.ModTime().Equal(old.ModTime()) && st.Size() == old.Size()
	if same {
		return nil
	}
	h, err := readHashes(g.set.Folder)
	if err != nil {
		return err
	}
	g.mu.Lock()
	g.hashes, g.hashFile = h, st
	var gone []*session
	for n, s := range g.sessions {
		if h[n] != s.hash {
			gone = append(gone, s)
		}
	}
	g.mu.Unlock()
	for _, s := range gone {
		s.close(closeRevoked, "the token was revoked")
	}
	return nil
}

func (g *Gateway) watchTokens() {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-g.done:
			return
		case <-t.C:
		}
		if err := g.reloadTokens(); err != nil {
			g.set.Notice("remote: tokens: " + err.Error())
		}
	}
}

// connect is the WebSocket endpoint: a client authenticates with its
// token (Authorization: Bearer TOKEN) and becomes its entrant's session.
func (g *Gateway) connect(w http.ResponseWriter, r *http.Request) {
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	g.reloadTokens()
	g.mu.Lock()
	name := ""
	if ok {
		name = entrantOf(g.hashes, token)
	}
	hash := g.hashes[name]
	g.arrivals++
	arrival := g.arrivals
	g.mu.Unlock()
	if name == "" {
		http.Error(w, "unknown or revoked token", http.StatusUnauthorized)
		return
	}
	if want := r.Header.Get("Arena-Entrant"); want != "" && want != name {
		http.Error(w, fmt.Sprintf("this token does not play for %q", want), http.StatusForbidden)
		return
	}
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{})
	if err != nil {
		return
	}
	conn.SetReadLimit(maxMessage)
	s := newSession(g, name, hash, conn, r.RemoteAddr)
	s.arrival = arrival
	// The newer connection is the one whose request came later, not the
	// one whose handler got here first: a client's second dial begins
	// after its first handshake ended, but the two handlers race to here.
	g.mu.Lock()
	old := g.sessions[name]
	older := old != nil && old.arrival > s.arrival
	// Tokens reread during the handshake ended the sessions they revoked,
	// which did not yet hold this one: it is checked here, where it joins.
	revoked := g.hashes[name] != hash
	if !older && !revoked {
		g.sessions[name] = s
	}
	g.mu.Unlock()
	if revoked {
		s.close(closeRevoked, "the token was revoked")
		return
	}
	if older { // a newer connection already holds the entrant
		s.close(closeReplaced, "replaced by a newer connection with this token")
		return
	}
	if old != nil {
		old.close(closeReplaced, "replaced by a newer connection with this token")
	}
	g.set.Notice(fmt.Sprintf("remote: %s connected from %s", name, r.RemoteAddr))
	s.run()
}

func (g *Gateway) isClosed() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.closed
}

// streamsOf are the live streams of an entrant.
func (g *Gateway) streamsOf(name string) []*stream {
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []*stream
	for _, st := range g.streams {
		if st.entrant == name {
			out = append(out, st)
		}
	}
	return out
}

// ended removes session s, when it is still its entrant's session.
func (g *Gateway) ended(s *session) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.sessions[s.entrant] != s {
		return false
	}
	delete(g.sessions, s.entrant)
	return true
}

// serveRelay runs the relay of entrant name at the other end of c: every
// line it sends is the arbiter's.
func (g *Gateway) serveRelay(c net.Conn, name string) {
	defer c.Close()
	r := bufio.NewReaderSize(c, 4096)
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return
	}
	g.next++
	st := &stream{g: g, id: g.next, entrant: name, relay: c}
	st.mu.Lock() // before a session can find it
	g.streams[st.id] = st
	s := g.sessions[st.entrant]
	g.mu.Unlock()
	defer st.end()
	if s == nil {
		st.away(false)
	}
	st.mu.Unlock()
	if s != nil {
		st.attach(s)
	}
	for {
		line, err := readLine(r, MaxLine)
		if err != nil {
			return
		}
		st.fromArbiter(line)
	}
}

// stream is the stream with id, if it is still running, and whether it
// belongs to entrant.
func (g *Gateway) stream(id uint64, entrant string) (*stream, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	st := g.streams[id]
	switch {
	case st == nil:
		return nil, nil
	case st.entrant != entrant:
		return nil, errors.New("not your game")
	}
	return st, nil
}

// WaitEntrants waits until every remote entrant has a session, at most
// for the grace period (or until ctx ends), so that an event does not
// start its games with engines that are still connecting. It returns the
// names still missing.
func (g *Gateway) WaitEntrants(ctx context.Context) []string {
	deadline := time.Now().Add(g.set.Grace)
	for {
		var missing []string
		g.mu.Lock()
		for _, n := range g.set.Entrants {
			if g.sessions[n] == nil {
				missing = append(missing, n)
			}
		}
		g.mu.Unlock()
		if len(missing) == 0 || time.Now().After(deadline) || ctx.Err() != nil {
			return missing
		}
		select {
		case <-ctx.Done():
		case <-time.After(100 * time.Millisecond):
		}
	}
}
