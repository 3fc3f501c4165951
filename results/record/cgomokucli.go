package record

// c-gomoku-cli's records (github.com/dhbloo/c-gomoku-cli, src/game.cpp:
// export_sgf, export_pgn, decode_state), written by `arena gomoku-cli` so
// that what reads that tool's -sgf and -pgn files reads ours:
//
//	(;FF[4]GM[4]GN[3]EV[alpha x beta]DT[2026.11.26 23:16:04]RO[1.3]RU[0]SZ[15]PB[alpha]PW[beta]RE[B+1]TE[Black win by five connection]
//	;B[hh]C[opening move];W[hi]C[opening move]
//	;B[ij]C[12ms];W[gi]C[3ms];... eight moves a line
//	)
//
//	[Event "3"]
//	[Date "2026.11.26 23:16:04"]
//	[Round "1.3"]
//	[Black "alpha"]
//	[White "beta"]
//	[Result "0-1"]
//	[Termination "Black win by five connection"]
//	[PlyCount "27"]
//	0-1
//
// The SGF point is x then y, a = 0; RU is c-gomoku-cli's rule number; RE is
// B+1, W+1 or 0; the time in a move's comment is its think time. The PGN's
// Result is PGN's own, White's score first ("0-1": Black won); PlyCount
// counts the stones the engines played. Dates are local time, at the game's
// finish.

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"gomoku-arena/rules"
)

// CGomokuCliGame is what c-gomoku-cli's records say of a game beyond the
// record itself.
type CGomokuCliGame struct {
	Round   int    // from 1
	InRound int    // the game's number within its round, from 1
	Rule    string // RU: c-gomoku-cli's -rule number (0, 1, 4, or the arena's extension codes), else the arena's rule name
}

// CGomokuCliOutcome is the game's result as c-gomoku-cli words it
// (Game::decode_state): one of black (Black won), draw or white, and why.
// The arena's terminations that c-gomoku-cli does not have take the nearest
// of its words: any forfeit other than time and an illegal move is an
// "opponent crash".
func CGomokuCliOutcome(r *Record, black, draw, white string) (result, reason string) {
	winner, result := "Black", black
	switch r.Winner {
	case rules.White:
		winner, result = "White", white
	case rules.Empty:
		result = draw
	}
	switch r.End {
	case Five:
		return result, winner + " win by five connection"
	case CaptureWin:
		return result, winner + " win by captures"
	case FullBoard:
		return result, "Draw by fullfilled board" // sic: c-gomoku-cli's words
	case MoveCap:
		return result, "Draw by adjudication"
	case Illegal:
		return result, winner + " win by opponent illegal move"
	case Time:
		return result, winner + " win by time forfeit"
	case Forbidden:
		kind := "double three"
		switch {
		case strings.Contains(r.Detail, string(rules.Forbidden44)):
			kind = "double four"
		case strings.Contains(r.Detail, string(rules.ForbiddenOverline)):
			kind = "overline"
		}
		return result, "Black play forbidden move - " + kind
	case DoubleForfeit:
		return draw, "Draw by double forfeit"
	}
	return result, winner + " win by opponent crash"
}

// played are the record's stones on the board: the opening's and the
// engines', without refused ones.
func (r *Record) played() []Move {
	var ms []Move
	for _, m := range r.Moves {
		if m.Refused == "" {
			ms = append(ms, m)
		}
	}
	return ms
}

// WriteCGomokuCliSGF writes r as c-gomoku-cli's -sgf writes a game,
// followed by its blank line.
func WriteCGomokuCliSGF(w io.Writer, r *Record, g CGomokuCliGame) error {
	var b bytes.Buffer
	b.WriteString("(;FF[4]GM[4]")
	fmt.Fprintf(&b, "GN[%d]", r.Game)
	prop(&b, "EV", r.Black+" x "+r.White)
	fmt.Fprintf(&b, "DT[%s]", r.Finish.Local().Format("2006.01.02 15:04:05"))
	fmt.Fprintf(&b, "RO[%d.%d]", g.Round, g.InRound)
	prop(&b, "RU", g.Rule)
	fmt.Fprintf(&b, "SZ[%d]", r.Size)
	prop(&b, "PB", r.Black)
	prop(&b, "PW", r.White)
	result, reason := CGomokuCliOutcome(r, "B+1", "0", "W+1")
	prop(&b, "RE", result)
	prop(&b, "TE", reason)
	b.WriteByte('\n')
	moves := r.played()
	opening := 0
	for _, m := range moves {
		if m.Opening {
			opening++
		}
	}
	perLine := 0
	for j, m := range moves {
		if opening > 0 && j == opening {
			b.WriteByte('\n')
		}
		if perLine >= 8 {
			b.WriteByte('\n')
			perLine = 0
		}
		colour := "B"
		if m.Color == rules.White {
			colour = "W"
		}
		fmt.Fprintf(&b, ";%s[%c%c]", colour, 'a'+m.Point.X, 'a'+m.Point.Y)
		if m.Opening {
			b.WriteString("C[opening move]")
			continue
		}
		fmt.Fprintf(&b, "C[%dms]", m.Think.Milliseconds())
		perLine++
	}
	b.WriteString(")\n\n")
	_, err := w.Write(b.Bytes())
	return err
}

// WriteCGomokuCliPGN writes r as c-gomoku-cli's -pgn writes a game: tags
// and the result, no moves.
func WriteCGomokuCliPGN(w io.Writer, r *Record, g CGomokuCliGame) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "[Event \"%d\"]\n", r.Game)
	fmt.Fprintf(&b, "[Date \"%s\"]\n", r.Finish.Local().Format("2006.01.02 15:04:05"))
	fmt.Fprintf(&b, "[Round \"%d.%d\"]\n", g.Round, g.InRound)
	fmt.Fprintf(&b, "[Black \"%s\"]\n", pgnTag(r.Black))
	fmt.Fprintf(&b, "[White \"%s\"]\n", pgnTag(r.White))
	result, reason := CGomokuCliOutcome(r, "0-1", "1/2-1/2", "1-0")
	fmt.Fprintf(&b, "[Result \"%s\"]\n", result)
	fmt.Fprintf(&b, "[Termination \"%s\"]\n", reason)
	engine := 0
	for _, m := range r.played() {
		if !m.Opening {
			engine++
		}
	}
	fmt.Fprintf(&b, "[PlyCount \"%d\"]\n", engine)
	b.WriteString(result + "\n\n")
	_, err := w.Write(b.Bytes())
	return err
}

// pgnTag escapes a PGN tag value (a quote or backslash in a name).
func pgnTag(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", " ", "\r", " ").Replace(s)
}
