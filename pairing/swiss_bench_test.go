package pairing

import "testing"

// benchSwiss plays rounds-1 random rounds for n players, then times the
// pairing of the last (late) round.
func benchSwiss(b *testing.B, n, rounds int) {
	s := newSim(b, n, rounds, 3)
	for r := 1; r < rounds; r++ {
		s.pairAndPlay(r)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := PairSwiss(s.players, s.history, rounds, s.opt); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPairSwiss100(b *testing.B)  { benchSwiss(b, 100, 9) }
func BenchmarkPairSwiss500(b *testing.B)  { benchSwiss(b, 500, 9) }
func BenchmarkPairSwiss2000(b *testing.B) { benchSwiss(b, 2000, 11) }
