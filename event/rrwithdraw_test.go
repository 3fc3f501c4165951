package event

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"gomoku-arena/event/rulings"
	"gomoku-arena/event/tables"
	"gomoku-arena/pairing"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// stopAfter is an Observer that drains the event once n games finished.
type stopAfter struct {
	mu     sync.Mutex
	n      int
	cancel context.CancelFunc
}

func (s *stopAfter) Observe(u Update) {
	if _, ok := u.(GameFinished); !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n--; s.n == 0 {
		s.cancel()
	}
}

// A 7-entrant round robin with one entrant disqualified after round 3, the
// standings checked against FIDE's Tournament Rules (Handbook C.06, V.4)
// as its text reads, computed here from the journal and the Berger tables
// alone:
//
//	"a. If a player has completed less than 50% of his games and leaves
//	the tournament, his score remains in the tournament table (for rating
//	and historical purposes), but the points scored by him or against him
//	are not counted in the final standings. [...] b. If a player has
//	completed at least 50% of his games, his score shall remain in the
//	tournament table and will be counted in the final standings. The
//	unplayed games of the player are indicated as above" (the player "-",
//	the opponents "+").
//
// With 7 entrants each plays 6 games and sits out one round: an entrant
// whose bye fell in rounds 1-3 completed 2 games (less than half: case a),
// one whose bye is later completed 3 (half: case b).
func TestRoundRobinDisqualificationFollowsFIDE(t *testing.T) {
	sched, err := pairing.Schedule(pairing.RoundRobinFormat, 7)
	if err != nil {
		t.Fatal(err)
	}
	byeRound := map[int]int{}
	for _, round := range sched {
		for _, p := range round {
			if p.White == pairing.Bye {
				byeRound[p.Black] = p.Round
			}
		}
	}
	early, late := -1, -1
	for e := range 7 {
		if byeRound[e] <= 3 && early < 0 {
			early = e
		}
		if byeRound[e] > 3 && late < 0 {
			late = e
		}
	}
	for _, tc := range []struct {
		name      string
		entrant   int
		cancelled bool
	}{{"completed 2 of 6: results cancelled", early, true}, {"completed 3 of 6: results stand, the rest forfeits", late, false}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var b strings.Builder
			b.WriteString("name = \"rr7\"\nrule = \"freestyle\"\nsize = 9\nformat = \"round-robin\"\noutput = \"out\"\n[clock]\nmatch = \"20s\"\n")
			for i := range 7 {
				fmt.Fprintf(&b, "[[engine]]\nname = \"e%d\"\ncommand = \"builtin:random\"\nargs = [\"seed=%d\"]\n", i+1, i+1)
			}
			path := writeConfig(t, dir, "rr7", b.String())
			ev := loadEvent(t, path)
			drain, cancel := context.WithCancel(context.Background())
			defer cancel()
			// Rounds 1 to 3: 9 games, dealt in order at the one table.
			if _, err := ev.Run(drain, context.Background(), &stopAfter{n: 9, cancel: cancel}); err == nil || !strings.Contains(err.Error(), "stopped") {
				t.Fatalf("first run: %v, want stopped after round 3", err)
			}
			name := fmt.Sprintf("e%d", tc.entrant+1)
			if _, err := rulings.Withdraw(ev.Folder(), name, "disqualified: engine found consulting a stronger engine"); err != nil {
				t.Fatal(err)
			}
			ev2 := loadEvent(t, path)
			if _, _, err := runObserved(ev2); err != nil {
				t.Fatal(err)
			}
			recs := readJournal(t, ev.Folder())
			var withdrawal *record.Record
			for i, r := range recs {
				if r.End == record.Withdrawn {
					withdrawal = r
					for _, later := range recs[i+1:] {
						if later.IsGame() && (later.Black == name || later.White == name) {
							t.Errorf("game %d of %s journaled after its withdrawal", later.Game, name)
						}
					}
				}
			}
			if withdrawal == nil || withdrawal.Black != name || withdrawal.Round != 4 {
				t.Fatalf("withdrawal %+v, want %s from round 4", withdrawal, name)
			}
			// The rule, by hand.
			points := map[string]float64{}
			played := map[[2]string]bool{}
			for i := range 7 {
				points[fmt.Sprintf("e%d", i+1)] = 0
			}
			completed := 0
			for _, r := range gamesOf(recs) {
				played[[2]string{r.Black, r.White}] = true
				if r.Black == name || r.White == name {
					completed++
					if tc.cancelled {
						continue
					}
				}
				switch r.Winner {
				case rules.Black:
					points[r.Black]++
				case rules.White:
					points[r.White]++
				default:
					points[r.Black] += 0.5
					points[r.White] += 0.5
				}
			}
			if want := map[bool]int{true: 2, false: 3}[tc.cancelled]; completed != want {
				t.Fatalf("%s completed %d games, want %d", name, completed, want)
			}
			if !tc.cancelled {
				for _, round := range sched {
					for _, p := range round {
						if p.White == pairing.Bye {
							continue
						}
						bl, wh := fmt.Sprintf("e%d", p.Black+1), fmt.Sprintf("e%d", p.White+1)
						if played[[2]string{bl, wh}] {
							continue
						}
						switch name {
						case bl:
							points[wh]++ // "+" for the opponent
						case wh:
							points[bl]++
						default:
							t.Errorf("round %d: %s vs %s was never played", p.Round, bl, wh)
						}
					}
				}
			}
			if got := standingsPoints(t, ev.Folder()); !maps(got, points) {
				t.Errorf("standings %v,\nwant by C.06 V.4 %v", got, points)
			}
			if page := mustRead(t, filepath.Join(ev.Folder(), tables.PageFile)); !strings.Contains(page, "withdrawn") {
				t.Error("the page does not show the withdrawal")
			}
			// arena standings rebuilds the same from the journal alone.
			md := mustRead(t, filepath.Join(ev.Folder(), "standings.md"))
			os.Remove(filepath.Join(ev.Folder(), "standings.md"))
			if _, err := tables.Rebuild(ev.Folder()); err != nil {
				t.Fatal(err)
			}
			if got := mustRead(t, filepath.Join(ev.Folder(), "standings.md")); got != md {
				t.Errorf("rebuilt standings.md differs:\n%s\nwant\n%s", got, md)
			}
		})
	}
}

// disqualifyOnFirstGame asks, as the organizer, to withdraw an entrant once
// the running event's first game finished, and counts the games started
// after that with the entrant.
type disqualifyOnFirstGame struct {
	t       *testing.T
	folder  string
	name    string
	asked   bool
	started int // the entrant's games started after the request
}

func (w *disqualifyOnFirstGame) Observe(u Update) {
	switch u := u.(type) {
	case GameFinished:
		if !w.asked {
			w.asked = true
			if _, err := rulings.Withdraw(w.folder, w.name, "disqualified"); err != nil {
				w.t.Errorf("withdraw: %v", err)
			}
		}
	case GameStarted:
		if w.asked && (u.Black == w.name || u.White == w.name) {
			w.started++
		}
	}
}

// A round robin entrant withdrawn while the event runs plays none of its
// games dealt after the withdrawal: they are dropped before they start.
func TestRoundRobinWithdrawalWhileRunning(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("name = \"rr4\"\nrule = \"freestyle\"\nsize = 9\nformat = \"round-robin\"\noutput = \"out\"\n[clock]\nmatch = \"20s\"\n")
	for i := range 4 {
		fmt.Fprintf(&b, "[[engine]]\nname = \"e%d\"\ncommand = \"builtin:random\"\nargs = [\"seed=%d\"]\n", i+1, i+1)
	}
	ev := loadEvent(t, writeConfig(t, dir, "rr4", b.String()))
	w := &disqualifyOnFirstGame{t: t, folder: ev.Folder(), name: "e4"}
	if _, err := ev.Run(context.Background(), context.Background(), w); err != nil {
		t.Fatal(err)
	}
	if w.started != 0 {
		t.Errorf("%d games of the withdrawn e4 started after its withdrawal", w.started)
	}
	recs := readJournal(t, ev.Folder())
	withdrawn := false
	for _, r := range recs {
		if r.End == record.Withdrawn && r.Black == "e4" {
			withdrawn = true
		}
	}
	if !withdrawn {
		t.Error("no withdrawal journaled")
	}
}
