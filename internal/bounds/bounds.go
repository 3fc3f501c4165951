// Package bounds holds the limits that more than one layer enforces: the
// config refuses a file past them at its line, and the packages that lay out
// and play the games refuse the same values from any other front end (flags,
// event.json). Keeping the numbers and their checks here, in a package that
// imports nothing but fmt, lets the config check them without importing what
// plays the games.
package bounds

import "fmt"

// MaxConcurrency bounds the games played at once: each holds two engine
// processes and the threads that wait on them, and the runtime ends the
// whole program past 10,000 threads.
const MaxConcurrency = 1024

// MaxGames bounds the games one event, match or batch lays out: its schedule
// is held in memory, a few hundred bytes a game, so a number of games from a
// file, a flag or a folder cannot ask for more memory than the machine has.
const MaxGames = 1 << 22

// MaxOpeningsPerPairing bounds a league's mini-matches
// (openings_per_pairing): Gomocup plays 12.
const MaxOpeningsPerPairing = 1000

// MaxShards bounds the shards of a batch and the tasks of a spread event
// (-shard K/N, auto/N, a job array's count, a shard-K-of-N folder name):
// a task waits on the others' folders, and a merge reads each one, so a
// count from a flag, the environment or a folder name cannot ask for
// billions of them. Slurm's own arrays stop at MaxArraySize (default 1001).
const MaxShards = 1 << 16

// SettingError is a setting refused by one of the checks below (or by the
// check of a setting another package owns, such as the board size or the
// opening procedure, when a schedule makes it). Setting names it as an
// event file's key does (concurrency, move_cap, size, opening_procedure;
// a match's own games and rounds as event.MatchSetup's fields), so that
// each front end can say where the setting was given in its own words:
// the file, line and key of an event file, the flag of arena match or
// arena check, the token of a c-gomoku-cli command line. Problem is the
// rule's own words, the same in every front end.
type SettingError struct {
	Setting string
	Problem string
}

func (e *SettingError) Error() string { return e.Setting + ": " + e.Problem }

// CheckConcurrency refuses a number of games at once below 1 or above
// MaxConcurrency.
func CheckConcurrency(n int) error {
	if n < 1 || n > MaxConcurrency {
		return &SettingError{"concurrency", fmt.Sprintf("%d: want 1 to %d games at once", n, MaxConcurrency)}
	}
	return nil
}

// CheckMoveCap refuses a negative move cap (the stones after which a game
// is a draw; 0 is none).
func CheckMoveCap(n int) error {
	if n < 0 {
		return &SettingError{"move_cap", fmt.Sprintf("%d: must not be negative (0: none)", n)}
	}
	return nil
}

// CheckProcesses refuses a negative bound on an engine's processes and
// threads (max_processes; 0 is no limit).
func CheckProcesses(n int) error {
	if n < 0 {
		return &SettingError{"max_processes", fmt.Sprintf("%d: must not be negative (0: no limit)", n)}
	}
	return nil
}
