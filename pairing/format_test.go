package pairing

import "testing"

func TestParseFormat(t *testing.T) {
	for _, f := range formats {
		got, err := ParseFormat(string(f))
		if err != nil || got != f {
			t.Errorf("ParseFormat(%q) = %q, %v", f, got, err)
		}
	}
	for _, s := range []string{"", "Swiss", "roundrobin", "knockout"} {
		if _, err := ParseFormat(s); err == nil {
			t.Errorf("ParseFormat(%q): no error", s)
		}
	}
}

func TestResolve(t *testing.T) {
	tests := []struct {
		f    Format
		n    int
		want Format
	}{
		{FormatAuto, 2, DoubleRoundRobinFormat},
		{FormatAuto, 6, DoubleRoundRobinFormat},
		{FormatAuto, 7, RoundRobinFormat},
		{FormatAuto, 12, RoundRobinFormat},
		{FormatAuto, 13, SwissFormat},
		{FormatAuto, 5000, SwissFormat},
		{GauntletFormat, 30, GauntletFormat},
		{RoundRobinFormat, 4, RoundRobinFormat},
	}
	for _, tt := range tests {
		if got := Resolve(tt.f, tt.n); got != tt.want {
			t.Errorf("Resolve(%q, %d) = %q, want %q", tt.f, tt.n, got, tt.want)
		}
	}
}
