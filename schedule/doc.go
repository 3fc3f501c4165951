// Package schedule decides which games an event plays: a Tournament turns
// an event's format (round robin, gauntlet, Swiss, mini-match league) into
// fixtures round by round, a Match lays out an authors' match (encounters,
// game pairs, openings from a Suite) and keeps its tallies and the SPRT
// that may stop it, a Task plays one share of a spread event, and a
// ScheduleCheck holds a journal against the schedule it claims to follow.
//
// It hands fixtures to an arbiter.Director, which plays them; it never
// talks to an engine itself.
package schedule
