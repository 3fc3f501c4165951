package config

import (
	"strings"
	"testing"
	"time"
)

// The shipped Gomocup-style league parses into what it says: a round robin
// of mini-matches of 12 openings from its list, the turn and the match clock
// together, 350 MiB, Gomocup's freestyle on 20x20.
func TestGomocupLeagueConfig(t *testing.T) {
	ev, err := Load("../../configs/gomocup-league.toml")
	if err != nil {
		t.Fatal(err)
	}
	if ev.Format != "round-robin" || ev.OpeningsPerPairing != 12 || ev.Rule != "freestyle" || ev.Size != 20 {
		t.Errorf("format %q, openings_per_pairing %d, rule %q, size %d: want a round robin of 12-opening mini-matches, freestyle on 20x20",
			ev.Format, ev.OpeningsPerPairing, ev.Rule, ev.Size)
	}
	if !strings.HasSuffix(ev.Resolve(ev.Openings), "configs/gomocup-openings.txt") {
		t.Errorf("openings %q: want the list beside the config", ev.Openings)
	}
	if ev.Clock.Turn == nil || ev.Clock.Turn.Duration != 30*time.Second || ev.Clock.Match == nil || ev.Clock.Match.Duration != 180*time.Second {
		t.Errorf("clock %+v: want turn 30s and match 180s", ev.Clock)
	}
	if ev.MaxMemory == nil || ev.MaxMemory.N != 350<<20 {
		t.Errorf("max_memory %v: want 350 MiB", ev.MaxMemory)
	}
}

// openings_per_pairing is refused, naming the line and saying why, where a
// mini-match has no one meaning.
func TestMiniMatchesRefused(t *testing.T) {
	for _, c := range []struct{ name, keys, want string }{
		{"double round robin", "format = \"double-round-robin\"\nopenings_per_pairing = 2\n", "t.toml:2: openings_per_pairing: a double round robin"},
		{"swiss", "format = \"swiss\"\nopenings_per_pairing = 2\n", "t.toml:2: openings_per_pairing: a Swiss pairs one game at a time"},
		{"auto", "format = \"auto\"\nopenings_per_pairing = 2\n", "name the format of a league"},
		{"negative", "format = \"round-robin\"\nopenings_per_pairing = -1\n", "must not be negative"},
		{"too many", "format = \"round-robin\"\nopenings_per_pairing = 1001\n", "at most 1000"},
		{"swap2", "format = \"gauntlet\"\nrule = \"freestyle\"\nopening_procedure = \"swap2\"\nopenings_per_pairing = 2\n", "lets the engines choose the colours"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := c.keys + "[[engine]]\nname = \"a\"\ncommand = \"builtin:greedy\"\n[[engine]]\nname = \"b\"\ncommand = \"builtin:random\"\n"
			_, err := Parse("t.toml", []byte(src))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want %q", err, c.want)
			}
		})
	}
	src := "format = \"gauntlet\"\nopenings_per_pairing = 3\n[[engine]]\nname = \"a\"\ncommand = \"builtin:greedy\"\n[[engine]]\nname = \"b\"\ncommand = \"builtin:random\"\n"
	if _, err := Parse("t.toml", []byte(src)); err != nil {
		t.Errorf("a gauntlet of mini-matches: %v", err)
	}
}
