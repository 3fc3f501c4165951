package pairing

// RoundRobin is the single round robin of n entrants by the Berger tables
// (FIDE C.05, Annex 1): n-1 rounds for even n, n rounds for odd n, everyone
// plays once a round, and each pair meets once.
//
// Berger's construction numbers the players 1..m (m = n, or n+1 when n is
// odd) and keeps player m fixed. In round r its opponent c(r) starts at 1
// and advances by m/2 each round (modulo m-1, in 1..m-1); the other boards
// pair c+k with c-k for k = 1..m/2-1, c+k moving first. The fixed player
// moves first in even rounds and second in odd ones. Entrant i is player
// i+1. This gives every entrant the first move in ⌊(n−1)/2⌋ or ⌈(n−1)/2⌉
// of its games.
//
// FIDE's tables name White first; here the first-named entrant moves first,
// so it is Black. When n is odd, player m is a dummy: whoever meets it has
// the bye, written Pairing{Black: i, White: Bye} and placed last in its
// round. Boards are otherwise in Berger's order.
func RoundRobin(n int) [][]Pairing {
	if n < 2 {
		return nil
	}
	m := n + n%2 // player m is the dummy when n is odd
	dummy := m - 1
	rounds := make([][]Pairing, m-1)
	c := 1
	for r := 1; r <= m-1; r++ {
		round := make([]Pairing, 0, m/2)
		for k := 1; k < m/2; k++ {
			round = append(round, Pairing{Round: r, Black: wrap(c+k, m-1) - 1, White: wrap(c-k, m-1) - 1})
		}
		first, second := c-1, m-1
		if r%2 == 0 {
			first, second = second, first
		}
		switch {
		case n%2 == 0:
			round = append([]Pairing{{Round: r, Black: first, White: second}}, round...)
		case first == dummy:
			round = append(round, Pairing{Round: r, Black: second, White: Bye})
		default:
			round = append(round, Pairing{Round: r, Black: first, White: Bye})
		}
		rounds[r-1] = round
		c = wrap(c+m/2, m-1)
	}
	return rounds
}

// DoubleRoundRobin plays the round robin twice: the second cycle repeats the
// first round by round with the colours exchanged, so each pair meets twice,
// once with each colour, and every entrant has Black in exactly n-1 games.
// Rounds of the second cycle are numbered on from the first; byes repeat.
func DoubleRoundRobin(n int) [][]Pairing {
	first := RoundRobin(n)
	rounds := make([][]Pairing, 0, 2*len(first))
	rounds = append(rounds, first...)
	for _, round := range first {
		again := make([]Pairing, len(round))
		for i, p := range round {
			again[i] = Pairing{Round: p.Round + len(first), Black: p.White, White: p.Black}
			if p.White == Bye {
				again[i] = Pairing{Round: again[i].Round, Black: p.Black, White: Bye}
			}
		}
		rounds = append(rounds, again)
	}
	return rounds
}

// Gauntlet pits entrant 0 against each of the others once, with one game a
// round (entrant 0 plays in every game, so no two can run at once): round r
// is entrant 0 against entrant r. Entrant 0 has Black in odd rounds and
// White in even ones. There are no byes: the others simply wait.
func Gauntlet(n int) [][]Pairing {
	return GauntletGames(n, 1)
}

// GauntletGames is Gauntlet with games games against each opponent, played
// in consecutive rounds. Entrant 0's colour alternates game by game over the
// whole gauntlet, so with an even games count every opponent has each colour
// equally often, and with an odd one the opponents alternate which colour
// they have once more.
func GauntletGames(n, games int) [][]Pairing {
	if n < 2 || games < 1 {
		return nil
	}
	rounds := make([][]Pairing, 0, (n-1)*games)
	for opp := 1; opp < n; opp++ {
		for g := 0; g < games; g++ {
			r := len(rounds) + 1
			p := Pairing{Round: r, Black: 0, White: opp}
			if r%2 == 0 {
				p.Black, p.White = opp, 0
			}
			rounds = append(rounds, []Pairing{p})
		}
	}
	return rounds
}

// MiniMatches turns each pairing of rounds into a mini-match of 2×openings
// games (a league's pairing, as Gomocup plays it): every round becomes
// 2×openings rounds, numbered on from 1 in order, in which the round's
// pairs meet again and again, the first-named entrant moving first in the
// first of each two and second in the other; byes repeat, so an entrant
// resting in a round rests in all of them. Game g (from 0) of a mini-match
// is in the (g+1)-th of its rounds and plays opening g/2: each opening once
// with each colour. A game per round keeps every entrant in one game a
// round, as everything that reads rounds expects.
func MiniMatches(rounds [][]Pairing, openings int) [][]Pairing {
	games := 2 * openings
	out := make([][]Pairing, 0, len(rounds)*games)
	for _, round := range rounds {
		for g := range games {
			again := make([]Pairing, len(round))
			for i, p := range round {
				again[i] = Pairing{Round: len(out) + 1, Black: p.Black, White: p.White}
				if g%2 == 1 && p.White != Bye {
					again[i].Black, again[i].White = p.White, p.Black
				}
			}
			out = append(out, again)
		}
	}
	return out
}

// wrap maps x into 1..mod.
func wrap(x, mod int) int {
	return ((x-1)%mod+mod)%mod + 1
}
