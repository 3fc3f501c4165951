package sample

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pierrec/lz4/v4"

	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// game is a 15x15 freestyle record: two opening stones h8 (7,7) and i9
// (8,8) placed by the arbiter, then Black j10 (9,9), White a1 (0,0), Black
// k11 (10,10), and Black wins.
func game(end record.Termination, winner rules.Color) *record.Record {
	return &record.Record{
		Game: 3, Rule: "freestyle", Size: 15, Winner: winner, End: end,
		Moves: []record.Move{
			{Point: rules.Point{X: 7, Y: 7}, Color: rules.Black, Opening: true},
			{Point: rules.Point{X: 8, Y: 8}, Color: rules.White, Opening: true},
			{Point: rules.Point{X: 9, Y: 9}, Color: rules.Black},
			{Point: rules.Point{X: 0, Y: 0}, Color: rules.White},
			{Point: rules.Point{X: 10, Y: 10}, Color: rules.Black},
		},
	}
}

func TestFromRecordKeepsEngineMovesWithTheOutcome(t *testing.T) {
	got := FromRecord(game(record.Five, rules.Black), Options{Freq: 1})
	if len(got) != 3 {
		t.Fatalf("%d samples, want the 3 engine moves", len(got))
	}
	wantResult := []int{Win, Loss, Win} // Black, White, Black to move; Black won
	for i, s := range got {
		if len(s.Position) != 2+i {
			t.Errorf("sample %d: %d stones before the move, want %d", i, len(s.Position), 2+i)
		}
		if s.Result != wantResult[i] {
			t.Errorf("sample %d: result %d, want %d", i, s.Result, wantResult[i])
		}
	}
	draw := FromRecord(game(record.FullBoard, rules.Empty), Options{Freq: 1})
	for _, s := range draw {
		if s.Result != Draw {
			t.Errorf("drawn game: result %d", s.Result)
		}
	}
}

func TestFromRecordSkipsFaultsAndRefusedStones(t *testing.T) {
	for _, end := range []record.Termination{record.Time, record.Crash, record.Illegal, record.Refusal, record.MemoryLimit} {
		if got := FromRecord(game(end, rules.White), Options{Freq: 1}); len(got) != 0 {
			t.Errorf("%s: %d samples, want none", end, len(got))
		}
	}
	// A forbidden move is kept in the record but was never played.
	got := FromRecord(game(record.Forbidden, rules.White), Options{Freq: 1})
	if len(got) != 2 {
		t.Errorf("forbidden last move: %d samples, want 2", len(got))
	}
}

func TestFromRecordSamplingIsAFunctionOfSeedAndGame(t *testing.T) {
	long := &record.Record{Game: 1, Rule: "freestyle", Size: 15, End: record.FullBoard}
	for i := range 200 {
		long.Moves = append(long.Moves, record.Move{Point: rules.Point{X: i % 15, Y: i / 15}, Color: rules.Color(1 + i%2)})
	}
	a := FromRecord(long, Options{Freq: 0.25, Seed: 7})
	b := FromRecord(long, Options{Freq: 0.25, Seed: 7})
	if len(a) != len(b) || len(a) < 20 || len(a) > 80 {
		t.Fatalf("freq 0.25 of 200 moves: %d and %d samples", len(a), len(b))
	}
	for i := range a {
		if len(a[i].Position) != len(b[i].Position) {
			t.Fatal("the same seed and game picked other positions")
		}
	}
	other := *long
	other.Game = 2
	c := FromRecord(&other, Options{Freq: 0.25, Seed: 7})
	same := len(c) == len(a)
	for i := 0; same && i < len(a); i++ {
		same = len(a[i].Position) == len(c[i].Position)
	}
	if same {
		t.Error("games 1 and 2 picked the same positions")
	}
	if n := len(FromRecord(long, Options{Freq: 0})); n != 0 {
		t.Errorf("freq 0: %d samples", n)
	}
}

func write(t *testing.T, f Format, samples []Sample) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, f)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(samples); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestCSVIsPositionMoveResult(t *testing.T) {
	got := string(write(t, CSV, FromRecord(game(record.Five, rules.Black), Options{Freq: 1})))
	// pos notation: letter a = x 0, number y+1 (c-gomoku-cli's to_opening_str).
	want := "h8i9,j10,2\nh8i9j10,a1,0\nh8i9j10a1,k11,2\n"
	if got != want {
		t.Errorf("csv\n%s\nwant\n%s", got, want)
	}
}

// TestBinMatchesThePublishedLayout decodes our entries with a C reader that
// declares c-gomoku-cli's struct, so the compiler, not our code, decides
// where each bit field lies.
func TestBinMatchesThePublishedLayout(t *testing.T) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no C compiler (cc) to build the reference decoder")
	}
	dir := t.TempDir()
	decoder := filepath.Join(dir, "decode")
	if out, err := exec.Command(cc, "-O1", "-o", decoder, filepath.Join("testdata", "decode_entries.c")).CombinedOutput(); err != nil {
		t.Fatalf("building the decoder: %v\n%s", err, out)
	}
	samples := FromRecord(game(record.Five, rules.Black), Options{Freq: 1})
	renju := game(record.Five, rules.White)
	renju.Rule, renju.Size = "renju", 15
	samples = append(samples, FromRecord(renju, Options{Freq: 1})...)
	file := filepath.Join(dir, "sample.bin")
	if err := os.WriteFile(file, write(t, Bin, samples), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(decoder, file).Output()
	if err != nil {
		t.Fatalf("decoder: %v", err)
	}
	want := strings.Join([]string{
		"2 2 15 0 9,9 7,7 8,8",
		"0 3 15 0 0,0 7,7 8,8 9,9",
		"2 4 15 0 10,10 7,7 8,8 9,9 0,0",
		"0 2 15 4 9,9 7,7 8,8",
		"2 3 15 4 0,0 7,7 8,8 9,9",
		"0 4 15 4 10,10 7,7 8,8 9,9 0,0",
	}, "\n") + "\n"
	if string(out) != want {
		t.Errorf("decoded\n%s\nwant\n%s", out, want)
	}
}

func TestBinLZ4IsTheBinStreamCompressed(t *testing.T) {
	samples := FromRecord(game(record.Five, rules.Black), Options{Freq: 1})
	plain := write(t, Bin, samples)
	packed := write(t, BinLZ4, samples)
	got, err := io.ReadAll(lz4.NewReader(bytes.NewReader(packed)))
	if err != nil || !bytes.Equal(got, plain) {
		t.Fatalf("lz4 stream decodes to %x (%v), want %x", got, err, plain)
	}
	// The reference tool, where installed, reads it too.
	tool, err := exec.LookPath("lz4")
	if err != nil {
		t.Log("lz4 (Debian package lz4) not installed: the frame was checked with the Go decoder only")
		return
	}
	cmd := exec.Command(tool, "-d", "-c")
	cmd.Stdin = bytes.NewReader(packed)
	out, err := cmd.Output()
	if err != nil || !bytes.Equal(out, plain) {
		t.Fatalf("lz4 -d: %v, %x, want %x", err, out, plain)
	}
}

func TestCaptureRulesAreRefused(t *testing.T) {
	rec := game(record.Five, rules.Black)
	rec.Rule = "pente"
	for _, f := range []Format{CSV, Bin, BinLZ4, Binpack, BinpackLZ4} {
		var buf bytes.Buffer
		w, _ := NewWriter(&buf, f)
		if err := w.Write(FromRecord(rec, Options{Freq: 1})); err == nil || !strings.Contains(err.Error(), "pente") {
			t.Errorf("pente in %s: %v, want a refusal naming the rule", f, err)
		}
	}
}

func TestParseFormat(t *testing.T) {
	for _, s := range []string{"csv", "bin", "bin_lz4", "binpack", "binpack_lz4"} {
		f, err := ParseFormat(s)
		if err != nil || f.String() != s {
			t.Errorf("%s: %v %v", s, f, err)
		}
	}
	if _, err := ParseFormat("lz4"); err == nil {
		t.Error("an unknown format was accepted")
	}
	if (Options{Freq: 1.5}).Validate() == nil {
		t.Error("freq 1.5 was accepted")
	}
}
