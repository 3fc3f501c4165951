package engine

import (
	"strings"
	"testing"

	"gomoku-arena/rules"
)

func TestParseLine(t *testing.T) {
	tests := []struct {
		name string
		in   string
		kind LineKind
		p    rules.Point
		text string
	}{
		{"move", "7,8", LineMove, rules.Point{X: 7, Y: 8}, "7,8"},
		{"move with spaces", "  7 , 8 ", LineMove, rules.Point{X: 7, Y: 8}, "7 , 8"},
		{"move with tab", "7,\t8", LineMove, rules.Point{X: 7, Y: 8}, ""},
		{"leading zeros", "07,008", LineMove, rules.Point{X: 7, Y: 8}, ""},
		{"negative is a move", "-1,3", LineMove, rules.Point{X: -1, Y: 3}, ""},
		{"off board is a move", "99,99", LineMove, rules.Point{X: 99, Y: 99}, ""},
		{"both negative", "-5,-6", LineMove, rules.Point{X: -5, Y: -6}, ""},
		{"BOM", "\ufeff3,4", LineMove, rules.Point{X: 3, Y: 4}, ""},
		{"trailing comma", "7,", LineMalformed, rules.Point{}, "7,"},
		{"letter", "7,x", LineMalformed, rules.Point{}, ""},
		{"three numbers", "7,7,7", LineMalformed, rules.Point{}, ""},
		{"trailing junk", "7,7 please", LineMalformed, rules.Point{}, ""},
		{"overflow", "99999999999999999999999,1", LineMalformed, rules.Point{}, ""},
		{"negative overflow", "1,-99999999999999999999999", LineMalformed, rules.Point{}, ""},
		{"minus comma", "-,3", LineOther, rules.Point{}, ""},
		{"no comma", "7 8", LineOther, rules.Point{}, ""},
		{"lone number", "7", LineOther, rules.Point{}, ""},
		{"plus sign", "+1,3", LineOther, rules.Point{}, ""},
		{"empty", "", LineOther, rules.Point{}, ""},
		{"blank", "  \t ", LineOther, rules.Point{}, ""},
		{"OK", "OK", LineOK, rules.Point{}, "OK"},
		{"ok lower", "ok", LineOK, rules.Point{}, ""},
		{"OK with text", "OK then", LineOther, rules.Point{}, ""},
		{"OKAY", "OKAY", LineOther, rules.Point{}, ""},
		{"MESSAGE", "MESSAGE depth 5 ev 12", LineMessage, rules.Point{}, "depth 5 ev 12"},
		{"MESSAGE empty", "MESSAGE", LineMessage, rules.Point{}, ""},
		{"DEBUG", "DEBUG x", LineDebug, rules.Point{}, "x"},
		{"ERROR", "ERROR unknown rule 9", LineError, rules.Point{}, "unknown rule 9"},
		{"UNKNOWN", "UNKNOWN RESTART", LineUnknown, rules.Point{}, "RESTART"},
		{"SUGGEST", "SUGGEST 3,4", LineSuggest, rules.Point{X: 3, Y: 4}, ""},
		{"SUGGEST malformed", "SUGGEST 3,", LineOther, rules.Point{}, ""},
		{"MESSAGES is not MESSAGE", "MESSAGES hi", LineOther, rules.Point{}, ""},
		{"binary", "\x00\xff7,7", LineOther, rules.Point{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ParseLine(tt.in)
			if got.Kind != tt.kind || got.Point != tt.p {
				t.Fatalf("ParseLine(%q) = %v %v, want %v %v", tt.in, got.Kind, got.Point, tt.kind, tt.p)
			}
			if tt.text != "" && got.Text != tt.text {
				t.Errorf("ParseLine(%q).Text = %q, want %q", tt.in, got.Text, tt.text)
			}
		})
	}
}

func FuzzParseLine(f *testing.F) {
	for _, s := range []string{"7,7", "7,", "-1,3", "99,99", "MESSAGE hi", "SUGGEST 1,2", "OK", " 1 , 2 ", "1,2,3", "\ufeff0,0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l := ParseLine(s)
		switch l.Kind {
		case LineMove, LineSuggest:
			// A move survives a round trip through its canonical form.
			if again := ParseLine(l.Point.String()); again.Kind != LineMove || again.Point != l.Point {
				t.Fatalf("%q: point %v does not round-trip: %v", s, l.Point, again)
			}
		}
		trimmed := strings.TrimSpace(strings.TrimPrefix(s, "\ufeff"))
		startsLikeMove := trimmed != "" && (trimmed[0] == '-' || trimmed[0] >= '0' && trimmed[0] <= '9')
		if (l.Kind == LineMove || l.Kind == LineMalformed) && !startsLikeMove {
			t.Fatalf("%q: %v but does not start like a move", s, l.Kind)
		}
		if l.Kind == LineMalformed && !strings.Contains(s, ",") {
			t.Fatalf("%q: malformed without a comma", s)
		}
	})
}

func TestAppendInfo(t *testing.T) {
	got := string(appendInfo(nil, Info{Key: "folder", Value: "/tmp/a\nEND\r"}))
	if got != "INFO folder /tmp/a END \n" {
		t.Errorf("appendInfo = %q: a value must not inject a command", got)
	}
}
