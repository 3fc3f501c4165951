package schedule

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"gomoku-arena/arbiter"
	"gomoku-arena/rules"
)

// The expected values below were printed by c-gomoku-cli's own prng() and
// shuffle loop (src/util.cpp, src/openings.cpp, built from its source).

func TestSplitMix64MatchesCGomokuCli(t *testing.T) {
	state := uint64(1)
	want := []uint64{10451216379200822465, 13757245211066428519, 17911839290282890590, 8196980753821780235}
	for i, w := range want {
		if got := splitMix64(&state); got != w {
			t.Errorf("draw %d: %d, want %d", i, got, w)
		}
	}
}

func TestCGomokuCliShuffle(t *testing.T) {
	tests := []struct {
		n    int
		seed uint64
		want string
	}{
		{40, 42, "25 16 35 11 18 9 28 23 37 39 10 7 36 38 29 0 14 33 20 12 6 15 26 24 5 8 19 30 27 17 22 21 2 31 32 34 3 4 1 13"},
		{10, 7, "8 1 5 9 0 4 3 2 6 7"},
		{5, 18446744073709551615, "2 0 3 4 1"},
		{1, 3, "0"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("n=%d srand=%d", tt.n, tt.seed), func(t *testing.T) {
			if got := strings.Trim(fmt.Sprint(CGomokuCliShuffle(tt.n, tt.seed)), "[]"); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestCGomokuCliSymmetry pins c-gomoku-cli's TransformType order
// (position.h) on the point (x, y) = (2, 5) of a 15x15 board, s = 14.
func TestCGomokuCliSymmetry(t *testing.T) {
	x, y, s := 2, 5, 14
	want := []rules.Point{
		{X: x, Y: y},         // identity
		{X: y, Y: s - x},     // rotate 90
		{X: s - x, Y: s - y}, // rotate 180
		{X: s - y, Y: x},     // rotate 270
		{X: x, Y: s - y},     // flip x
		{X: s - x, Y: y},     // flip y
		{X: y, Y: x},         // flip xy
		{X: s - y, Y: s - x}, // flip yx
	}
	for pass := range 16 {
		got := rules.Transform(rules.Point{X: x, Y: y}, 15, CGomokuCliSymmetry(pass))
		if got != want[pass%8] {
			t.Errorf("pass %d: %v, want %v", pass, got, want[pass%8])
		}
	}
}

func TestSuiteDealCGomokuCli(t *testing.T) {
	list := readList(t, "0,0\n1,1\n2,2\n3,3\n", 15)
	s := Suite{Openings: list, Order: OrderRandom, Seed: 7, Transform: TransformCycle, Pairs: true, Style: StyleCGomokuCli}
	order := CGomokuCliShuffle(len(list), 7)
	deals := s.Deal(20, 15)
	for g, d := range deals {
		pass := g / 2 / len(list)
		line := list[order[g/2%len(list)]].Line
		if d.Opening.Line != line || d.Symmetry != CGomokuCliSymmetry(pass) {
			t.Errorf("game %d: line %d symmetry %d, want line %d symmetry %d", g+1, d.Opening.Line, d.Symmetry, line, CGomokuCliSymmetry(pass))
		}
	}
}

// fixtureSummary is "opening-length:black-white" for each fixture.
func fixtureSummary(fs []arbiter.Fixture) string {
	var parts []string
	for _, f := range fs {
		parts = append(parts, fmt.Sprintf("%d:%d-%d", len(f.Opening), f.Black, f.White))
	}
	return strings.Join(parts, " ")
}

// TestScheduleCGomokuCli pins c-gomoku-cli's job order and colours
// (jobs.cpp, main.cpp): the first engine of a pair moves first after the
// opening in the pair's even games of every round, and the n-th job takes
// the n-th opening of the whole run.
func TestScheduleCGomokuCli(t *testing.T) {
	ents := make([]arbiter.Entrant, 3)
	for i := range ents {
		ents[i].Spec.Name = fmt.Sprint("e", i)
	}
	tests := []struct {
		name  string
		list  string
		games int
		pairs bool
		want  string
	}{
		// Even openings: the first engine is Black in game 1.
		{"even openings", "0,0, 1,1\n", 3, false, "2:0-1 2:1-0 2:0-1 2:0-2 2:2-0 2:0-2 2:1-2 2:2-1 2:1-2 | 2:0-1 2:1-0 2:0-1 2:0-2 2:2-0 2:0-2 2:1-2 2:2-1 2:1-2"},
		// Odd openings: White moves next, so the first engine is White.
		{"odd openings", "0,0, 1,1, 2,2\n", 2, false, "3:1-0 3:0-1 3:2-0 3:0-2 3:2-1 3:1-2 | 3:1-0 3:0-1 3:2-0 3:0-2 3:2-1 3:1-2"},
		// The parity is the opening's, game by game.
		{"mixed openings", "0,0\n0,0, 1,1\n", 2, false, "1:1-0 2:1-0 1:2-0 2:2-0 1:2-1 2:2-1 | 1:1-0 2:1-0 1:2-0 2:2-0 1:2-1 2:2-1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &Match{Director: &arbiter.Director{Entrants: ents, Size: 15}, Games: tt.games, Rounds: 2,
				Suite: Suite{Openings: readList(t, tt.list, 15), Pairs: tt.pairs, Style: StyleCGomokuCli}}
			_, fs := m.Schedule()
			half := len(fs) / 2
			if got := fixtureSummary(fs[:half]) + " | " + fixtureSummary(fs[half:]); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestScheduleCGomokuCliDealsAcrossEncounters: the openings run on from one
// encounter to the next (c-gomoku-cli's job index), where the arena's own
// style gives every encounter the same openings.
func TestScheduleCGomokuCliDealsAcrossEncounters(t *testing.T) {
	ents := make([]arbiter.Entrant, 3)
	for i := range ents {
		ents[i].Spec.Name = fmt.Sprint("e", i)
	}
	list := readList(t, "0,0, 1,1\n1,1, 2,2\n2,2, 3,3\n3,3, 4,4\n4,4, 5,5\n", 15)
	for _, style := range []Style{StyleArena, StyleCGomokuCli} {
		m := &Match{Director: &arbiter.Director{Entrants: ents, Size: 15}, Games: 2, Rounds: 1,
			Suite: Suite{Openings: list, Pairs: true, Style: style}}
		_, fs := m.Schedule()
		var got []int
		for _, f := range fs {
			got = append(got, f.Opening[0].X-7)
		}
		want := []int{0, 0, 0, 0, 0, 0}
		if style == StyleCGomokuCli {
			want = []int{0, 0, 1, 1, 2, 2}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%v: openings %v, want %v", style, got, want)
		}
	}
}
