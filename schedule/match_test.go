package schedule

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"gomoku-arena/arbiter"
	"gomoku-arena/engine"
	"gomoku-arena/internal/bounds"
	"gomoku-arena/results/rating"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// paperMatch is a match that is only scheduled and counted, never played.
func paperMatch(engines, games int) *Match {
	d := &arbiter.Director{Size: 15, Concurrency: 1}
	for i := 0; i < engines; i++ {
		d.Entrants = append(d.Entrants, arbiter.Entrant{Spec: engine.Spec{Name: string(rune('a' + i))}})
	}
	return &Match{Director: d, Games: games, Rounds: 1, Suite: Suite{Pairs: true}}
}

// finished is the record of fixture n won by the given colour (rules.Empty
// for a draw), ended as end.
func finished(m *Match, n int, winner rules.Color, end record.Termination) *record.Record {
	f := m.fixtures[n-1]
	return &record.Record{Game: n, Size: m.Director.Size, Black: m.Director.Entrants[f.Black].Spec.Name, White: m.Director.Entrants[f.White].Spec.Name, Winner: winner, End: end}
}

func TestMatchSchedule(t *testing.T) {
	tests := []struct {
		name     string
		engines  int
		games    int
		rounds   int
		gauntlet bool
		encs     [][2]int
		fixtures [][2]int // black, white
	}{
		{"two engines, colours alternate", 2, 3, 1, false, [][2]int{{0, 1}},
			[][2]int{{0, 1}, {1, 0}, {0, 1}}},
		{"round robin", 3, 2, 1, false, [][2]int{{0, 1}, {0, 2}, {1, 2}},
			[][2]int{{0, 1}, {1, 0}, {0, 2}, {2, 0}, {1, 2}, {2, 1}}},
		{"gauntlet", 3, 1, 1, true, [][2]int{{0, 1}, {0, 2}},
			[][2]int{{0, 1}, {0, 2}}},
		{"rounds continue the colour alternation", 2, 1, 2, false, [][2]int{{0, 1}},
			[][2]int{{0, 1}, {1, 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := paperMatch(tt.engines, tt.games)
			m.Rounds, m.Gauntlet = tt.rounds, tt.gauntlet
			encs, fixtures := m.Schedule()
			var gotEncs, gotFixtures [][2]int
			for _, e := range encs {
				gotEncs = append(gotEncs, [2]int{e.First, e.Second})
			}
			for i, f := range fixtures {
				if f.Number != i+1 {
					t.Errorf("fixture %d numbered %d", i+1, f.Number)
				}
				gotFixtures = append(gotFixtures, [2]int{f.Black, f.White})
			}
			if !reflect.DeepEqual(gotEncs, tt.encs) || !reflect.DeepEqual(gotFixtures, tt.fixtures) {
				t.Errorf("encounters %v fixtures %v; want %v and %v", gotEncs, gotFixtures, tt.encs, tt.fixtures)
			}
		})
	}
}

// Every encounter plays the same openings, and a pair's two games share one.
func TestMatchScheduleSharesOpenings(t *testing.T) {
	m := paperMatch(3, 4)
	m.Suite.Openings = []rules.Opening{{Stones: []rules.Point{{X: 7, Y: 7}}}, {Stones: []rules.Point{{X: 3, Y: 3}}}}
	_, fixtures := m.Schedule()
	var got []int
	for _, f := range fixtures {
		got = append(got, f.Opening[0].X)
	}
	want := []int{7, 7, 3, 3, 7, 7, 3, 3, 7, 7, 3, 3}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("openings %v, want %v", got, want)
	}
}

// The tally is the first engine's, whichever colour it had, and a pair is
// counted when its second game finishes, in whatever order games finish.
func TestMatchCountsPairsOutOfOrder(t *testing.T) {
	m := paperMatch(2, 6)
	encs, _ := m.Schedule()
	// Game 1: a (Black) wins. Game 2: a (White) wins. Game 3: draw.
	// Game 4: a (White) loses. Games 5 and 6: a loses both.
	order := []struct {
		n      int
		winner rules.Color
		score  float64
	}{{2, rules.White, 1}, {4, rules.Black, 0}, {5, rules.White, 0}, {1, rules.Black, 1}, {3, rules.Empty, 0.5}, {6, rules.Black, 0}}
	for i, o := range order {
		g := m.count(finished(m, o.n, o.winner, record.Five))
		if g.Score != o.score || g.Played != i+1 || g.Encounter != encs[0] {
			t.Errorf("game %d: score %v played %d; want %v and %d", o.n, g.Score, g.Played, o.score, i+1)
		}
	}
	e := encs[0]
	if want := (rating.WDL{W: 2, D: 1, L: 3}); e.WDL != want {
		t.Errorf("WDL %+v, want %+v", e.WDL, want)
	}
	if want := (rating.Pentanomial{rating.PairLL: 1, rating.PairLD: 1, rating.PairWW: 1}); e.Penta != want {
		t.Errorf("pentanomial %v, want %v", e.Penta, want)
	}
	if e.Points() != 2.5 || m.Played() != 6 {
		t.Errorf("points %v played %d", e.Points(), m.Played())
	}
}

// After Swap2 or the RIF opening the record may give the entrants the
// colours the other way round from the fixture: the score follows the
// engine, not the fixture's colour.
func TestMatchCountsSwappedColours(t *testing.T) {
	m := paperMatch(2, 2)
	encs, _ := m.Schedule()
	rec := finished(m, 1, rules.Black, record.Five)
	rec.Black, rec.White = rec.White, rec.Black // the procedure swapped them
	if g := m.count(rec); g.Score != 0 {
		t.Errorf("the first entrant lost with White after a swap, scored %v", g.Score)
	}
	if encs[0].WDL != (rating.WDL{L: 1}) {
		t.Errorf("WDL %+v", encs[0].WDL)
	}
}

func TestMatchWithoutPairsCountsNoPentanomial(t *testing.T) {
	m := paperMatch(2, 2)
	m.Suite.Pairs = false
	encs, _ := m.Schedule()
	m.count(finished(m, 1, rules.Black, record.Five))
	m.count(finished(m, 2, rules.Black, record.Five))
	if e := encs[0]; e.Penta.Pairs() != 0 || e.WDL != (rating.WDL{W: 1, L: 1}) || e.Stats().Pairs != 0 {
		t.Errorf("encounter %+v", e)
	}
}

// The SPRT decides once; later games of the encounter do not decide again.
func TestMatchSPRTDecidesOnce(t *testing.T) {
	m := paperMatch(2, 100)
	m.SPRT = &rating.SPRT{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05, Model: rating.ModelTrinomial}
	encs, _ := m.Schedule()
	decided := 0
	for n := 1; n <= 100; n++ {
		f := m.fixtures[n-1]
		winner := rules.Black
		if f.White == 0 {
			winner = rules.White
		}
		if m.count(finished(m, n, winner, record.Five)).Decided {
			decided++
			if n < 2 || encs[0].Decision != rating.H1 {
				t.Errorf("decided %v after %d games", encs[0].Decision, n)
			}
		}
	}
	if decided != 1 {
		t.Errorf("decided %d times, want once", decided)
	}
}

func TestMatchFatalErrorOnlyOnce(t *testing.T) {
	m := paperMatch(2, 4)
	m.FatalError = true
	m.Schedule()
	ends := []record.Termination{record.Five, record.Time, record.Crash, record.Refusal}
	var fatal []int
	for n, end := range ends {
		if m.count(finished(m, n+1, rules.Black, end)).Fatal {
			fatal = append(fatal, n+1)
		}
	}
	if !reflect.DeepEqual(fatal, []int{2}) {
		t.Errorf("fatal at games %v, want [2]", fatal)
	}
}

func TestMatchLoseOnlyCollectsTheFirstEnginesLosses(t *testing.T) {
	for _, loseOnly := range []bool{false, true} {
		m := paperMatch(3, 2)
		m.Gauntlet, m.LoseOnly = true, loseOnly
		m.Schedule()
		// Black wins every game: a wins games 1 and 3, loses 2 and 4.
		var got []int
		for n := 1; n <= 4; n++ {
			if m.count(finished(m, n, rules.Black, record.Five)).Collect {
				got = append(got, n)
			}
		}
		want := []int{1, 2, 3, 4}
		if loseOnly {
			want = []int{2, 4}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("loseOnly %v: collected %v, want %v", loseOnly, got, want)
		}
	}
}

func TestMatchValidate(t *testing.T) {
	sprt := func(model string) *rating.SPRT {
		return &rating.SPRT{Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: model}
	}
	tests := []struct {
		name   string
		change func(*Match)
		want   string
	}{
		{"fine", func(*Match) {}, ""},
		{"one engine", func(m *Match) { m.Director.Entrants = m.Director.Entrants[:1] }, "at least two engines"},
		{"no games", func(m *Match) { m.Games = 0 }, "games: 0: must be at least 1"},
		{"no rounds", func(m *Match) { m.Rounds = 0 }, "rounds: 0: must be at least 1"},
		{"no concurrency", func(m *Match) { m.Director.Concurrency = 0 }, "concurrency: 0: want 1 to 1024 games at once"},
		{"too much concurrency", func(m *Match) { m.Director.Concurrency = 2000 }, "concurrency: 2000: want 1 to 1024 games at once"},
		{"negative move cap", func(m *Match) { m.Director.MoveCap = -1 }, "move_cap: -1: must not be negative"},
		{"board too large", func(m *Match) { m.Director.Size = 99 }, "size: board size 99 out of range"},
		{"unknown procedure", func(m *Match) { m.Director.Procedure = rules.Procedure(7) }, "opening_procedure: opening procedure Procedure(7) is not one of"},
		{"RIF on an even board", func(m *Match) { m.Director.Procedure, m.Director.Size = rules.RIFProcedure, 14 }, "opening_procedure: "},
		{"SPRT with three engines", func(m *Match) {
			m.Director.Entrants = append(m.Director.Entrants, m.Director.Entrants[0])
			m.SPRT = sprt("")
		}, "an SPRT compares two engines, not 3"},
		{"bad SPRT", func(m *Match) { m.SPRT = &rating.SPRT{Elo0: 5, Elo1: 0, Alpha: 0.05, Beta: 0.05} }, "must be below"},
		{"pentanomial SPRT without pairs", func(m *Match) { m.SPRT, m.Suite.Pairs = sprt(""), false }, "the normalized SPRT model counts game pairs"},
		{"trinomial SPRT without pairs", func(m *Match) { m.SPRT, m.Suite.Pairs = sprt(rating.ModelTrinomial), false }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := paperMatch(2, 2)
			tt.change(m)
			err := m.Validate()
			if tt.want == "" {
				if err != nil {
					t.Fatalf("err %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err %v, want %q", err, tt.want)
			}
			// A setting's error names the setting, for the front end to
			// say where it was given (the file's key, the flag, the token).
			var se *bounds.SettingError
			if setting, _, _ := strings.Cut(tt.want, ":"); !strings.Contains(setting, " ") && (!errors.As(err, &se) || se.Setting != setting) {
				t.Errorf("err %#v: want a bounds.SettingError of %s", err, setting)
			}
		})
	}
}

// A sweep has no finite maximum likelihood ratings; the list then takes the
// virtual draws and says so.
func TestMatchRatingsAfterASweep(t *testing.T) {
	m := paperMatch(3, 3) // a-b games 1-3, a-c 4-6, b-c 7-9
	m.Schedule()
	win := func(n, entrant int) {
		winner := rules.Black
		if m.fixtures[n-1].White == entrant {
			winner = rules.White
		}
		m.count(finished(m, n, winner, record.Five))
	}
	for _, n := range []int{1, 2, 4, 5, 7, 8, 9} {
		win(n, min(m.fixtures[n-1].Black, m.fixtures[n-1].White)) // the lower index wins
	}
	list, prior, err := m.Ratings()
	if err != nil || prior != sweepPrior {
		t.Fatalf("prior %v err %v, want %v and no error", prior, err, sweepPrior)
	}
	if r := list.Ratings; !(r[0].Elo > r[1].Elo && r[1].Elo > r[2].Elo) || r[0].Games != 4 || r[0].Points != 4 {
		t.Errorf("ratings %+v", r)
	}

	// b and c each beat a once: the wins now form cycles, so maximum
	// likelihood is finite.
	win(3, 1)
	win(6, 2)
	if _, prior, err := m.Ratings(); err != nil || prior != 0 {
		t.Errorf("prior %v err %v, want 0 and no error", prior, err)
	}
}

// Played through the director: an SPRT that decides stops new games, and
// the games counted are exactly the ones played.
func TestMatchRunStopsWhenTheSPRTDecides(t *testing.T) {
	d := director(t, 2, true)
	d.Concurrency = 1
	d.Entrants[1].Spec.Args = []string{"crash-at=1"} // b loses every game
	m := &Match{Director: d, Games: 200, Rounds: 1, Suite: Suite{Pairs: true},
		SPRT: &rating.SPRT{Elo1: 50, Alpha: 0.05, Beta: 0.05, Model: rating.ModelTrinomial}}
	encs, fixtures := m.Schedule()
	kept, decided := 0, 0
	m.Counted = func(g MatchGame) error {
		if g.Decided {
			decided = g.Played
		}
		return nil
	}
	err := m.Run(context.Background(), context.Background(), func(*record.Record) error { kept++; return nil })
	if err != nil {
		t.Fatal(err)
	}
	e := encs[0]
	if decided == 0 || e.Decision != rating.H1 || m.Played() != decided || kept != decided || e.WDL.W != decided {
		t.Errorf("decided after %d, played %d, kept %d of %d; tally %+v, decision %v", decided, m.Played(), kept, len(fixtures), e.WDL, e.Decision)
	}
}

// A game that cannot be kept is not counted, and stops the match.
func TestMatchRunKeptErrorStops(t *testing.T) {
	d := director(t, 2, true)
	d.Concurrency = 1
	m := &Match{Director: d, Games: 4, Rounds: 1}
	broken := errors.New("disk full")
	counted := 0
	m.Counted = func(MatchGame) error { counted++; return nil }
	err := m.Run(context.Background(), context.Background(), func(*record.Record) error { return broken })
	if !errors.Is(err, broken) || counted != 0 || m.Played() != 0 {
		t.Errorf("err %v, counted %d, played %d", err, counted, m.Played())
	}
}

// Replaying a journal counts its games as they were counted when they
// finished: the same tallies, pentanomial pairs and SPRT decision.
func TestMatchReplayCountsAsPlayed(t *testing.T) {
	results := []struct {
		n      int
		winner rules.Color
	}{{2, rules.White}, {1, rules.Black}, {3, rules.Empty}, {6, rules.Black}, {4, rules.Black}, {5, rules.White}}
	played, replayed := paperMatch(3, 2), paperMatch(3, 2)
	played.Schedule()
	replayed.Schedule()
	var recs []*record.Record
	for _, r := range results {
		rec := finished(played, r.n, r.winner, record.Five)
		played.count(rec)
		recs = append(recs, rec)
	}
	games, err := replayed.Replay(recs)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != len(recs) || replayed.Played() != played.Played() {
		t.Fatalf("%d games replayed, %d counted; want %d", len(games), replayed.Played(), played.Played())
	}
	for i := range played.encounters {
		a, b := played.encounters[i], replayed.encounters[i]
		if a.WDL != b.WDL || a.Penta != b.Penta {
			t.Errorf("encounter %d: replayed %v %v, played %v %v", i, b.WDL, b.Penta, a.WDL, a.Penta)
		}
	}
}

// A match whose SPRT decided in the journal plays no more games.
func TestMatchReplayedDecisionStops(t *testing.T) {
	m := paperMatch(2, 40)
	m.SPRT = &rating.SPRT{Elo0: 0, Elo1: 200, Alpha: 0.05, Beta: 0.05, Model: rating.ModelTrinomial}
	m.Schedule()
	var recs []*record.Record
	for n := 1; n <= 40; n++ {
		winner := rules.Black // entrant a, alternating colours
		if n%2 == 0 {
			winner = rules.White
		}
		recs = append(recs, finished(m, n, winner, record.Five))
	}
	games, err := m.Replay(recs)
	if err != nil {
		t.Fatal(err)
	}
	if !games[len(games)-1].Decided && m.encounters[0].Decision == rating.Continue {
		t.Fatalf("a 40-0 sweep did not decide the SPRT")
	}
	started := 0
	m.Director.Started = func(arbiter.Fixture) { started++ }
	if err := m.Run(context.Background(), context.Background(), nil); err != nil || started != 0 {
		t.Errorf("run after a replayed decision: %v, %d games started", err, started)
	}
}

// Under an opening procedure the game settles the colours, and the record
// does not say who chose what: either colour is the schedule's.
func TestMatchReplayTakesColoursSettledByAProcedure(t *testing.T) {
	m := paperMatch(2, 4)
	m.Director.Procedure = rules.Swap2Procedure
	m.Schedule()
	rec := &record.Record{Game: 2, Size: 15, Procedure: "swap2", Black: "a", White: "b", Winner: rules.Black, End: record.Five}
	if _, err := m.Replay([]*record.Record{rec}); err != nil {
		t.Fatal(err)
	}
}

func TestMatchReplayRefusesForeignRecords(t *testing.T) {
	cases := []struct {
		name string
		rec  func(m *Match) *record.Record
		want string
	}{
		{"beyond the schedule", func(m *Match) *record.Record { return &record.Record{Game: 5, Black: "a", White: "b"} }, "game 5 is not in the match's schedule of 4 games"},
		{"game 0", func(m *Match) *record.Record { return &record.Record{Game: 0, Black: "a", White: "b"} }, "game 0 is not"},
		{"other players", func(m *Match) *record.Record { return &record.Record{Game: 2, Size: 15, Black: "a", White: "z"} }, "game 2 (a vs z): the schedule has game 2 as b (black) vs a (white)"},
		// The five-won game of b with the names exchanged would be a's win.
		{"colours exchanged", func(m *Match) *record.Record {
			return &record.Record{Game: 2, Size: 15, Black: "a", White: "b", Winner: rules.Black, End: record.Five}
		}, "game 2 (a vs b): the schedule has game 2 as b (black) vs a (white)"},
		{"another board", func(m *Match) *record.Record { return &record.Record{Game: 2, Size: 19, Black: "b", White: "a"} }, "board size 19"},
		{"an opening procedure the match has not", func(m *Match) *record.Record {
			return &record.Record{Game: 2, Size: 15, Black: "a", White: "b", Procedure: "swap2"}
		}, `opening procedure "swap2"`},
		{"twice", func(m *Match) *record.Record { return finished(m, 1, rules.Black, record.Five) }, "game 1 is recorded twice"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := paperMatch(2, 4)
			m.Schedule()
			recs := []*record.Record{finished(m, 1, rules.Black, record.Five), tc.rec(m)}
			if _, err := m.Replay(recs); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
}
