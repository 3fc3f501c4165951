package pairing

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// TRF-16 is FIDE's tournament report format: one "001" line per player with
// every round's opponent, colour and result in fixed columns, plus the "XXR"
// extension (used by pairing engines) for the number of rounds. Two records
// of the newer FIDE report are read too, because certified engines' test
// files use them: "142" (number of rounds, when there is no XXR) and "240"
// (a list of players given a bye or absent in one round; we use it only for
// the round about to be paired, where it marks the players not to pair).
//
// Colours: TRF speaks chess, where the first mover is White. Our first
// mover is Black, so a TRF "w" is our Pairing.Black and a TRF "b" our
// Pairing.White. Starting numbers are entrant IDs plus one.

// TRF is the part of a tournament report the Swiss pairing needs.
type TRF struct {
	Name string // from the 012 line, may be empty
	// The tournament's header lines, each written when set: 022 city,
	// 032 federation, 042 start date, 052 end date, 102 chief arbiter
	// (dates as the organizer wrote them, YYYY-MM-DD or YYYY/MM/DD).
	City, Federation, StartDate, EndDate, ChiefArbiter string
	Rounds                                             int // XXR: total rounds planned, 0 if not given
	// ByePoints is the pairing-allocated bye's points (BBU, a 162 "P"
	// entry or XXS PAB=): 1, 0.5 or 0; nil means a win's.
	ByePoints *float64
	// Forbidden lists groups of players (IDs) who must not meet (XXP).
	Forbidden [][]int
	// InitialBlack is "XXC black1" (or "152 B"): the top seed's first-round
	// colour, and the colour of rule 5.2.5, is chess Black, our second
	// mover. The default, "XXC white1", is the first move.
	InitialBlack bool
	Players      []TRFPlayer
	Games        []Game // IDs are starting numbers minus one
}

// TRFPlayer is one 001 line's identity; its rounds are in TRF.Games.
type TRFPlayer struct {
	Name   string
	Rating int
	// Absent marks a player the file says is not paired in the round after
	// the last one played (an H, F, Z or "-" entry there).
	Absent bool
	// Withdrawn is the first round the player is no longer paired in, having
	// left the event (0: not withdrawn). WriteTRF writes those rounds, and
	// the round to be paired, as "0000 - -"; ReadTRF cannot tell a
	// withdrawal from an absence and sets Absent only.
	Withdrawn int
}

// Column layout of a 001 line (0-based offsets).
const (
	trfStartNo   = 4  // 4 digits
	trfName      = 14 // 33 characters
	trfRating    = 48 // 4 digits
	trfPoints    = 80 // 4 characters
	trfRank      = 85 // 4 digits
	trfFirstGame = 91 // each round: 4-digit opponent, colour at +5, result at +7
	trfGameWidth = 10
)

// MaxRounds bounds every round number read from outside (a report's
// rounds, a game's round, the round to pair): pairing a round costs time
// and memory in proportion to players times rounds, so a number must not
// ask for more than the events this is for (Swiss events of a few dozen
// rounds at most) could ever need.
const MaxRounds = 999

// MaxForbiddenPairs bounds the pairs a report's forbidden groups (XXP,
// "forbidden") make: a group of k players makes k(k-1)/2, so a few bytes
// listing many players could otherwise ask for memory in their square.
const MaxForbiddenPairs = 1 << 20

// forbiddenPairs counts the pairs of the groups so far with one more of k
// players, and reports whether they stay within MaxForbiddenPairs.
func forbiddenPairs(sofar *int, k int) bool {
	if k > MaxForbiddenPairs {
		return false
	}
	*sofar += k * (k - 1) / 2
	return *sofar <= MaxForbiddenPairs
}

// MaxTRFPlayers is the most players TRF-16's four-digit starting ranks
// number; bigger events use the JSON event form.
const MaxTRFPlayers = 9999

// ReadTRF parses a TRF-16 report. Errors name the line and the field.
func ReadTRF(r io.Reader) (*TRF, error) {
	t := &TRF{}
	type entry struct {
		opp         int
		colour, res byte
	}
	type line struct {
		no      int
		start   int
		entries []entry
	}
	var lines []line
	type absence struct {
		no, round int
		players   []int
	}
	var absences []absence
	type forbid struct {
		no      int
		players []int
	}
	var forbidden []forbid
	rounds142 := 0
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	ln := 0
	for sc.Scan() {
		ln++
		s := strings.TrimRight(sc.Text(), " \r")
		switch {
		case strings.HasPrefix(s, "012"):
			if len(s) > 4 {
				t.Name = strings.TrimSpace(s[4:])
			}
		case len(s) > 4 && header[s[:3]] != nil:
			*header[s[:3]](t) = strings.TrimSpace(s[4:])
		case strings.HasPrefix(s, "XXR"):
			n, err := strconv.Atoi(strings.TrimSpace(s[3:]))
			if err != nil || n < 1 || n > MaxRounds {
				return nil, fmt.Errorf("trf line %d: XXR: %q is not a number of rounds (1 to %d)", ln, strings.TrimSpace(s[3:]), MaxRounds)
			}
			t.Rounds = n
		case strings.HasPrefix(s, "XXC"):
			for _, tok := range strings.Fields(s[3:]) {
				switch tok {
				case "white1":
					t.InitialBlack = false
				case "black1":
					t.InitialBlack = true
				default:
					return nil, fmt.Errorf("trf line %d: XXC: %q is not supported (want white1 or black1)", ln, tok)
				}
			}
		case strings.HasPrefix(s, "152 "):
			switch strings.TrimSpace(s[3:]) {
			case "W":
				t.InitialBlack = false
			case "B":
				t.InitialBlack = true
			default:
				return nil, fmt.Errorf("trf line %d: 152: initial colour %q is not W or B", ln, strings.TrimSpace(s[3:]))
			}
		case strings.HasPrefix(s, "XXP"):
			var group []int
			for _, f := range strings.Fields(s[3:]) {
				p, err := strconv.Atoi(f)
				if err != nil || p < 1 {
					return nil, fmt.Errorf("trf line %d: XXP: %q is not a starting rank", ln, f)
				}
				group = append(group, p)
			}
			forbidden = append(forbidden, forbid{ln, group})
		case strings.HasPrefix(s, "BBW"), strings.HasPrefix(s, "BBD"), strings.HasPrefix(s, "BBL"),
			strings.HasPrefix(s, "BBZ"), strings.HasPrefix(s, "BBF"), strings.HasPrefix(s, "BBU"):
			v, err := strconv.ParseFloat(strings.TrimSpace(s[3:]), 64)
			if err != nil {
				return nil, fmt.Errorf("trf line %d: %s: %q is not a number of points", ln, s[:3], strings.TrimSpace(s[3:]))
			}
			if err := t.points(map[string]string{"BBW": "W", "BBD": "D", "BBL": "L", "BBZ": "Z", "BBF": "Z", "BBU": "P"}[s[:3]], v); err != nil {
				return nil, fmt.Errorf("trf line %d: %s: %v", ln, s[:3], err)
			}
		case strings.HasPrefix(s, "162 "):
			// "162  W 1.0    D 0.5 ...": a result code in column 6, its
			// points in the next four, again every 9 columns.
			for i := 5; i < len(s); i += 9 {
				f := strings.TrimSpace(s[i:min(i+5, len(s))])
				if f == "" {
					continue
				}
				v, err := strconv.ParseFloat(strings.TrimSpace(f[1:]), 64)
				if err != nil {
					return nil, fmt.Errorf("trf line %d: 162 (column %d): %q is not a result code and points", ln, i+1, f)
				}
				if err := t.points(f[:1], v); err != nil {
					return nil, fmt.Errorf("trf line %d: 162 (column %d): %v", ln, i+1, err)
				}
			}
		case strings.HasPrefix(s, "XXS"):
			// JaVaFo's points: "XXS WW=1 BW=1 WD=0.5 ... PAB=1".
			codes := map[string]string{"WW": "W", "BW": "W", "W": "W", "FW": "W", "FPB": "W",
				"WD": "D", "BD": "D", "D": "D", "HPB": "D", "WL": "L", "BL": "L", "FL": "Z", "ZPB": "Z", "PAB": "P"}
			for _, f := range strings.Fields(s[3:]) {
				k, vs, _ := strings.Cut(f, "=")
				v, err := strconv.ParseFloat(vs, 64)
				if err != nil || codes[k] == "" {
					return nil, fmt.Errorf("trf line %d: XXS: %q is not KEY=POINTS", ln, f)
				}
				if err := t.points(codes[k], v); err != nil {
					return nil, fmt.Errorf("trf line %d: XXS: %s: %v", ln, k, err)
				}
			}
		case strings.HasPrefix(s, "XXA"), strings.HasPrefix(s, "250 "), strings.HasPrefix(s, "260 "):
			return nil, fmt.Errorf("trf line %d: %s: accelerated pairings and round-bounded forbidden pairs are not supported", ln, strings.TrimSpace(s[:3]))
		case strings.HasPrefix(s, "142 "):
			if n, err := strconv.Atoi(strings.TrimSpace(s[3:])); err == nil && n > 0 {
				if n > MaxRounds {
					return nil, fmt.Errorf("trf line %d: 142: %d rounds, more than %d", ln, n, MaxRounds)
				}
				rounds142 = n
			}
		case strings.HasPrefix(s, "240 "):
			// "240 C RRRR PPPP PPPP ...": C is the bye or absence code.
			f := strings.Fields(s[3:])
			if len(f) < 2 || len(f[0]) != 1 || !strings.Contains("HFZU", f[0]) {
				return nil, fmt.Errorf("trf line %d: 240: want a code (H, F, Z or U), a round and starting ranks", ln)
			}
			a := absence{no: ln}
			var err error
			if a.round, err = strconv.Atoi(f[1]); err != nil || a.round < 1 || a.round > MaxRounds {
				return nil, fmt.Errorf("trf line %d: 240: round %q is not a round number (1 to %d)", ln, f[1], MaxRounds)
			}
			for _, ps := range f[2:] {
				p, err := strconv.Atoi(ps)
				if err != nil || p < 1 {
					return nil, fmt.Errorf("trf line %d: 240: %q is not a starting rank", ln, ps)
				}
				a.players = append(a.players, p)
			}
			if f[0] != "U" { // a pairing-allocated bye is the engine's to give
				absences = append(absences, a)
			}
		case strings.HasPrefix(s, "001"):
			if len(s) > trfStartNo+4 && s[trfStartNo+4] >= '0' && s[trfStartNo+4] <= '9' {
				return nil, fmt.Errorf("trf line %d: starting rank (columns 5-8) runs into column 9: TRF-16 holds at most %d players; pair bigger events from the JSON event form", ln, MaxTRFPlayers)
			}
			if len(s) < trfRank {
				return nil, fmt.Errorf("trf line %d: player line too short (%d characters, want at least %d)", ln, len(s), trfRank)
			}
			start, err := strconv.Atoi(strings.TrimSpace(s[trfStartNo : trfStartNo+4]))
			if err != nil || start < 1 {
				return nil, fmt.Errorf("trf line %d: starting rank (columns 5-8): %q", ln, s[trfStartNo:trfStartNo+4])
			}
			p := TRFPlayer{Name: strings.TrimSpace(s[trfName:min(trfName+33, len(s))])}
			if rs := strings.TrimSpace(s[trfRating : trfRating+4]); rs != "" {
				if p.Rating, err = strconv.Atoi(rs); err != nil {
					return nil, fmt.Errorf("trf line %d: rating (columns 49-52): %q", ln, rs)
				}
			}
			l := line{no: ln, start: start}
			if r := (len(s) - trfFirstGame + trfGameWidth - 1) / trfGameWidth; r > MaxRounds {
				return nil, fmt.Errorf("trf line %d: %d rounds of games, more than %d", ln, r, MaxRounds)
			}
			for r := 0; trfFirstGame+r*trfGameWidth < len(s); r++ {
				f := s[trfFirstGame+r*trfGameWidth:]
				f = f[:min(len(f), 8)]
				for len(f) < 8 {
					f += " "
				}
				col := trfFirstGame + r*trfGameWidth + 1
				e := entry{colour: f[5], res: f[7]}
				if os := strings.TrimSpace(f[:4]); os != "" {
					if e.opp, err = strconv.Atoi(os); err != nil || e.opp < 0 {
						return nil, fmt.Errorf("trf line %d: round %d opponent (columns %d-%d): %q", ln, r+1, col, col+3, f[:4])
					}
				}
				if !strings.ContainsRune("wb- ", rune(e.colour)) {
					return nil, fmt.Errorf("trf line %d: round %d colour (column %d): %q is not w, b or -", ln, r+1, col+5, e.colour)
				}
				if !strings.ContainsRune("10=+-WDLHFUZ ", rune(e.res)) {
					return nil, fmt.Errorf("trf line %d: round %d result (column %d): %q is not one of 1 0 = + - W D L H F U Z", ln, r+1, col+7, e.res)
				}
				if f[4] != ' ' || f[6] != ' ' {
					return nil, fmt.Errorf("trf line %d: round %d (columns %d-%d): fields must be separated by blanks", ln, r+1, col, col+7)
				}
				l.entries = append(l.entries, e)
			}
			lines = append(lines, l)
			t.Players = append(t.Players, p)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("trf: %w", err)
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("trf: no player lines (001): not a TRF report")
	}
	// Order players by starting number, which must run 1..n.
	n := len(lines)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return lines[order[a]].start < lines[order[b]].start })
	players := make([]TRFPlayer, n)
	sorted := make([]line, n)
	for i, k := range order {
		if lines[k].start != i+1 {
			return nil, fmt.Errorf("trf line %d: starting rank %d: starting ranks must run from 1 to %d without gaps or repeats", lines[k].no, lines[k].start, n)
		}
		players[i] = t.Players[k]
		sorted[i] = lines[k]
	}
	t.Players = players
	if t.Rounds == 0 {
		t.Rounds = rounds142
	}
	// A round is played if someone has an opponent or a pairing-allocated
	// bye in it; entries after the last played round announce absences.
	played := 0
	for _, l := range sorted {
		for r, e := range l.entries {
			if e.opp > 0 || e.res == 'U' {
				played = max(played, r+1)
			}
		}
	}
	for i, l := range sorted {
		for r, e := range l.entries {
			round := r + 1
			if round > played {
				if round == played+1 && strings.ContainsRune("HFZ-", rune(e.res)) {
					t.Players[i].Absent = true
				}
				continue
			}
			if e.opp > n {
				return nil, fmt.Errorf("trf line %d: round %d opponent: %d is not a starting rank (1-%d)", l.no, round, e.opp, n)
			}
			if e.opp == i+1 {
				return nil, fmt.Errorf("trf line %d: round %d opponent: player paired with itself", l.no, round)
			}
			if e.opp == 0 {
				// A round without opponent. "+" there is the pairing-
				// allocated bye as certified engines read it, like U.
				g := Game{Round: round, Black: i, White: Bye, Forfeit: true}
				switch e.res {
				case 'U', '+':
					g.Forfeit, g.BlackPoints = false, 1
				case 'F':
					g.BlackPoints = 1
				case 'H', '=':
					g.BlackPoints = 0.5
				case 'Z', '-':
				case ' ':
					continue // not paired, nothing scored
				default:
					return nil, fmt.Errorf("trf line %d: round %d result: %q is a game's result, but there is no opponent", l.no, round, e.res)
				}
				t.Games = append(t.Games, g)
				continue
			}
			o := sorted[e.opp-1]
			if r >= len(o.entries) || o.entries[r].opp != i+1 {
				return nil, fmt.Errorf("trf line %d: round %d: opponent %d does not list %d as its opponent (line %d)", l.no, round, e.opp, i+1, o.no)
			}
			oe := o.entries[r]
			pts, forfeit, ok := trfScore(e.res)
			if !ok {
				return nil, fmt.Errorf("trf line %d: round %d result: %q is not a game result", l.no, round, e.res)
			}
			opts, oforfeit, ok := trfScore(oe.res)
			if !ok || oforfeit != forfeit {
				return nil, fmt.Errorf("trf line %d: round %d result: %q does not match the opponent's %q (line %d): one says played, the other forfeited", l.no, round, e.res, oe.res, o.no)
			}
			g := Game{Round: round, Black: i, White: e.opp - 1, BlackPoints: pts, WhitePoints: opts, Forfeit: forfeit}
			if err := g.Check(); err != nil {
				return nil, fmt.Errorf("trf line %d: round %d result: %q does not match the opponent's %q (line %d): a game is won and lost, drawn, or lost by both", l.no, round, e.res, oe.res, o.no)
			}
			// Each game is on two lines; keep it once, from the first mover's.
			switch {
			case e.colour == 'w' && oe.colour == 'b':
			case e.colour == 'b' && oe.colour == 'w':
				continue
			case !forfeit:
				return nil, fmt.Errorf("trf line %d: round %d colour: played game needs w and b, got %q and %q", l.no, round, e.colour, oe.colour)
			case i > e.opp-1:
				continue // unplayed game without colours: keep the lower number's line
			}
			t.Games = append(t.Games, g)
		}
	}
	pairs := 0
	for _, f := range forbidden {
		if !forbiddenPairs(&pairs, len(f.players)) {
			return nil, fmt.Errorf("trf line %d: XXP: the forbidden groups make more than %d pairs", f.no, MaxForbiddenPairs)
		}
		var ids []int
		for _, p := range f.players {
			if p > n {
				return nil, fmt.Errorf("trf line %d: XXP: %d is not a starting rank (1-%d)", f.no, p, n)
			}
			ids = append(ids, p-1)
		}
		t.Forbidden = append(t.Forbidden, ids)
	}
	// 240 records of played rounds repeat what the 001 lines say; only the
	// next round's are news.
	for _, a := range absences {
		for _, p := range a.players {
			if p > n {
				return nil, fmt.Errorf("trf line %d: 240: %d is not a starting rank (1-%d)", a.no, p, n)
			}
			if a.round == played+1 {
				t.Players[p-1].Absent = true
			}
		}
	}
	return t, nil
}

// trfScore reads one side's result code of a pairing with an opponent:
// 1 0 = played (W L D the same, unrated), + - forfeited.
func trfScore(c byte) (points float64, forfeit, ok bool) {
	switch c {
	case '1', 'W':
		return 1, false, true
	case '=', 'D':
		return 0.5, false, true
	case '0', 'L':
		return 0, false, true
	case '+':
		return 1, true, true
	case '-':
		return 0, true, true
	}
	return 0, false, false
}

// points checks one entry of a point system (code W win, D draw, L loss,
// Z zero-point bye or forfeit loss, P pairing-allocated bye): the pairing
// counts the standard points, so only those are accepted, and a bye worth
// a win, a draw or nothing.
func (t *TRF) points(code string, v float64) error {
	std := map[string]float64{"W": 1, "D": 0.5, "L": 0, "Z": 0}
	if code == "P" {
		if v != 1 && v != 0.5 && v != 0 {
			return fmt.Errorf("a pairing-allocated bye of %g points is not supported (1, 0.5 or 0)", v)
		}
		t.ByePoints = &v
		return nil
	}
	want, ok := std[code]
	if !ok {
		return fmt.Errorf("unknown result code %q", code)
	}
	if v != want {
		return fmt.Errorf("%g points for %s is not supported: pairing counts win 1, draw 0.5, loss 0", v, map[string]string{"W": "a win", "D": "a draw", "L": "a loss", "Z": "a zero-point bye or forfeit loss"}[code])
	}
	return nil
}

// WriteTRF writes a tournament report: the 012 name line when set, XXR when
// Rounds is set, XXC, BBU when a bye is not worth a win, XXP for each
// forbidden group, and one 001 line per player with points, rank and every
// round up to the last one in Games. Each side's result is written on its
// own: played games "1", "=" or "0" (a game both lost is "0"/"0"), games not
// played over the board "+" or "-" (a double forfeit is "-"/"-"). Byes are
// written "0000 - U" (pairing allocated) or "0000 - F/H/Z" (requested or
// absent). A withdrawn player's rounds from its withdrawal on are "0000 - -",
// and so is the round after the last one played for a player who will not
// be paired in it (Absent or withdrawn), unless every round (XXR) is played.
func WriteTRF(w io.Writer, t *TRF) error {
	n := len(t.Players)
	if n > MaxTRFPlayers {
		return fmt.Errorf("trf: %d players: TRF-16's four-digit starting ranks hold at most %d; write the JSON event form instead", n, MaxTRFPlayers)
	}
	rounds := 0
	for _, g := range t.Games {
		if g.Black < 0 || g.Black >= n || (g.White != Bye && (g.White < 0 || g.White >= n)) {
			return fmt.Errorf("trf: round %d: game %d-%d names an unknown player", g.Round, g.Black, g.White)
		}
		if err := g.Check(); err != nil {
			return fmt.Errorf("trf: %v", err)
		}
		rounds = max(rounds, g.Round)
	}
	next := t.Rounds == 0 || rounds < t.Rounds // the round to be paired exists
	cells := make([][]string, n)
	pts := make([]int, n) // half points
	for i, p := range t.Players {
		width := rounds
		if next && (p.Absent || (p.Withdrawn > 0 && p.Withdrawn <= rounds+1)) {
			width++
		}
		cells[i] = make([]string, width)
		for r := range cells[i] {
			cells[i][r] = "0000 - Z"
			if p.Withdrawn > 0 && r+1 >= p.Withdrawn || r == rounds {
				cells[i][r] = "0000 - -"
			}
		}
	}
	played := map[int]string{0: "0", 1: "=", 2: "1"}
	forfeited := map[int]string{0: "-", 2: "+"}
	for _, g := range t.Games {
		s := halfPoints(g.BlackPoints)
		if g.White == Bye {
			code := "U"
			if g.Forfeit {
				code = map[int]string{0: "Z", 1: "H", 2: "F"}[s]
			}
			if !g.Forfeit {
				s = 2
				if t.ByePoints != nil {
					s = halfPoints(*t.ByePoints)
				}
			}
			cells[g.Black][g.Round-1] = "0000 - " + code
			pts[g.Black] += s
			continue
		}
		ws := halfPoints(g.WhitePoints)
		codes := played
		if g.Forfeit {
			codes = forfeited
		}
		cells[g.Black][g.Round-1] = fmt.Sprintf("%4d w %s", g.White+1, codes[s])
		cells[g.White][g.Round-1] = fmt.Sprintf("%4d b %s", g.Black+1, codes[ws])
		pts[g.Black] += s
		pts[g.White] += ws
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return pts[order[a]] > pts[order[b]] })
	rank := make([]int, n)
	for k, i := range order {
		rank[i] = k + 1
	}
	bw := bufio.NewWriter(w)
	if t.Name != "" {
		fmt.Fprintf(bw, "012 %s\n", t.Name)
	}
	for _, tag := range headerTags {
		if v := *header[tag](t); v != "" {
			fmt.Fprintf(bw, "%s %s\n", tag, oneLine(v))
		}
	}
	if t.Rounds > 0 {
		fmt.Fprintf(bw, "XXR %d\n", t.Rounds)
	}
	// Pairing engines want the initial colour spelled out.
	if t.InitialBlack {
		bw.WriteString("XXC black1\n")
	} else {
		bw.WriteString("XXC white1\n")
	}
	if t.ByePoints != nil && *t.ByePoints != 1 {
		fmt.Fprintf(bw, "BBU %4.1f\n", *t.ByePoints) // points in columns 5-8
	}
	for _, group := range t.Forbidden {
		bw.WriteString("XXP")
		for _, id := range group {
			fmt.Fprintf(bw, " %d", id+1)
		}
		bw.WriteString("\n")
	}
	for i, p := range t.Players {
		// Columns count bytes, so pad and cut by bytes (at a rune start).
		name := p.Name
		if len(name) > 33 {
			cut := 33
			for cut > 0 && !utf8.RuneStart(name[cut]) {
				cut--
			}
			name = name[:cut]
		}
		name += strings.Repeat(" ", 33-len(name))
		rating := ""
		if p.Rating > 0 {
			rating = strconv.Itoa(p.Rating)
		}
		fmt.Fprintf(bw, "001 %4d      %s %4s %3s %11s %10s %4s %4d", i+1, name, rating, "", "", "", fmt.Sprintf("%.1f", float64(pts[i])/2), rank[i])
		for _, c := range cells[i] {
			fmt.Fprintf(bw, "  %s", c)
		}
		bw.WriteString("\n")
	}
	return bw.Flush()
}

// Swiss converts the report into PairSwiss arguments for the round after
// the last one played.
func (t *TRF) Swiss() (players []SwissPlayer, history []Game, round int, opt SwissOptions) {
	for i, p := range t.Players {
		players = append(players, SwissPlayer{ID: i, Rating: p.Rating, Withdrawn: p.Absent})
	}
	for _, g := range t.Games {
		round = max(round, g.Round)
	}
	return players, t.Games, round + 1, SwissOptions{Rounds: t.Rounds, ByePoints: t.ByePoints, Forbidden: t.Forbidden, InitialSecond: t.InitialBlack}
}

// PairTRF reads a report of the rounds played so far and writes the next
// round in the plain form pairing engines print: the number of pairs, then
// one line per pair "first-mover other" in starting ranks, the bye as "N 0".
// When no legal pairing exists it writes nothing and returns an error
// matching ErrNoLegalPairing.
func PairTRF(r io.Reader, w io.Writer) error {
	t, err := ReadTRF(r)
	if err != nil {
		return err
	}
	return pairReport(t, w)
}

// pairReport pairs the round after the report's last one and writes it in
// the plain form (see PairTRF).
func pairReport(t *TRF, w io.Writer) error {
	players, history, round, opt := t.Swiss()
	if opt.Rounds > 0 && round > opt.Rounds {
		return fmt.Errorf("trf: all %d rounds (XXR) are played", opt.Rounds)
	}
	ps, err := PairSwiss(players, history, round, opt)
	if err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d\n", len(ps))
	for _, p := range ps {
		fmt.Fprintf(&b, "%d %d\n", p.Black+1, p.White+1) // Bye+1 == 0
	}
	_, err = io.WriteString(w, b.String())
	return err
}

// header maps the tournament header tags the report carries to their
// fields, written in the order of headerTags.
var (
	headerTags = []string{"022", "032", "042", "052", "102"}
	header     = map[string]func(*TRF) *string{
		"022": func(t *TRF) *string { return &t.City },
		"032": func(t *TRF) *string { return &t.Federation },
		"042": func(t *TRF) *string { return &t.StartDate },
		"052": func(t *TRF) *string { return &t.EndDate },
		"102": func(t *TRF) *string { return &t.ChiefArbiter },
	}
)

// oneLine keeps a header value on its line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
