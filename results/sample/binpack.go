package sample

import (
	"encoding/binary"
	"fmt"
	"slices"

	"gomoku-arena/rules"
)

// Binpack's layout, as dhbloo's c-gomoku-cli writes it (game.cpp,
// Game::export_samples_binpack, commit d27c163): an entry is an 8-byte head
// of little-endian bit fields, the first field in the low bits,
//
//	boardSize:5 rule:3 result:4 totalPly:10 initPly:10 | gameTag:14 moveCount:18
//
// then initPly 16-bit points (the stones before the entry's first move, in
// the order they were played), then moveCount moves of 4 bytes: a 16-bit word
// isFirst:1 isLast:1 isNoEval:1 isPass:1 reserved:2 move:10 and a 16-bit
// eval. Points are (x << 5) | y. result is the first sample's outcome for the
// side to move then (0 loss, 1 draw, 2 win), totalPly = initPly + moveCount,
// gameTag 0.
const (
	// moveFlags is every move's first bits: isFirst, isLast and isNoEval
	// (c-gomoku-cli has no eval from a Gomocup engine; the eval field is 0).
	moveFlags = 1 | 1<<1 | 1<<2
	maxPly10  = 1<<10 - 1
)

// writeBinpack writes one game's samples as c-gomoku-cli does: an entry
// opens at a sample with the stones before it (initPly), and each following
// sample whose position continues the entry's sequence adds the moves
// played since, then its own move; a sample that does not continue it
// closes the entry and opens another. The first sample's move is written
// only when a later sample continues its entry, so a game of one sample
// writes nothing (c-gomoku-cli's, kept so that the bytes are the same).
func (w *Writer) writeBinpack(samples []Sample) error {
	if len(samples) == 0 {
		return nil
	}
	var (
		head    Sample
		opening []rules.Point
		moves   []rules.Point
	)
	open := func(s Sample) int {
		head, opening, moves = s, append(opening[:0], s.Position...), moves[:0]
		return len(s.Position)
	}
	// follows is where s's position continues the entry's sequence, or -1.
	follows := func(s Sample) int {
		seq := append(slices.Clip(opening), moves...)
		if len(seq) > len(s.Position) || !slices.Equal(seq, s.Position[:len(seq)]) {
			return -1
		}
		return len(seq)
	}
	open(samples[0])
	for _, s := range samples[1:] {
		i := follows(s)
		if i < 0 {
			if err := w.flushBinpack(head, opening, moves); err != nil {
				return err
			}
			i = open(s)
		}
		moves = append(moves, s.Position[i:]...)
		moves = append(moves, s.Move)
	}
	if len(moves) == 0 {
		return nil
	}
	return w.flushBinpack(head, opening, moves)
}

// flushBinpack writes one entry.
func (w *Writer) flushBinpack(head Sample, opening, moves []rules.Point) error {
	code, _ := RuleCode(head.Rule) // checked by Write
	total := len(opening) + len(moves)
	if total > maxPly10 || head.Size > maxSize {
		return fmt.Errorf("sample: %d stones on a %dx%d board do not fit the binpack layout", total, head.Size, head.Size)
	}
	e := w.entry[:0]
	e = binary.LittleEndian.AppendUint32(e, uint32(head.Size)|uint32(code)<<5|uint32(head.Result)<<8|
		uint32(total)<<12|uint32(len(opening))<<22)
	e = binary.LittleEndian.AppendUint32(e, uint32(len(moves))<<14)
	for _, p := range opening {
		e = binary.LittleEndian.AppendUint16(e, packPoint(p))
	}
	for _, p := range moves {
		e = binary.LittleEndian.AppendUint16(e, moveFlags|packPoint(p)<<6)
		e = binary.LittleEndian.AppendUint16(e, 0)
	}
	w.entry = e
	_, err := w.buf.Write(e)
	return err
}
