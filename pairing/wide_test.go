package pairing

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

func toBig(a wide) *big.Int {
	r := new(big.Int)
	for _, w := range []uint64{a.w3, a.w2, a.w1, a.w0} {
		r.Lsh(r, 64)
		r.Or(r, new(big.Int).SetUint64(w))
	}
	if a.neg() {
		r.Sub(r, new(big.Int).Lsh(big.NewInt(1), wideBits))
	}
	return r
}

// TestWideArithmetic checks the 256-bit weights against math/big, shifts
// past 64 bits included (a 128-bit weight whose shift silently lost every
// bit moved past 64 once dropped the highest Dutch criteria).
func TestWideArithmetic(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	rnd := func() wide {
		v := wideOf(rng.Int64N(1<<40) - 1<<39)
		return v.shl(uint(rng.IntN(200)))
	}
	for range 100000 {
		a, b := rnd(), rnd()
		A, B := toBig(a), toBig(b)
		if toBig(a.add(b)).Cmp(new(big.Int).Add(A, B)) != 0 {
			t.Fatal("add", A, B)
		}
		if toBig(a.sub(b)).Cmp(new(big.Int).Sub(A, B)) != 0 {
			t.Fatal("sub", A, B)
		}
		if a.less(b) != (A.Cmp(B) < 0) {
			t.Fatal("less", A, B)
		}
		if toBig(a.half()).Cmp(new(big.Int).Rsh(A, 1)) != 0 {
			t.Fatal("half", A)
		}
		if A.Sign() >= 0 {
			k := rng.Uint64N(1 << 20)
			m, ok := a.mulSmall(k)
			if ok && toBig(m).Cmp(new(big.Int).Mul(A, new(big.Int).SetUint64(k))) != 0 {
				t.Fatal("mul", A, k)
			}
			if a.bitLen() != A.BitLen() {
				t.Fatal("bitlen", A)
			}
		}
	}
}
