package record

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func readAllPGN(in string) ([]PGNGame, error) {
	var games []PGNGame
	err := ReadPGN(strings.NewReader(in), "t.pgn", func(g PGNGame) error {
		games = append(games, g)
		return nil
	})
	return games, err
}

func TestReadPGN(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     []PGNGame
	}{
		{"results only", "[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1-0\n\n[White \"b\"]\n[Black \"a\"]\n[Result \"1/2-1/2\"]\n\n1/2-1/2\n",
			[]PGNGame{{"a", "b", "1-0", 1}, {"b", "a", "1/2-1/2", 7}}},
		{"chess movetext, comments, variations, NAGs, escapes",
			"\ufeff% exported by a tool\n[Event \"x\"]\n[White \"Deep \\\"Blue\\\"\"]\n[Black \"Kasparov, G\"]\n[Result \"0-1\"]\n\n" +
				"1. e4 {a comment [with] 1-0 inside} c5 (1... e5 2. Nf3 (2. f4) 1-0) 2. Nf3 $1 ; 1-0 here is a comment\n3. d4 *\n0-1\n",
			nil}, // "*" in the movetext ends the game: it contradicts the tag
		{"unfinished", "[White \"a\"][Black \"b\"][Result \"*\"] 1. d4 *", []PGNGame{{"a", "b", "*", 1}}},
		{"glued and CRLF", "[White \"a\"]\r\n[Black \"b\"]\r\n[Result \"0-1\"]\r\n\r\n1. d4 d5 0-1[White \"c\"][Black \"a\"][Result \"1-0\"]1-0",
			[]PGNGame{{"a", "b", "0-1", 1}, {"c", "a", "1-0", 5}}},
		{"names with spaces and UTF-8", "[White \"Rapfi 25\"]\n[Black \"黑石 1.0\"]\n[Result \"1-0\"]\n1-0", []PGNGame{{"Rapfi 25", "黑石 1.0", "1-0", 1}}},
		{"empty file", "", nil},
		{"blank lines only", "\n\n  \n", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := readAllPGN(c.in)
			if c.want == nil && c.name != "empty file" && c.name != "blank lines only" {
				if err == nil {
					t.Fatalf("read %+v, want an error", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v\nwant %+v", got, c.want)
			}
		})
	}
}

// Each bad file is an error naming the file and the line at fault.
func TestReadPGNRefuses(t *testing.T) {
	tags := func(w, b, r string) string {
		return fmt.Sprintf("[White \"%s\"]\n[Black \"%s\"]\n[Result \"%s\"]\n\n", w, b, r)
	}
	good := tags("a", "b", "1-0") + "1-0\n\n"
	for _, c := range []struct {
		name, in, want string
	}{
		{"no Result", "[White \"a\"]\n[Black \"b\"]\n\n1-0\n", "t.pgn:1: the game has no Result tag"},
		{"no Black", good + "[White \"a\"]\n[Result \"1-0\"]\n1-0", "t.pgn:7: the game has no Black tag"},
		{"twice", "[White \"a\"]\n[White \"c\"]\n[Black \"b\"]\n[Result \"1-0\"]\n1-0", "t.pgn:2: tag White given twice"},
		{"bad result", tags("a", "b", "2-0") + "2-0", "t.pgn:3: tag Result \"2-0\""},
		{"contradiction", good + tags("a", "b", "1-0") + "1. d4 d5\n0-1\n", "t.pgn:12: the game ends 0-1 but its Result tag (line 9) says 1-0"},
		{"no marker before next game", tags("a", "b", "1-0") + "1. d4\n" + good, "t.pgn:6: a tag inside the game from line 1"},
		{"no marker at end", good + tags("a", "b", "1-0") + "1. d4 d5", "t.pgn:7: the file ends inside this game"},
		{"ends in tags", good + "[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n", "t.pgn:7: the file ends after the tags"},
		{"ends in a tag", good + "[White \"a", "t.pgn:7: the file ends inside a tag White"},
		{"unclosed comment", tags("a", "b", "1-0") + "1. d4 {never\nclosed\n", "t.pgn:5: the file ends inside a comment"},
		{"unclosed variation", tags("a", "b", "1-0") + "1. d4 (1. e4 e5\n", "t.pgn:5: the file ends inside a variation"},
		{"stray paren", tags("a", "b", "1-0") + "1. d4 ) 1-0", "t.pgn:5: ')' closes no variation"},
		{"empty name", tags("", "b", "1-0") + "1-0", "t.pgn:1: tag White: the name is empty"},
		{"self", tags("a", "a", "1-0") + "1-0", "t.pgn:2: \"a\" plays itself"},
		{"Latin-1", tags("Caf\xe9", "b", "1-0") + "1-0", "t.pgn:1: tag White: the name is not UTF-8"},
		{"control character", tags("a\x1b[2J", "b", "1-0") + "1-0", "t.pgn:1: tag White: the name holds the control character U+001B"},
		{"NUL", "[White \"a\x00\"]", "t.pgn:1: a NUL byte"},
		{"newline in value", "[White \"a\nb\"]", "t.pgn:1: tag White: the value's closing quote is missing"},
		{"bad escape", "[White \"a\\n\"]", "t.pgn:1: tag White: escape \\n"},
		{"no quotes", "[White a]", "t.pgn:1: tag White: expected its value in double quotes"},
		{"not a tag", good + "1. e4 e5 1-0\n", "t.pgn:7: expected a tag"},
		{"long value", "[White \"" + strings.Repeat("x", maxPGNTag+1) + "\"]", "t.pgn:1: tag White: value longer than 4096 bytes"},
		{"long name", "[" + strings.Repeat("x", maxPGNTag+1) + " \"a\"]", "t.pgn:1: tag name longer than 4096 bytes"},
		{"long symbol", tags("a", "b", "1-0") + strings.Repeat("e", maxPGNToken+1), "t.pgn:5: a movetext symbol longer than 256 bytes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := readAllPGN(c.in)
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("error %v\nwant one starting %q", err, c.want)
			}
		})
	}
}

func TestReadPGNStopsOnCallbackError(t *testing.T) {
	stop := errors.New("stop")
	n := 0
	err := ReadPGN(strings.NewReader(strings.Repeat("[White \"a\"][Black \"b\"][Result \"1-0\"]1-0\n", 3)), "t.pgn", func(PGNGame) error {
		n++
		return stop
	})
	if !errors.Is(err, stop) || n != 1 {
		t.Errorf("err %v after %d games", err, n)
	}
}

// Whatever ReadPGN accepts, written back as the minimal PGN rating tools
// read, reads back the same; whatever it refuses, it refuses naming the
// file and a line; it never panics.
func FuzzReadPGN(f *testing.F) {
	f.Add("[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1-0\n")
	f.Add("[White \"a\"][Black \"b\"][Result \"*\"] 1. d4 {x} (1. e4) $2 ; c\n*")
	f.Add("% esc\n[White \"a \\\"q\\\"\"]\r\n[Black \"b\"]\r\n[Result \"1/2-1/2\"]\r\n1/2-1/2[White \"b\"][Black \"a\"][Result \"0-1\"]0-1")
	f.Fuzz(func(t *testing.T, in string) {
		games, err := readAllPGN(in)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "t.pgn:") {
				t.Fatalf("error does not name the file and line: %v", err)
			}
			return
		}
		var b strings.Builder
		for _, g := range games {
			esc := strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace
			fmt.Fprintf(&b, "[White \"%s\"]\n[Black \"%s\"]\n[Result \"%s\"]\n\n%s\n\n", esc(g.White), esc(g.Black), g.Result, g.Result)
		}
		again, err := readAllPGN(b.String())
		if err != nil {
			t.Fatalf("cannot read back %q: %v", b.String(), err)
		}
		if len(again) != len(games) {
			t.Fatalf("%d games, %d read back", len(games), len(again))
		}
		for k := range games {
			if again[k].White != games[k].White || again[k].Black != games[k].Black || again[k].Result != games[k].Result {
				t.Fatalf("game %d: %+v read back as %+v", k, games[k], again[k])
			}
		}
	})
}
