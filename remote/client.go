package remote

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"gomoku-arena/engine"
)

// Client is `arena connect`: the entrant's side. It keeps a session open
// to the event's server, reconnecting with backoff, and runs one engine
// process per stream the server opens.
type Client struct {
	URL   string // https://host:port (the path /connect is added when absent)
	Token string
	// Fingerprint, when set, pins the server's certificate (hex SHA-256,
	// as the event prints it) instead of checking it against the system's
	// authorities.
	Fingerprint string
	// Entrant, when set, is the entrant the token must play for.
	Entrant string
	Engine  []string // the engine's program and arguments
	Dir     string   // the engine's working directory ("" the current one)
	Log     io.Writer
}

// Backoff bounds of reconnection.
const (
	firstRetry = time.Second
	lastRetry  = 30 * time.Second
)

// Run connects and serves until ctx ends, the event is over (nil), or the
// server ends the session for good (a revoked token, a newer connection, a
// refusal); those are returned as errors, as is a token the server does
// not know.
func (c *Client) Run(ctx context.Context) error {
	u, err := c.endpoint()
	if err != nil {
		return err
	}
	wait := firstRetry
	for {
		conn, resp, err := c.dial(ctx, u)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if resp != nil && (resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden) {
				return fmt.Errorf("the server refused the connection: %s", refusal(resp, err))
			}
			fmt.Fprintf(c.Log, "arena connect: cannot reach %s: %s; retrying in %v\n", u, refusal(resp, err), wait)
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(wait):
			}
			wait = min(2*wait, lastRetry)
			continue
		}
		wait = firstRetry
		err = c.serve(ctx, conn)
		code := websocket.CloseStatus(err)
		switch {
		case ctx.Err() != nil:
			conn.Close(websocket.StatusNormalClosure, "")
			return ctx.Err()
		case code == closeOver:
			fmt.Fprintln(c.Log, "arena connect: the event is over")
			return nil
		case code == closeReplaced || code == closeRevoked || code == closeRefused:
			return fmt.Errorf("the server ended the session: %v", err)
		}
		fmt.Fprintf(c.Log, "arena connect: connection lost (%v); reconnecting\n", err)
	}
}

func refusal(resp *http.Response, err error) string {
	if resp == nil || resp.Body == nil {
		return err.Error()
	}
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	if s := strings.TrimSpace(string(b)); s != "" {
		return fmt.Sprintf("%s (%s)", resp.Status, s)
	}
	return resp.Status
}

func (c *Client) endpoint() (string, error) {
	u, err := url.Parse(c.URL)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("%q is not a URL like https://host:port", c.URL)
	}
	switch u.Scheme {
	case "https", "wss":
		u.Scheme = "https"
	default:
		return "", fmt.Errorf("%q: the connection is always TLS: use https:// or wss://", c.URL)
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = "/connect"
	}
	return u.String(), nil
}

func (c *Client) dial(ctx context.Context, u string) (*websocket.Conn, *http.Response, error) {
	tc := &tls.Config{MinVersion: tls.VersionTLS12}
	if c.Fingerprint != "" {
		pin := strings.ToLower(strings.ReplaceAll(c.Fingerprint, ":", ""))
		tc.InsecureSkipVerify = true // replaced by the pin
		tc.VerifyPeerCertificate = func(raw [][]byte, _ [][]*x509.Certificate) error {
			if len(raw) == 0 || Fingerprint(raw[0]) != pin {
				return errors.New("the server's certificate does not match -fingerprint")
			}
			return nil
		}
	}
	h := http.Header{"Authorization": {"Bearer " + c.Token}}
	if c.Entrant != "" {
		h.Set("Arena-Entrant", c.Entrant)
	}
	dctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	conn, resp, err := websocket.Dial(dctx, u, &websocket.DialOptions{
		HTTPClient: &http.Client{Transport: &http.Transport{TLSClientConfig: tc}},
		HTTPHeader: h,
	})
	if err == nil {
		conn.SetReadLimit(maxMessage)
	}
	return conn, resp, err
}

// serve runs one session: engines start, lines flow, until the connection
// ends; then every engine of the session is ended (the server restarts
// and resyncs them on the next session).
func (c *Client) serve(ctx context.Context, conn *websocket.Conn) error {
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	engines := map[uint64]*remoteEngine{}
	defer func() {
		for _, e := range engines {
			e.kill()
		}
	}()
	var wmu sync.Mutex
	send := func(m message) {
		b, _ := json.Marshal(m)
		wmu.Lock()
		defer wmu.Unlock()
		wctx, cancel := context.WithTimeout(sctx, writeTimeout)
		defer cancel()
		if conn.Write(wctx, websocket.MessageText, b) != nil {
			conn.CloseNow()
		}
	}
	lastRTT := time.Time{}
	for {
		// The server pings every few seconds: a silent connection is dead.
		rctx, rcancel := context.WithTimeout(sctx, idleTimeout)
		_, data, err := conn.Read(rctx)
		rcancel()
		if err != nil {
			conn.CloseNow()
			return err
		}
		var m message
		if json.Unmarshal(data, &m) != nil {
			continue
		}
		switch m.T {
		case "hello":
			fmt.Fprintf(c.Log, "arena connect: connected to %s as %s\n", c.URL, m.L)
		case "rtt":
			if time.Since(lastRTT) > time.Minute {
				fmt.Fprintf(c.Log, "arena connect: round trip %.2f ms (the arbiter's clock includes it)\n", m.MS)
				lastRTT = time.Now()
			}
		case "open":
			if old := engines[m.S]; old != nil {
				old.kill()
			}
			e, err := c.start(m.S, send)
			if err != nil {
				fmt.Fprintf(c.Log, "arena connect: cannot start the engine: %v\n", err)
				send(message{T: "err", S: m.S, L: "arena connect: " + err.Error()})
				send(message{T: "exit", S: m.S, C: 1, L: "exit status 1"})
				continue
			}
			engines[m.S] = e
		case "in":
			if e := engines[m.S]; e != nil {
				for _, l := range strings.Split(m.L, "\n") { // a block comes whole
					e.write(l)
				}
			}
		case "close":
			if e := engines[m.S]; e != nil {
				e.kill()
				delete(engines, m.S)
			}
		}
	}
}

// remoteEngine is an engine process the client runs for one stream.
type remoteEngine struct {
	prog  *engine.Program
	lines chan string // to its stdin
	done  chan struct{}
}

// stdinQueue bounds the lines waiting for an engine that does not read.
const stdinQueue = 4096

// start starts the engine through the engine package, which alone starts
// processes: contained as the arbiter's own engines are, so that nothing
// the engine starts outlives its stream or this client.
func (c *Client) start(id uint64, send func(message)) (*remoteEngine, error) {
	prog, err := engine.StartProgram(c.Engine[0], c.Engine[1:], c.Dir)
	if err != nil {
		return nil, err
	}
	e := &remoteEngine{prog: prog, lines: make(chan string, stdinQueue), done: make(chan struct{})}
	go func() {
		w := bufio.NewWriter(prog.Stdin)
		for {
			select {
			case <-e.done:
				return // Kill closes stdin
			case l := <-e.lines:
				w.WriteString(l)
				w.WriteByte('\n')
				if len(e.lines) == 0 && w.Flush() != nil {
					return
				}
			}
		}
	}()
	var readers sync.WaitGroup
	readers.Add(2)
	go pumpStdout(&readers, prog.Stdout, id, send)
	go c.pumpStderr(&readers, prog.Stderr, id, send)
	go func() {
		readers.Wait()
		code, detail := prog.Wait()
		select {
		case <-e.done: // ended by the server: nothing to tell
		default:
			send(message{T: "exit", S: id, C: code, L: detail})
		}
	}()
	return e, nil
}

// pumpStdout sends the engine's stdout lines as they come: the complete
// lines already read go together in one message (up to MaxLine), so a burst
// of lines costs a message, not one each, and no line waits for a later one.
func pumpStdout(wg *sync.WaitGroup, r io.Reader, id uint64, send func(message)) {
	defer wg.Done()
	br := bufio.NewReaderSize(r, 64<<10)
	var batch []byte
	lines := 0
	flush := func() {
		send(message{T: "out", S: id, L: string(batch)})
		batch, lines = batch[:0], 0
	}
	for {
		l, err := readLine(br, MaxLine)
		if err != nil {
			if lines > 0 {
				flush()
			}
			return
		}
		if lines > 0 && len(batch)+1+len(l) > MaxLine {
			flush()
		}
		if lines > 0 {
			batch = append(batch, '\n')
		}
		batch = append(batch, l...)
		lines++
		if !completeLineBuffered(br) {
			flush()
		}
	}
}

// completeLineBuffered says whether br holds a whole line already read.
func completeLineBuffered(br *bufio.Reader) bool {
	b, _ := br.Peek(br.Buffered())
	return bytes.IndexByte(b, '\n') >= 0
}

// stderrKept is how many of the latest stderr lines one message carries:
// the arbiter keeps an engine's last 20 lines, and a flood of stderr is
// not worth the network.
const stderrKept = 20

// stderrEvery paces an engine's stderr: at most one message per interval
// goes to the server, so a flood costs the connection (and the engine's
// stdout, which shares it) a message per interval, not one per line.
const stderrEvery = 50 * time.Millisecond

// pumpStderr sends the engine's stderr lines in batches: stderrEvery after
// the first line of a batch, the latest stderrKept lines since the previous
// batch, separated by newlines, in one message; at the end of the stream
// what is left goes at once, before the engine's exit is told.
func (c *Client) pumpStderr(wg *sync.WaitGroup, r io.Reader, id uint64, send func(message)) {
	defer wg.Done()
	var (
		sending sync.Mutex // one flush at a time, so the last one is the last sent
		mu      sync.Mutex
		batch   []string
		pending bool
	)
	flush := func() {
		sending.Lock()
		defer sending.Unlock()
		mu.Lock()
		lines := batch
		batch, pending = nil, false
		mu.Unlock()
		if len(lines) > 0 {
			send(message{T: "err", S: id, L: strings.Join(lines, "\n")})
		}
	}
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		l, err := readLine(br, MaxLine/stderrKept)
		if err != nil {
			flush()
			return
		}
		mu.Lock()
		if len(batch) == stderrKept {
			batch = append(batch[:0], batch[1:]...)
		}
		batch = append(batch, l)
		if !pending {
			pending = true
			time.AfterFunc(stderrEvery, flush)
		}
		mu.Unlock()
	}
}

func (e *remoteEngine) write(l string) {
	select {
	case e.lines <- l:
	default: // an engine that does not read its input is not waited for
	}
}

func (e *remoteEngine) kill() {
	select {
	case <-e.done:
		return
	default:
	}
	close(e.done)
	e.prog.Kill()
}
