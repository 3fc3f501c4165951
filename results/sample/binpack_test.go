package sample

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pierrec/lz4/v4"

	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// binpackEntry is one decoded binpack entry.
type binpackEntry struct {
	Size, Rule, Result, Tag int
	Opening, Moves          []rules.Point
	Words                   []uint16 // each move's flag word, as written
	Evals                   []int16
}

// decodeBinpack reads binpack entries (the layout of binpack.go, read back
// here independently of the writer's code), refusing a truncated entry or
// one whose totalPly is not initPly + moveCount.
func decodeBinpack(b []byte) ([]binpackEntry, error) {
	var out []binpackEntry
	point := func(v uint16) rules.Point { return rules.Point{X: int(v>>5) & 31, Y: int(v) & 31} }
	for off := 0; off < len(b); {
		if len(b)-off < 8 {
			return nil, fmt.Errorf("offset %d: %d bytes left, a head is 8", off, len(b)-off)
		}
		h0, h1 := binary.LittleEndian.Uint32(b[off:]), binary.LittleEndian.Uint32(b[off+4:])
		e := binpackEntry{Size: int(h0 & 31), Rule: int(h0 >> 5 & 7), Result: int(h0 >> 8 & 15), Tag: int(h1 & (1<<14 - 1))}
		total, init, count := int(h0>>12&1023), int(h0>>22&1023), int(h1>>14)
		if total != init+count {
			return nil, fmt.Errorf("offset %d: totalPly %d, initPly %d, moveCount %d", off, total, init, count)
		}
		off += 8
		if len(b)-off < 2*init+4*count {
			return nil, fmt.Errorf("offset %d: entry cut short", off)
		}
		for range init {
			e.Opening = append(e.Opening, point(binary.LittleEndian.Uint16(b[off:])))
			off += 2
		}
		for range count {
			w := binary.LittleEndian.Uint16(b[off:])
			e.Moves = append(e.Moves, point(w>>6))
			e.Words = append(e.Words, w&63)
			e.Evals = append(e.Evals, int16(binary.LittleEndian.Uint16(b[off+2:])))
			off += 4
		}
		out = append(out, e)
	}
	return out, nil
}

// positions expands an entry into the samples it stands for: each move in
// the position of the opening and the moves before it, the result turning
// with the side to move.
func (e binpackEntry) positions(rule string) []Sample {
	var out []Sample
	for k, m := range e.Moves {
		res := e.Result
		if k%2 == 1 {
			res = 2 - res
		}
		pos := append(slices.Clone(e.Opening), e.Moves[:k]...)
		c := rules.Black // stones alternate from Black's first
		if len(pos)%2 == 1 {
			c = rules.White
		}
		out = append(out, Sample{Size: e.Size, Rule: rule, Position: pos, Move: m, Color: c, Result: res})
	}
	return out
}

// TestBinpackDecodesToTheGamesSamples writes games' samples as binpack and
// binpack_lz4 and decodes them back to the same positions, moves and
// results: one entry per game, its stones before the first engine move as
// the opening, every flag word isFirst|isLast|isNoEval and eval 0.
func TestBinpackDecodesToTheGamesSamples(t *testing.T) {
	black := game(record.Five, rules.Black)
	draw := game(record.FullBoard, rules.Empty)
	draw.Rule = "renju"
	var want []Sample
	var plain, packed bytes.Buffer
	pw, _ := NewWriter(&plain, Binpack)
	zw, _ := NewWriter(&packed, BinpackLZ4)
	for _, rec := range []*record.Record{black, draw} {
		s := FromRecord(rec, Options{Freq: 1})
		want = append(want, s...)
		if err := pw.Write(s); err != nil {
			t.Fatal(err)
		}
		if err := zw.Write(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := pw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	unpacked, err := io.ReadAll(lz4.NewReader(bytes.NewReader(packed.Bytes())))
	if err != nil || !bytes.Equal(unpacked, plain.Bytes()) {
		t.Fatalf("binpack_lz4 decompresses to %x (%v), want binpack's %x", unpacked, err, plain.Bytes())
	}
	entries, err := decodeBinpack(plain.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		t.Fatalf("%d entries, want one per game (2)", len(entries))
	}
	var got []Sample
	for i, e := range entries {
		rule := []string{"freestyle", "renju"}[i]
		if code, _ := RuleCode(rule); e.Rule != code || e.Size != 15 || e.Tag != 0 {
			t.Errorf("entry %d: rule %d size %d tag %d", i, e.Rule, e.Size, e.Tag)
		}
		if want := []rules.Point{{X: 7, Y: 7}, {X: 8, Y: 8}}; !slices.Equal(e.Opening, want) {
			t.Errorf("entry %d: opening %v, want %v", i, e.Opening, want)
		}
		for k := range e.Moves {
			if e.Words[k] != 7 || e.Evals[k] != 0 {
				t.Errorf("entry %d move %d: flags %b eval %d, want 111 and 0", i, k, e.Words[k], e.Evals[k])
			}
		}
		got = append(got, e.positions(rule)...)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("decoded\n%v\nwant\n%v", got, want)
	}
}

// TestBinpackEntriesAsCGomokuCliWritesThem pins the grouping of
// c-gomoku-cli's export_samples_binpack under sampling: positions kept
// apart in one game still make one entry (the moves between are written),
// the entry opens at the first sample's position, and a game with one
// sample writes nothing (its move is written only when a later sample
// continues it).
func TestBinpackEntriesAsCGomokuCliWritesThem(t *testing.T) {
	rec := game(record.Five, rules.Black)
	all := FromRecord(rec, Options{Freq: 1})
	skip := []Sample{all[0], all[2]} // the middle position not kept
	entries, err := decodeBinpack(write(t, Binpack, skip))
	if err != nil || len(entries) != 1 {
		t.Fatalf("%d entries (%v), want 1", len(entries), err)
	}
	e := entries[0]
	if want := []rules.Point{{X: 9, Y: 9}, {X: 0, Y: 0}, {X: 10, Y: 10}}; !slices.Equal(e.Moves, want) || len(e.Opening) != 2 || e.Result != Win {
		t.Errorf("moves %v opening %v result %d, want %v after 2 stones, Win", e.Moves, e.Opening, e.Result, want)
	}
	late := []Sample{all[1], all[2]} // the first kept sample after White's move
	entries, _ = decodeBinpack(write(t, Binpack, late))
	if len(entries) != 1 || len(entries[0].Opening) != 3 || entries[0].Result != Loss {
		t.Errorf("late start: %+v, want an opening of 3 stones and White's loss", entries)
	}
	if b := write(t, Binpack, all[:1]); len(b) != 0 {
		t.Errorf("one sample wrote %d bytes, want none (as c-gomoku-cli)", len(b))
	}
}

// TestBinpackMatchesTheStructLayout decodes our entries with a C reader
// that declares c-gomoku-cli's EntryHead and Move structs.
func TestBinpackMatchesTheStructLayout(t *testing.T) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no C compiler (cc) to build the reference decoder")
	}
	dir := t.TempDir()
	decoder := filepath.Join(dir, "decode")
	if out, err := exec.Command(cc, "-O1", "-o", decoder, filepath.Join("testdata", "decode_binpack.c")).CombinedOutput(); err != nil {
		t.Fatalf("building the decoder: %v\n%s", err, out)
	}
	rec := game(record.Five, rules.White)
	rec.Rule, rec.Size = "standard", 20
	file := filepath.Join(dir, "sample.binpack")
	if err := os.WriteFile(file, write(t, Binpack, FromRecord(rec, Options{Freq: 1})), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(decoder, file).Output()
	if err != nil {
		t.Fatalf("decoder: %v", err)
	}
	want := "20 1 0 5 2 0 3 | 7,7 8,8 | 9,9/1,1,1,0/0 0,0/1,1,1,0/0 10,10/1,1,1,0/0\n"
	if string(out) != want {
		t.Errorf("decoded\n%s\nwant\n%s", out, want)
	}
	if strings.Count(string(out), "\n") != 1 {
		t.Error("more than one entry")
	}
}

// TestBinMoveCarriesTheMoversColour: c-gomoku-cli's bin entry packs the
// move with its colour (1 << 10 for White) in the 13-bit move field.
func TestBinMoveCarriesTheMoversColour(t *testing.T) {
	b := write(t, Bin, FromRecord(game(record.Five, rules.Black), Options{Freq: 1}))
	var moves []uint16
	for off := 0; off < len(b); {
		ply := int(binary.LittleEndian.Uint16(b[off:]) >> 2 & 511)
		moves = append(moves, binary.LittleEndian.Uint16(b[off+2:])>>3)
		off += 4 + 2*ply
	}
	want := []uint16{9<<5 | 9, 1 << 10, 10<<5 | 10} // Black j10, White a1, Black k11
	if !slices.Equal(moves, want) {
		t.Errorf("move fields %v, want %v", moves, want)
	}
}
