package event

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gomoku-arena/event/outfolder"
	"gomoku-arena/internal/config"
	"gomoku-arena/results/journal"
	"gomoku-arena/results/record"
)

// A real Swiss in which two entrants fail to start and are withdrawn: the
// Buchholz, Buchholz Cut-1, Median-1 and Sonneborn-Berger cells of
// standings.json agree, entrant by entrant, with fideUnplayed below, which
// reads the journal straight by the text of C.07 Art. 16 (2026) and shares
// no code with results/standings.
func TestWithdrawalTiebreaksFollowTheRegulations(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString(`name = "withdrawals"
rule = "freestyle"
size = 9
format = "swiss"
rounds = 6
withdraw_after = 2
tiebreaks = ["buchholz-cut1", "buchholz", "median-buchholz", "sonneborn-berger"]
output = "out"
concurrency = 2
[clock]
match = "20s"
`)
	// e9, the last seed, gets round 1's bye and then refuses its games:
	// withdrawn with a point, its absences count against a dummy of 1.
	engines := []string{"builtin:greedy", "builtin:random seed=1", "builtin:random seed=2", "builtin:faulty refuse-start",
		"builtin:greedy", "builtin:random seed=3", "builtin:random seed=4", "builtin:random seed=5", "builtin:faulty refuse-start"}
	for i, e := range engines {
		f := strings.Fields(e)
		fmt.Fprintf(&b, "[[engine]]\nname = \"e%d\"\ncommand = %q\n", i+1, f[0])
		if len(f) > 1 {
			fmt.Fprintf(&b, "args = [%q]\n", f[1])
		}
	}
	path := filepath.Join(dir, "w.toml")
	os.WriteFile(path, []byte(b.String()), 0o644)
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ev.Run(context.Background(), context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	recs, err := journal.Read(filepath.Join(ev.Folder(), outfolder.JournalFile))
	if err != nil {
		t.Fatal(err)
	}
	var withdrawn []string
	for _, r := range recs {
		if r.End == record.Withdrawn {
			withdrawn = append(withdrawn, r.Black)
		}
	}
	if len(withdrawn) != 2 {
		t.Fatalf("withdrawals journaled: %q, want the two entrants that refuse to start", withdrawn)
	}
	want := fideUnplayed(recs, 6)
	if want["e9"].bh == 0 {
		t.Fatalf("e9 has no Buchholz (%+v): the case of a withdrawn entrant with points is not played", want["e9"])
	}
	raw, err := os.ReadFile(filepath.Join(ev.Folder(), "standings.json"))
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Standings []struct {
			Name      string             `json:"name"`
			Tiebreaks map[string]float64 `json:"tiebreaks"`
		} `json:"standings"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Standings) != len(engines) {
		t.Fatalf("%d standings, want %d", len(file.Standings), len(engines))
	}
	for _, s := range file.Standings {
		w := want[s.Name]
		for tb, v := range map[string]float64{"buchholz": w.bh, "buchholz-cut1": w.c1, "median-buchholz": w.m1, "sonneborn-berger": w.sb} {
			if got := s.Tiebreaks[tb]; math.Abs(got-v) > 1e-9 {
				t.Errorf("%s: %s %g, the regulations give %g", s.Name, tb, got, v)
			}
		}
	}
}

// fideTiebreaks are one participant's values.
type fideTiebreaks struct{ bh, c1, m1, sb float64 }

// fideUnplayed computes Buchholz, its Cut-1 and Median-1, and
// Sonneborn-Berger of a Swiss of the given rounds from its journal, by C.07
// (2026):
//   - every round up to the last one with games is a round of every
//     participant; one it has no record of (it was withdrawn) is an absence:
//     0 points, no opponent, voluntarily unplayed (16.1);
//   - a forfeit loss (the engine refused, or neither started) is a
//     voluntary unplayed round too; a forfeit win and a pairing-allocated
//     bye are unplayed but not voluntary;
//   - a participant's score for its opponents' tie-breaks counts every
//     unplayed round without opponent after its last round that was not
//     voluntarily unplayed as a draw (16.3); other rounds count as scored;
//   - a round played over the board contributes the opponent's adjusted
//     score; an unplayed round contributes a dummy with the participant's
//     own score, at most the scheduled opponent's adjusted score (a
//     forfeit) or half a point per round of the event (no opponent) (16.4);
//   - Cut-1 cuts the least contribution of a voluntarily unplayed round,
//     when there is one, else the least of all (16.5); Median-1 then cuts
//     the greatest;
//   - Sonneborn-Berger sums the points scored in each round times the same
//     contribution.
func fideUnplayed(recs []*record.Record, rounds int) map[string]fideTiebreaks {
	type round struct {
		opp       string // "" for none
		points    float64
		played    bool
		voluntary bool
	}
	byName := map[string]map[int]round{}
	last := 0
	entry := func(name string) map[int]round {
		if byName[name] == nil {
			byName[name] = map[int]round{}
		}
		return byName[name]
	}
	for _, r := range recs {
		switch r.End {
		case record.Withdrawn:
			entry(r.Black)
			continue
		case record.ByeEnd:
			entry(r.Black)[r.Round] = round{points: 1}
		default:
			unplayed := r.End == record.Refusal || r.End == record.DoubleForfeit
			var bp, wp float64
			switch {
			case r.End == record.DoubleForfeit:
			case r.Winner.String() == "black":
				bp = 1
			case r.Winner.String() == "white":
				wp = 1
			default:
				bp, wp = 0.5, 0.5
			}
			entry(r.Black)[r.Round] = round{opp: r.White, points: bp, played: !unplayed, voluntary: unplayed && bp == 0}
			entry(r.White)[r.Round] = round{opp: r.Black, points: wp, played: !unplayed, voluntary: unplayed && wp == 0}
		}
		last = max(last, r.Round)
	}
	for _, rs := range byName {
		for k := 1; k <= last; k++ {
			if _, ok := rs[k]; !ok {
				rs[k] = round{voluntary: true} // an absence
			}
		}
	}
	score, adjusted := map[string]float64{}, map[string]float64{}
	for name, rs := range byName {
		lastTaken := 0
		for k := 1; k <= last; k++ {
			score[name] += rs[k].points
			if !rs[k].voluntary {
				lastTaken = k
			}
		}
		for k := 1; k <= last; k++ {
			if k > lastTaken && rs[k].opp == "" {
				adjusted[name] += 0.5
			} else {
				adjusted[name] += rs[k].points
			}
		}
	}
	out := map[string]fideTiebreaks{}
	for name, rs := range byName {
		var t fideTiebreaks
		var all, vol []float64
		for k := 1; k <= last; k++ {
			r := rs[k]
			var v float64
			switch {
			case r.played:
				v = adjusted[r.opp]
			case r.opp != "":
				v = math.Min(score[name], adjusted[r.opp])
			default:
				v = math.Min(score[name], 0.5*float64(rounds))
			}
			t.bh += v
			t.sb += r.points * v
			all = append(all, v)
			if r.voluntary {
				vol = append(vol, v)
			}
		}
		cut := slicesMin(all)
		if len(vol) > 0 {
			cut = slicesMin(vol)
		}
		t.c1 = t.bh - cut
		// Median-1: the greatest of what Cut-1 left.
		rest := append([]float64(nil), all...)
		for i, v := range rest {
			if v == cut {
				rest = append(rest[:i], rest[i+1:]...)
				break
			}
		}
		t.m1 = t.c1 - slicesMax(rest)
		out[name] = t
	}
	return out
}

func slicesMin(v []float64) float64 {
	m := math.Inf(1)
	for _, x := range v {
		m = math.Min(m, x)
	}
	return m
}

func slicesMax(v []float64) float64 {
	m := math.Inf(-1)
	for _, x := range v {
		m = math.Max(m, x)
	}
	return m
}
