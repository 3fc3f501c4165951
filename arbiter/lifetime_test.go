package arbiter

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"gomoku-arena/results/record"
)

// lifetimeRun plays c-gomoku-cli's round robin of three entrants, two games a
// pair, at one table under the lifetime, and reports per game the process
// (by the order processes were first seen) each entrant played with, the
// command that opened its game (START or RESTART), and the Fresh list the
// table announced.
func lifetimeRun(t *testing.T, l Lifetime) (games []string, fresh [][]int) {
	d := director(t, 3, true)
	d.Concurrency, d.Lifetime = 1, l
	var mu sync.Mutex
	game := 0
	seen := map[int]int{} // pid -> its order of appearance
	opened := map[string]string{}
	for i := range d.Entrants {
		d.Entrants[i].Spec.Args = nil // instant
		name := d.Entrants[i].Spec.Name
		d.Entrants[i].Spec.Transcript = func(pid int, sent bool, line string) {
			cmd, _, _ := strings.Cut(line, " ")
			if !sent || (cmd != "START" && cmd != "RESTART") {
				return
			}
			mu.Lock()
			defer mu.Unlock()
			if _, ok := seen[pid]; !ok {
				seen[pid] = len(seen) + 1
			}
			opened[fmt.Sprint(game, name)] = fmt.Sprintf("%s=p%d/%s", name, seen[pid], cmd)
		}
	}
	d.Started = func(f Fixture) {
		mu.Lock()
		defer mu.Unlock()
		game = f.Number
		fresh = append(fresh, f.Fresh)
	}
	d.Finished = func(rec *record.Record) error {
		mu.Lock()
		defer mu.Unlock()
		a, b := opened[fmt.Sprint(rec.Game, "a")], opened[fmt.Sprint(rec.Game, "b")]
		c := opened[fmt.Sprint(rec.Game, "c")]
		games = append(games, strings.Join(slices.DeleteFunc([]string{a, b, c}, func(s string) bool { return s == "" }), " "))
		return nil
	}
	var fs []Fixture
	for _, p := range [][2]int{{0, 1}, {0, 2}, {1, 2}} {
		fs = append(fs, Fixture{Round: 1, Number: len(fs) + 1, Black: p[0], White: p[1]},
			Fixture{Round: 1, Number: len(fs) + 2, Black: p[1], White: p[0]})
	}
	if err := d.Play(context.Background(), context.Background(), fs); err != nil {
		t.Fatal(err)
	}
	return games, fresh
}

// TestLifetimePairIsCGomokuCli: a table's seat keeps its process while
// its entrant stays (entrant a in seat 1 for four games, c in seat 2 from
// game 3 to 6, though its opponent changes), starts a new one when the
// entrant changes (b in game 5 sits in seat 1), and every game opens with
// START, as c-gomoku-cli's workers do.
func TestLifetimePairIsCGomokuCli(t *testing.T) {
	games, fresh := lifetimeRun(t, LifetimePair)
	want := []string{
		"a=p1/START b=p2/START", "a=p1/START b=p2/START",
		"a=p1/START c=p3/START", "a=p1/START c=p3/START",
		"b=p4/START c=p3/START", "b=p4/START c=p3/START",
	}
	if !slices.Equal(games, want) {
		t.Errorf("games\n%s\nwant\n%s", strings.Join(games, "\n"), strings.Join(want, "\n"))
	}
	if got := fmt.Sprint(fresh); got != "[[0 1] [] [2] [] [1] []]" {
		t.Errorf("fresh processes per game %s, want [[0 1] [] [2] [] [1] []]", got)
	}
}

// TestLifetimeGameStartsEveryGameAfresh and TestLifetimeReuseRestarts: a
// process per game, opened by START; one per entrant, RESTART after its
// first game.
func TestLifetimeGameStartsEveryGameAfresh(t *testing.T) {
	games, fresh := lifetimeRun(t, LifetimeGame)
	want := []string{
		"a=p1/START b=p2/START", "a=p4/START b=p3/START", // Black's process starts first
		"a=p5/START c=p6/START", "a=p8/START c=p7/START",
		"b=p9/START c=p10/START", "b=p12/START c=p11/START",
	}
	if !slices.Equal(games, want) {
		t.Errorf("games\n%s\nwant\n%s", strings.Join(games, "\n"), strings.Join(want, "\n"))
	}
	if got := fmt.Sprint(fresh); got != "[[0 1] [0 1] [0 2] [0 2] [1 2] [1 2]]" {
		t.Errorf("fresh processes per game %s", got)
	}
}

func TestLifetimeReuseRestarts(t *testing.T) {
	games, fresh := lifetimeRun(t, LifetimeReuse)
	want := []string{
		"a=p1/START b=p2/START", "a=p1/RESTART b=p2/RESTART",
		"a=p1/RESTART c=p3/START", "a=p1/RESTART c=p3/RESTART",
		"b=p2/RESTART c=p3/RESTART", "b=p2/RESTART c=p3/RESTART",
	}
	if !slices.Equal(games, want) {
		t.Errorf("games\n%s\nwant\n%s", strings.Join(games, "\n"), strings.Join(want, "\n"))
	}
	if got := fmt.Sprint(fresh); got != "[[0 1] [] [2] [] [] []]" {
		t.Errorf("fresh processes per game %s", got)
	}
}

// TestLifetimePairStartsACrashedEngineAfresh: after b crashed, its seat
// starts a new process for the next game (c-gomoku-cli's restart of an
// engine that is not ok), and a keeps its own.
func TestLifetimePairStartsACrashedEngineAfresh(t *testing.T) {
	d := director(t, 2, true)
	d.Concurrency, d.Lifetime = 1, LifetimePair
	d.Entrants[0].Spec.Args = nil
	d.Entrants[1].Spec.Args = []string{"crash-at=2"}
	var fresh [][]int
	var ends []record.Termination
	d.Started = func(f Fixture) { fresh = append(fresh, f.Fresh) }
	d.Finished = func(rec *record.Record) error { ends = append(ends, rec.End); return nil }
	fs := []Fixture{{Round: 1, Number: 1, Black: 0, White: 1}, {Round: 1, Number: 2, Black: 1, White: 0}, {Round: 1, Number: 3, Black: 0, White: 1}}
	if err := d.Play(context.Background(), context.Background(), fs); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(ends) != "[crash crash crash]" {
		t.Fatalf("ends %v, want b to crash every game", ends)
	}
	if got := fmt.Sprint(fresh); got != "[[0 1] [1] [1]]" {
		t.Errorf("processes started per game %s, want [[0 1] [1] [1]]", got)
	}
}
