package rating

import (
	"fmt"
	"io"
	"strings"
)

// WriteRatingPGN writes one game as the minimal PGN that rating tools read
// (Ordo's and BayesElo's "readpgn" only need the players and the result):
//
//	[White "first"]
//	[Black "second"]
//	[Result "1-0"]
//
//	1-0
//
// followed by a blank line, so games can be appended one after another.
// first is the engine that moved first and score its score (1, ½ or 0).
//
// Colours: in PGN the first mover is White; in Gomoku and Renju the first
// mover plays Black. The tags follow PGN's meaning, so a Gomoku game's Black
// engine is written as White. The rating tools only use the tags to credit
// the result (and, optionally, to fit a first-move advantage), for which
// "moved first" is the meaning that matters.
func WriteRatingPGN(w io.Writer, first, second string, score float64) error {
	var result string
	switch score {
	case 1:
		result = "1-0"
	case 0:
		result = "0-1"
	case 0.5:
		result = "1/2-1/2"
	default:
		return fmt.Errorf("pgn: %s vs %s: score %v is not 1, 0.5 or 0", first, second, score)
	}
	_, err := fmt.Fprintf(w, "[White \"%s\"]\n[Black \"%s\"]\n[Result \"%s\"]\n\n%s\n\n",
		pgnTagValue(first), pgnTagValue(second), result, result)
	return err
}

// pgnTagValue escapes a tag value as the PGN standard (section 8.1.1) asks:
// backslash and quote are preceded by a backslash. Line breaks, which a tag
// cannot hold, become spaces.
var pgnTagValue = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\r\n", " ", "\n", " ", "\r", " ").Replace
