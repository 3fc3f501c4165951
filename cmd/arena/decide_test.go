package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"gomoku-arena/internal/proctest"
	"gomoku-arena/results/journal"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// The arbiter corrects a game's result while the event runs in another
// process, which is then killed (SIGKILL): the decision, written durably
// before arena decide returned, is journaled once by the resumed run, the
// standings count the corrected result, and arena standings rebuilds the
// same files from the journal alone.
func TestDecisionSurvivesSIGKILLAndResume(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg := writeEvent(t, dir, "decided", "")
	out := filepath.Join(dir, "out")
	journalPath := filepath.Join(out, "journal.jsonl")
	cmd := exec.Command(self, "run", cfg)
	cmd.Env = append(os.Environ(), "ARENA_TEST_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var first *record.Record
	deadline := time.Now().Add(60 * time.Second)
	for first == nil {
		recs, _ := journal.Read(journalPath)
		for _, r := range recs {
			if r.IsGame() && len(recs) < 10 {
				first = r
				break
			}
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no game journaled in time: %s", stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	flipped := map[rules.Color]string{rules.Black: "0-1", rules.White: "1-0", rules.Empty: "1-0"}[first.Winner]
	so, se, code := runArena(t, "decide", out, "correct", strconv.Itoa(first.Game), flipped, "-reason", "wrong clock at table 2", "-arbiter", "IA Test")
	if code != exitOK {
		t.Fatalf("decide: exit %d: %s%s", code, so, se)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	proctest.WaitNoEngines(t, self)
	if _, errOut, code := runArena(t, "run", "-quiet", cfg); code != 0 {
		t.Fatalf("resume: exit %d: %s", code, errOut)
	}
	recs, err := journal.Read(journalPath)
	if err != nil {
		t.Fatal(err)
	}
	var decisions []*record.Record
	points := map[string]float64{}
	for _, r := range recs {
		if r.End == record.Decided {
			decisions = append(decisions, r)
			continue
		}
		res := map[rules.Color]string{rules.Black: "1-0", rules.White: "0-1", rules.Empty: "1/2-1/2"}[r.Winner]
		if r.Game == first.Game {
			res = flipped
		}
		switch res {
		case "1-0":
			points[r.Black]++
		case "0-1":
			points[r.White]++
		default:
			points[r.Black] += 0.5
			points[r.White] += 0.5
		}
	}
	if len(decisions) != 1 || decisions[0].Game != first.Game || decisions[0].Decision.Arbiter != "IA Test" {
		t.Fatalf("decisions journaled: %+v, want the one correction of game %d", decisions, first.Game)
	}
	js, _ := os.ReadFile(filepath.Join(out, "standings.json"))
	page, _ := os.ReadFile(filepath.Join(out, "index.html"))
	for _, f := range []string{"standings.json", "standings.md", "index.html"} {
		os.Remove(filepath.Join(out, f))
	}
	if so, se, code := runArena(t, "standings", out); code != 0 {
		t.Fatalf("standings: exit %d: %s%s", code, so, se)
	}
	js2, _ := os.ReadFile(filepath.Join(out, "standings.json"))
	page2, _ := os.ReadFile(filepath.Join(out, "index.html"))
	if !bytes.Equal(js, js2) || !bytes.Equal(page, page2) {
		t.Errorf("arena standings rebuilt different files from the journal")
	}
	var table struct {
		Standings []struct {
			Name   string  `json:"name"`
			Points float64 `json:"points"`
		} `json:"standings"`
	}
	if err := json.Unmarshal(js2, &table); err != nil {
		t.Fatal(err)
	}
	for _, s := range table.Standings {
		if s.Points != points[s.Name] {
			t.Errorf("standings.json: %s has %g points, want %g (the corrected result counted)", s.Name, s.Points, points[s.Name])
		}
	}
	if len(table.Standings) != len(points) {
		t.Errorf("standings.json has %d entrants, want %d", len(table.Standings), len(points))
	}
	proctest.WaitNoEngines(t, self)
}

// The faulty engine's arguments are listed by arena help engine and by the
// engine itself.
func TestFaultyEngineHelp(t *testing.T) {
	out, errOut, code := runArena(t, "help", "engine")
	if code != exitOK || !bytes.Contains([]byte(out), []byte("crash-at=K")) || !bytes.Contains([]byte(out), []byte("info-error")) {
		t.Errorf("arena help engine: exit %d, no argument list:\n%s%s", code, out, errOut)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "engine", "faulty", "help") // the engine writes to the process's own stdout
	cmd.Env = append(os.Environ(), "ARENA_TEST_MAIN=1")
	b, err := cmd.CombinedOutput()
	if err != nil || !bytes.Contains(b, []byte("crash-at=K")) || !bytes.Contains(b, []byte("info-error")) {
		t.Errorf("arena engine faulty help: %v\n%s", err, b)
	}
}

// arena serve names each folder's page after the folder itself: two
// matches (both called "match" in their event.json) get two names.
func TestServeNamesFoldersAfterThemselves(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var folders []string
	for _, name := range []string{"rapfi-vs-embryo", "rapfi-vs-pentazen"} {
		f := filepath.Join(dir, name)
		os.MkdirAll(f, 0o755)
		ident := `{"format": 1, "kind": "match", "name": "match", "rule": "freestyle", "size": 15, "opening_procedure": "none", "engines": [{"name": "a", "command": "x", "clock": {}}, {"name": "b", "command": "y", "clock": {}}], "match": {"games": 2}}`
		if err := os.WriteFile(filepath.Join(f, "event.json"), []byte(ident), 0o644); err != nil {
			t.Fatal(err)
		}
		folders = append(folders, f)
	}
	cmd := exec.Command(self, append([]string{"serve", "-addr", "127.0.0.1:0"}, folders...)...)
	cmd.Env = append(os.Environ(), "ARENA_TEST_MAIN=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	lines := bufio.NewScanner(out)
	var got []string
	for len(got) < 2 && lines.Scan() {
		got = append(got, lines.Text())
	}
	for i, name := range []string{"rapfi-vs-embryo", "rapfi-vs-pentazen"} {
		if i >= len(got) || !strings.HasSuffix(got[i], ": /e/"+name+"/") {
			t.Errorf("arena serve printed %q; want %s served as /e/%s/ (stderr: %s)", got, folders[i], name, stderr.String())
		}
	}
}
