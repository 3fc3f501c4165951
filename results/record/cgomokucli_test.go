package record

import (
	"bytes"
	"testing"
	"time"

	"gomoku-arena/rules"
)

// cgcGame30 is game 30 of a run of c-gomoku-cli (dhbloo/c-gomoku-cli
// 0891174, built from source), as its -sgf and -pgn files hold it.
const (
	cgcGame30SGF = `(;FF[4]GM[4]GN[30]EV[greedy x search1]DT[2026.11.26 23:57:21]RO[1.30]RU[0]SZ[15]PB[greedy]PW[search1]RE[W+1]TE[White win by five connection]
;B[hk]C[opening move];W[hh]C[opening move];B[je]C[opening move]
;W[gh]C[0ms];B[jh]C[0ms];W[eh]C[0ms];B[fh]C[1ms];W[gg]C[0ms];B[jg]C[0ms];W[jf]C[0ms];B[jk]C[0ms]
;W[gi]C[3ms];B[ig]C[0ms];W[gf]C[1ms];B[ge]C[0ms];W[gj]C[0ms])

`
	cgcGame30PGN = `[Event "30"]
[Date "2026.11.26 23:57:21"]
[Round "1.30"]
[Black "greedy"]
[White "search1"]
[Result "1-0"]
[Termination "White win by five connection"]
[PlyCount "13"]
1-0

`
)

// game30 is that game as the arena records it.
func game30() *Record {
	r := &Record{Game: 30, Size: 15, Rule: "freestyle", Black: "greedy", White: "search1", Winner: rules.White, End: Five,
		Finish: time.Date(2026, 11, 26, 23, 57, 21, 400e6, time.Local)}
	think := map[int]time.Duration{6: 1500 * time.Microsecond, 11: 3 * time.Millisecond, 13: time.Millisecond}
	for i, sq := range []string{"hk", "hh", "je", "gh", "jh", "eh", "fh", "gg", "jg", "jf", "jk", "gi", "ig", "gf", "ge", "gj"} {
		m := Move{Point: rules.Point{X: int(sq[0] - 'a'), Y: int(sq[1] - 'a')}, Color: rules.Black, Opening: i < 3, Think: think[i]}
		if i%2 == 1 {
			m.Color = rules.White
		}
		r.Moves = append(r.Moves, m)
	}
	// A refused stone is no move of c-gomoku-cli's records.
	r.Moves = append(r.Moves, Move{Color: rules.Black, Raw: "99,99", Refused: "off board"})
	return r
}

func TestWriteCGomokuCliSGF(t *testing.T) {
	var b bytes.Buffer
	if err := WriteCGomokuCliSGF(&b, game30(), CGomokuCliGame{Round: 1, InRound: 30, Rule: "0"}); err != nil {
		t.Fatal(err)
	}
	if b.String() != cgcGame30SGF {
		t.Errorf("got\n%s\nwant (c-gomoku-cli's)\n%s", b.String(), cgcGame30SGF)
	}
}

func TestWriteCGomokuCliPGN(t *testing.T) {
	var b bytes.Buffer
	if err := WriteCGomokuCliPGN(&b, game30(), CGomokuCliGame{Round: 1, InRound: 30, Rule: "0"}); err != nil {
		t.Fatal(err)
	}
	if b.String() != cgcGame30PGN {
		t.Errorf("got\n%s\nwant (c-gomoku-cli's)\n%s", b.String(), cgcGame30PGN)
	}
}
