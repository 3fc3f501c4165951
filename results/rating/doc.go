// Package rating owns the statistics of matches and rating lists: Elo with
// its interval, LOS, pentanomial counts, the SPRT, Bradley-Terry ratings and
// their PGN export. The math is pure.
package rating
