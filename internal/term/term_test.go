package term

import (
	"testing"
	"unicode/utf8"
)

func TestClean(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"plain", "search 1.2", "search 1.2"},
		{"other scripts", "五目 ренju ñ", "五目 ренju ñ"},
		{"OSC retitle", "ev\x1b]0;pwned\x07", `ev\x1b]0;pwned\x07`},
		{"CSI clear", "a\x1b[2Jb", `a\x1b[2Jb`},
		{"carriage return", "good\rbad", `good\x0dbad`},
		{"newline and tab", "a\nb\tc", `a\x0ab\x09c`},
		{"DEL", "a\x7fb", `a\x7fb`},
		{"C1 CSI", "a\u009b2Jb", `a\u009b2Jb`},
		{"bidi override", "abc\u202edcba", `abc\u202edcba`},
		{"bidi isolate", "\u2066x\u2069", `\u2066x\u2069`},
		{"invalid UTF-8", "a\xffb\xc2", `a\xffb\xc2`},
		{"empty", "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Clean(c.in); got != c.want {
				t.Errorf("Clean(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestCleanLinesKeepsLineBreaks(t *testing.T) {
	if got, want := CleanLines("a\x1b[K\nb\n"), "a\\x1b[K\nb\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// Whatever goes in, nothing a terminal acts on comes out.
func FuzzClean(f *testing.F) {
	for _, s := range []string{"", "ok", "\x1b]0;t\x07", "\u202e", "\xff\xfe", "\u009b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Clean(s)
		if !utf8.ValidString(out) {
			t.Fatalf("Clean(%q) = %q: not UTF-8", s, out)
		}
		for _, r := range out {
			if unsafeRune(r) {
				t.Fatalf("Clean(%q) = %q keeps %U", s, out, r)
			}
		}
		if clean(s) && out != s {
			t.Fatalf("Clean changed clean text %q to %q", s, out)
		}
	})
}
