package pairing

import (
	"errors"
	"fmt"
	"strings"
)

// Format is the shape of a tournament, as written in a config.
type Format string

const (
	FormatAuto             Format = "auto" // chosen by the number of entrants; see Resolve
	RoundRobinFormat       Format = "round-robin"
	DoubleRoundRobinFormat Format = "double-round-robin"
	SwissFormat            Format = "swiss"
	GauntletFormat         Format = "gauntlet"
)

// DefaultSwissRounds is the length of a Swiss event when the config does not
// say.
const DefaultSwissRounds = 11

var formats = []Format{FormatAuto, RoundRobinFormat, DoubleRoundRobinFormat, SwissFormat, GauntletFormat}

// ParseFormat reads a format name as written in a config.
func ParseFormat(s string) (Format, error) {
	for _, f := range formats {
		if s == string(f) {
			return f, nil
		}
	}
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = string(f)
	}
	return "", fmt.Errorf("format %q is not one of %s", s, strings.Join(names, ", "))
}

// Resolve turns FormatAuto into a concrete format for the number of entrants:
// 6 or fewer play a double round robin, 7 to 12 a single round robin, more
// than 12 a Swiss (of DefaultSwissRounds rounds unless configured). Other
// formats are returned unchanged.
func Resolve(f Format, entrants int) Format {
	if f != FormatAuto {
		return f
	}
	switch {
	case entrants <= 6:
		return DoubleRoundRobinFormat
	case entrants <= 12:
		return RoundRobinFormat
	}
	return SwissFormat
}

// ErrPairedByRound says a format's schedule cannot be known in advance: a
// Swiss round is paired from the results of the rounds before it.
var ErrPairedByRound = errors.New("swiss rounds are paired one at a time from the results so far")

// Schedule is the whole schedule of a format whose pairings do not depend on
// results: round robins and the gauntlet. FormatAuto is resolved first.
func Schedule(f Format, entrants int) ([][]Pairing, error) {
	switch Resolve(f, entrants) {
	case RoundRobinFormat:
		return RoundRobin(entrants), nil
	case DoubleRoundRobinFormat:
		return DoubleRoundRobin(entrants), nil
	case GauntletFormat:
		return Gauntlet(entrants), nil
	case SwissFormat:
		return nil, ErrPairedByRound
	}
	return nil, fmt.Errorf("unknown format %q", f)
}
