package event

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gomoku-arena/event/identity"
	"gomoku-arena/event/outfolder"
	"gomoku-arena/event/outputs"
	"gomoku-arena/event/rulings"
	"gomoku-arena/event/tables"
	"gomoku-arena/internal/config"
	"gomoku-arena/internal/proctest"
	"gomoku-arena/pairing"
	"gomoku-arena/results/journal"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// End-to-end tests of an event, driven through New and Run and watched
// through a recorder: what the event plays, journals and writes, continued
// or not. What `arena run` prints of it is tested in cmd/arena.

// fourEntrants writes a small deterministic event: the faulty engine plays
// the same moves every time, so an interrupted run and an uninterrupted one
// must end with the same results. 12 games, a crash among them.
func fourEntrants(t *testing.T, dir, name, extra string) string {
	t.Helper()
	return writeConfig(t, dir, name, `name = "`+name+`"
rule = "freestyle"
format = "double-round-robin"
concurrency = 2
output = "out"
`+extra+`
[clock]
match = "30s"

[[engine]]
name = "slow"
command = "builtin:faulty"
args = ["think=40ms"]

[[engine]]
name = "crasher"
command = "builtin:faulty"
args = ["crash-at=4", "think=20ms"]

[[engine]]
name = "greedy"
command = "builtin:greedy"

[[engine]]
name = "slower"
command = "builtin:faulty"
args = ["think=60ms", "spawn-child"]
`)
}

// A config changed under a played event is refused, naming the event as
// another.
func TestChangedConfigIsRefused(t *testing.T) {
	dir := t.TempDir()
	cfg := fourEntrants(t, dir, "changed", "")
	runOK(t, cfg)
	src, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, bytes.Replace(src, []byte(`match = "30s"`), []byte(`match = "20s"`), 1), 0o644)
	obs, _, err := runObserved(loadEvent(t, cfg))
	if err == nil || !strings.Contains(err.Error(), "different event") {
		t.Fatalf("a changed config: %v", err)
	}
	if len(kinds[GameStarted](obs)) != 0 {
		t.Error("the refused event started games")
	}
}

// Every file a run writes is rebuilt from the journal alone (Rebuild,
// what arena standings calls), as the run wrote it.
func TestStandingsRebuildFromTheJournal(t *testing.T) {
	dir := t.TempDir()
	ev, _ := runOK(t, fourEntrants(t, dir, "rebuild", ""))
	out := ev.Folder()
	before, _ := os.ReadFile(filepath.Join(out, "standings.json"))
	page, _ := os.ReadFile(filepath.Join(out, "index.html"))
	os.Remove(filepath.Join(out, "standings.json"))
	os.Remove(filepath.Join(out, "index.html"))
	os.RemoveAll(filepath.Join(out, "games"))
	if _, err := tables.Rebuild(out); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(filepath.Join(out, "standings.json"))
	if !bytes.Equal(before, after) {
		t.Errorf("rebuilt standings differ:\n%s\n%s", before, after)
	}
	sgfs, _ := filepath.Glob(filepath.Join(out, "games", "*.sgf"))
	if len(sgfs) != 12 {
		t.Errorf("%d SGF files rebuilt, want 12", len(sgfs))
	}
	if !json.Valid(after) {
		t.Errorf("rebuilt standings.json is not JSON:\n%s", after)
	}
	if rebuilt, err := os.ReadFile(filepath.Join(out, "index.html")); err != nil || len(page) == 0 || !bytes.Equal(page, rebuilt) {
		t.Errorf("index.html not rebuilt as the run wrote it (%v):\n%s\n---\n%s", err, page, rebuilt)
	}
}

// Thirteen entrants make "auto" a Swiss of 11 rounds: the event must run to
// its end, byes and all, and leave a TRF that pairs like the event did.
func TestThirteenEntrantsPlayAnElevenRoundSwiss(t *testing.T) {
	if testing.Short() {
		t.Skip("66 games")
	}
	dir := t.TempDir()
	src := "name = \"swiss13\"\nrule = \"freestyle\"\nformat = \"auto\"\nconcurrency = 2\noutput = \"out\"\n[clock]\nmatch = \"30s\"\n"
	for i := 0; i < 13; i++ {
		cmd, args := "builtin:random", fmt.Sprintf(`["seed=%d"]`, i+1)
		if i%3 == 0 {
			cmd, args = "builtin:greedy", "[]"
		}
		src += fmt.Sprintf("[[engine]]\nname = \"e%02d\"\ncommand = %q\nargs = %s\n", i+1, cmd, args)
	}
	ev, obs := runOK(t, writeConfig(t, dir, "swiss13", src))
	recs := readJournal(t, ev.Folder())
	games, byes := 0, map[string]int{}
	rounds := map[int]bool{}
	for _, r := range recs {
		rounds[r.Round] = true
		if r.End == record.ByeEnd {
			byes[r.Black]++
			continue
		}
		games++
	}
	if len(rounds) != 11 || games != 66 || len(byes) != 11 {
		t.Errorf("%d rounds, %d games, %d entrants with a bye; want 11, 66, 11", len(rounds), games, len(byes))
	}
	if n := len(obs.finished()); n != 66 {
		t.Errorf("%d games finished, want 66", n)
	}
	for name, n := range byes {
		if n > 1 {
			t.Errorf("%s had %d byes", name, n)
		}
	}
	f, err := os.Open(filepath.Join(ev.Folder(), "event.trf"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	trf, err := pairing.ReadTRF(f)
	if err != nil {
		t.Fatalf("the event's TRF does not read back: %v", err)
	}
	if len(trf.Players) != 13 || len(trf.Games) != 66+11 || trf.Rounds != 11 {
		t.Errorf("TRF: %d players, %d games and byes, %d rounds", len(trf.Players), len(trf.Games), trf.Rounds)
	}
}

// More Swiss rounds need Extend; fewer are refused. The continued run
// starts from the games already played.
func TestExtendingASwiss(t *testing.T) {
	dir := t.TempDir()
	write := func(rounds int) string {
		src := fmt.Sprintf("name = \"ext\"\nrule = \"freestyle\"\nformat = \"swiss\"\nrounds = %d\noutput = \"out\"\n[clock]\nmatch = \"30s\"\n", rounds)
		for i := 0; i < 5; i++ {
			src += fmt.Sprintf("[[engine]]\nname = \"r%d\"\ncommand = \"builtin:random\"\nargs = [\"seed=%d\"]\n", i, i+1)
		}
		return writeConfig(t, dir, "ext", src)
	}
	runOK(t, write(2))
	if _, _, err := runObserved(loadEvent(t, write(3))); err == nil || !strings.Contains(err.Error(), "-extend") {
		t.Fatalf("3 rounds without Extend: %v", err)
	}
	ev := loadEvent(t, write(3))
	ev.Extend = true
	obs, _, err := runObserved(ev)
	if err != nil {
		t.Fatalf("3 rounds with Extend: %v", err)
	}
	if b := kinds[Began](obs); len(b) != 1 || b[0].Finished != 4 || b[0].Total != 6 {
		t.Errorf("extended run began with %+v, want 4 of 6 games finished", b)
	}
	if n := len(obs.finished()); n != 2 {
		t.Errorf("the extension played %d games, want the third round's 2", n)
	}
	if recs := readJournal(t, ev.Folder()); len(recs) != 3*3 { // 5 entrants: 2 games and a bye a round
		t.Errorf("%d records after extending to 3 rounds, want 9", len(recs))
	}
	if _, _, err := runObserved(loadEvent(t, write(2))); err == nil || !strings.Contains(err.Error(), "cannot shrink") {
		t.Fatalf("back to 2 rounds: %v", err)
	}
}

// A continued run checks the journal before it writes anything: a journal
// whose game has its colours exchanged is refused, and the folder's
// event.json is not rewritten for the extension asked (nor any other file
// derived from the journal), so the folder stays as it was.
func TestResumeWritesNothingItRefuses(t *testing.T) {
	dir := t.TempDir()
	write := func(rounds int) string {
		src := fmt.Sprintf("name = \"ext\"\nrule = \"freestyle\"\nformat = \"swiss\"\nrounds = %d\noutput = \"out\"\n[clock]\nmatch = \"30s\"\n", rounds)
		for i := 0; i < 5; i++ {
			src += fmt.Sprintf("[[engine]]\nname = \"r%d\"\ncommand = \"builtin:random\"\nargs = [\"seed=%d\"]\n", i, i+1)
		}
		return writeConfig(t, dir, "ext", src)
	}
	ev, _ := runOK(t, write(2))
	out := ev.Folder()
	path := filepath.Join(out, outfolder.JournalFile)
	b, _ := os.ReadFile(path)
	var lines []string
	forged := false
	for _, l := range strings.SplitAfter(string(b), "\n") {
		var m map[string]any
		if !forged && json.Unmarshal([]byte(l), &m) == nil && m["end"] != "bye" {
			m["black"], m["white"] = m["white"], m["black"]
			delete(m, "black_about")
			delete(m, "white_about")
			nb, _ := json.Marshal(m)
			l, forged = string(nb)+"\n", true
		}
		lines = append(lines, l)
	}
	os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644)
	os.RemoveAll(filepath.Join(out, outputs.GamesDir))
	before, _ := os.ReadFile(filepath.Join(out, identity.File))
	ev = loadEvent(t, write(3))
	ev.Extend = true
	if _, _, err := runObserved(ev); err == nil || !strings.Contains(err.Error(), "the schedule has game") {
		t.Fatalf("a forged journal continued: %v", err)
	}
	if after, _ := os.ReadFile(filepath.Join(out, identity.File)); string(after) != string(before) {
		t.Errorf("the refused run rewrote event.json:\n%s\nwas\n%s", after, before)
	}
	if _, err := os.Lstat(filepath.Join(out, outputs.GamesDir)); err == nil {
		t.Errorf("the refused run wrote game files from the refused journal")
	}
	// Nor is a withdrawal requested, or a rating list made, beside it.
	if _, err := rulings.Withdraw(out, "r1", "asked"); err == nil || !strings.Contains(err.Error(), "the schedule has game") {
		t.Errorf("a withdrawal requested beside a forged journal: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(out, rulings.WithdrawalFile)); err == nil {
		t.Errorf("the refused withdrawal wrote its request")
	}
	if _, err := GatherRatedGames([]string{out}); err == nil || !strings.Contains(err.Error(), "the schedule has game") {
		t.Errorf("a forged journal rated: %v", err)
	}
}

// An engine's own words are kept: its protocol transcript when the event
// asks for one, and the last stderr lines of a crash in the record (the
// game line printing them is tested in cmd/arena).
func TestRunKeepsTranscriptsAndLastWords(t *testing.T) {
	dir := t.TempDir()
	ev, obs := runOK(t, writeConfig(t, dir, "words", `rule = "freestyle"
format = "double-round-robin"
output = "out"
transcript = "4KiB"
[clock]
match = "30s"
[[engine]]
name = "greedy"
command = "builtin:greedy"
[[engine]]
name = "asserter"
command = "builtin:faulty"
args = ["assert-at=3"]
`))
	const last = "faulty: engine.c:42: brain_turn: Assertion `move 3 < 0' failed."
	recs := readJournal(t, ev.Folder())
	if len(recs) != 2 {
		t.Fatalf("journal: %d records", len(recs))
	}
	for _, r := range append(recs, obs.finished()...) {
		// The assertion's abort is exit status 134: the engine waits for a
		// status after the output ends (engine/engine.go exitStatusWait).
		if r.End != record.Crash || r.Detail != "exit status 134" ||
			len(r.Stderr) == 0 || r.Stderr[len(r.Stderr)-1] != last {
			t.Errorf("game %d: %s (%s), stderr %q", r.Game, r.End, r.Detail, r.Stderr)
		}
	}
	for name, want := range map[string][]string{
		"greedy":   {"greedy[", "] -> START 15\n", "] <- OK\n", "] -> END\n"},
		"asserter": {"asserter[", "] -> START 15\n", "] <- 7,7\n"},
	} {
		b, err := os.ReadFile(filepath.Join(ev.Folder(), "transcripts", name+".log"))
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !strings.Contains(string(b), w) {
				t.Errorf("%s's transcript has no %q:\n%s", name, w, b)
			}
		}
	}
}

// One name, one file: engines named "x y" and "x  y" shared one
// transcript (issue 27); each now has its own, holding only its lines.
// Names that do map to one file are refused when the event is made,
// naming both (a match's engines: TestMatchNamesOfOneFolderAreRefused).
func TestNamesApartHaveFilesApart(t *testing.T) {
	dir := t.TempDir()
	src := `rule = "freestyle"
format = "round-robin"
output = "out"
transcript = "4KiB"
[clock]
match = "30s"
[[engine]]
name = "x y"
command = "builtin:greedy"
[[engine]]
name = "x  y"
command = "builtin:random"
`
	ev, _ := runOK(t, writeConfig(t, dir, "names", src))
	files, _ := filepath.Glob(filepath.Join(ev.Folder(), "transcripts", "*.log"))
	if len(files) != 2 {
		t.Fatalf("transcripts: %v, want one per engine", files)
	}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		one, two := strings.Count(string(b), "x y["), strings.Count(string(b), "x  y[")
		if (one == 0) == (two == 0) {
			t.Errorf("%s holds lines of %d and %d engines' processes: %q and %q", f, one, two, "x y", "x  y")
		}
	}
	cfg, err := config.Load(writeConfig(t, dir, "names", strings.Replace(src, `name = "x  y"`, `name = "x_y"`, 1)))
	if err == nil {
		_, err = New(cfg)
	}
	if err == nil || !strings.Contains(err.Error(), `engine "x_y" would share the working folder "x_y" and transcript "x_y.log" with engine 1 ("x y")`) {
		t.Errorf("two names of one file: %v", err)
	}
}

// A finished journal of a real event, edited by hand, is refused by a
// continued run and by Rebuild (arena standings), each naming the line
// (issue 11), and left as it is.
func TestEditedJournalIsRefused(t *testing.T) {
	dir := t.TempDir()
	cfg := fourEntrants(t, dir, "edited", "")
	ev, _ := runOK(t, cfg)
	out := ev.Folder()
	journalPath := filepath.Join(out, outfolder.JournalFile)
	orig, err := os.ReadFile(journalPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(orig), "\n")
	lines = lines[:len(lines)-1] // after the last newline
	// The first game won by a five, on neither the first nor the last
	// line (which game ends first depends on the machine's load): its
	// result can be replayed.
	five := -1
	for i, l := range lines {
		if rec := decodeLine(t, l); rec.End == record.Five && five < 0 && i > 0 && i < len(lines)-1 {
			five = i
		}
	}
	if five < 1 || five == len(lines)-1 {
		t.Fatalf("want a five that is neither the first nor the last line, have it at %d of %d", five, len(lines))
	}
	edit := func(i int, f func(*record.Record)) []string {
		rec := decodeLine(t, lines[i])
		f(rec)
		b, _ := json.Marshal(rec)
		l := append([]string(nil), lines...)
		l[i] = string(b) + "\n"
		return l
	}
	cases := []struct {
		name  string
		lines []string
		want  string
	}{
		{"winner swapped", edit(five, func(r *record.Record) { r.Winner = r.Winner.Opponent() }),
			fmt.Sprintf("journal.jsonl:%d: game ", five+1)},
		// Consistent by itself, but the schedule knows who had Black
		// (issue 27): the win would move to the other entrant.
		{"colours exchanged", edit(five, func(r *record.Record) {
			r.Black, r.White, r.BlackAbout, r.WhiteAbout = r.White, r.Black, r.WhiteAbout, r.BlackAbout
		}), fmt.Sprintf("game %d (%s vs %s): the schedule has game %[1]d as %[3]s (black) vs %[2]s (white)",
			decodeLine(t, lines[five]).Game, decodeLine(t, lines[five]).White, decodeLine(t, lines[five]).Black)},
		{"a time loss for the side that made five", edit(five, func(r *record.Record) { r.Winner, r.End = r.Winner.Opponent(), record.Time }),
			fmt.Sprintf("journal.jsonl:%d: ", five+1)},
		{"a middle line cut", append(append(append([]string(nil), lines[:2]...), lines[2][:len(lines[2])/2]+"\n"), lines[3:]...),
			"journal.jsonl:3: "},
		{"a line duplicated", append(append([]string(nil), lines...), lines[1]),
			fmt.Sprintf("journal.jsonl:%d: game %d is already journaled at line 2", len(lines)+1, decodeLine(t, lines[1]).Game)},
		{"the winning stone moved", edit(five, func(r *record.Record) {
			last := &r.Moves[len(r.Moves)-1]
			for y := 0; ; y++ { // the first empty point from the top left
				p := rules.Point{X: 0, Y: y}
				if !occupies(r, p) {
					last.Point = p
					break
				}
			}
		}), fmt.Sprintf("journal.jsonl:%d: ", five+1)},
		{"a stone moved onto another", edit(five, func(r *record.Record) { r.Moves[3].Point = r.Moves[0].Point }),
			fmt.Sprintf("journal.jsonl:%d: game %d (", five+1, decodeLine(t, lines[five]).Game)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			edited := strings.Join(tc.lines, "")
			if err := os.WriteFile(journalPath, []byte(edited), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := tables.Rebuild(out); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Rebuild: %v\nwant an error containing %q", err, tc.want)
			}
			obs, _, err := runObserved(loadEvent(t, cfg))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Run: %v\nwant an error containing %q", err, tc.want)
			}
			if n := len(kinds[GameStarted](obs)); n != 0 {
				t.Errorf("a refused journal's event started %d games", n)
			}
			if after, _ := os.ReadFile(journalPath); !bytes.Equal(after, []byte(edited)) {
				t.Error("a refused journal was changed")
			}
		})
	}
	os.WriteFile(journalPath, orig, 0o644)
	if _, err := tables.Rebuild(out); err != nil {
		t.Fatalf("the journal as the event wrote it is refused: %v", err)
	}
}

func decodeLine(t *testing.T, line string) *record.Record {
	t.Helper()
	rec := new(record.Record)
	if err := json.Unmarshal([]byte(line), rec); err != nil {
		t.Fatal(err)
	}
	return rec
}

func occupies(r *record.Record, p rules.Point) bool {
	for _, m := range r.Moves {
		if m.Point == p {
			return true
		}
	}
	return false
}

// An output folder that cannot be made is an error naming it, before any
// game.
func TestUnwritableOutputFolderIsAnError(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "file"), []byte("x"), 0o644)
	// A folder below a file can be made by nobody, root included.
	cfg := fourEntrants(t, dir, "unwritable", "")
	src, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, bytes.Replace(src, []byte(`output = "out"`), []byte(`output = "file/out"`), 1), 0o644)
	obs, rep, err := runObserved(loadEvent(t, cfg))
	if err == nil || !strings.Contains(err.Error(), "output folder") || !strings.Contains(err.Error(), "not a directory") || rep != nil {
		t.Fatalf("run: %v (report %v)", err, rep != nil)
	}
	if n := len(kinds[Began](obs)); n != 0 {
		t.Errorf("the event began %d times without a folder", n)
	}
}

// A journal cut in the middle of its last line, as a power loss would,
// is repaired on resume: the finished games' lines stay as they were and
// the cut game is played again.
func TestTornJournalLineIsRepaired(t *testing.T) {
	dir := t.TempDir()
	cfg := fourEntrants(t, dir, "torn", "")
	ev, _ := runOK(t, cfg)
	journalPath := filepath.Join(ev.Folder(), outfolder.JournalFile)
	b, _ := os.ReadFile(journalPath)
	last := bytes.LastIndexByte(b[:len(b)-1], '\n') + 1
	os.WriteFile(journalPath, b[:last+(len(b)-last)/2], 0o644) // half of the last game's line
	if recs, err := journal.Read(journalPath); err != nil || len(recs) != 11 {
		t.Fatalf("torn journal: %d records, %v", len(recs), err)
	}
	_, obs := runOK(t, cfg)
	if b := kinds[Began](obs); b[0].Finished != 11 || len(b[0].Done) != 11 {
		t.Errorf("resumed with %d games finished (%d records), want 11", b[0].Finished, len(b[0].Done))
	}
	if n := len(obs.finished()); n != 1 {
		t.Errorf("the resumed run played %d games, want the torn one", n)
	}
	recs, err := journal.Read(journalPath)
	if err != nil || len(recs) != 12 {
		t.Fatalf("repaired journal: %d records, %v", len(recs), err)
	}
	if a, _ := os.ReadFile(journalPath); !bytes.Equal(a[:last], b[:last]) || a[len(a)-1] != '\n' {
		t.Errorf("the finished games' lines changed, or the journal does not end a line")
	}
}

// An event stopped while it plays, first by drain (no new games: those in
// progress finish) and then, continued, by abort (those in progress stop
// too), journals every game it announced and no other, leaves no engine
// running, and a third run finishes it with every game once.
func TestStoppedEventContinues(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cfg := fourEntrants(t, t.TempDir(), "stopped", "")
	stopAfter := func(stop string, n int) (*Event, *recorder) {
		ev := loadEvent(t, cfg)
		obs := newRecorder()
		drain, stopDrain := context.WithCancel(context.Background())
		abort, stopAbort := context.WithCancel(context.Background())
		defer stopDrain()
		defer stopAbort()
		ran := make(chan error, 1)
		go func() {
			_, err := ev.Run(drain, abort, obs)
			ran <- err
		}()
		wait, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		waitFor[GameFinished](t, wait, obs, n)
		stopDrain()
		if stop == "abort" {
			stopAbort()
		}
		if err := <-ran; err == nil || !strings.Contains(err.Error(), "stopped") {
			t.Fatalf("%s: Run returned %v, want it stopped", stop, err)
		}
		proctest.WaitNoEngines(t, self)
		recs := gamesOf(readJournal(t, ev.Folder()))
		began := kinds[Began](obs)
		if len(recs) != len(gamesOf(began[0].Done))+len(obs.finished()) || len(recs) >= 12 {
			t.Errorf("%s: the journal holds %d games; %d were done and %d announced", stop, len(recs), len(gamesOf(began[0].Done)), len(obs.finished()))
		}
		return ev, obs
	}
	_, drained := stopAfter("drain", 2)
	_, aborted := stopAfter("abort", 2)
	if b := kinds[Began](aborted)[0]; b.Finished != len(drained.finished()) {
		t.Errorf("the continued run began with %d games finished, the drained run had finished %d", b.Finished, len(drained.finished()))
	}
	ev, _ := runOK(t, cfg)
	recs := readJournal(t, ev.Folder())
	seen := map[[2]int]int{}
	for _, r := range recs {
		seen[[2]int{r.Round, r.Game}]++
	}
	for k, n := range seen {
		if n != 1 {
			t.Errorf("round %d game %d journaled %d times", k[0], k[1], n)
		}
	}
	if len(recs) != 12 {
		t.Errorf("%d records, want the 12 games of a 4-entrant double round robin", len(recs))
	}
	proctest.WaitNoEngines(t, self)
}

// withdrawOnFirstGame requests, when the first game of the event finishes,
// the withdrawal of engine: before the next round is paired, since the
// event waits for its observer.
type withdrawOnFirstGame struct {
	*recorder
	t              *testing.T
	folder, engine string
}

func (w withdrawOnFirstGame) Observe(u Update) {
	if _, ok := u.(GameFinished); ok && len(w.finished()) == 0 {
		if err := rulings.RequestWithdrawal(filepath.Join(w.folder, rulings.WithdrawalFile), w.engine, "asked"); err != nil {
			w.t.Error(err)
		}
	}
	w.recorder.Observe(u)
}

// The organizer withdraws an entrant from a running Swiss (arena withdraw
// writes the request): it is withdrawn before the next round, journaled
// as such once, never paired again, and the event says it now has fewer
// games (Replanned).
func TestOrganizerWithdrawsFromARunningSwiss(t *testing.T) {
	src := "name = \"w\"\nrule = \"freestyle\"\nsize = 9\nformat = \"swiss\"\nrounds = 3\noutput = \"out\"\n[clock]\nmatch = \"20s\"\n"
	for i, name := range []string{"a", "b", "c", "d"} {
		src += fmt.Sprintf("[[engine]]\nname = %q\ncommand = \"builtin:random\"\nargs = [\"seed=%d\"]\n", name, i+1)
	}
	ev := loadEvent(t, writeConfig(t, t.TempDir(), "w", src))
	obs := withdrawOnFirstGame{recorder: newRecorder(), t: t, folder: ev.Folder(), engine: "d"}
	if _, err := ev.Run(context.Background(), context.Background(), obs); err != nil {
		t.Fatal(err)
	}
	if b := kinds[Began](obs.recorder); len(b) != 1 || b[0].Total != 6 {
		t.Errorf("began %+v, want 6 games: 4 entrants, 3 rounds", b)
	}
	if r := kinds[Replanned](obs.recorder); len(r) != 1 || r[0].Total != 4 {
		t.Errorf("replanned %+v, want once to 4 games: a game and a bye in each round after the withdrawal", r)
	}
	recs := readJournal(t, ev.Folder())
	withdrawals := 0
	for _, r := range recs {
		switch {
		case r.End == record.Withdrawn:
			withdrawals++
			if r.Black != "d" || r.Round != 2 {
				t.Errorf("withdrawal of %s in round %d, want d before round 2", r.Black, r.Round)
			}
		case r.Round > 1 && (r.Black == "d" || r.White == "d"):
			t.Errorf("d, withdrawn, plays in round %d: %s vs %s (%s)", r.Round, r.Black, r.White, r.End)
		}
	}
	if withdrawals != 1 || len(gamesOf(recs)) != 4 || len(obs.finished()) != 4 {
		t.Errorf("%d withdrawals, %d games journaled, %d announced; want 1, 4, 4", withdrawals, len(gamesOf(recs)), len(obs.finished()))
	}
}
