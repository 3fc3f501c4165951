package event

import (
	"context"
	"gomoku-arena/event/outputs"
	"gomoku-arena/event/tables"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The printable page of an event with the organizer's details: written
// mid-event it says PROVISIONAL and "N of M games"; written at the end it
// says Final, carries the title, venue, dates, chief arbiter and organizer,
// each game's opening stones and the time each side used, and every time
// in the one zone it names. Every game's SGF names the title and venue.
func TestPageIsTheSignedRecord(t *testing.T) {
	dir := t.TempDir()
	src := `name = "cup"
rule = "freestyle"
openings = "openings.txt"
size = 15
format = "double-round-robin"
output = "out"
[clock]
match = "1m"
[details]
title = "First Gomoku Cup, final"
venue = "Prague"
start_date = "2026-11-28"
end_date = "2026-11-29"
chief_arbiter = "IA Jana Nováková"
organizer = "Prague Gomoku Club"
time_zone = "Asia/Tokyo"
[[engine]]
name = "greedy"
command = "builtin:greedy"
[[engine]]
name = "random"
command = "builtin:random"
args = ["seed=3"]
[[engine]]
name = "search"
command = "builtin:faulty"
args = ["think=5ms"]
`
	path := writeConfig(t, dir, "cup", src)
	if err := os.WriteFile(filepath.Join(dir, "openings.txt"), []byte("0,0, 1,1, 2,0\n0,0, -1,1, 1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ev := loadEvent(t, path)
	drain, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := ev.Run(drain, context.Background(), &stopAfter{n: 2, cancel: cancel}); err == nil {
		t.Fatal("the first run was not stopped")
	}
	page := mustRead(t, filepath.Join(ev.Folder(), tables.PageFile))
	if !strings.Contains(page, "PROVISIONAL") || !strings.Contains(page, "2 of 6 games played") {
		t.Errorf("mid-event page is not marked provisional with 2 of 6 games:\n%s", header(page))
	}
	if strings.Contains(page, "Final") {
		t.Error("mid-event page says Final")
	}
	if _, _, err := runObserved(loadEvent(t, path)); err != nil {
		t.Fatal(err)
	}
	page = mustRead(t, filepath.Join(ev.Folder(), tables.PageFile))
	for _, want := range []string{"First Gomoku Cup, final", "Prague", "2026-11-28 to 2026-11-29", "IA Jana Nováková", "Prague Gomoku Club",
		"Final: 6 of 6 games played", "Asia/Tokyo", "1 min per side"} {
		if !strings.Contains(page, want) {
			t.Errorf("final page lacks %q:\n%s", want, header(page))
		}
	}
	if strings.Contains(page, "PROVISIONAL") || strings.Contains(page, "1m0s") || strings.Contains(page, "UTC") {
		t.Errorf("final page says PROVISIONAL, 1m0s or UTC:\n%s", header(page))
	}
	// Every game row: an opening of stones (H8 ...) and a time for each side.
	rows := regexp.MustCompile(`<tr><td class="num">\d+</td><td class="num">\d+</td>.*</tr>`).FindAllString(page, -1)
	if len(rows) != 6 {
		t.Fatalf("%d game rows, want 6", len(rows))
	}
	cell := regexp.MustCompile(`<td>((?:[A-Z]\d+ ?)+)</td><td class="num">\d+</td><td class="num">([0-9.]+ (?:ms|s|min))</td><td class="num">([0-9.]+ (?:ms|s|min))</td>`)
	for _, r := range rows {
		if !cell.MatchString(r) {
			t.Errorf("game row without opening stones or times: %s", r)
		}
	}
	sgfs, _ := filepath.Glob(filepath.Join(ev.Folder(), outputs.GamesDir, "*.sgf"))
	if len(sgfs) != 6 {
		t.Fatalf("%d SGF files", len(sgfs))
	}
	b, _ := os.ReadFile(sgfs[0])
	for _, want := range []string{"EV[First Gomoku Cup, final]", "PC[Prague]", "GC[Chief arbiter: IA Jana Nováková; Organizer: Prague Gomoku Club]"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("SGF lacks %s: %s", want, b)
		}
	}
}

// header is the page up to its standings, for messages.
func header(page string) string {
	if i := strings.Index(page, "<h2>"); i > 0 {
		return page[:i]
	}
	return page
}
