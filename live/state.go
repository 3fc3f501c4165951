package live

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"gomoku-arena/clock"
	"gomoku-arena/engine"
	"gomoku-arena/event"
	"gomoku-arena/event/identity"
	"gomoku-arena/event/outputs"
	"gomoku-arena/event/verify"
	"gomoku-arena/internal/term"
	"gomoku-arena/results/rating"
	"gomoku-arena/results/record"
	"gomoku-arena/results/report"
	"gomoku-arena/rules"
	"gomoku-arena/schedule"
)

// FormatVersion is the version of the JSON the page reads (/api/state and
// the stream's messages); docs/FORMATS.md describes it.
const FormatVersion = 1

// Bounds of what the page is sent: a page left open for a 100,000-game match
// must not grow without end.
const (
	maxMessages = 40  // engine lines kept per running game
	maxRecent   = 500 // finished games kept whole, for replay
	maxGames    = 5000
)

// State is everything the page shows, as JSON. The page receives it whole
// on connecting and then the messages that change it.
type State struct {
	Format      int       `json:"format"`
	Kind        string    `json:"kind"` // "event" or "match"
	Name        string    `json:"name"`
	Rule        string    `json:"rule"`
	Size        int       `json:"size"`
	Procedure   string    `json:"opening_procedure"`
	TimeControl string    `json:"time_control"`
	Pairing     string    `json:"pairing,omitempty"`
	Rounds      int       `json:"rounds,omitempty"`
	Started     time.Time `json:"started"`
	// StartedText is Started as the page shows it: in the event's one
	// time zone (details.time_zone, UTC by default), named, as the
	// printable page writes its times.
	StartedText string `json:"started_text,omitempty"`
	// Title is the event's full title, when its organizer gave one.
	Title      string        `json:"title,omitempty"`
	Total      int           `json:"total"`
	Finished   int           `json:"finished"`
	Live       bool          `json:"live"` // a running event follows; false: files only
	Entrants   []Entrant     `json:"entrants"`
	Standings  *Table        `json:"standings,omitempty"`
	Crosstable *Table        `json:"crosstable,omitempty"`
	Running    []*Game       `json:"running"`
	Games      []GameSummary `json:"games"`
	Match      []*MatchView  `json:"match,omitempty"`
	Notices    []string      `json:"notices,omitempty"`
	records    map[gameKey]*record.Record
	order      []gameKey // finished games whose records are kept, oldest first
	sprt       *rating.SPRT
	pairs      bool // a match's games go in pairs (one opening, colours exchanged)
	zone       *time.Location
}

// setStarted sets when the event began, and its text in the event's zone.
func (s *State) setStarted(t time.Time) {
	s.Started = t
	loc := s.zone
	if loc == nil {
		loc = time.UTC
	}
	s.StartedText = t.In(loc).Format("2006-01-02 15:04") + " " + loc.String()
}

// Entrant is an engine of the event with what it says of itself (ABOUT).
type Entrant struct {
	Name    string `json:"name"`
	Program string `json:"program,omitempty"`
	Version string `json:"version,omitempty"`
	Author  string `json:"author,omitempty"`
	Country string `json:"country,omitempty"`
}

// Table is a rendered standings or crosstable: the same cells as the files,
// and the legend of its columns.
type Table struct {
	Title  string        `json:"title"`
	Header []string      `json:"header"`
	Rows   [][]string    `json:"rows"`
	Right  []bool        `json:"right"`
	Legend report.Legend `json:"legend"`
}

// Game is a game in progress.
type Game struct {
	Round  int    `json:"round"`
	Number int    `json:"number"`
	Black  string `json:"black"`
	White  string `json:"white"`
	Moves  []Move `json:"moves"`
	// BlackMS and WhiteMS are the clocks at AtMS (server time, Unix ms);
	// ToMove's clock runs from then. -1: untimed.
	BlackMS  int64    `json:"black_ms"`
	WhiteMS  int64    `json:"white_ms"`
	AtMS     int64    `json:"at_ms"`
	ToMove   string   `json:"to_move"`
	Messages []string `json:"messages"`
	// Forbidden are the points where the side to move may not play
	// (Black's under renju), as the arbiter found them.
	Forbidden [][2]int `json:"forbidden,omitempty"`
}

// Move is one stone: x, y from the top left (0-based), its colour, and the
// think time; Captured are the stones it removed (pente), as [x, y].
type Move struct {
	X        int      `json:"x"`
	Y        int      `json:"y"`
	Color    string   `json:"color"`
	ThinkMS  int64    `json:"think_ms"`
	Think    string   `json:"think,omitempty"` // ThinkMS as people write it: "1.67 s"
	Opening  bool     `json:"opening,omitempty"`
	Refused  bool     `json:"refused,omitempty"`
	Captured [][2]int `json:"captured,omitempty"`
}

// GameSummary is a finished game.
type GameSummary struct {
	Round  int    `json:"round"`
	Number int    `json:"number"`
	Black  string `json:"black"`
	White  string `json:"white"`
	Result string `json:"result"` // "1-0", "0-1", "1/2-1/2"
	End    string `json:"end"`
	Detail string `json:"detail,omitempty"`
	Moves  int    `json:"moves"`
	File   string `json:"file,omitempty"` // games/NAME without extension, when the folder has it
}

// MatchView is one encounter of an authors' match.
type MatchView struct {
	First    string       `json:"first"`
	Second   string       `json:"second"`
	W        int          `json:"w"`
	D        int          `json:"d"`
	L        int          `json:"l"`
	Penta    [5]int       `json:"ptnml"`
	Elo      float64      `json:"elo"`
	EloLo    float64      `json:"elo_lo"`
	EloHi    float64      `json:"elo_hi"`
	LOS      float64      `json:"los"`
	Defined  bool         `json:"defined"` // Elo and its interval mean something (enough games)
	LLR      float64      `json:"llr"`
	Lower    float64      `json:"lower,omitempty"`
	Upper    float64      `json:"upper,omitempty"`
	SPRT     bool         `json:"sprt"`
	Decision string       `json:"decision,omitempty"`
	Points   []MatchPoint `json:"points"`
	wdl      rating.WDL
	penta    rating.Pentanomial
}

// MatchPoint is the encounter after some games, for the plots.
type MatchPoint struct {
	Games int     `json:"games"`
	LLR   float64 `json:"llr"`
	Elo   float64 `json:"elo"`
	EloLo float64 `json:"elo_lo"`
	EloHi float64 `json:"elo_hi"`
}

type gameKey struct{ Round, Number int }

func newState() *State {
	// Empty lists, not null: the page iterates them.
	return &State{Format: FormatVersion, Entrants: []Entrant{}, Running: []*Game{}, Games: []GameSummary{},
		records: map[gameKey]*record.Record{}}
}

// begin takes the event's identity, and the games a continued event
// finished before this run (done: the journal's records), so that the page
// lists every game of the event and every entrant's ABOUT.
func (s *State) begin(id *identity.Identity, total, finished int, done []*record.Record) {
	s.Kind, s.Name, s.Rule, s.Size = id.Kind, id.Name, id.Rule, id.Size
	s.zone = id.Details.Location()
	if id.Details != nil {
		s.Title = id.Details.Title
	}
	s.Procedure, s.Pairing = id.OpeningProcedure, id.Pairing
	if id.Pairing == "swiss" {
		s.Rounds = id.Rounds
	}
	s.Total, s.Finished = total, finished
	s.Entrants = s.Entrants[:0]
	for _, e := range id.Engines {
		s.Entrants = append(s.Entrants, Entrant{Name: e.Name})
	}
	if len(id.Engines) > 0 {
		s.TimeControl = id.Engines[0].Clock.String()
	}
	if id.Match != nil {
		s.pairs = id.Match.Pairs
	}
	if id.Match != nil && id.Match.SPRT != nil {
		t := id.Match.SPRT
		s.sprt = &rating.SPRT{Elo0: t.Elo0, Elo1: t.Elo1, Alpha: t.Alpha, Beta: t.Beta, Model: t.Model}
	}
	s.Games, s.records, s.order = s.Games[:0], map[gameKey]*record.Record{}, nil
	for _, rec := range record.Ruled(done) { // as the arbiter's decisions leave them
		if rec.IsGame() {
			s.keep(rec)
		}
	}
	s.Match = nil
	if id.Kind == identity.KindMatch && len(done) > 0 {
		s.tally(id, done)
	}
}

// tally counts a continued match's journaled games into its encounters'
// views, game by game as the match counted them (each point of the plots
// as it was).
func (s *State) tally(id *identity.Identity, done []*record.Record) {
	m, err := verify.Tally(id)
	if err != nil {
		return
	}
	if id.Match.Shard != "" {
		if m.Shard, err = schedule.ParseShard(id.Match.Shard); err != nil {
			return
		}
	}
	for _, rec := range done {
		games, _ := m.Replay([]*record.Record{rec}) // the event has checked the journal against the schedule
		for _, g := range games {
			e := g.Encounter
			s.counted(matchCount{First: e.First, Second: e.Second, WDL: e.WDL, Penta: e.Penta, Decision: e.Decision})
		}
	}
}

func (s *State) started(g event.GameStarted, at time.Time) *Game {
	game := &Game{Round: g.Round, Number: g.Number, Black: g.Black, White: g.White, Moves: []Move{},
		BlackMS: -1, WhiteMS: -1, AtMS: at.UnixMilli(), ToMove: "black", Messages: []string{}}
	s.Running = append(s.Running, game)
	return game
}

func (s *State) running(round, number int) *Game {
	for _, g := range s.Running {
		if g.Round == round && g.Number == number {
			return g
		}
	}
	return nil
}

// moved adds a stone (and the opening stones before it) to a running game
// and returns what a page that has the game needs to catch up; nil when the
// game is not known (the page joined after it began: the next snapshot has
// it). The engine's lines are named with the engine that wrote them.
func (s *State) moved(m event.MovePlayed, at time.Time) *moveDelta {
	g := s.running(m.Round, m.Number)
	if g == nil {
		return nil
	}
	mover := g.Black
	if m.Move.Color == rules.White {
		mover = g.White
	}
	notes := make([]string, 0, len(m.Notes))
	for _, n := range m.Notes {
		if !s.refusesExtension(n) {
			notes = append(notes, mover+": "+n)
		}
	}
	return s.placed(g, append(slices.Clip(m.Before), m.Move), m.Black, m.White, m.Timed, m.Forbidden, notes, at)
}

// opened puts a game's opening stones on its board before anyone moves.
func (s *State) opened(o event.OpeningPlaced, at time.Time) *moveDelta {
	g := s.running(o.Round, o.Number)
	if g == nil || len(o.Stones) == 0 {
		return nil
	}
	return s.placed(g, o.Stones, o.Black, o.White, o.Timed, o.Forbidden, nil, at)
}

// placed adds stones (each with what it captured), the side to move's
// forbidden points and an engine's lines to a running game, and returns the
// delta for the pages. The board is the arbiter's: the page is told what
// the arbiter found, never a board rebuilt here.
func (s *State) placed(g *Game, stones []record.Move, black, white time.Duration, timed bool, forbidden []rules.Point, notes []string, at time.Time) *moveDelta {
	before, msgs := len(g.Moves), len(g.Messages)
	for _, mv := range stones {
		g.Moves = append(g.Moves, moveOf(mv))
	}
	g.BlackMS, g.WhiteMS = clockMS(black, timed), clockMS(white, timed)
	g.AtMS = at.UnixMilli()
	g.ToMove = stones[len(stones)-1].Color.Opponent().String()
	notes = cleanAll(notes) // never nil: the page's list
	g.Messages = append(g.Messages, notes...)
	d := &moveDelta{Round: g.Round, Number: g.Number, Moves: g.Moves[before:], Stones: len(g.Moves), Messages: notes}
	if over := len(g.Messages) - maxMessages; over > 0 {
		g.Messages = slices.Delete(g.Messages, 0, over)
	}
	if msgs+len(notes) > maxMessages {
		d.Messages = g.Messages // the page's list is cut too: send it whole
	}
	g.Forbidden = points(forbidden)
	d.BlackMS, d.WhiteMS, d.AtMS, d.ToMove, d.Forbidden = g.BlackMS, g.WhiteMS, g.AtMS, g.ToMove, g.Forbidden
	return d
}

// moveOf is a record's stone as the page draws it.
func moveOf(m record.Move) Move {
	mv := Move{X: m.Point.X, Y: m.Point.Y, Color: m.Color.String(), ThinkMS: m.Think.Milliseconds(), Opening: m.Opening,
		Refused: m.Refused != "" || m.Raw != ""}
	if !m.Opening {
		mv.Think = clock.Human(m.Think) // as the printable page and the terminal write it
	}
	mv.Captured = points(m.Captured)
	return mv
}

func clockMS(d time.Duration, timed bool) int64 {
	if !timed {
		return -1
	}
	return d.Milliseconds()
}

// points are points as the page reads them, [x, y]; nil for none.
func points(ps []rules.Point) [][2]int {
	var out [][2]int
	for _, p := range ps {
		out = append(out, [2]int{p.X, p.Y})
	}
	return out
}

// finished moves a game from the running list to the finished ones.
func (s *State) finished(rec *record.Record) GameSummary {
	s.Running = slices.DeleteFunc(s.Running, func(g *Game) bool { return g.Round == rec.Round && g.Number == rec.Game })
	s.Finished++
	return s.keep(rec)
}

// keep lists a finished game, keeps its record for replay, and takes the
// ABOUT answers of its engines.
func (s *State) keep(rec *record.Record) GameSummary {
	sum := summaryOf(rec)
	s.Games = append(s.Games, sum)
	if over := len(s.Games) - maxGames; over > 0 {
		s.Games = slices.Delete(s.Games, 0, over)
	}
	k := gameKey{rec.Round, rec.Game}
	if _, ok := s.records[k]; !ok {
		s.order = append(s.order, k)
	}
	s.records[k] = rec
	if over := len(s.order) - maxRecent; over > 0 {
		for _, old := range s.order[:over] {
			delete(s.records, old)
		}
		s.order = slices.Delete(s.order, 0, over)
	}
	if !rec.Start.IsZero() && (s.Started.IsZero() || rec.Start.Before(s.Started)) {
		s.setStarted(rec.Start) // a continued event began with its first game
	}
	s.about(rec.Black, rec.BlackAbout)
	s.about(rec.White, rec.WhiteAbout)
	return sum
}

// about fills an entrant's ABOUT fields from a record's.
func (s *State) about(name, raw string) {
	if raw == "" {
		return
	}
	a := engine.ParseAbout(raw)
	a.Name, a.Version, a.Author, a.Country = term.Clean(a.Name), term.Clean(a.Version), term.Clean(a.Author), term.Clean(a.Country)
	for i := range s.Entrants {
		if s.Entrants[i].Name == name {
			s.Entrants[i].Program, s.Entrants[i].Version = a.Name, a.Version
			s.Entrants[i].Author, s.Entrants[i].Country = a.Author, a.Country
		}
	}
}

func summaryOf(rec *record.Record) GameSummary {
	res := "1/2-1/2"
	switch {
	case rec.End == record.DoubleForfeit:
		res = "0-0"
	case rec.Winner == rules.Black:
		res = "1-0"
	case rec.Winner == rules.White:
		res = "0-1"
	}
	return GameSummary{Round: rec.Round, Number: rec.Game, Black: rec.Black, White: rec.White, Result: res,
		End: string(rec.End), Detail: term.Clean(rec.Detail), Moves: len(rec.Moves), File: outputs.GameFile(rec)}
}

func (s *State) standings(rep *report.Report) {
	st, ct := rep.StandingsTable(), rep.CrosstableTable()
	s.Standings = &Table{st.Title, st.Header, st.Rows, st.Right, rep.StandingsLegend()}
	s.Crosstable = &Table{ct.Title, ct.Header, ct.Rows, ct.Right, rep.CrosstableLegend()}
}

// counted adds a match game to its encounter's view.
func (s *State) counted(c matchCount) *MatchView {
	name := func(i int) string {
		if i >= 0 && i < len(s.Entrants) {
			return s.Entrants[i].Name
		}
		return fmt.Sprintf("engine %d", i+1)
	}
	first, second := name(c.First), name(c.Second)
	var v *MatchView
	for _, m := range s.Match {
		if m.First == first && m.Second == second {
			v = m
		}
	}
	if v == nil {
		v = &MatchView{First: first, Second: second, SPRT: s.sprt != nil, Points: []MatchPoint{}}
		s.Match = append(s.Match, v)
	}
	v.wdl, v.penta = c.WDL, c.Penta
	v.W, v.D, v.L, v.Penta = c.WDL.W, c.WDL.D, c.WDL.L, [5]int(c.Penta)
	st := c.WDL.Stats()
	if s.sprt != nil && s.sprt.Pentanomial() && c.Penta.Pairs() > 0 {
		st = c.Penta.Stats()
	}
	v.Elo, v.EloLo, v.EloHi, v.LOS = finite(st.Elo), finite(st.EloLo), finite(st.EloHi), finite(st.LOS)
	v.Defined = st.EloHi > st.EloLo && !isInf(st.EloLo) && !isInf(st.EloHi)
	if s.sprt != nil {
		v.LLR = s.sprt.LLR(c.WDL, c.Penta)
		v.Lower, v.Upper = s.sprt.Bounds()
		if c.Decision != rating.Continue {
			v.Decision = c.Decision.String()
		}
	}
	// One point per finished game pair (or game, without pairs), so the
	// plots gain a point per pair as the SPRT does.
	n := c.WDL.Games()
	if !s.pairs || n%2 == 0 {
		v.Points = append(v.Points, MatchPoint{Games: n, LLR: v.LLR, Elo: v.Elo, EloLo: v.EloLo, EloHi: v.EloHi})
		if over := len(v.Points) - maxGames; over > 0 {
			v.Points = slices.Delete(v.Points, 0, over)
		}
	}
	return v
}

// matchCount is what the page needs of a counted match game, copied when
// the event reports it (the encounter keeps changing afterwards).
type matchCount struct {
	First, Second int // entrants, by index
	WDL           rating.WDL
	Penta         rating.Pentanomial
	Decision      rating.Decision
}

func finite(f float64) float64 {
	if isInf(f) || f != f {
		return 0
	}
	return f
}

func isInf(f float64) bool { return f > 1e300 || f < -1e300 }

// record returns a finished game's record, when it is kept.
func (s *State) record(round, number int) (*record.Record, error) {
	if r, ok := s.records[gameKey{round, number}]; ok {
		return r, nil
	}
	return nil, fmt.Errorf("game %d of round %d is not kept in memory", number, round)
}

// Replay is a finished game as the page replays it. Five is the winning
// row of a game won by one (end "five"), as [x, y] points, for the page to
// mark on the last position.
type Replay struct {
	GameSummary
	Rule       string   `json:"rule"`
	Size       int      `json:"size"`
	BlackAbout string   `json:"black_about,omitempty"`
	WhiteAbout string   `json:"white_about,omitempty"`
	Moves      []Move   `json:"moves"`
	Messages   []string `json:"messages"`
	Five       [][2]int `json:"five,omitempty"`
}

func replayOf(rec *record.Record) Replay {
	r := Replay{GameSummary: summaryOf(rec), Rule: rec.Rule, Size: rec.Size, BlackAbout: term.Clean(rec.BlackAbout),
		WhiteAbout: term.Clean(rec.WhiteAbout), Moves: []Move{}, Five: winningRow(rec)}
	rule, _ := rules.ByName(rec.Rule)
	var kept []string
	for _, m := range rec.Messages { // "name: ERROR ...", as the record keeps them
		_, note, _ := strings.Cut(m, ": ")
		if rule == nil || !engine.RefusesExtension(note, rule) {
			kept = append(kept, m)
		}
	}
	r.Messages = cleanAll(kept)
	for _, m := range rec.Moves {
		r.Moves = append(r.Moves, moveOf(m)) // refused stones too, marked: the page draws them as rings
	}
	if r.Messages == nil {
		r.Messages = []string{}
	}
	return r
}

// winningRow is the row of five (or more) the winner's last stone made, on
// the final board (captured stones removed); nil when the game was not won
// by a row or the record does not show one. The board is the record's one
// replay (record.Replay), not one rebuilt here.
func winningRow(rec *record.Record) [][2]int {
	if rec.End != record.Five || rec.Winner == rules.Empty || len(rec.Moves) == 0 {
		return nil
	}
	rule, err := rules.ByName(rec.Rule)
	if err != nil {
		return nil
	}
	rp, err := record.Replay(rec, rule)
	if err != nil {
		return nil
	}
	b := rp.Position.Board
	last := rec.Moves[len(rec.Moves)-1]
	if last.Color != rec.Winner || !b.In(last.Point) || b.At(last.Point) != rec.Winner {
		return nil
	}
	var best [][2]int
	for _, d := range []rules.Point{{X: 1}, {Y: 1}, {X: 1, Y: 1}, {X: 1, Y: -1}} {
		if n := b.Line(last.Point, d, rec.Winner); n >= 5 && n > len(best) {
			back := b.Run(last.Point, rules.Point{X: -d.X, Y: -d.Y}, rec.Winner)
			best = best[:0]
			for i := -back; i < n-back; i++ {
				best = append(best, [2]int{last.Point.X + i*d.X, last.Point.Y + i*d.Y})
			}
		}
	}
	return best
}

// cleanAll is lines from engines as the page may show them: every control
// character (ESC, BEL, ...) and bidirectional override written as an
// escape (term.Clean, as the printable page and the terminal write them),
// so that the hall screen draws what an engine meant to show and never a
// box or a cursor move. A new slice, never nil.
func cleanAll(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = term.Clean(l)
	}
	return out
}

// refusesExtension reports an engine's refusal of one of the arena's
// extension INFO keys (engine.RefusesExtension): the engine not knowing an
// extension, never shown to the hall as an error (the record keeps it).
func (s *State) refusesExtension(note string) bool {
	rule, err := rules.ByName(s.Rule)
	return err == nil && engine.RefusesExtension(note, rule)
}

// decided takes the arbiter's decision on a finished game: its line in the
// games list (and its record, for replay) becomes the game as the decision
// leaves it, or goes when the game was voided.
func (s *State) decided(d event.DecisionJournaled) {
	k := gameKey{d.Line.Round, d.Line.Game}
	i := slices.IndexFunc(s.Games, func(g GameSummary) bool { return g.Round == k.Round && g.Number == k.Number })
	switch {
	case d.Game == nil && i >= 0:
		s.Games = slices.Delete(s.Games, i, i+1)
		s.Finished--
		delete(s.records, k)
	case d.Game != nil && i >= 0:
		s.Games[i] = summaryOf(d.Game)
		if _, kept := s.records[k]; kept {
			s.records[k] = d.Game
		}
	case d.Game != nil: // adjudicated, never finished here: stopped if it was being played
		s.Running = slices.DeleteFunc(s.Running, func(g *Game) bool { return g.Round == k.Round && g.Number == k.Number })
		s.keep(d.Game)
		s.Finished++
	}
}
