package remote

import (
	"fmt"
	"strings"
	"sync"
	"time"
)

// stream is one relay, that is one engine process of the arbiter's, and
// the remote engine that plays it on its entrant's session.
type stream struct {
	g       *Gateway
	id      uint64
	entrant string
	relay   interface {
		Write([]byte) (int, error)
		Close() error
	}
	wmu sync.Mutex // writes to the relay

	mu          sync.Mutex
	t           tracker
	sess        *session // the session its engine runs on; nil while away
	opened      bool     // an engine was opened for it before
	disconnects int      // in the current game
	grace       *time.Timer
	over        bool // forfeited or ended
}

// fromArbiter passes a line of the arbiter's to the engine, through the
// tracker. While the entrant is away a START is answered OK on its behalf
// (the engine is started on its return), so that the grace period, not the
// start timeout, decides.
func (st *stream) fromArbiter(line string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	out, newGame := st.t.fromArbiter(line)
	if newGame {
		st.disconnects = 0
	}
	if st.sess == nil {
		if st.t.want == startAnswer {
			st.t.answeredForAbsent()
			st.toRelay(fmt.Sprintf("L MESSAGE arena: %s is not connected; its engine will be started when it is", st.entrant))
			st.toRelay("L OK")
		}
		return
	}
	if len(out) > 0 {
		st.sess.send(message{T: "in", S: st.id, L: strings.Join(out, "\n")}) // a whole block in one message
	}
}

// fromEngine passes a line of the engine's to the arbiter, unless it
// answers a command the arbiter did not send (a resync). The first
// answer to START is preceded by a note of the measured round trip, which
// the game's record keeps.
func (st *stream) fromEngine(s *session, line string) {
	st.mu.Lock()
	if st.sess != s {
		st.mu.Unlock()
		return
	}
	started := st.t.want == startAnswer && st.t.swallow == 0
	pass := st.t.fromEngine(line)
	announce := started && pass && st.t.want == noAnswer
	st.mu.Unlock()
	if announce {
		if rtt := s.RTT(); rtt > 0 {
			st.toRelay(fmt.Sprintf("L MESSAGE arena: %s plays remotely, network round trip %.2f ms", st.entrant, float64(rtt.Microseconds())/1000))
		}
	}
	if pass {
		st.toRelay("L " + line)
	}
}

// engineExited: the remote engine ended on its own. The relay exits the
// same way, so the arbiter sees what it would see of a local engine.
func (st *stream) engineExited(s *session, code int, detail string) {
	st.mu.Lock()
	mine := st.sess == s && !st.over
	st.over = st.over || mine
	st.mu.Unlock()
	if mine {
		st.toRelay(fmt.Sprintf("X %d %s", code, detail))
	}
}

// attach runs the stream's engine on session s: the client starts it, and
// when an engine played for the stream before, it is brought to where
// that one stood.
func (st *stream) attach(s *session) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.over || st.sess == s {
		return // ended, or attached already
	}
	// A session replaced by a newer one (the entrant connected again
	// without closing the old connection) left as surely as one that
	// dropped: it counts, or reconnecting would be a free restart.
	if st.sess != nil && st.counted() {
		return
	}
	if st.grace != nil {
		st.grace.Stop()
		st.grace = nil
	}
	st.sess = s
	if s.send(message{T: "open", S: st.id}) != nil {
		return
	}
	if lines := st.t.resync(); len(lines) > 0 { // nothing before the first START
		if s.send(message{T: "in", S: st.id, L: strings.Join(lines, "\n")}) != nil {
			return
		}
	}
	if st.opened && st.t.size > 0 {
		{
			st.toRelay(fmt.Sprintf("L MESSAGE arena: %s reconnected (%d of at most %d disconnections in this game); its engine was restarted and resynced", st.entrant, st.disconnects, st.g.set.MaxDisconnects))
		}
	}
	st.opened = true
}

// detach: session s is gone. The stream waits for its entrant to come
// back, with the clock running.
func (st *stream) detach(s *session) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.sess != s {
		return
	}
	st.sess = nil
	st.away(true)
}

// away starts the grace period (st.mu held, or the stream not yet
// shared). A disconnection during a game counts; one too many forfeits at
// once.
func (st *stream) away(counts bool) {
	if st.over {
		return
	}
	if counts && st.counted() {
		return
	}
	if st.t.want == startAnswer {
		st.t.answeredForAbsent()
		st.toRelay("L OK")
	}
	grace := st.g.set.Grace
	st.grace = time.AfterFunc(grace, func() {
		st.mu.Lock()
		defer st.mu.Unlock()
		if st.sess == nil {
			st.forfeit(fmt.Sprintf("%s stayed away longer than %v", st.entrant, grace))
		}
	})
}

// counted counts a disconnection during a game (st.mu held) and reports
// whether it was one too many: the stream is then forfeited.
func (st *stream) counted() bool {
	if st.t.size == 0 {
		return false
	}
	st.disconnects++
	if st.disconnects > st.g.set.MaxDisconnects {
		st.forfeit(fmt.Sprintf("%s disconnected %d times in one game, at most %d are allowed", st.entrant, st.disconnects, st.g.set.MaxDisconnects))
		return true
	}
	return false
}

// forfeit ends the relay with ExitDisconnect (st.mu held).
func (st *stream) forfeit(why string) {
	st.over = true
	st.toRelay(fmt.Sprintf("X %d disconnect: %s", ExitDisconnect, why))
}

// end: the relay is gone (the arbiter ended or killed it); so is the
// remote engine.
func (st *stream) end() {
	st.g.mu.Lock()
	delete(st.g.streams, st.id)
	st.g.mu.Unlock()
	st.mu.Lock()
	st.over = true
	if st.grace != nil {
		st.grace.Stop()
	}
	s := st.sess
	st.mu.Unlock()
	if s != nil {
		s.send(message{T: "close", S: st.id})
	}
}

// toRelay writes one line to the relay: L a line for the arbiter, E one
// for the relay's stderr, X the relay's exit.
func (st *stream) toRelay(line string) {
	st.wmu.Lock()
	defer st.wmu.Unlock()
	if c, ok := st.relay.(interface{ SetWriteDeadline(time.Time) error }); ok {
		c.SetWriteDeadline(time.Now().Add(writeTimeout))
	}
	if _, err := st.relay.Write([]byte(line + "\n")); err != nil {
		st.relay.Close()
	}
}
