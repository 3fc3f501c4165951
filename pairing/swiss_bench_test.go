package pairing

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/metrics"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
)

// greedyHistory makes a plausible Swiss history cheaply: each round, players
// sorted by score are paired with the next one they have not met, the first
// mover alternating by colour balance. Only the benchmarked round is paired
// by PairSwiss.
func greedyHistory(n, rounds int, seed uint64) []Game {
	rng := rand.New(rand.NewPCG(seed, 9))
	pts := make([]int, n)
	cd := make([]int, n)
	met := make([]map[int]bool, n)
	for i := range met {
		met[i] = map[int]bool{}
	}
	var h []Game
	for r := 1; r <= rounds; r++ {
		order := make([]int, n)
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool { return pts[order[a]] > pts[order[b]] })
		used := make([]bool, n)
		for k, a := range order {
			if used[a] {
				continue
			}
			used[a] = true
			b := -1
			for _, c := range order[k+1:] {
				if !used[c] && !met[a][c] {
					b = c
					break
				}
			}
			if b < 0 {
				h = append(h, AllocatedBye(r, a))
				pts[a] += 2
				continue
			}
			used[b] = true
			if cd[a] > cd[b] {
				a, b = b, a
			}
			s := []float64{1, 0.5, 0}[rng.IntN(3)]
			h = append(h, Decided(r, a, b, s))
			met[a][b], met[b][a] = true, true
			cd[a]++
			cd[b]--
			pts[a] += halfPoints(s)
			pts[b] += 2 - halfPoints(s)
		}
	}
	return h
}

// benchSwiss times the pairing of round `rounds` for n players.
func benchSwiss(b *testing.B, n, rounds int) {
	players := make([]SwissPlayer, n)
	for i := range players {
		players[i].ID = i
	}
	h := greedyHistory(n, rounds-1, 3)
	opt := SwissOptions{Rounds: rounds}
	b.ResetTimer()
	defer reportOrder(b)()
	for b.Loop() {
		if _, err := PairSwiss(players, h, rounds, opt); err != nil {
			b.Fatal(err)
		}
	}
}

// reportOrder reports, per pairing, the brackets whose generation order
// was left partly to the first matching and the decisions the tight graph
// could not take: both should stay zero.
func reportOrder(b *testing.B) func() {
	approx, fallbacks := orderExhausted, orderFallbacks
	return func() {
		b.ReportMetric(float64(orderExhausted-approx)/float64(b.N), "approx-brackets/op")
		b.ReportMetric(float64(orderFallbacks-fallbacks)/float64(b.N), "slow-decisions/op")
	}
}

func BenchmarkPairSwiss100(b *testing.B)  { benchSwiss(b, 100, 9) }
func BenchmarkPairSwiss500(b *testing.B)  { benchSwiss(b, 500, 9) }
func BenchmarkPairSwiss2000(b *testing.B) { benchSwiss(b, 2000, 11) }

// benchEarly times round `round` of a simulated event with random results
// (45% first-mover wins, 10% draws): in early rounds the scoregroups are
// huge, the hardest case for bracket-wise matching. It reports the peak of
// the live heap while pairing (sampled), and the process's peak resident
// memory (VmHWM: meaningful when the benchmark runs alone, -bench with its
// exact name, since it counts everything the process did before).
func benchEarly(b *testing.B, n, round int) {
	s := newSim(b, n, 11, 3)
	for r := 1; r < round; r++ {
		s.pairAndPlay(r)
	}
	runtime.GC()
	b.ResetTimer()
	defer reportOrder(b)()
	defer reportPeakMemory(b)()
	for b.Loop() {
		if _, err := PairSwiss(s.players, s.history, round, s.opt); err != nil {
			b.Fatal(err)
		}
	}
}

// reportPeakMemory samples the live heap every few milliseconds until the
// returned function is called, then reports its peak in MB, the process's
// VmHWM from /proc/self/status, and the CPU time used per pairing (user and
// system, all threads: on a shared machine a steadier figure than the wall
// time).
func reportPeakMemory(b *testing.B) func() {
	cpu0 := cpuTime()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak uint64
	read := func() {
		metrics.Read(sample)
		peak = max(peak, sample[0].Value.Uint64())
	}
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			read()
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	return func() {
		close(stop)
		<-done
		read()
		b.ReportMetric(float64(peak)/1e6, "peak-heap-MB")
		b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
		if st, err := os.ReadFile("/proc/self/status"); err == nil {
			for _, l := range strings.Split(string(st), "\n") {
				if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
					var kb float64
					if _, err := fmt.Sscan(strings.TrimSuffix(strings.TrimSpace(v), " kB"), &kb); err == nil {
						b.ReportMetric(kb/1e3, "VmHWM-MB")
					}
				}
			}
		}
	}
}

// cpuTime is the CPU time the process has used so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkPairSwissRound2_500(b *testing.B)   { benchEarly(b, 500, 2) }
func BenchmarkPairSwissRound2_2000(b *testing.B)  { benchEarly(b, 2000, 2) }
func BenchmarkPairSwissRound3_2000(b *testing.B)  { benchEarly(b, 2000, 3) }
func BenchmarkPairSwissRound2_5000(b *testing.B)  { benchEarly(b, 5000, 2) }
func BenchmarkPairSwissRound3_5000(b *testing.B)  { benchEarly(b, 5000, 3) }
func BenchmarkPairSwissRound2_10000(b *testing.B) { benchEarly(b, 10000, 2) }
func BenchmarkPairSwissRound3_10000(b *testing.B) { benchEarly(b, 10000, 3) }

var swissEvent = flag.Bool("swiss.event", false, "run the whole-event Swiss benchmarks (11 rounds; minutes with a slow pairing core)")

// benchEvent times the pairing of a whole 11-round event, every round paired
// by PairSwiss from the real results so far, and reports the slowest round.
func benchEvent(b *testing.B, n int) {
	if !*swissEvent {
		b.Skip("whole-event benchmark: run with -swiss.event")
	}
	defer reportPeakMemory(b)()
	for b.Loop() {
		s := newSim(b, n, 11, 3)
		var slowest time.Duration
		for r := 1; r <= 11; r++ {
			start := time.Now()
			s.pairAndPlay(r)
			d := time.Since(start)
			slowest = max(slowest, d)
			b.Logf("n=%d round %d: %v", n, r, d)
		}
		b.ReportMetric(slowest.Seconds(), "s-slowest-round")
	}
}

func BenchmarkSwissEvent500(b *testing.B)  { benchEvent(b, 500) }
func BenchmarkSwissEvent2000(b *testing.B) { benchEvent(b, 2000) }
