package live

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net"
	"net/http"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"gomoku-arena/event/outputs"
	"gomoku-arena/internal/durable"
)

//go:embed assets
var assets embed.FS

// Server serves the pages of one or more events, each under /e/NAME/. It
// only reads: no request changes anything, and only GET and HEAD are
// answered.
type Server struct {
	events []*served
	mux    *http.ServeMux
}

type served struct {
	slug   string
	name   string
	folder string // "" when the event writes no folder
	hub    *Hub
}

// NewServer returns a server with no events yet.
func NewServer() *Server {
	s := &Server{mux: http.NewServeMux()}
	static, _ := fs.Sub(assets, "assets")
	s.mux.Handle("/assets/", http.StripPrefix("/assets/", http.FileServerFS(static)))
	s.mux.HandleFunc("/{$}", s.index)
	return s
}

var slugUnsafe = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// Add serves the event that h follows (written to folder, "" for none)
// under a path made from its name, and returns that path.
func (s *Server) Add(name, folder string, h *Hub) string {
	slug := strings.Trim(slugUnsafe.ReplaceAllString(name, "-"), "-.")
	if slug == "" {
		slug = "event"
	}
	base := slug
	for i := 2; s.find(slug) != nil; i++ {
		slug = base + "-" + strconv.Itoa(i)
	}
	e := &served{slug: slug, name: name, folder: folder, hub: h}
	s.events = append(s.events, e)
	p := "/e/" + slug + "/"
	s.mux.HandleFunc(p+"{$}", e.page)
	s.mux.HandleFunc(p+"api/state", e.state)
	s.mux.HandleFunc(p+"api/stream", e.stream)
	s.mux.HandleFunc(p+"api/game", e.game)
	s.mux.HandleFunc(p+"games/{file}", e.gameFile)
	return p
}

func (s *Server) find(slug string) *served {
	for _, e := range s.events {
		if e.slug == slug {
			return e
		}
	}
	return nil
}

// ServeHTTP answers GET and HEAD only, with headers that keep every
// engine-supplied text inert: no inline script runs, nothing loads from
// elsewhere.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "read-only", http.StatusMethodNotAllowed)
		return
	}
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	s.mux.ServeHTTP(w, r)
}

var indexPage = template.Must(template.New("index").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>gomoku-arena</title>
<link rel="stylesheet" href="/assets/style.css"></head>
<body><header><h1>gomoku-arena</h1></header><main><ul class="events">
{{range .}}<li><a href="/e/{{.slug}}/">{{.name}}</a></li>{{end}}
</ul></main></body></html>
`))

func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	if len(s.events) == 1 {
		http.Redirect(w, r, "/e/"+s.events[0].slug+"/", http.StatusFound)
		return
	}
	var list []map[string]string
	for _, e := range s.events {
		list = append(list, map[string]string{"slug": e.slug, "name": e.name})
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	indexPage.Execute(w, list)
}

func (e *served) page(w http.ResponseWriter, r *http.Request) {
	b, err := assets.ReadFile("assets/index.html")
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(b)
}

func (e *served) state(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(e.hub.snapshot())
}

// heartbeat keeps proxies from closing a quiet stream and lets a page see
// that the server is still there.
const heartbeat = 15 * time.Second

// stream is the server-sent event stream: the whole state, then every
// change. The browser's EventSource reconnects by itself after a drop or a
// server restart, and starts again from the whole state.
func (e *served) stream(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	c := e.hub.subscribe()
	defer e.hub.unsubscribe(c)
	rc := http.NewResponseController(w)
	beat := time.NewTicker(heartbeat)
	defer beat.Stop()
	fmt.Fprint(w, "retry: 1000\n\n")
	for {
		select {
		case <-r.Context().Done():
			return
		case <-beat.C:
			rc.SetWriteDeadline(time.Now().Add(10 * time.Second))
			if _, err := fmt.Fprint(w, ": beat\n\n"); err != nil {
				return
			}
			fl.Flush()
		case b, ok := <-c.out:
			if !ok {
				return // too slow: dropped; the browser reconnects
			}
			// A client that stops reading must not hold this goroutine.
			rc.SetWriteDeadline(time.Now().Add(10 * time.Second))
			// What else is queued goes out in the same write: fast games
			// cost one write per client per burst, not per move.
			for more := true; more; {
				if _, err := fmt.Fprintf(w, "data: %s\n\n", b); err != nil {
					return
				}
				select {
				case b, more = <-c.out:
				default:
					more = false
				}
			}
			fl.Flush()
			// At most one write per page every flushEvery: in a fast match
			// the moves queue meanwhile and go out together, so hundreds of
			// pages wake the server a few times a second, not once a move.
			time.Sleep(flushEvery)
		}
	}
}

// flushEvery spaces one page's writes; a move reaches it at most this much
// later than it could.
const flushEvery = 100 * time.Millisecond

// game answers a finished game for replay, in the page's own terms.
func (e *served) game(w http.ResponseWriter, r *http.Request) {
	round, err1 := strconv.Atoi(r.URL.Query().Get("round"))
	number, err2 := strconv.Atoi(r.URL.Query().Get("number"))
	if err := errors.Join(err1, err2); err != nil {
		http.Error(w, "want round and number", http.StatusBadRequest)
		return
	}
	e.hub.mu.Lock()
	rec, err := e.hub.state.record(round, number)
	var b []byte
	if err == nil {
		b, err = json.Marshal(replayOf(rec))
	}
	e.hub.mu.Unlock()
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}

// gameFileName is what the event writes into games/: nothing else there is
// served, and no path leaves that folder.
var gameFileName = regexp.MustCompile(`^[A-Za-z0-9._-]+\.(sgf|psq)$`)

func (e *served) gameFile(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	if e.folder == "" || !gameFileName.MatchString(name) || strings.Contains(name, "..") || path.Base(name) != name {
		http.NotFound(w, r)
		return
	}
	// A regular file reached through no link: the folder may be one that
	// others write into (games/evil.sgf -> /etc/shadow is not served).
	f, err := durable.OpenRegular(e.folder, filepath.Join(outputs.GamesDir, name))
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", "attachment; filename=\""+name+"\"")
	http.ServeContent(w, r, name, st.ModTime(), f)
}

// Serve serves on ln until ctx ends, together with the hubs' own loops:
// when one part stops, all stop.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute,
		MaxHeaderBytes: 16 << 10}
	g, ctx := errgroup.WithContext(ctx)
	for _, e := range s.events {
		g.Go(func() error { return e.hub.Run(ctx) })
	}
	g.Go(func() error {
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			return fmt.Errorf("live page: %w", err)
		}
		return nil
	})
	g.Go(func() error {
		<-ctx.Done()
		// The hubs close their streams as they stop; give them a moment.
		shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(shut)
		return srv.Close()
	})
	return g.Wait()
}

// Listen listens on addr, where a missing host means the loopback address:
// a page is shown to the world only when its address says so ("0.0.0.0:8080").
func Listen(addr string) (net.Listener, error) {
	if _, err := strconv.Atoi(addr); err == nil {
		addr = ":" + addr
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("live page address %q: %w", addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, port))
	if err != nil {
		return nil, fmt.Errorf("live page: %w", err)
	}
	return ln, nil
}

// Page is the live page of one running event, served in the background.
// Give it to the event as an Observer.
type Page struct {
	*Hub
	URL  string
	stop context.CancelFunc
	done chan error
}

// Start serves the page of the event called name (its files in folder, ""
// for none) on addr until Close.
func Start(addr, name, folder string) (*Page, error) {
	ln, err := Listen(addr)
	if err != nil {
		return nil, err
	}
	s := NewServer()
	h := NewHub()
	path := s.Add(name, folder, h)
	ctx, stop := context.WithCancel(context.Background())
	p := &Page{Hub: h, URL: "http://" + ln.Addr().String() + path, stop: stop, done: make(chan error, 1)}
	go func() { p.done <- s.Serve(ctx, ln) }()
	return p, nil
}

// Close stops serving and waits until the server has stopped.
func (p *Page) Close() error {
	p.stop()
	return <-p.done
}
