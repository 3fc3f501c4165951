// Package sample writes training data from finished games: positions, the
// move an engine chose in each, and the game's outcome, in the layouts
// c-gomoku-cli's -sample option defines (csv, bin, bin_lz4, and dhbloo's
// binpack and binpack_lz4, which Rapfi's training tools read), so that
// existing training pipelines read our files unchanged.
//
// Which positions are sampled is a pure function of the seed, the game's
// number and the move's index, so a sample file can be rebuilt from the
// journal alone and every shard of a batch samples exactly what one process
// playing the whole batch would.
package sample

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/pierrec/lz4/v4"

	"gomoku-arena/results/record"
	"gomoku-arena/rules"
)

// Format is the layout of a sample file.
type Format int

const (
	CSV        Format = iota + 1 // "pos,move,result" lines, c-gomoku-cli's csv
	Bin                          // c-gomoku-cli's packed binary entries
	BinLZ4                       // Bin in an LZ4 frame stream
	Binpack                      // dhbloo's c-gomoku-cli: one entry per game, its opening and moves
	BinpackLZ4                   // Binpack in an LZ4 frame stream
)

// ParseFormat reads c-gomoku-cli's format names.
func ParseFormat(s string) (Format, error) {
	switch s {
	case "csv":
		return CSV, nil
	case "bin":
		return Bin, nil
	case "bin_lz4":
		return BinLZ4, nil
	case "binpack":
		return Binpack, nil
	case "binpack_lz4":
		return BinpackLZ4, nil
	}
	return 0, fmt.Errorf("sample format %q: want csv, bin, bin_lz4, binpack or binpack_lz4", s)
}

func (f Format) String() string {
	switch f {
	case CSV:
		return "csv"
	case Bin:
		return "bin"
	case BinLZ4:
		return "bin_lz4"
	case Binpack:
		return "binpack"
	case BinpackLZ4:
		return "binpack_lz4"
	}
	return "format(" + strconv.Itoa(int(f)) + ")"
}

// DefaultFile is c-gomoku-cli's file name for the format.
func (f Format) DefaultFile() string {
	switch f {
	case Bin:
		return "sample.bin"
	case BinLZ4:
		return "sample.bin.lz4"
	case Binpack:
		return "sample.binpack"
	case BinpackLZ4:
		return "sample.binpack.lz4"
	}
	return "sample.csv"
}

// Compressed says whether the format is an LZ4 frame stream.
func (f Format) Compressed() bool { return f == BinLZ4 || f == BinpackLZ4 }

// Result codes, from the side to move's point of view, as in c-gomoku-cli.
const (
	Loss = 0
	Draw = 1
	Win  = 2
)

// RuleCode is the 3-bit rule field of a binary entry. c-gomoku-cli defines 0
// (freestyle), 1 (standard) and 4 (renju); the arena's other rules take the
// codes it leaves free. Capture rules have none: a move sequence cannot
// describe a position whose stones were taken off.
func RuleCode(rule string) (int, error) {
	switch rule {
	case "freestyle":
		return 0, nil
	case "standard":
		return 1, nil
	case "renju":
		return 4, nil
	case "outer-open":
		return 5, nil
	case "caro":
		return 6, nil
	case "caro-exact":
		return 7, nil
	}
	return 0, fmt.Errorf("rule %q: no sample layout (positions are move sequences; captures cannot be written)", rule)
}

// Options say what to sample.
type Options struct {
	Freq float64 // probability that a position is kept, in [0, 1]
	Seed uint64  // with the game number and move index, decides which are kept
}

// Validate checks the options.
func (o Options) Validate() error {
	if !(o.Freq >= 0 && o.Freq <= 1) {
		return fmt.Errorf("sample freq %v: want a number from 0 to 1", o.Freq)
	}
	return nil
}

// Sample is one training position: the stones in the order they were played,
// the move the engine to move chose, and the game's outcome for that side.
type Sample struct {
	Size     int
	Rule     string
	Position []rules.Point
	Move     rules.Point
	Color    rules.Color // the side to move, which chose Move
	Result   int         // Loss, Draw or Win for the side to move
}

// FromRecord returns the samples of one finished game: each stone an engine
// played (not the opening's stones, not a refused one), kept with probability
// Freq. A game decided by a fault (time, crash, illegal move, refusal, memory)
// gives none, as in c-gomoku-cli: its last positions are not evidence of
// good play.
func FromRecord(rec *record.Record, opt Options) []Sample {
	if rec.End.Forfeit() || rec.End == record.Aborted || !rec.IsGame() {
		return nil
	}
	var out []Sample
	pick := newPicker(opt, rec.Game)
	var played []rules.Point
	for i, m := range rec.Moves {
		refused := rec.End == record.Forbidden && i == len(rec.Moves)-1
		if !m.Opening && !refused && pick.keep() {
			out = append(out, Sample{
				Size:     rec.Size,
				Rule:     rec.Rule,
				Position: append([]rules.Point(nil), played...),
				Move:     m.Point,
				Color:    m.Color,
				Result:   resultFor(rec.Winner, m.Color),
			})
		}
		played = append(played, m.Point)
	}
	return out
}

func resultFor(winner, toMove rules.Color) int {
	switch winner {
	case rules.Empty:
		return Draw
	case toMove:
		return Win
	}
	return Loss
}

// picker draws the keep-or-skip decisions of one game from a splitmix64
// stream seeded by the options' seed and the game number.
type picker struct {
	state uint64
	freq  float64
}

func newPicker(opt Options, game int) *picker {
	return &picker{state: opt.Seed ^ (uint64(game) * 0x9E3779B97F4A7C15), freq: opt.Freq}
}

func (p *picker) keep() bool {
	p.state += 0x9E3779B97F4A7C15
	z := p.state
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	z ^= z >> 31
	u := float64(z>>11) / (1 << 53) // uniform in [0, 1)
	return u < p.freq
}

// Writer writes samples in one format. Close flushes it (and ends the LZ4
// frame); the underlying writer is not closed.
type Writer struct {
	format Format
	buf    *bufio.Writer
	lz     *lz4.Writer
	entry  []byte
}

// NewWriter starts a sample stream on w.
func NewWriter(w io.Writer, f Format) (*Writer, error) {
	sw := &Writer{format: f}
	switch f {
	case CSV, Bin, Binpack:
		sw.buf = bufio.NewWriter(w)
	case BinLZ4, BinpackLZ4:
		sw.lz = lz4.NewWriter(w)
		sw.buf = bufio.NewWriter(sw.lz)
	default:
		return nil, fmt.Errorf("sample: unknown format %v", f)
	}
	return sw, nil
}

// Write appends the samples of one game (in binpack, a game's samples make
// its entries, and no entry spans two calls).
func (w *Writer) Write(samples []Sample) error {
	for _, s := range samples {
		if _, err := RuleCode(s.Rule); err != nil {
			return err
		}
	}
	if w.format == Binpack || w.format == BinpackLZ4 {
		return w.writeBinpack(samples)
	}
	for _, s := range samples {
		var err error
		if w.format == CSV {
			err = w.writeCSV(s)
		} else {
			err = w.writeBin(s)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// writeCSV writes "position,move,result", points in pos notation.
func (w *Writer) writeCSV(s Sample) error {
	var b strings.Builder
	b.WriteString(rules.FormatPosString(s.Position, s.Size))
	b.WriteByte(',')
	b.WriteString(rules.Pos.Format(s.Move, s.Size))
	b.WriteByte(',')
	b.WriteString(strconv.Itoa(s.Result))
	b.WriteByte('\n')
	_, err := w.buf.WriteString(b.String())
	return err
}

// Limits of the binary layout's bit fields.
const (
	maxPly   = 1<<9 - 1
	maxSize  = 1<<5 - 1
	maxCoord = 1<<5 - 1
)

// writeBin writes one entry: two little-endian 16-bit words of bit fields
// (result:2 ply:9 boardsize:5, then rule:3 move:13, the first field in the
// low bits), then ply 16-bit moves, each (x << 5) | y. The move field is
// (x << 5) | y with the mover's colour above, 1 << 10 for White: c-gomoku-cli
// packs the move with its colour bits (game.cpp, export_samples_bin, reads
// the coordinates of a move_t, not of its point), and a reader that masks
// the field to 10 bits reads the point either way.
func (w *Writer) writeBin(s Sample) error {
	code, _ := RuleCode(s.Rule) // checked by Write
	ply := len(s.Position)
	if ply > maxPly || s.Size > maxSize {
		return fmt.Errorf("sample: %d stones on a %dx%d board do not fit the binary layout", ply, s.Size, s.Size)
	}
	e := w.entry[:0]
	e = binary.LittleEndian.AppendUint16(e, uint16(s.Result)|uint16(ply)<<2|uint16(s.Size)<<11)
	move := packPoint(s.Move)
	if s.Color == rules.White {
		move |= 1 << 10
	}
	e = binary.LittleEndian.AppendUint16(e, uint16(code)|move<<3)
	for _, p := range s.Position {
		e = binary.LittleEndian.AppendUint16(e, packPoint(p))
	}
	w.entry = e
	_, err := w.buf.Write(e)
	return err
}

func packPoint(p rules.Point) uint16 {
	return uint16(min(max(p.X, 0), maxCoord))<<5 | uint16(min(max(p.Y, 0), maxCoord))
}

// Flush pushes buffered entries to the underlying writer (for LZ4, as a
// complete block, so what is on disk decodes).
func (w *Writer) Flush() error {
	if err := w.buf.Flush(); err != nil {
		return err
	}
	if w.lz != nil {
		return w.lz.Flush()
	}
	return nil
}

// Close flushes and, for LZ4, writes the frame's end mark.
func (w *Writer) Close() error {
	if err := w.buf.Flush(); err != nil {
		return err
	}
	if w.lz != nil {
		return w.lz.Close()
	}
	return nil
}
