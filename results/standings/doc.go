// Package standings ranks the entrants of an event from its games: points,
// tie-breaks and the crosstable. It is pure: no I/O, no clock.
package standings
