// Package bounds holds the limits that more than one layer enforces: the
// config refuses a file past them at its line, and the packages that lay out
// and play the games refuse the same values from any other front end (flags,
// event.json). Keeping the numbers here, in a package that imports nothing,
// lets the config check them without importing what plays the games.
package bounds

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
