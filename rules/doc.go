// Package rules owns the game itself: the board, moves and their notations, and
// the rules of the Gomoku family — which moves are legal, what wins, what is
// forbidden and what is captured. It is pure: no goroutines, no I/O, no clock.
//
// Coordinates are kept in one internal form everywhere (Point: 0-based x =
// column from the left, y = row from the top, as in the Gomocup protocol) and
// converted only at the edges by the notation functions.
//
// A Rule judges one move at a time through Play, so rules with forbidden moves
// (renju) or captures (pente) fit the same interface as freestyle: callers
// never look inside a rule.
package rules
