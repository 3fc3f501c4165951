package event

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gomoku-arena/event/outfolder"
	"gomoku-arena/event/rulings"
	"gomoku-arena/event/tables"
	"gomoku-arena/pairing"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// standingsPoints reads each entrant's points from standings.json.
func standingsPoints(t *testing.T, folder string) map[string]float64 {
	t.Helper()
	var rows []map[string]any
	if err := json.Unmarshal([]byte(mustRead(t, filepath.Join(folder, "standings.json"))), &rows); err != nil {
		var wrapped struct {
			Standings []map[string]any `json:"standings"`
		}
		if err2 := json.Unmarshal([]byte(mustRead(t, filepath.Join(folder, "standings.json"))), &wrapped); err2 != nil {
			t.Fatalf("standings.json: %v", err)
		}
		rows = wrapped.Standings
	}
	out := map[string]float64{}
	for _, r := range rows {
		name, _ := r["engine"].(string)
		if name == "" {
			name, _ = r["name"].(string)
		}
		p, _ := r["points"].(float64)
		out[name] = p
	}
	return out
}

// pointsByHand adds up each side's points of the games, by the result
// each is given in results (game number -> "1-0", "0-1", "1/2-1/2"), or by
// its record's winner where results has none; games in skip count for
// nobody. It shares no code with the standings or with record.Ruled.
func pointsByHand(games []*record.Record, results map[int]string, skip map[int]bool) map[string]float64 {
	out := map[string]float64{}
	for _, g := range games {
		out[g.Black] += 0
		out[g.White] += 0
		if skip[g.Game] {
			continue
		}
		res, ok := results[g.Game]
		if !ok {
			res = map[rules.Color]string{rules.Black: "1-0", rules.White: "0-1", rules.Empty: "1/2-1/2"}[g.Winner]
		}
		switch res {
		case "1-0":
			out[g.Black]++
		case "0-1":
			out[g.White]++
		case "1/2-1/2":
			out[g.Black] += 0.5
			out[g.White] += 0.5
		}
	}
	return out
}

// The arbiter's three decisions on a finished round robin, each journaled
// as a line of its own, never an edit: a corrected result moves the points,
// a voided game counts for nobody until the next run plays it again, an
// adjudicated game counts with the arbiter's result and is not played; the
// standings written then are those arena standings rebuilds from the
// journal alone. Decisions that fit no game are refused and write nothing.
func TestArbiterDecisionsOnARoundRobin(t *testing.T) {
	cfg := smallEvent(t, "round-robin")
	ev := runEvent(t, cfg)
	folder := ev.Folder()
	games := gamesOf(readJournal(t, folder))
	if len(games) != 3 {
		t.Fatalf("%d games, want 3", len(games))
	}
	lines := func() int { return len(readJournal(t, folder)) }
	before := lines()
	g1 := games[0]
	flipped := map[rules.Color]string{rules.Black: "0-1", rules.White: "1-0", rules.Empty: "1-0"}[g1.Winner]

	// Refused: wrong result, no such game, adjudicating a finished game, no reason.
	for _, bad := range []Ruling{
		{Kind: record.Correct, Game: 1, Result: "2-0", Reason: "typo"},
		{Kind: record.Correct, Game: 99, Result: "1-0", Reason: "no such game"},
		{Kind: record.Adjudicate, Game: 1, Result: "1-0", Reason: "finished already"},
		{Kind: record.Void, Game: 1},
	} {
		if _, err := Decide(folder, bad); err == nil {
			t.Errorf("%+v: accepted", bad)
		}
	}
	if lines() != before {
		t.Fatal("a refused decision was journaled")
	}
	if _, err := os.Stat(filepath.Join(folder, rulings.DecisionFile)); err == nil {
		t.Fatal("a refused decision was written to the request file")
	}

	d, err := Decide(folder, Ruling{Kind: record.Correct, Game: 1, Result: flipped, Reason: "the arbiter saw the clock set wrong", Arbiter: "IA Judge"})
	if err != nil {
		t.Fatal(err)
	}
	if !d.Journaled || d.Line.Round != g1.Round || d.Line.Black != g1.Black || d.Line.White != g1.White {
		t.Fatalf("decision %+v (journaled %v), want game 1's round and entrants", d.Line, d.Journaled)
	}
	recs := readJournal(t, folder)
	last := recs[len(recs)-1]
	if len(recs) != before+1 || last.End != record.Decided || last.Decision.Reason != "the arbiter saw the clock set wrong" || last.Start.IsZero() {
		t.Fatalf("journal's last line %+v, want the decision with its reason and time", last)
	}
	if raw := mustRead(t, filepath.Join(folder, outfolder.JournalFile)); !strings.Contains(raw, fmt.Sprintf(`{"format":%d,`, record.DecisionFormat)) {
		t.Errorf("the decision line is not of format %d", record.DecisionFormat)
	}
	want := pointsByHand(games, map[int]string{1: flipped}, nil)
	if got := standingsPoints(t, folder); !maps(got, want) {
		t.Errorf("after the correction: standings %v, want %v", got, want)
	}
	if !strings.Contains(mustRead(t, filepath.Join(folder, tables.PageFile)), "the arbiter saw the clock set wrong") {
		t.Error("the page does not show the decision's reason")
	}

	// Void game 2: it counts for nobody, then the next run plays it again.
	if _, err := Decide(folder, Ruling{Kind: record.Void, Game: 2, Reason: "power cut at table 1"}); err != nil {
		t.Fatal(err)
	}
	want = pointsByHand(games, map[int]string{1: flipped}, map[int]bool{2: true})
	if got := standingsPoints(t, folder); !maps(got, want) {
		t.Errorf("after the void: standings %v, want %v", got, want)
	}
	// Void game 3, then adjudicate it: not played by the next run.
	if _, err := Decide(folder, Ruling{Kind: record.Void, Game: 3, Reason: "wrong opening"}); err != nil {
		t.Fatal(err)
	}
	if _, err := Decide(folder, Ruling{Kind: record.Adjudicate, Game: 3, Result: "1/2-1/2", Reason: "no time left to replay"}); err != nil {
		t.Fatal(err)
	}
	ev2, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ev2.Run(context.Background(), context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	recs = readJournal(t, folder)
	var replays []int
	for _, r := range recs[before+4:] {
		if r.IsGame() {
			replays = append(replays, r.Game)
		}
	}
	if !slices.Equal(replays, []int{2}) {
		t.Fatalf("the next run played games %v, want the voided game 2 alone", replays)
	}
	replay := recs[len(recs)-1]
	want = pointsByHand([]*record.Record{games[0], replay, games[2]}, map[int]string{1: flipped, 3: "1/2-1/2"}, nil)
	if got := standingsPoints(t, folder); !maps(got, want) {
		t.Errorf("after the replay: standings %v, want %v", got, want)
	}
	// arena standings rebuilds the same files from the journal alone.
	md := mustRead(t, filepath.Join(folder, "standings.md"))
	for _, f := range []string{"standings.md", "standings.json", tables.PageFile} {
		os.Remove(filepath.Join(folder, f))
	}
	if _, err := tables.Rebuild(folder); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, filepath.Join(folder, "standings.md")); got != md {
		t.Errorf("rebuilt standings.md differs:\n%s\nwant\n%s", got, md)
	}
}

func maps(a, b map[string]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// A Swiss whose round-2 result the arbiter corrects pairs round 3 from the
// corrected scores (the pairing computed here from the journal's games,
// the corrected one as the arbiter scored it, with the Dutch system
// directly), and the correction is chosen so that the uncorrected scores
// pair round 3 otherwise.
func TestSwissPairsFromTheCorrectedScore(t *testing.T) {
	dir := t.TempDir()
	src := func(rounds int) string {
		var b strings.Builder
		fmt.Fprintf(&b, "name = \"swiss\"\nrule = \"freestyle\"\nsize = 9\nformat = \"swiss\"\nrounds = %d\noutput = \"out\"\n[clock]\nmatch = \"20s\"\n", rounds)
		for i, e := range []string{"greedy", "random seed=1", "random seed=2", "greedy", "random seed=3", "random seed=4"} {
			f := strings.Fields(e)
			fmt.Fprintf(&b, "[[engine]]\nname = \"e%d\"\ncommand = \"builtin:%s\"\n", i+1, f[0])
			if len(f) > 1 {
				fmt.Fprintf(&b, "args = [%q]\n", f[1])
			}
		}
		return b.String()
	}
	path := writeConfig(t, dir, "swiss", src(2))
	ev := loadEvent(t, path)
	if _, err := ev.Run(context.Background(), context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	folder := ev.Folder()
	games := gamesOf(readJournal(t, folder))
	index := map[string]int{}
	for i := range 6 {
		index[fmt.Sprintf("e%d", i+1)] = i
	}
	// Round 3 as the Dutch system pairs it from the games, game g scored res.
	pairRound3 := func(g int, res string) [][2]int {
		var h []pairing.Game
		for _, r := range games {
			bp, wp := r.Points()
			if r.Game == g {
				bp, wp = map[string][2]float64{"1-0": {1, 0}, "0-1": {0, 1}, "1/2-1/2": {0.5, 0.5}}[res][0], map[string][2]float64{"1-0": {1, 0}, "0-1": {0, 1}, "1/2-1/2": {0.5, 0.5}}[res][1]
			}
			h = append(h, pairing.Game{Round: r.Round, Black: index[r.Black], White: index[r.White], BlackPoints: bp, WhitePoints: wp})
		}
		players := make([]pairing.SwissPlayer, 6)
		for i := range players {
			players[i] = pairing.SwissPlayer{ID: i}
		}
		ps, err := pairing.PairSwiss(players, h, 3, pairing.SwissOptions{Rounds: 3})
		if err != nil {
			t.Fatal(err)
		}
		var out [][2]int
		for _, p := range ps {
			out = append(out, [2]int{min(p.Black, p.White), max(p.Black, p.White)})
		}
		slices.SortFunc(out, func(a, b [2]int) int { return a[0] - b[0] })
		return out
	}
	asPlayed := pairRound3(0, "")
	chosen, result := 0, ""
	for _, g := range games {
		if g.Round != 2 {
			continue
		}
		for _, res := range []string{"1-0", "0-1", "1/2-1/2"} {
			if !slices.Equal(pairRound3(g.Game, res), asPlayed) {
				chosen, result = g.Game, res
			}
		}
	}
	if chosen == 0 {
		t.Skip("no correction of round 2 changes round 3's pairing in this event")
	}
	d, err := Decide(folder, Ruling{Kind: record.Correct, Game: chosen, Result: result, Reason: "scoresheet error"})
	if err != nil {
		t.Fatal(err)
	}
	// event.trf, rewritten at once, holds the corrected result.
	f, err := os.Open(filepath.Join(folder, "event.trf"))
	if err != nil {
		t.Fatal(err)
	}
	trf, err := pairing.ReadTRF(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]float64{"1-0": {1, 0}, "0-1": {0, 1}, "1/2-1/2": {0.5, 0.5}}[result]
	found := false
	for _, g := range trf.Games {
		if g.Round == 2 && g.Black == index[d.Line.Black] && g.White == index[d.Line.White] {
			found = true
			if g.BlackPoints != want[0] || g.WhitePoints != want[1] {
				t.Errorf("event.trf has game %d as %g-%g, want the corrected %s", chosen, g.BlackPoints, g.WhitePoints, result)
			}
		}
	}
	if !found {
		t.Errorf("event.trf has no round-2 game %s vs %s", d.Line.Black, d.Line.White)
	}
	path = writeConfig(t, dir, "swiss", src(3))
	ev3 := loadEvent(t, path)
	ev3.Extend = true
	if _, err := ev3.Run(context.Background(), context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	var got [][2]int
	for _, r := range gamesOf(readJournal(t, folder)) {
		if r.Round == 3 {
			got = append(got, [2]int{min(index[r.Black], index[r.White]), max(index[r.Black], index[r.White])})
		}
	}
	slices.SortFunc(got, func(a, b [2]int) int { return a[0] - b[0] })
	if want := pairRound3(chosen, result); !slices.Equal(got, want) {
		t.Errorf("round 3 paired %v; from the corrected score (game %d: %s) it pairs %v (uncorrected: %v)", got, chosen, result, want, asPlayed)
	}
}

// decideOnFirstGame asks for a decision from inside the running event
// (another process would do the same through the request file) once its
// first game finished.
type decideOnFirstGame struct {
	t      *testing.T
	folder string
	r      Ruling
	done   bool
	got    *Decided
}

func (d *decideOnFirstGame) Observe(u Update) {
	if _, ok := u.(GameFinished); !ok || d.done {
		return
	}
	d.done = true
	var err error
	if d.got, err = Decide(d.folder, d.r); err != nil {
		d.t.Errorf("decide: %v", err)
	}
}

// A game adjudicated while the event runs: the decision waits in the
// request file (the running event holds the folder), the running event
// journals it after its next game, and the game's own play, when it ends,
// is not counted.
func TestAdjudicationReachesTheRunningEvent(t *testing.T) {
	cfg := smallEvent(t, "round-robin")
	ev, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	d := &decideOnFirstGame{t: t, folder: ev.Folder(), r: Ruling{Kind: record.Adjudicate, Game: 3, Result: "1/2-1/2", Reason: "the organizer stopped it"}}
	if _, err := ev.Run(context.Background(), context.Background(), d); err != nil {
		t.Fatal(err)
	}
	if d.got == nil || d.got.Journaled {
		t.Fatalf("decision %+v: want it left to the running event", d.got)
	}
	recs := readJournal(t, ev.Folder())
	decisions, game3 := 0, 0
	for _, r := range recs {
		switch {
		case r.End == record.Decided:
			decisions++
		case r.IsGame() && r.Game == 3:
			game3++
		}
	}
	if decisions != 1 || game3 != 0 {
		t.Errorf("journal: %d decisions and %d records of game 3; want the adjudication alone", decisions, game3)
	}
	ruled := record.Ruled(recs)
	var g3 *record.Record
	for _, r := range ruled {
		if r.IsGame() && r.Game == 3 {
			g3 = r
		}
	}
	if g3 == nil || g3.Winner != rules.Empty || g3.End != record.Adjudicated {
		t.Errorf("game 3 as ruled: %+v", g3)
	}
}

// Arbiters who decide at once, from arenas of their own, each have their
// decision kept and journaled: a decision is read, checked and written
// while no other is (rulings.Hold), so none is written over another, and
// none is left in the request file believing a run will journal it.
func TestDecisionsMadeAtOnceAreAllKept(t *testing.T) {
	ev := runEvent(t, smallEvent(t, "round-robin"))
	folder := ev.Folder()
	games := gamesOf(readJournal(t, folder))
	const n = 12
	errs := make(chan error, n)
	for i := range n {
		g := games[i%len(games)]
		go func() {
			d, err := Decide(folder, Ruling{Kind: record.Correct, Game: g.Game, Result: "1/2-1/2", Reason: fmt.Sprintf("ruling %d", i)})
			if err == nil && !d.Journaled {
				err = fmt.Errorf("ruling %d: left for a run to journal, and no run holds the folder", i)
			}
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	reasons := map[string]bool{}
	for _, rec := range readJournal(t, folder) {
		if rec.Decision != nil {
			reasons[rec.Decision.Reason] = true
		}
	}
	pending, err := rulings.ReadDecisions(filepath.Join(folder, rulings.DecisionFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(reasons) != n || len(pending) != n {
		t.Errorf("%d decisions made at once: %d journaled, %d in the request file", n, len(reasons), len(pending))
	}
}

// Withdrawals asked at once, while the event runs, are all kept, each
// checked with the others in view.
func TestWithdrawalsAskedAtOnceAreAllKept(t *testing.T) {
	cfg := smallEvent(t, "round-robin")
	ev, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	w := &withdrawAtOnce{t: t, folder: ev.Folder(), names: []string{"random", "slow"}}
	if _, err := ev.Run(context.Background(), context.Background(), w); err != nil {
		t.Fatal(err)
	}
	if !w.asked {
		t.Fatal("no game finished")
	}
	asked, err := rulings.ReadWithdrawalRequests(filepath.Join(ev.Folder(), rulings.WithdrawalFile))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, q := range asked {
		names = append(names, q.Engine)
	}
	slices.Sort(names)
	if !slices.Equal(names, w.names) {
		t.Errorf("withdrawals asked at once of %v: the request file holds %v", w.names, names)
	}
}

// withdrawAtOnce asks, once the first game finished, to withdraw each of
// names at the same time, as organizers at two desks would.
type withdrawAtOnce struct {
	t      *testing.T
	folder string
	names  []string
	asked  bool
}

func (w *withdrawAtOnce) Observe(u Update) {
	if _, ok := u.(GameFinished); !ok || w.asked {
		return
	}
	w.asked = true
	errs := make(chan error, len(w.names))
	for _, name := range w.names {
		go func() {
			_, err := rulings.Withdraw(w.folder, name, "asked at the same time")
			errs <- err
		}()
	}
	for range w.names {
		if err := <-errs; err != nil {
			w.t.Errorf("withdraw: %v", err)
		}
	}
}

// adjudicateInPlay adjudicates a game from inside the running event once
// it has moves on the board, and keeps the notices.
type adjudicateInPlay struct {
	t       *testing.T
	folder  string
	r       Ruling
	decided time.Time
	notices []string
}

func (a *adjudicateInPlay) Observe(u Update) {
	switch u := u.(type) {
	case MovePlayed:
		if a.decided.IsZero() && u.Number == a.r.Game && u.Stones >= 2 {
			a.decided = time.Now()
			if d, err := Decide(a.folder, a.r); err != nil || d.Journaled {
				a.t.Errorf("decide: %+v, %v; want it left to the running event", d, err)
			}
		}
	case Notice:
		a.notices = append(a.notices, u.Text)
	}
}

// A game adjudicated while it is played stops: its engines are killed
// within about a second (not when the slow game would have ended, minutes
// later), the adjudication is journaled and the game's play is not.
func TestAGameAdjudicatedInPlayStops(t *testing.T) {
	ev := loadEvent(t, writeConfig(t, t.TempDir(), "slow", `name = "slow"
rule = "freestyle"
format = "round-robin"
output = "out"

[clock]
match = "10m"

[[engine]]
name = "slow1"
command = "builtin:faulty"
args = ["think=3s"]

[[engine]]
name = "slow2"
command = "builtin:faulty"
args = ["think=3s"]
`))
	a := &adjudicateInPlay{t: t, folder: ev.Folder(), r: Ruling{Kind: record.Adjudicate, Game: 1, Result: "1/2-1/2", Reason: "a dead draw"}}
	if _, err := ev.Run(context.Background(), context.Background(), a); err != nil {
		t.Fatal(err)
	}
	if a.decided.IsZero() {
		t.Fatal("game 1 never had two stones")
	}
	if took := time.Since(a.decided); took > 45*time.Second {
		t.Errorf("the run ended %v after the adjudication; the game was not stopped", took)
	}
	var decisions, played int
	for _, r := range readJournal(t, ev.Folder()) {
		switch {
		case r.End == record.Decided:
			decisions++
		case r.IsGame():
			played++
		}
	}
	if decisions != 1 || played != 0 {
		t.Errorf("journal: %d decisions and %d games; want the adjudication alone", decisions, played)
	}
	if !slices.ContainsFunc(a.notices, func(n string) bool { return strings.Contains(n, "stopped: the arbiter adjudicated it") }) {
		t.Errorf("no notice of the stop among %q", a.notices)
	}
}

// A game adjudicated while it is played that ends before the run stops it
// is not counted either: the decisions made during a game are journaled
// before its own record, so the adjudication stands.
func TestAGameAdjudicatedInPlayThatEndsFirstIsNotCounted(t *testing.T) {
	ev := loadEvent(t, writeConfig(t, t.TempDir(), "fast", `name = "fast"
rule = "freestyle"
format = "round-robin"
output = "out"

[clock]
match = "30s"

[[engine]]
name = "greedy"
command = "builtin:greedy"

[[engine]]
name = "random"
command = "builtin:random"
args = ["seed=3"]
`))
	a := &adjudicateInPlay{t: t, folder: ev.Folder(), r: Ruling{Kind: record.Adjudicate, Game: 1, Result: "0-1", Reason: "the hall's clock failed"}}
	if _, err := ev.Run(context.Background(), context.Background(), a); err != nil {
		t.Fatal(err)
	}
	if a.decided.IsZero() {
		t.Fatal("game 1 never had two stones")
	}
	var decisions, played int
	for _, r := range readJournal(t, ev.Folder()) {
		switch {
		case r.End == record.Decided:
			decisions++
		case r.IsGame() && r.Game == 1:
			played++
		}
	}
	if decisions != 1 || played != 0 {
		t.Errorf("journal: %d decisions and %d records of game 1; want the adjudication alone (notices %q)", decisions, played, a.notices)
	}
}
