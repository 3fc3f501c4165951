package rating

import (
	"strings"
	"testing"
)

func TestWriteRatingPGN(t *testing.T) {
	var b strings.Builder
	for _, g := range []struct {
		first, second string
		score         float64
	}{
		{"alpha", "beta", 1},
		{"beta", "alpha", 0.5},
		{`say "hi"\`, "line\nbreak", 0},
	} {
		if err := WriteRatingPGN(&b, g.first, g.second, g.score); err != nil {
			t.Fatal(err)
		}
	}
	want := `[White "alpha"]
[Black "beta"]
[Result "1-0"]

1-0

[White "beta"]
[Black "alpha"]
[Result "1/2-1/2"]

1/2-1/2

[White "say \"hi\"\\"]
[Black "line break"]
[Result "0-1"]

0-1

`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	if err := WriteRatingPGN(&b, "a", "b", 0.7); err == nil {
		t.Error("score 0.7 accepted")
	}
}
