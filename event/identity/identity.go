// Package identity owns event.json, the file that says which event an
// output folder holds: everything that must not change when the event is
// continued (the rule, the board, the engines and their clocks, the format
// or the match's settings, the opening suite). It reads and writes the
// file, refuses a format it does not know, and names the first setting in
// which two identities differ (Difference). What an identity describes is
// played and checked by package event.
package identity

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strconv"
	"time"

	"gomoku-arena/clock"
	"gomoku-arena/engine"
	"gomoku-arena/internal/config"
	"gomoku-arena/internal/durable"
	"gomoku-arena/results/record"
	"gomoku-arena/rules"
	"gomoku-arena/schedule"
)

// FormatVersion is the version of event.json this package writes. It reads
// this one and format 1, which has no opening_suite: its games' openings
// are not checked against the schedule (Identity.Unchecked says so), and a
// run that continues it records the suite (checked against the journal
// first). docs/FORMATS.md describes every field.
const FormatVersion = 2

// oldestFormat is the oldest event.json format this package reads.
const oldestFormat = 1

// File is the identity's file in an output folder.
const File = "event.json"

// Kinds of event a folder can hold.
const (
	KindEvent = "event" // a tournament from a config file (event.Event)
	KindMatch = "match" // an authors' match (event.Match)
)

// KindName says a kind as people do: "an event", "an authors' match".
var KindName = map[string]string{KindEvent: "an event", KindMatch: "an authors' match"}

// Identity is event.json: everything that must not change when an event is
// continued, because it would make the finished games part of a different
// event. Durations are whole milliseconds, in fields ending in _ms.
type Identity struct {
	Format int    `json:"format"`
	Kind   string `json:"kind"`
	Name   string `json:"name"`
	Rule   string `json:"rule"`
	Size   int    `json:"size"`
	// MoveCap: a draw once the board holds this many stones; 0 = none.
	MoveCap          int    `json:"move_cap"`
	OpeningProcedure string `json:"opening_procedure"` // "none", "swap2" or "rif"
	OpeningPolicy    string `json:"opening_policy,omitempty"`
	// Openings is the opening list file, as the config or command line
	// named it.
	Openings string `json:"openings,omitempty"`
	// OpeningSuite is the opening list the games are dealt from, as read
	// (format 2 on): the journal check compares every game's opening
	// stones with the schedule's deal from it, without the list file.
	OpeningSuite *OpeningSuite `json:"opening_suite,omitempty"`
	Engines      []Entrant     `json:"engines"`

	// A tournament's (kind "event").
	Pairing   string   `json:"pairing,omitempty"` // round-robin, double-round-robin, swiss, gauntlet
	Rounds    int      `json:"rounds,omitempty"`  // Swiss rounds
	Seed      int64    `json:"seed,omitempty"`
	ByePoints *float64 `json:"bye_points,omitempty"`
	Tiebreaks []string `json:"tiebreaks,omitempty"`
	// WithdrawAfter: a Swiss entrant is withdrawn after this many failed
	// starts in a row; 0 never.
	WithdrawAfter int `json:"withdraw_after,omitempty"`
	// OpeningsPerPairing: each pairing is a mini-match of twice this many
	// games (each opening with both colours); 0 is one game per pairing.
	OpeningsPerPairing int `json:"openings_per_pairing,omitempty"`
	// Shard is "K/N" for task K (from 0) of a spread event of N tasks,
	// played in the event folder's shard-K-of-N; empty for the whole event.
	Shard string `json:"shard,omitempty"`

	// An authors' match's (kind "match").
	Match *MatchSettings `json:"match,omitempty"`

	// Details name the event for its signed record (config.Details): not
	// part of what must not change, taken anew when the event continues.
	Details *config.Details `json:"details,omitempty"`
}

// OpeningSuite is an opening list as event.json keeps it: each opening's
// stones as [x, y] pairs, in the list's order and as written (the
// schedule's symmetries are applied when they are dealt), and their
// digest (schedule.Digest), which names the list in one line and catches
// a list edited by hand. An event without openings has an empty list.
type OpeningSuite struct {
	Digest   string     `json:"digest"`
	Openings [][][2]int `json:"openings"`
}

// SuiteOf is the suite of an opening list.
func SuiteOf(list [][]rules.Point) *OpeningSuite {
	s := &OpeningSuite{Digest: schedule.Digest(list), Openings: [][][2]int{}}
	for _, o := range list {
		stones := [][2]int{}
		for _, p := range o {
			stones = append(stones, [2]int{p.X, p.Y})
		}
		s.Openings = append(s.Openings, stones)
	}
	return s
}

// Stones is the suite's list, once its digest is checked.
func (s *OpeningSuite) Stones() ([][]rules.Point, error) {
	var list [][]rules.Point
	for _, o := range s.Openings {
		ps := []rules.Point{}
		for _, p := range o {
			ps = append(ps, rules.Point{X: p[0], Y: p[1]})
		}
		list = append(list, ps)
	}
	if d := schedule.Digest(list); d != s.Digest {
		return nil, fmt.Errorf("event.json: opening_suite: the openings' digest is %s, not the %s it says", d, s.Digest)
	}
	return list, nil
}

// Unchecked names what the journal check of this event.json cannot check,
// for a person to read: nothing for the current format.
func (id *Identity) Unchecked() []string {
	if id.OpeningSuite == nil {
		return []string{fmt.Sprintf("event.json is format %d, which records no opening suite: the games' openings are not checked against the schedule (a run that continues the event records it)", id.Format)}
	}
	return nil
}

// Upgraded is old as this package writes it, and whether that differs: a
// format 1 event.json takes now's opening suite (and a match's style). The
// caller checks the journal against now's schedule before writing it.
func Upgraded(old, now *Identity) (*Identity, bool) {
	if old.Format >= FormatVersion {
		return old, false
	}
	u := *old
	u.Format, u.OpeningSuite = now.Format, now.OpeningSuite
	if u.Match != nil && now.Match != nil {
		m := *u.Match
		m.Style = now.Match.Style
		u.Match = &m
	}
	return &u, true
}

// Entrant is one engine of an event, as event.json keeps it.
type Entrant struct {
	Name    string   `json:"name"`
	Command string   `json:"command"`
	Args    []string `json:"args,omitempty"`
	Dir     string   `json:"dir,omitempty"`
	Env     []string `json:"env,omitempty"`
	// Info are the INFO lines the engine is sent before every game.
	Info            []engine.Info `json:"info,omitempty"`
	BoardMode       bool          `json:"board_mode,omitempty"`
	Swap2Colors     bool          `json:"swap2_colors,omitempty"`
	Clock           Clock         `json:"clock"`
	MaxMemoryBytes  int64         `json:"max_memory_bytes,omitempty"`
	HardMemoryBytes int64         `json:"hard_memory_bytes,omitempty"`
	MaxProcesses    int           `json:"max_processes,omitempty"`
	Rating          int           `json:"rating,omitempty"`
	// Remote: the engine plays from its entrant's machine (arena connect).
	Remote bool `json:"remote,omitempty"`
}

// Clock is an entrant's time control in milliseconds; 0 is "none" for the
// match and turn limits.
type Clock struct {
	MatchMS     int64 `json:"match_ms"`
	TurnMS      int64 `json:"turn_ms"`
	IncrementMS int64 `json:"increment_ms"`
	ToleranceMS int64 `json:"tolerance_ms"`
	HangMS      int64 `json:"hang_ms"`
}

// MatchSettings are what an authors' match plays beyond the engines and
// the rule.
type MatchSettings struct {
	Games     int    `json:"games"`  // per encounter and round
	Rounds    int    `json:"rounds"` // times the whole schedule is played
	Gauntlet  bool   `json:"gauntlet"`
	Order     string `json:"order"`     // of the openings: sequential, random or passes
	Transform string `json:"transform"` // "", cycle or random
	Pairs     bool   `json:"pairs"`     // each opening twice, colours exchanged
	// Style is "c-gomoku-cli" for a match laid out as c-gomoku-cli lays
	// it out (schedule.StyleCGomokuCli); empty for the arena's (format 2
	// on; a format 1 file leaves it empty).
	Style string `json:"style,omitempty"`
	// Seed of the random order and transform; a match started with seed 0
	// keeps the seed it chose here, so that it continues the same way.
	Seed       uint64 `json:"seed"`
	SPRT       *SPRT  `json:"sprt,omitempty"`
	FatalError bool   `json:"fatal_error,omitempty"`
	// Shard is "K/N" for shard K (from 0) of a batch of N, played in the
	// batch folder's shard-K-of-N; empty for the whole match.
	Shard string `json:"shard,omitempty"`
	// Sample is the training data the match writes, if any.
	Sample *SampleSettings `json:"sample,omitempty"`
}

// SampleSettings are a match's -sample settings (c-gomoku-cli's): which
// positions are kept is decided by the match's seed, the game number and
// the move's index (results/sample).
type SampleSettings struct {
	Freq   float64 `json:"freq"`
	Format string  `json:"format"` // csv, bin, bin_lz4, binpack or binpack_lz4
	File   string  `json:"file"`
}

// SPRT is a match's stopping test.
type SPRT struct {
	Elo0  float64 `json:"elo0"`
	Elo1  float64 `json:"elo1"`
	Alpha float64 `json:"alpha"`
	Beta  float64 `json:"beta"`
	Model string  `json:"model"`
}

// String says the clock the way people write it (clock.Human): "20 min per side",
// "5 s per move", "untimed".
func (c Clock) String() string {
	d := func(ms int64) string { return clock.Human(time.Duration(ms) * time.Millisecond) }
	var s string
	switch {
	case c.MatchMS > 0 && c.TurnMS > 0:
		s = d(c.MatchMS) + " per side, at most " + d(c.TurnMS) + " a move"
	case c.MatchMS > 0:
		s = d(c.MatchMS) + " per side"
	case c.TurnMS > 0:
		s = d(c.TurnMS) + " per move"
	default:
		s = "untimed"
	}
	if c.IncrementMS > 0 {
		s += " + " + d(c.IncrementMS) + " a move"
	}
	return s
}

// Read reads an event.json. A file of another format version (or of
// none: written before versions) is refused, never guessed at.
func Read(path string) (*Identity, error) {
	f, err := durable.OpenFile(path)
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		return nil, err
	}
	var probe struct {
		Format *json.RawMessage `json:"format"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if probe.Format == nil {
		return nil, fmt.Errorf("%s: no format version: the folder was written by an older arena; this one reads format %d (play the event again in a new folder)", path, FormatVersion)
	}
	var v int
	if err := json.Unmarshal(*probe.Format, &v); err != nil || v < oldestFormat || v > FormatVersion {
		return nil, fmt.Errorf("%s: format %s is not one this arena reads (it reads formats %d to %d)", path, *probe.Format, oldestFormat, FormatVersion)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var id Identity
	if err := dec.Decode(&id); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if id.Kind != KindEvent && id.Kind != KindMatch {
		return nil, fmt.Errorf("%s: kind %q: want %q or %q", path, id.Kind, KindEvent, KindMatch)
	}
	if (id.OpeningSuite != nil) != (id.Format >= 2) {
		return nil, fmt.Errorf("%s: format %d: opening_suite is recorded from format 2 on, in every event.json of it", path, id.Format)
	}
	return &id, nil
}

// Write stores the identity durably: in the current format, or in format
// 1 when it does not know its opening suite (a format 1 folder merged).
func (id *Identity) Write(path string) error {
	id.Format = FormatVersion
	if id.OpeningSuite == nil {
		id.Format = oldestFormat
	}
	b, err := json.MarshalIndent(id, "", "  ")
	if err != nil {
		return err
	}
	return durable.WriteFile(path, append(b, '\n'))
}

// Difference names the first setting in which two identities differ, as
// "engines[1].clock.match_ms: 30000 in the folder, 20000 now", or is ""
// when they are the same event.
func Difference(old, now *Identity) string {
	var a, b any
	for _, x := range []struct {
		id  *Identity
		dst *any
	}{{old, &a}, {now, &b}} {
		raw, _ := json.Marshal(x.id)
		json.Unmarshal(raw, x.dst)
	}
	return difference("", a, b)
}

func difference(path string, a, b any) string {
	show := func(v any) string {
		if v == nil {
			return "unset"
		}
		s, _ := json.Marshal(v)
		return string(s)
	}
	at := func(key string) string {
		if path == "" {
			return key
		}
		return path + "." + key
	}
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			break
		}
		keys := map[string]bool{}
		for k := range x {
			keys[k] = true
		}
		for k := range y {
			keys[k] = true
		}
		var sorted []string
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			if d := difference(at(k), x[k], y[k]); d != "" {
				return d
			}
		}
		return ""
	case []any:
		y, ok := b.([]any)
		if !ok {
			break
		}
		for i := range min(len(x), len(y)) {
			if d := difference(path+"["+strconv.Itoa(i)+"]", x[i], y[i]); d != "" {
				return d
			}
		}
		if len(x) != len(y) {
			return fmt.Sprintf("%s: %d entries in the folder, %d now", path, len(x), len(y))
		}
		return ""
	}
	if reflect.DeepEqual(a, b) {
		return ""
	}
	return fmt.Sprintf("%s: %s in the folder, %s now", path, show(a), show(b))
}

// Heading is what the organizer's details add to each game record
// (record.Heading).
func (id *Identity) Heading() record.Heading {
	d := id.Details
	if d == nil {
		return record.Heading{}
	}
	return record.Heading{Title: d.Title, Venue: d.Venue, ChiefArbiter: d.ChiefArbiter, Organizer: d.Organizer}
}
