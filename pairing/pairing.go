// Package pairing decides who plays whom: round robins (Berger tables),
// double round robins, gauntlets and the Swiss system (FIDE Dutch), and the
// choice of format from the number of entrants. It is pure: the same inputs
// always give the same schedule.
//
// Entrants are numbered from 0 in their seeding order. Black moves first.
package pairing

// Bye stands in for the missing opponent of an entrant who sits a round out.
const Bye = -1

// Pairing is one game of a round. When White is Bye, Black has the bye.
type Pairing struct {
	Round int // 1-based
	Black int
	White int
}
