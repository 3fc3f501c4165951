package config

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Details is the [details] table: what the record an organizer signs
// names besides the games. The page (index.html) shows them, the TRF
// report's header carries them (012 title, 022 city, 032 federation,
// 042/052 dates, 102 chief arbiter) and every game's SGF names the title,
// the venue and the date. None is part of the event's identity: a
// correction of a venue's spelling is taken when the event continues.
type Details struct {
	Title        string `toml:"title" json:"title,omitempty"`                 // the event's full title (name is its short one)
	Venue        string `toml:"venue" json:"venue,omitempty"`                 // where it is played: a city, a hall
	Federation   string `toml:"federation" json:"federation,omitempty"`       // three capital letters (TRF 032)
	StartDate    string `toml:"start_date" json:"start_date,omitempty"`       // YYYY-MM-DD
	EndDate      string `toml:"end_date" json:"end_date,omitempty"`           // YYYY-MM-DD, not before start_date
	ChiefArbiter string `toml:"chief_arbiter" json:"chief_arbiter,omitempty"` // who signs the results
	Organizer    string `toml:"organizer" json:"organizer,omitempty"`
	// TimeZone is the zone every time the arena writes for people is in
	// (the page, the terminal, the live page), an IANA name
	// ("Europe/Prague"); empty is UTC.
	TimeZone string `toml:"time_zone" json:"time_zone,omitempty"`
}

// MaxDetail is the most characters a text of [details] may hold.
const MaxDetail = 200

// Location is the zone of TimeZone (UTC when empty or unknown: the config
// refused an unknown one).
func (d *Details) Location() *time.Location {
	if d == nil || d.TimeZone == "" {
		return time.UTC
	}
	loc, err := time.LoadLocation(d.TimeZone)
	if err != nil {
		return time.UTC
	}
	return loc
}

// Empty reports whether no key of the table is set.
func (d *Details) Empty() bool { return d == nil || *d == Details{} }

// checkDetails checks the [details] table, naming the key and its line.
func (ev *Event) checkDetails() error {
	d := &ev.Details
	for _, f := range []struct{ key, v string }{{"title", d.Title}, {"venue", d.Venue}, {"chief_arbiter", d.ChiefArbiter},
		{"organizer", d.Organizer}, {"federation", d.Federation}, {"time_zone", d.TimeZone}} {
		key := "details." + f.key
		if strings.IndexFunc(f.v, unicode.IsControl) >= 0 || !utf8.ValidString(f.v) {
			return ev.ErrAt(key, fmt.Sprintf("%q: no control characters", f.v))
		}
		if n := utf8.RuneCountInString(f.v); n > MaxDetail {
			return ev.ErrAt(key, fmt.Sprintf("%d characters: at most %d", n, MaxDetail))
		}
	}
	if f := d.Federation; f != "" && (len(f) != 3 || strings.ToUpper(f) != f || strings.IndexFunc(f, func(r rune) bool { return r < 'A' || r > 'Z' }) >= 0) {
		return ev.ErrAt("details.federation", fmt.Sprintf("%q: want three capital letters (FIDE's code: CZE, POL)", f))
	}
	var start, end time.Time
	for _, f := range []struct {
		key string
		v   string
		t   *time.Time
	}{{"start_date", d.StartDate, &start}, {"end_date", d.EndDate, &end}} {
		if f.v == "" {
			continue
		}
		t, err := time.Parse(time.DateOnly, f.v)
		if err != nil {
			return ev.ErrAt("details."+f.key, fmt.Sprintf("%q: want a date as YYYY-MM-DD", f.v))
		}
		*f.t = t
	}
	if !start.IsZero() && !end.IsZero() && end.Before(start) {
		return ev.ErrAt("details.end_date", fmt.Sprintf("%s is before start_date %s", d.EndDate, d.StartDate))
	}
	if d.TimeZone != "" {
		if _, err := time.LoadLocation(d.TimeZone); err != nil {
			return ev.ErrAt("details.time_zone", fmt.Sprintf("%q: not a time zone this machine knows (an IANA name: Europe/Prague, UTC)", d.TimeZone))
		}
	}
	return nil
}
