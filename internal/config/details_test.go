package config

import (
	"strings"
	"testing"
)

// The [details] table is read and checked, each error naming the file, the
// line and the key.
func TestDetails(t *testing.T) {
	base := "name = \"cup\"\nrule = \"freestyle\"\n[[engine]]\nname = \"a\"\ncommand = \"x\"\n[[engine]]\nname = \"b\"\ncommand = \"y\"\n[details]\n"
	ev, err := Parse("cup.toml", []byte(base+"title = \"15th Open\"\nvenue = \"Prague\"\nfederation = \"CZE\"\nstart_date = \"2026-11-28\"\nend_date = \"2026-11-29\"\nchief_arbiter = \"IA J. Novák\"\norganizer = \"Club\"\ntime_zone = \"UTC\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d := ev.Details; d.Title != "15th Open" || d.Venue != "Prague" || d.ChiefArbiter != "IA J. Novák" || d.EndDate != "2026-11-29" || d.Location().String() != "UTC" {
		t.Errorf("details %+v", d)
	}
	for _, tc := range []struct{ src, want string }{
		{"start_date = \"28.11.2026\"\n", "cup.toml:10: details.start_date: \"28.11.2026\": want a date as YYYY-MM-DD"},
		{"start_date = \"2026-11-28\"\nend_date = \"2026-11-27\"\n", "cup.toml:11: details.end_date: 2026-11-27 is before start_date"},
		{"federation = \"cze\"\n", "cup.toml:10: details.federation"},
		{"time_zone = \"Mars/Olympus\"\n", "cup.toml:10: details.time_zone"},
		{"title = \"a\\u001bb\"\n", "cup.toml:10: details.title"},
		{"title = \"" + strings.Repeat("x", MaxDetail+1) + "\"\n", "cup.toml:10: details.title: 201 characters"},
		{"venu = \"x\"\n", "cup.toml:10: details.venu: unknown key"},
	} {
		_, err := Parse("cup.toml", []byte(base+tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.src, err, tc.want)
		}
	}
}
