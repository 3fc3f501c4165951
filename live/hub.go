package live

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"

	"gomoku-arena/event"
	"gomoku-arena/internal/term"
)

// Buffers. The event never waits for the page: an update that finds the
// hub's queue full is dropped and the next message every client gets is the
// whole state again; a client whose own queue is full is disconnected, and
// its browser reconnects and starts from the whole state.
const (
	queueSize  = 4096
	clientSize = 256
)

// Hub follows one event and pushes what changes to the pages watching it.
// It is an event.Observer: Observe only queues the update (never blocks),
// and the hub's own goroutine (Run) applies it and sends it out.
type Hub struct {
	in        chan item
	lost      atomic.Bool
	fromFiles atomic.Bool // fed by Follow: no games in progress to show

	mu      sync.Mutex
	state   *State
	clients map[*client]struct{}
	now     func() time.Time
}

type item struct {
	u     event.Update
	at    time.Time
	count *matchCount
}

type client struct {
	out chan []byte
}

// NewHub returns a hub with an empty state; Run must be running for it to
// apply updates.
func NewHub() *Hub {
	return &Hub{in: make(chan item, queueSize), state: newState(), clients: map[*client]struct{}{}, now: time.Now}
}

// DrawsBoards says that the page draws running games' boards: the event
// sends their forbidden points with every move (event.BoardObserver).
func (h *Hub) DrawsBoards() bool { return true }

// Observe queues an update. It copies what the event will change after it
// returns (a match encounter's counts).
func (h *Hub) Observe(u event.Update) {
	it := item{u: u, at: h.now()}
	if m, ok := u.(event.MatchGameCounted); ok && m.Encounter != nil {
		e := m.Encounter
		it.count = &matchCount{First: e.First, Second: e.Second, WDL: e.WDL, Penta: e.Penta, Decision: e.Decision}
	}
	select {
	case h.in <- it:
	default:
		h.lost.Store(true)
	}
}

// Run applies queued updates and sends them to the pages until ctx ends.
func (h *Hub) Run(ctx context.Context) error {
	for {
		select {
		case <-ctx.Done():
			h.mu.Lock()
			for c := range h.clients {
				close(c.out)
				delete(h.clients, c)
			}
			h.mu.Unlock()
			return nil
		case it := <-h.in:
			h.apply(it)
		}
	}
}

// message is one thing the page is told.
type message struct {
	Type string `json:"type"`
	Data any    `json:"data"`
	Now  int64  `json:"now_ms"` // the server's clock, for counting clocks down
}

// moveDelta is what a page needs to extend a running game it already has.
type moveDelta struct {
	Round     int      `json:"round"`
	Number    int      `json:"number"`
	Moves     []Move   `json:"moves"`  // the new stones, in order
	Stones    int      `json:"stones"` // the game's stones with them
	BlackMS   int64    `json:"black_ms"`
	WhiteMS   int64    `json:"white_ms"`
	AtMS      int64    `json:"at_ms"`
	ToMove    string   `json:"to_move"`
	Messages  []string `json:"messages"` // the new lines
	Forbidden [][2]int `json:"forbidden"`
}

// progress is the count of games when the number planned changes.
type progress struct {
	Total    int `json:"total"`
	Finished int `json:"finished"`
}

func (h *Hub) apply(it item) {
	h.mu.Lock()
	s := h.state
	var msg *message
	switch u := it.u.(type) {
	case event.Began:
		if u.Identity != nil {
			s.begin(u.Identity, u.Total, u.Finished, u.Done)
		}
		s.Live = !h.fromFiles.Load()
		if s.Live && s.Started.IsZero() {
			s.setStarted(it.at)
		}
		msg = &message{Type: "state", Data: s}
	case event.GameStarted:
		msg = &message{Type: "started", Data: s.started(u, it.at)}
	case event.OpeningPlaced:
		if d := s.opened(u, it.at); d != nil {
			msg = &message{Type: "move", Data: d}
		}
	case event.MovePlayed:
		if d := s.moved(u, it.at); d != nil {
			msg = &message{Type: "move", Data: d}
		}
	case event.Replanned:
		s.Total = u.Total
		msg = &message{Type: "progress", Data: progress{Total: s.Total, Finished: s.Finished}}
	case event.GameFinished:
		msg = &message{Type: "finished", Data: s.finished(u.Record)}
	case event.DecisionJournaled:
		s.decided(u)
		msg = &message{Type: "state", Data: s} // the games list changed in place: the page redraws
	case event.StandingsUpdated:
		if u.Report != nil {
			s.standings(u.Report)
			msg = &message{Type: "standings", Data: struct {
				Standings  *Table `json:"standings"`
				Crosstable *Table `json:"crosstable"`
			}{s.Standings, s.Crosstable}}
		}
	case event.MatchGameCounted:
		if it.count != nil {
			msg = &message{Type: "match", Data: s.counted(*it.count)}
		}
	case event.Notice:
		s.Notices = append(s.Notices, term.Clean(u.Text))
		if len(s.Notices) > maxMessages {
			s.Notices = s.Notices[1:]
		}
		msg = &message{Type: "notice", Data: term.Clean(u.Text)}
	}
	if h.lost.Swap(false) {
		msg = &message{Type: "state", Data: s}
	}
	var b []byte
	if msg != nil {
		b = encode(msg, h.now())
	}
	h.mu.Unlock()
	if b != nil {
		h.broadcast(b)
	}
}

func encode(m *message, now time.Time) []byte {
	m.Now = now.UnixMilli()
	b, err := json.Marshal(m)
	if err != nil {
		// Our own types always marshal; a failure is a bug to show, not hide.
		b, _ = json.Marshal(message{Type: "notice", Data: "live page: " + err.Error(), Now: m.Now})
	}
	return b
}

// broadcast sends b to every client; a client that cannot take it is
// dropped (its page reconnects and starts over from the whole state).
func (h *Hub) broadcast(b []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.clients {
		select {
		case c.out <- b:
		default:
			close(c.out)
			delete(h.clients, c)
		}
	}
}

// subscribe adds a client whose first message is the whole state.
func (h *Hub) subscribe() *client {
	c := &client{out: make(chan []byte, clientSize)}
	h.mu.Lock()
	defer h.mu.Unlock()
	c.out <- encode(&message{Type: "state", Data: h.state}, h.now())
	h.clients[c] = struct{}{}
	return c
}

func (h *Hub) unsubscribe(c *client) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.clients[c]; ok {
		close(c.out)
		delete(h.clients, c)
	}
}

// snapshot is the whole state as JSON.
func (h *Hub) snapshot() []byte {
	h.mu.Lock()
	defer h.mu.Unlock()
	return encode(&message{Type: "state", Data: h.state}, h.now())
}

// Clients is the number of pages connected.
func (h *Hub) Clients() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.clients)
}
