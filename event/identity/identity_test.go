package identity

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEventJSONVersions(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name, json, want string
	}{
		{"older arena", `{"Name": "x", "Rule": "freestyle"}`, "no format version"},
		{"newer arena", `{"format": 3, "kind": "event"}`, "format 3 is not one this arena reads (it reads formats 1 to 2)"},
		{"format 2 without its suite", `{"format": 2, "kind": "event"}`, "opening_suite is recorded from format 2 on"},
		{"format 1 with a suite", `{"format": 1, "kind": "event", "opening_suite": {"digest": "", "openings": []}}`, "opening_suite is recorded from format 2 on"},
		{"not a number", `{"format": "1"}`, `format "1" is not one this arena reads`},
		{"unknown field", `{"format": 1, "kind": "event", "colour": "black"}`, `unknown field "colour"`},
		{"unknown kind", `{"format": 1, "kind": "league"}`, `kind "league"`},
		{"not JSON", `{"format": 1,`, "event.json"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, "event.json")
			os.WriteFile(path, []byte(tc.json), 0o644)
			_, err := Read(path)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("got %v, want an error naming %s and saying %q", err, path, tc.want)
			}
		})
	}
}

func TestDifference(t *testing.T) {
	base := func() *Identity {
		return &Identity{Format: 1, Kind: KindEvent, Name: "e", Rule: "freestyle", Size: 15,
			Engines: []Entrant{{Name: "a", Command: "builtin:random", Clock: Clock{MatchMS: 30000}}, {Name: "b", Command: "./b"}}}
	}
	cases := []struct {
		name   string
		change func(*Identity)
		want   string
	}{
		{"same", func(*Identity) {}, ""},
		{"rule", func(id *Identity) { id.Rule = "renju" }, `rule: "freestyle" in the folder, "renju" now`},
		{"engine clock", func(id *Identity) { id.Engines[0].Clock.MatchMS = 20000 }, "engines[0].clock.match_ms: 30000 in the folder, 20000 now"},
		{"engine added", func(id *Identity) { id.Engines = append(id.Engines, Entrant{Name: "c"}) }, "engines: 2 entries in the folder, 3 now"},
		{"args set", func(id *Identity) { id.Engines[1].Args = []string{"-x"} }, `engines[1].args: unset in the folder, ["-x"] now`},
		{"match settings", func(id *Identity) { id.Match = &MatchSettings{Games: 2} }, "match: unset in the folder"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			now := base()
			tc.change(now)
			got := Difference(base(), now)
			if (tc.want == "") != (got == "") || !strings.HasPrefix(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
