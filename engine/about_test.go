package engine

import "testing"

func TestParseAbout(t *testing.T) {
	tests := []struct {
		name                          string
		in                            string
		name_, version, author, cntry string
	}{
		{"standard", `name="Pela", version="1.2", author="Jan Novak", country="CZ"`, "Pela", "1.2", "Jan Novak", "CZ"},
		{"any order and case", `Country="PL",NAME="x, y"`, "x, y", "", "", "PL"},
		{"unquoted", `name=embryo, version=21`, "embryo", "21", "", ""},
		{"free text", `Pela 1.0 by somebody`, "", "", "", ""},
		{"unterminated quote", `name="abc`, "abc", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := ParseAbout(tt.in)
			if a.Name != tt.name_ || a.Version != tt.version || a.Author != tt.author || a.Country != tt.cntry {
				t.Errorf("ParseAbout(%q) = %+v", tt.in, a)
			}
			if a.Raw != tt.in {
				t.Errorf("Raw = %q", a.Raw)
			}
		})
	}
}

func FuzzParseAbout(f *testing.F) {
	f.Add(`name="Pela", version="1.2", author="Jan Novak", country="CZ"`)
	f.Add(`name=x,=,==""`)
	f.Fuzz(func(t *testing.T, s string) {
		a := ParseAbout(s)
		if len(a.Raw) > maxNoteLen+len("…") {
			t.Fatalf("Raw not bounded: %d", len(a.Raw))
		}
	})
}
