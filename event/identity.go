package event

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strconv"
	"time"

	"gomoku-arena/arbiter"
	"gomoku-arena/clock"
	"gomoku-arena/engine"
	"gomoku-arena/internal/config"
	"gomoku-arena/internal/durable"
	"gomoku-arena/results/record"
)

// FormatVersion is the version of event.json this package writes, and the
// only one it reads. docs/FORMATS.md describes every field.
const FormatVersion = 1

// Kinds of event a folder can hold.
const (
	KindEvent = "event" // a tournament from a config file (Event)
	KindMatch = "match" // an authors' match (Match)
)

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
	Openings string    `json:"openings,omitempty"`
	Engines  []Entrant `json:"engines"`

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
	Format string  `json:"format"` // csv, bin or bin_lz4
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

func millis(d time.Duration) int64 { return d.Milliseconds() }

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

func clockOfControl(c clock.Control) Clock {
	return Clock{millis(c.Match), millis(c.Turn), millis(c.Increment), millis(c.Tolerance), millis(c.Hang)}
}

// entrantOf is what event.json keeps of an arbiter entrant.
func entrantOf(a arbiter.Entrant) Entrant {
	e := Entrant{Name: a.Spec.Name, Command: a.Spec.Command, Args: a.Spec.Args, Env: a.Spec.Env,
		BoardMode: a.BoardMode, Swap2Colors: a.Swap2Colors, Clock: clockOfControl(a.Clock),
		MaxMemoryBytes: a.Spec.Limits.Memory, HardMemoryBytes: a.Spec.Limits.HardMemory, MaxProcesses: a.Spec.Limits.Processes}
	e.Info = append(e.Info, a.Infos...) // a copy: the entrant's may change
	return e
}

// ReadIdentity reads an event.json. A file of another format version (or of
// none: written before versions) is refused, never guessed at.
func ReadIdentity(path string) (*Identity, error) {
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
	if err := json.Unmarshal(*probe.Format, &v); err != nil || v != FormatVersion {
		return nil, fmt.Errorf("%s: format %s is not one this arena reads (it reads format %d)", path, *probe.Format, FormatVersion)
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
	return &id, nil
}

// write stores the identity durably.
func (id *Identity) write(path string) error {
	id.Format = FormatVersion
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

// errNoIdentity is a folder with a journal but no event.json.
var errNoIdentity = errors.New("holds a journal but no event.json: it is not a folder this arena wrote; use a new output folder")

// heading is what the organizer's details add to each game record
// (record.Heading).
func (id *Identity) heading() record.Heading {
	d := id.Details
	if d == nil {
		return record.Heading{}
	}
	return record.Heading{Title: d.Title, Venue: d.Venue, ChiefArbiter: d.ChiefArbiter, Organizer: d.Organizer}
}
