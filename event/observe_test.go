package event

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"gomoku-arena/event/outfolder"
	"gomoku-arena/internal/config"
	"gomoku-arena/results/journal"
	"gomoku-arena/results/record"
	"gomoku-arena/results/report"
)

// recorder is an Observer that keeps every Update in the order the event
// sent it. It is safe to read while the event runs (a test waiting for a
// game to finish before it stops the event).
type recorder struct {
	mu      sync.Mutex
	updates []Update
	changed chan struct{} // closed and replaced at every update
}

func newRecorder() *recorder { return &recorder{changed: make(chan struct{})} }

func (r *recorder) Observe(u Update) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.updates = append(r.updates, u)
	close(r.changed)
	r.changed = make(chan struct{})
}

// all is a copy of the updates so far.
func (r *recorder) all() []Update {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.updates)
}

// kinds are the updates of type T so far, in order.
func kinds[T Update](r *recorder) []T {
	var out []T
	for _, u := range r.all() {
		if v, ok := u.(T); ok {
			out = append(out, v)
		}
	}
	return out
}

// waitFor blocks until n updates of type T have been observed, or the
// context ends (then the test fails).
func waitFor[T Update](t *testing.T, ctx context.Context, r *recorder, n int) []T {
	t.Helper()
	for {
		r.mu.Lock()
		ch := r.changed
		r.mu.Unlock()
		if got := kinds[T](r); len(got) >= n {
			return got
		}
		select {
		case <-ch:
		case <-ctx.Done():
			t.Fatalf("waited for %d %T updates, saw %d", n, *new(T), len(kinds[T](r)))
		}
	}
}

// finished are the records the event announced with GameFinished.
func (r *recorder) finished() []*record.Record {
	var out []*record.Record
	for _, g := range kinds[GameFinished](r) {
		out = append(out, g.Record)
	}
	return out
}

// notices are the texts of the Notice updates.
func (r *recorder) notices() []string {
	var out []string
	for _, n := range kinds[Notice](r) {
		out = append(out, n.Text)
	}
	return out
}

// writeConfig writes an event config named NAME.toml in dir.
func writeConfig(t *testing.T, dir, name, src string) string {
	t.Helper()
	path := filepath.Join(dir, name+".toml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// loadEvent reads the config and makes its event, failing the test on an
// error.
func loadEvent(t *testing.T, path string) *Event {
	t.Helper()
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// runObserved plays the event to its end (or its error), with a fresh recorder.
func runObserved(ev *Event) (*recorder, *report.Report, error) {
	rec := newRecorder()
	rep, err := ev.Run(context.Background(), context.Background(), rec)
	return rec, rep, err
}

// runOK reads the config, plays its event and checks what every finished
// run must show: a report, one Began, and the journal's games being those
// Began said were done followed by those GameFinished announced, in order
// (byes and withdrawals are journaled but not announced).
func runOK(t *testing.T, path string) (*Event, *recorder) {
	t.Helper()
	ev := loadEvent(t, path)
	obs, rep, err := runObserved(ev)
	if err != nil {
		t.Fatalf("run: %v\nnotices: %q", err, obs.notices())
	}
	if rep == nil {
		t.Fatal("a finished run gave no standings")
	}
	began := kinds[Began](obs)
	if len(began) != 1 {
		t.Fatalf("%d Began updates, want 1", len(began))
	}
	recs := gamesOf(readJournal(t, ev.Folder()))
	fin := obs.finished()
	if len(recs) != len(gamesOf(began[0].Done))+len(fin) {
		t.Errorf("journal holds %d games; Began said %d were done, and %d finished", len(recs), len(gamesOf(began[0].Done)), len(fin))
	}
	for i, r := range fin {
		j := len(recs) - len(fin) + i
		if j < 0 || recs[j].Round != r.Round || recs[j].Game != r.Game || recs[j].End != r.End {
			t.Errorf("GameFinished %d (round %d game %d) is not the journal's game %d", i, r.Round, r.Game, j)
		}
	}
	return ev, obs
}

// readJournal reads the event folder's journal.
func readJournal(t *testing.T, folder string) []*record.Record {
	t.Helper()
	recs, err := journal.Read(filepath.Join(folder, outfolder.JournalFile))
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// gamesOf are the records that are games (byes and withdrawals left out).
func gamesOf(recs []*record.Record) []*record.Record {
	var out []*record.Record
	for _, r := range recs {
		if r.IsGame() {
			out = append(out, r)
		}
	}
	return out
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
