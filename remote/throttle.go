package remote

import (
	"net"
	"sync"
	"time"
)

// limiter is a token bucket per key (an address): burst attempts at once,
// then one every per.
type limiter struct {
	burst float64
	per   time.Duration

	mu sync.Mutex
	m  map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

// maxKeys bounds the addresses remembered; full buckets are forgotten
// first.
const maxKeys = 65536

func newLimiter(burst int, per time.Duration) *limiter {
	return &limiter{burst: float64(burst), per: per, m: map[string]*bucket{}}
}

// allow takes a token from key's bucket, if it has one.
func (l *limiter) allow(key string) bool {
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.m[key]
	if !ok {
		if len(l.m) >= maxKeys {
			l.forget(now)
		}
		b = &bucket{tokens: l.burst, at: now}
		l.m[key] = b
	}
	b.tokens = min(l.burst, b.tokens+float64(now.Sub(b.at))/float64(l.per))
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

func (l *limiter) forget(now time.Time) {
	for k, b := range l.m {
		if b.tokens+float64(now.Sub(b.at))/float64(l.per) >= l.burst {
			delete(l.m, k)
		}
	}
	if len(l.m) >= maxKeys { // all busy: start over rather than grow
		l.m = map[string]*bucket{}
	}
}

// maxConns bounds the connections open at once, from all addresses.
const maxConns = 1024

// throttled is a listener that closes, before any TLS handshake, the
// connections of an address that has used up its attempts, and those
// beyond maxConns open at once.
type throttled struct {
	net.Listener
	l    *limiter
	open chan struct{} // a token per open connection
}

func newThrottled(ln net.Listener, l *limiter) throttled {
	return throttled{Listener: ln, l: l, open: make(chan struct{}, maxConns)}
}

func (t throttled) Accept() (net.Conn, error) {
	for {
		c, err := t.Listener.Accept()
		if err != nil {
			return nil, err
		}
		host, _, _ := net.SplitHostPort(c.RemoteAddr().String())
		if !t.l.allow(host) {
			c.Close()
			continue
		}
		select {
		case t.open <- struct{}{}:
			return &counted{Conn: c, open: t.open}, nil
		default:
			c.Close()
		}
	}
}

// counted gives its token back when it is closed.
type counted struct {
	net.Conn
	open chan struct{}
	once sync.Once
}

func (c *counted) Close() error {
	c.once.Do(func() { <-c.open })
	return c.Conn.Close()
}

// pacer spaces out what a session sends (messages, or bytes): at most
// rate a second on average, burst at once. A client over it is slowed down
// (its messages wait in the network), not dropped.
type pacer struct {
	rate, burst float64
	tokens      float64
	at          time.Time
}

// wait takes cost from the bucket, sleeping until it holds that much.
func (p *pacer) wait(cost float64) {
	now := time.Now()
	if p.at.IsZero() {
		p.tokens, p.at = p.burst, now
	}
	p.tokens = min(p.burst, p.tokens+now.Sub(p.at).Seconds()*p.rate)
	p.at = now
	if p.tokens < cost {
		d := time.Duration((cost - p.tokens) / p.rate * float64(time.Second))
		time.Sleep(d)
		p.at = p.at.Add(d)
		p.tokens = cost
	}
	p.tokens -= cost
}
