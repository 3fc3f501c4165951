package report

import (
	"bytes"
	"strings"
	"testing"

	"gomoku-arena/results/standings"
)

// The printable page names every game's records and keeps an engine's
// name and ABOUT answer as text.
func TestPageLinksRecordsAndEscapes(t *testing.T) {
	rep, err := NewReport("Cup <2026>", []string{"<script>x</script>", "beta"}, nil, standings.DefaultOptions(false))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	err = WritePage(&b, Page{Report: rep, Facts: []string{"freestyle on 15×15"},
		Games:   []PageGame{{Number: 1, Black: "<script>x</script>", White: "beta", Result: "1-0", End: "five", Moves: 9, Files: "0001-x-vs-beta"}},
		Engines: []PageEngine{{Name: "beta", Program: `<img src=x onerror=alert(1)>`}}})
	if err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{`<a href="games/0001-x-vs-beta.sgf">SGF</a>`, `<a href="games/0001-x-vs-beta.psq">psq</a>`,
		"Cup &lt;2026&gt;", "&lt;script&gt;x&lt;/script&gt;", "&lt;img src=x onerror=alert(1)&gt;", "C.07"} {
		if !strings.Contains(page, want) {
			t.Errorf("no %q in the page", want)
		}
	}
	if strings.Contains(page, "<script>") || strings.Contains(page, "<img") {
		t.Error("an engine's text became markup")
	}
}

// An engine's ABOUT with ESC, BEL and a bidirectional override reaches the
// page as escapes, never as raw control bytes (a terminal or a printer
// that shows the file acts on them).
func TestPageEscapesControlBytes(t *testing.T) {
	rep, err := NewReport("Cup\a", []string{"alpha", "beta"}, nil, standings.DefaultOptions(false))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	err = WritePage(&b, Page{Report: rep, Facts: []string{"freestyle\x1b]0;owned\a"},
		Games:   []PageGame{{Number: 1, Black: "alpha", White: "beta", Result: "1-0", End: "crash: \x1b[2J", Moves: 9}},
		Engines: []PageEngine{{Name: "beta", Program: "Penta\x1b[31mZen\x07", Author: "\u202eevil"}}})
	if err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, c := range []string{"\x1b", "\a", "\u202e"} {
		if strings.Contains(page, c) {
			t.Errorf("raw %q in the page", c)
		}
	}
	for _, want := range []string{`Penta\x1b[31mZen\x07`, `\u202eevil`, `crash: \x1b[2J`} {
		if !strings.Contains(page, want) {
			t.Errorf("no %q in the page", want)
		}
	}
}
