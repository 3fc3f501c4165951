package remote

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/coder/websocket"
)

// session is an entrant's authenticated connection: the one its engines
// run on.
type session struct {
	g       *Gateway
	entrant string
	hash    string // the token hash it authenticated with
	arrival uint64 // the order its request reached the gateway in: the later one is the newer session
	conn    *websocket.Conn
	addr    string
	ctx     context.Context
	cancel  context.CancelFunc
	rtt     atomic.Int64 // the latest measured round trip, ns; 0 before the first
	once    sync.Once
}

func newSession(g *Gateway, entrant, hash string, conn *websocket.Conn, addr string) *session {
	ctx, cancel := context.WithCancel(context.Background())
	return &session{g: g, entrant: entrant, hash: hash, conn: conn, addr: addr, ctx: ctx, cancel: cancel}
}

// Rates a session may send at: beyond them its messages wait.
const (
	messageRate  = 20000 // messages a second
	messageBurst = 20000
	byteRate     = 16 << 20 // bytes a second
	byteBurst    = 16 << 20
)

// run serves the session until it ends, then gives its engines' streams
// their grace period.
func (s *session) run() {
	if err := s.send(message{T: "hello", L: s.entrant}); err != nil {
		s.close(websocket.StatusInternalError, "")
	}
	for _, st := range s.g.streamsOf(s.entrant) {
		st.attach(s)
	}
	go s.ping()
	why := s.read()
	s.close(websocket.StatusNormalClosure, "")
	if s.g.ended(s) {
		if !s.g.isClosed() {
			s.g.set.Notice(fmt.Sprintf("remote: %s disconnected (%s)", s.entrant, why))
		}
		for _, st := range s.g.streamsOf(s.entrant) {
			st.detach(s)
		}
	}
}

// read relays the client's messages to the streams; it returns why the
// session ended.
func (s *session) read() string {
	msgs := pacer{rate: messageRate, burst: messageBurst}
	bytes := pacer{rate: byteRate, burst: byteBurst}
	for {
		_, data, err := s.conn.Read(s.ctx)
		if err != nil {
			return err.Error()
		}
		msgs.wait(1)
		bytes.wait(float64(len(data)))
		var m message
		if err := json.Unmarshal(data, &m); err != nil {
			s.close(closeRefused, "not a message")
			return "sent a malformed message"
		}
		st, err := s.g.stream(m.S, s.entrant)
		if err != nil {
			s.close(closeRefused, fmt.Sprintf("stream %d: %v", m.S, err))
			return fmt.Sprintf("tried to play stream %d, another entrant's game", m.S)
		}
		if st == nil {
			continue // a stream that ended meanwhile
		}
		if len(m.L) > MaxLine {
			m.L = m.L[:MaxLine]
		}
		// A line is one line: what a client puts after a line break (\n,
		// \r\n or \r, as the engine driver reads them) is another line
		// (stdout, stderr), or nothing (an exit's detail).
		lines := strings.Split(lineBreaks.Replace(m.L), "\n")
		switch m.T {
		case "out":
			for _, l := range lines {
				st.fromEngine(s, l)
			}
		case "err": // a batch of the latest stderr lines
			for _, l := range lines[max(0, len(lines)-stderrKept):] {
				st.toRelay("E " + l)
			}
		case "exit":
			st.engineExited(s, exitCode(m.C), lines[0])
		}
	}
}

var lineBreaks = strings.NewReplacer("\r\n", "\n", "\r", "\n")

// exitCode is a client's report of how its engine ended, as the relay may
// end: an exit status, or minus one of the signals that end a crashing
// program. Anything else (a signal that would stop the relay rather than
// end it) is exit status 1.
func exitCode(c int) int {
	switch {
	case c >= 0 && c <= 255:
		return c
	case -c == int(syscall.SIGKILL), -c == int(syscall.SIGSEGV), -c == int(syscall.SIGABRT), -c == int(syscall.SIGTERM),
		-c == int(syscall.SIGINT), -c == int(syscall.SIGBUS), -c == int(syscall.SIGFPE), -c == int(syscall.SIGILL),
		-c == int(syscall.SIGPIPE), -c == int(syscall.SIGHUP), -c == int(syscall.SIGQUIT):
		return c
	}
	return 1
}

// ping measures the round trip every pingEvery; a session that does not
// answer within idleTimeout is ended.
func (s *session) ping() {
	t := time.NewTicker(pingEvery)
	defer t.Stop()
	for {
		start := time.Now()
		ctx, cancel := context.WithTimeout(s.ctx, idleTimeout)
		err := s.conn.Ping(ctx)
		cancel()
		if err != nil {
			s.close(websocket.StatusPolicyViolation, "no answer to ping")
			return
		}
		rtt := time.Since(start)
		if s.rtt.Swap(int64(rtt)) == 0 {
			s.g.set.Notice(fmt.Sprintf("remote: %s round trip %.2f ms", s.entrant, float64(rtt.Microseconds())/1000))
		}
		s.send(message{T: "rtt", MS: float64(rtt.Microseconds()) / 1000})
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
	}
}

// RTT is the latest measured round trip, 0 before the first.
func (s *session) RTT() time.Duration { return time.Duration(s.rtt.Load()) }

func (s *session) send(m message) error {
	b, _ := json.Marshal(m)
	ctx, cancel := context.WithTimeout(s.ctx, writeTimeout)
	defer cancel()
	err := s.conn.Write(ctx, websocket.MessageText, b)
	if err != nil {
		s.close(websocket.StatusPolicyViolation, "too slow")
	}
	return err
}

func (s *session) close(code websocket.StatusCode, reason string) {
	s.once.Do(func() {
		go func() {
			s.conn.Close(code, reason)
			s.cancel()
		}()
		time.AfterFunc(2*time.Second, s.cancel)
	})
}
