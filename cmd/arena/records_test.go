package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"gomoku-arena/results/journal"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// Openings that make a termination happen between deterministic engines
// (faulty plays the first empty point from the centre out).
const (
	// Pente: Black captures four pairs in the corners, and White's last
	// stones leave i9 capturing the fifth pair: faulty's first choice.
	penteCaptureOpening = "j10b1a1c1d1b3a3c3d3b17a17c17d17b19a19c19d19g7f6h8"
	// Renju: Black f8 g8 and h6 h7 make the centre h8 a 3-3.
	renju33Opening = "f8a1g8a15h6o1h7o15"
)

// rifListMismatch are the rules whose games cannot fall back on the
// canonical RIF openings when an engine does not take part in the RIF
// extension (the openings break their first-stone rules); the arbiter
// panics there today, a fault outside records.
var rifListMismatch = map[string]bool{"outer-open": true, "pente": true, "keryo-pente": true}

// recordScenario is one authors' match whose games end a known way.
type recordScenario struct {
	name    string
	engines []string
	flags   []string
	rules   []string // only under these rules (all when empty)
	size    int      // board size (the rule's default when 0)
}

var recordScenarios = []recordScenario{
	{name: "played out", engines: []string{"builtin:greedy", "r=builtin:random seed=1"}},
	{name: "crash", engines: []string{"builtin:faulty crash-at=2", "builtin:greedy"}},
	{name: "occupied", engines: []string{"builtin:faulty illegal-at=2", "builtin:greedy"}},
	{name: "off board", engines: []string{"builtin:faulty offboard-at=2", "builtin:greedy"}},
	{name: "malformed", engines: []string{"builtin:faulty malformed-at=2", "builtin:greedy"}},
	{name: "time", engines: []string{"builtin:faulty hang-at=2", "builtin:greedy"}, flags: []string{"-tc", "0", "-turn", "100ms", "-tolerance", "50ms"}},
	{name: "refusal", engines: []string{"builtin:faulty refuse-start", "builtin:greedy"}},
	{name: "move cap", engines: []string{"builtin:greedy", "r=builtin:random seed=2"}, flags: []string{"-move-cap", "6"}},
	{name: "small board", engines: []string{"builtin:faulty", "f2=builtin:faulty"}, size: 5},
	{name: "captures", engines: []string{"builtin:faulty", "f2=builtin:faulty"}, rules: []string{"pente"}, flags: []string{"-openings", "@" + penteCaptureOpening}},
	{name: "forbidden", engines: []string{"builtin:faulty", "builtin:greedy"}, rules: []string{"renju"}, flags: []string{"-openings", "@" + renju33Opening}},
}

// Every record replays to its verdict (issue 19): real games between bundled
// and faulty engines, under every rule and every opening procedure, end every
// way a game can end; `arena rules` reads each SGF and psq record back and
// reaches the recorded winner and reason, and the journal holding them is
// verified line by line. Without -short every scenario runs under every
// rule and procedure; with it, under a quarter of the rules in turn.
func TestRecordsReplayToTheirVerdict(t *testing.T) {
	procedures := []string{"none", "swap2", "rif"}
	var mu sync.Mutex
	seen := map[record.Termination]int{}
	t.Run("matches", func(t *testing.T) {
		for ri, rule := range rules.Names() {
			for pi, proc := range procedures {
				for si, sc := range recordScenarios {
					if len(sc.rules) > 0 && !slices.Contains(sc.rules, rule) {
						continue
					}
					// -short: each scenario under a quarter of the rules, one
					// procedure each, every rule and procedure in turn.
					if testing.Short() && len(sc.rules) == 0 && ((ri+si)%4 != 0 || (ri+si)/4%len(procedures) != pi) &&
						!(sc.size != 0 && rule == "freestyle" && proc == "none") {
						continue
					}
					r, _ := rules.ByName(rule)
					size := r.DefaultSize()
					if sc.size != 0 {
						size = max(sc.size, map[bool]int{true: rules.PenteMinSize}[strings.Contains(rule, "pente")])
					}
					if proc == "rif" && (size%2 == 0 || size < 7 || rifListMismatch[rule]) {
						continue
					}
					t.Run(fmt.Sprintf("%s/%s/%s", rule, proc, sc.name), func(t *testing.T) {
						t.Parallel()
						for _, end := range playAndReplay(t, rule, proc, size, sc) {
							mu.Lock()
							seen[end]++
							mu.Unlock()
						}
					})
				}
			}
		}
	})
	t.Logf("terminations: %v", seen)
	for _, end := range []record.Termination{record.Five, record.CaptureWin, record.FullBoard, record.MoveCap, record.Time,
		record.Illegal, record.Forbidden, record.Crash, record.Refusal} {
		if seen[end] == 0 {
			t.Errorf("no game ended by %s", end)
		}
	}
}

// playAndReplay plays the scenario's two games and checks their records.
func playAndReplay(t *testing.T, rule, proc string, size int, sc recordScenario) []record.Termination {
	dir := t.TempDir()
	args := []string{"match", "-quiet", "-games", "2", "-tc", "2s", "-rule", rule, "-size", fmt.Sprint(size),
		"-opening-procedure", proc, "-out", dir, "-start-timeout", "5s"}
	for _, f := range sc.flags {
		if list, ok := strings.CutPrefix(f, "@"); ok {
			f = filepath.Join(dir, "openings.txt")
			os.WriteFile(f, []byte(list+"\n"), 0o644)
		}
		args = append(args, f)
	}
	args = append(args, sc.engines...)
	if o, errOut, code := runArena(t, args...); code != 0 {
		t.Fatalf("arena %s: exit %d\n%s%s", strings.Join(args, " "), code, o, errOut)
	}
	recs, err := journal.Read(filepath.Join(dir, "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var ends []record.Termination
	for _, rec := range recs {
		ends = append(ends, rec.End)
		stated := resultWords(rec.Winner, string(rec.End))
		files, _ := filepath.Glob(filepath.Join(dir, "games", fmt.Sprintf("%04d-*", rec.Game)))
		if len(files) != 2 {
			t.Fatalf("game %d: files %v", rec.Game, files)
		}
		for _, f := range files {
			// psq has no rule: it is given, as a reader of psq must.
			o, errOut, code := runArena(t, "rules", "-json", "-rule", rule, f)
			if code != 0 {
				t.Errorf("game %d %s (%s): arena rules: exit %d\n%s%s", rec.Game, filepath.Base(f), stated, code, o, errOut)
				continue
			}
			var a analysis
			if err := json.Unmarshal([]byte(o), &a); err != nil {
				t.Fatalf("%s: %v\n%s", f, err, o)
			}
			onBoard := a.Over && a.Winner != ""
			isSGF := strings.HasSuffix(f, ".sgf")
			switch {
			case isSGF && a.Recorded != stated:
				t.Errorf("game %d %s: arena rules reads %q, the journal says %q", rec.Game, filepath.Base(f), a.Recorded, stated)
			case !isSGF && rec.End == record.Time && a.Recorded != stated:
				t.Errorf("game %d %s: psq carries the time forfeit, arena rules reads %q, want %q", rec.Game, filepath.Base(f), a.Recorded, stated)
			}
			switch rec.End {
			case record.Five, record.CaptureWin, record.FullBoard:
				want := resultWords(rec.Winner, "")
				if !onBoard || a.Winner != want || a.Reason != string(rulesReason(rec)) {
					t.Errorf("game %d %s: the stones say %q (%s), the journal %s", rec.Game, filepath.Base(f), a.Winner, a.Reason, stated)
				}
			case record.Illegal, record.Forbidden:
				if isSGF && len(a.Refused) == 0 {
					t.Errorf("game %d %s: %s with no refused stone shown", rec.Game, filepath.Base(f), stated)
				}
			}
		}
	}
	return ends
}

// rulesReason is the rules' reason behind a termination decided on the board.
func rulesReason(rec *record.Record) rules.Reason {
	switch rec.End {
	case record.CaptureWin:
		return rules.CaptureWin
	case record.FullBoard:
		return rules.FullBoard
	}
	return rules.Five
}
