package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"gomoku-arena/event"
	"gomoku-arena/results/rating"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
	"gomoku-arena/schedule"
)

// gameRE is the per-game line as the README documents it.
var gameRE = regexp.MustCompile(`^game (\d+)  (?:round (\d+)  )?(\S(?:.*?\S)?) vs (\S(?:.*?\S)?)  (1-0|0-1|1/2-1/2)  ([a-z ]+)(?:: (.+))?  (\d+) moves  (\d+(?:\.\d+)? (?:ms|s|min|h)(?: \d+ (?:s|min))?)$`)

// The per-game line and the stats line are what the README promises scripts
// can parse: pinned here, field for field.
func TestLinesGolden(t *testing.T) {
	start := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	moves := func(n int) []record.Move { return make([]record.Move, n) }
	var b strings.Builder
	for _, rec := range []*record.Record{
		{Game: 1, Round: 3, Black: "alpha", White: "beta", Winner: rules.Black, End: record.Five, Moves: moves(23), Start: start, Finish: start.Add(4200 * time.Millisecond)},
		{Game: 12, Black: "beta", White: "alpha", Winner: rules.White, End: record.Time, Detail: "no move within\n 1s", Moves: moves(40), Start: start, Finish: start.Add(61 * time.Second)},
		{Game: 7, Round: 1, Black: "a", White: "b", End: record.MoveCap, Detail: "6 stones", Moves: moves(6), Start: start, Finish: start},
	} {
		b.WriteString(gameLine(rec) + "\n")
	}
	p := namedPlan(t, true, nil, "new", "old")
	encounter := func(wdl rating.WDL, penta rating.Pentanomial) *schedule.Encounter {
		return &schedule.Encounter{First: 0, Second: 1, WDL: wdl, Penta: penta}
	}
	for _, e := range []*schedule.Encounter{
		encounter(rating.WDL{W: 13, D: 3, L: 4}, rating.Pentanomial{0, 0, 4, 3, 3}),
		encounter(rating.WDL{W: 1, L: 1}, rating.Pentanomial{0, 0, 1, 0, 0}), // one pair: no interval
		encounter(rating.WDL{D: 2}, rating.Pentanomial{0, 0, 1, 0, 0}),
		encounter(rating.WDL{W: 1, D: 1}, rating.Pentanomial{0, 0, 0, 1, 0}),
		encounter(rating.WDL{W: 6}, rating.Pentanomial{0, 0, 0, 0, 3}), // a sweep
		encounter(rating.WDL{W: 3, D: 1}, rating.Pentanomial{}),        // no pair finished yet: over games
	} {
		b.WriteString(p.statsLine(e) + "\n")
	}
	p = namedPlan(t, true, &rating.SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: rating.ModelNormalized}, "new", "old")
	b.WriteString(p.statsLine(encounter(rating.WDL{W: 13, D: 3, L: 4}, rating.Pentanomial{0, 0, 4, 3, 3})) + "\n")
	got := b.String()
	golden(t, "lines.golden", []byte(got))
	for _, line := range strings.Split(strings.TrimSpace(got), "\n") {
		re := gameRE
		if strings.HasPrefix(line, "stats") {
			re = statsRE
		}
		if !re.MatchString(line) {
			t.Errorf("not in the documented form: %q", line)
		}
	}
}

// The summary counts drawn games as draws; the share of level pairs is
// labelled as that.
func TestSummaryDrawsAreGames(t *testing.T) {
	p := namedPlan(t, true, nil, "new", "old")
	// 41 pairs, 24 of them level (22 WL, 2 DD-ish): =2 drawn games of 82.
	e := &schedule.Encounter{First: 0, Second: 1, WDL: rating.WDL{W: 42, D: 2, L: 38}, Penta: rating.Pentanomial{8, 1, 24, 1, 7}}
	var b bytes.Buffer
	p.summary(&b, []*schedule.Encounter{e}, "")
	out := b.String()
	for _, want := range []string{"=2 -38)", "draws 2.4%", "level pairs 58.5%"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

// Under an SPRT the game count is only a cap: the status line shows no time
// left computed from it (it showed 12 hours for a match that stopped at 69).
func TestStatusLineUnderSPRTHasNoETA(t *testing.T) {
	for _, capped := range []bool{false, true} {
		var b bytes.Buffer
		now := time.Now()
		tm := &terminal{plain: plain{w: &b}, describe: func(event.GameStarted) string { return "" },
			now: func() time.Time { return now }, running: map[gameKey]*inPlay{}}
		tm.Observe(event.Began{Total: 100000, Capped: capped})
		now = now.Add(time.Minute)
		tm.done = 60
		tm.status()
		if eta := strings.Contains(b.String(), "ETA"); eta == capped {
			t.Errorf("capped %v: %q", capped, b.String())
		}
		if capped && !strings.Contains(b.String(), "60 finished (SPRT, at most 100000)") {
			t.Errorf("%q", b.String())
		}
	}
}
