package main

import (
	"errors"
	"fmt"

	"gomoku-arena/internal/bounds"
)

// frontEnd is a command line that gives settings: arena match's flags,
// arena check's, or c-gomoku-cli's options (arena gomoku-cli).
type frontEnd int

const (
	matchFlags frontEnd = iota
	checkFlags
	cliOptions
)

// settingWords are each command line's words for the settings a
// bounds.SettingError names (as an event file's key, which config.Event.ErrAt
// turns into the file's line): the rule lives once, in the package that
// owns the setting (bounds.CheckConcurrency, bounds.CheckMoveCap,
// rules.CheckSize, rules.Procedure.Check, clock.CheckDuration, the check's
// own check.Settings.Validate), and only the word for it is each front
// end's. "" where a command line has no word for the setting. The clock's
// settings are per engine: clockFlag and cliClockToken say theirs.
var settingWords = []struct {
	key  string
	word [3]string // by frontEnd
}{
	{"size", [3]string{"-size", "-size", "-boardsize"}},
	{"opening_procedure", [3]string{"-opening-procedure", "-opening-procedure", ""}},
	{"start_timeout", [3]string{"-start-timeout", "-start-timeout", ""}}, // c-gomoku-cli has none: the engine's default
	// arena check's -games and -concurrency are its own settings (check
	// games per engine, engines checked at once; 0 is the default), held
	// to check.Settings.Validate.
	{"concurrency", [3]string{"-concurrency", "-concurrency", "-concurrency"}},
	{"games", [3]string{"-games", "-games", "-games"}},
	{"move_cap", [3]string{"-move-cap", "", "-drawafter"}},
	{"rounds", [3]string{"", "", "-rounds"}}, // arena match plays one round
}

// settingWord is the word front end f has for the setting an event file
// calls key, or "".
func settingWord(f frontEnd, key string) string {
	for _, w := range settingWords {
		if w.key == key {
			return w.word[f]
		}
	}
	return ""
}

// inWords is err, a usage error, in the words of front end f: a setting's
// (bounds.SettingError) names f's flag or option for it, followed by the
// rule's own words; any other error is as it is.
func inWords(f frontEnd, err error) error {
	var se *bounds.SettingError
	if errors.As(err, &se) {
		if w := settingWord(f, se.Setting); w != "" {
			return fmt.Errorf("%w: %s: %s", errUsage, w, se.Problem)
		}
	}
	return fmt.Errorf("%w: %v", errUsage, err)
}

// problem is a setting's error in the rule's own words alone, for a front
// end that names the setting itself (a per-engine flag or token, with its
// engine): a bounds.SettingError's problem, any other error as it is.
func problem(err error) error {
	var se *bounds.SettingError
	if errors.As(err, &se) {
		return errors.New(se.Problem)
	}
	return err
}
