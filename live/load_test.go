package live_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"gomoku-arena/event"
	"gomoku-arena/event/outfolder"
	"gomoku-arena/results/journal"
)

// viewersProcess is the test binary run as LIVE_VIEWERS=N,URL: N pages
// connected to the stream at URL, in a process of their own as on other
// machines. It prints "ready" once every page has its first message, and
// when its standard input closes, one line per stone each page saw:
// "round.number.stones unix-nanoseconds".
func viewersProcess(spec string) {
	nStr, url, _ := strings.Cut(spec, ",")
	var n int
	fmt.Sscan(nStr, &n)
	http.DefaultTransport.(*http.Transport).MaxIdleConnsPerHost = n + 10
	ctx, cancel := context.WithCancel(context.Background())
	viewers := make([]*viewer, n)
	var ready, done sync.WaitGroup
	ready.Add(n)
	for i := range viewers {
		viewers[i] = &viewer{arrived: map[string]time.Time{}}
		done.Add(1)
		go func() { defer done.Done(); viewers[i].follow(ctx, url, &ready) }()
	}
	ready.Wait()
	fmt.Println("ready")
	io.Copy(io.Discard, os.Stdin)
	cancel()
	done.Wait()
	out := bufio.NewWriter(os.Stdout)
	for _, v := range viewers {
		for k, at := range v.arrived {
			fmt.Fprintf(out, "%s %d\n", k, at.UnixNano())
		}
	}
	out.Flush()
}

// viewer is one page connected to the stream, noting when each stone's
// message arrived.
type viewer struct {
	mu      sync.Mutex
	arrived map[string]time.Time // "round.number.stones"
}

func (v *viewer) follow(ctx context.Context, url string, ready *sync.WaitGroup) error {
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		ready.Done()
		return err
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	first := true
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		if first {
			first = false
			ready.Done()
		}
		// Cheap on purpose: the pages share the machine with the event, so
		// they read only the type and the key, not the whole message.
		if !strings.HasPrefix(line, `{"type":"move"`) {
			continue
		}
		var m struct {
			Data struct {
				Round, Number, Stones int
			} `json:"data"`
		}
		i := strings.Index(line, `"moves":`)
		j := strings.Index(line, `"stones":`)
		if i < 0 || j < 0 {
			continue
		}
		// {"type":"move","data":{"round":R,"number":N,"moves":[...],"stones":S,...
		head := line[:i] + line[j:]
		if end := strings.IndexByte(head[len(line[:i]):], ','); end > 0 {
			head = head[:len(line[:i])+end] + "}}"
		}
		if json.Unmarshal([]byte(strings.Replace(head, `"type":"move",`, "", 1)), &m) != nil {
			continue
		}
		now := time.Now()
		v.mu.Lock()
		v.arrived[fmt.Sprintf("%d.%d.%d", m.Data.Round, m.Data.Number, m.Data.Stones)] = now
		v.mu.Unlock()
	}
	return sc.Err()
}

// played notes when the event reported each stone.
type played struct {
	mu sync.Mutex
	at map[string]time.Time // "round.number.stones"
}

func (p *played) Observe(u event.Update) {
	if m, ok := u.(event.MovePlayed); ok {
		p.mu.Lock()
		p.at[fmt.Sprintf("%d.%d.%d", m.Round, m.Number, m.Stones)] = time.Now()
		p.mu.Unlock()
	}
}

// BenchmarkViewers plays an event of engines that think 50 ms a move with
// 0 or 500 pages connected to its live stream, and reports the arbiter's
// own time per move (a game's wall time less the engines' think time, over
// its moves), the time from a stone being played to its arrival at every
// page (p50, p99, max), pages dropped, and the server's heap. The pages run
// in a process of their own (this test binary again), as on other machines,
// but on the same cores: their reading still takes the machine from the
// event, so this is the worst case of a two-core arbiter.
//
//	go test ./live -run '^$' -bench Viewers -benchtime 1x -count 5
func BenchmarkViewers(b *testing.B) {
	for _, n := range []int{0, 500} {
		b.Run(fmt.Sprintf("viewers=%d", n), func(b *testing.B) {
			for range b.N {
				viewersOnce(b, n)
			}
		})
	}
}

func viewersOnce(b *testing.B, n int) {
	dir := b.TempDir()
	src := `name = "load"
rule = "freestyle"
format = "round-robin"
move_cap = 30
concurrency = 2
output = "out"
[clock]
match = "60s"
[[engine]]
name = "a"
command = "builtin:faulty"
args = ["think=50ms"]
[[engine]]
name = "b"
command = "builtin:faulty"
args = ["think=50ms"]
[[engine]]
name = "c"
command = "builtin:faulty"
args = ["think=50ms"]
[[engine]]
name = "d"
command = "builtin:faulty"
args = ["think=50ms"]
`
	ev, pg := serveEvent(b, loadEvent(b, dir, "load.toml", src))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The pages run in a process of their own, as they would on other
	// machines; only the server's part is in this one.
	var child *exec.Cmd
	var childIn io.WriteCloser
	var childOut *bufio.Scanner
	if n > 0 {
		child = exec.Command(os.Args[0], "-test.run", "^$")
		child.Env = append(os.Environ(), fmt.Sprintf("LIVE_VIEWERS=%d,%sapi/stream", n, pg.URL))
		childIn, _ = child.StdinPipe()
		out, _ := child.StdoutPipe()
		child.Stderr = os.Stderr
		if err := child.Start(); err != nil {
			b.Fatal(err)
		}
		defer child.Process.Kill()
		childOut = bufio.NewScanner(out)
		childOut.Buffer(make([]byte, 0, 1<<16), 1<<20)
		if !childOut.Scan() || childOut.Text() != "ready" {
			b.Fatalf("the viewers' process did not start: %q", childOut.Text())
		}
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	heapBefore := ms.HeapInuse

	rec := &played{at: map[string]time.Time{}}
	b.ResetTimer()
	if _, err := ev.Run(ctx, ctx, event.Observers{rec, pg}); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	runtime.ReadMemStats(&ms)
	time.Sleep(300 * time.Millisecond) // the last messages reach the pages
	cancel()
	arrived := map[string][]time.Time{}
	if child != nil {
		childIn.Close()
		for childOut.Scan() {
			var k string
			var at int64
			if _, err := fmt.Sscan(childOut.Text(), &k, &at); err == nil {
				arrived[k] = append(arrived[k], time.Unix(0, at))
			}
		}
		child.Wait()
	}

	recs, err := journal.Read(filepath.Join(ev.Folder(), outfolder.JournalFile))
	if err != nil {
		b.Fatal(err)
	}
	// The arbiter's own time per move: from one stone's report to the
	// next one's in the same game, less the engine's think time for it.
	var own time.Duration
	var moves int
	for _, r := range recs {
		for i := 1; i < len(r.Moves); i++ {
			prev, ok1 := rec.at[fmt.Sprintf("%d.%d.%d", r.Round, r.Game, i)]
			at, ok2 := rec.at[fmt.Sprintf("%d.%d.%d", r.Round, r.Game, i+1)]
			if ok1 && ok2 {
				own += at.Sub(prev) - r.Moves[i].Think
				moves++
			}
		}
	}
	b.ReportMetric(float64(own.Nanoseconds())/1000/float64(max(moves, 1)), "arbiter-µs/move")

	if n == 0 {
		return
	}
	var lat []time.Duration
	missing := 0
	for k, at := range rec.at {
		got := arrived[k]
		missing += n - len(got)
		for _, a := range got {
			lat = append(lat, a.Sub(at))
		}
	}
	slices.Sort(lat)
	if len(lat) > 0 {
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
		b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, "max-ms")
	}
	b.ReportMetric(float64(missing)/float64(len(rec.at)*n), "missed/delivery")
	b.ReportMetric(float64(max(ms.HeapInuse, heapBefore))/(1<<20), "server-heap-MiB")
}
