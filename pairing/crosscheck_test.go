package pairing

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestCrossCheck compares our pairings with another Dutch-system engine's on
// random tournaments, round by round, the way pairing engines are checked for
// certification. It needs the other engine, so it runs only when
// ARENA_REFERENCE_PAIRER names its command, with {in} and {out} standing for
// the TRF file to pair and the file its plain pairing goes to; for
// bbpPairings:
//
//	ARENA_REFERENCE_PAIRER='/path/to/bbpPairings.exe --dutch {in} -p {out}' \
//	ARENA_CROSSCHECK_EVENTS=200 ARENA_CROSSCHECK_OUT=/tmp/diffs \
//	go test ./pairing -run CrossCheck -v
//
// Each event follows the reference engine's pairings (so that its history is
// one the reference produced; ours before the rounds compared, see
// ARENA_CROSSCHECK_ROUNDS) with random results, forfeits (a third of them
// double forfeits, "-"/"-"), played games both lose ("0"/"0") and absences.
// A round we pair differently fails the test; with ARENA_CROSSCHECK_OUT set,
// its TRF and both pairings are kept there as NAME.trf, NAME.want, NAME.got,
// ready to become fixtures in testdata/reference.
func TestCrossCheck(t *testing.T) {
	cmd := os.Getenv("ARENA_REFERENCE_PAIRER")
	if cmd == "" {
		t.Skip("ARENA_REFERENCE_PAIRER is not set")
	}
	events := 20
	if s := os.Getenv("ARENA_CROSSCHECK_EVENTS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("ARENA_CROSSCHECK_EVENTS: %v", err)
		}
		events = n
	}
	seed := uint64(1)
	if s := os.Getenv("ARENA_CROSSCHECK_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("ARENA_CROSSCHECK_SEED: %v", err)
		}
		seed = n
	}
	// ARENA_CROSSCHECK_PLAYERS is the field size range, "MIN-MAX" or "MAX".
	minPlayers, maxPlayers := 9, 120
	if s := os.Getenv("ARENA_CROSSCHECK_PLAYERS"); s != "" {
		lo, hi, ok := strings.Cut(s, "-")
		if !ok {
			lo, hi = "9", s
		}
		a, err1 := strconv.Atoi(lo)
		b, err2 := strconv.Atoi(hi)
		if err1 != nil || err2 != nil || a < 2 || b < a {
			t.Fatalf("ARENA_CROSSCHECK_PLAYERS: %q is not MIN-MAX or MAX (at least 2 players)", s)
		}
		if b > MaxTRFPlayers {
			t.Fatalf("ARENA_CROSSCHECK_PLAYERS: %q: the reference reads TRF-16, which holds at most %d players", s, MaxTRFPlayers)
		}
		minPlayers, maxPlayers = a, b
	}
	// ARENA_CROSSCHECK_ROUNDS, "FROM-TO" or "ROUND", are the rounds compared:
	// the rounds before are paired by us alone and the event ends after the
	// last, for events too big for the reference to pair every round (it
	// needs an hour for a round of 5,000 players).
	from, to := 1, 0
	if s := os.Getenv("ARENA_CROSSCHECK_ROUNDS"); s != "" {
		lo, hi, ok := strings.Cut(s, "-")
		if !ok {
			hi = lo
		}
		a, err1 := strconv.Atoi(lo)
		b, err2 := strconv.Atoi(hi)
		if err1 != nil || err2 != nil || a < 1 || b < a {
			t.Fatalf("ARENA_CROSSCHECK_ROUNDS: %q is not FROM-TO or ROUND (from round 1)", s)
		}
		from, to = a, b
	}
	keep := os.Getenv("ARENA_CROSSCHECK_OUT")
	dir := t.TempDir()
	rounds, differ, failed := 0, 0, 0
	doubles, bothLost := 0, 0
	approx, fallbacks := orderExhausted, orderFallbacks
	for ev := range events {
		rng := rand.New(rand.NewPCG(seed, uint64(ev)))
		// Every third event is small and long, where pairings run out of
		// legal options and the last rounds get hard.
		n, planned := minPlayers+rng.IntN(maxPlayers-minPlayers+1), 5+rng.IntN(7)
		if ev%3 == 0 && minPlayers <= 9 {
			n, planned = 9+rng.IntN(12), 7+rng.IntN(6)
		}
		e := &crossEvent{
			rng:     rng,
			trf:     &TRF{Name: fmt.Sprintf("crosscheck %d/%d", seed, ev), Rounds: planned, InitialBlack: rng.IntN(4) == 0},
			draws:   []float64{0, 0.1, 0.3}[rng.IntN(3)],
			forfeit: []float64{0, 0.02, 0.08}[rng.IntN(3)],
			absent:  []float64{0, 0.03}[rng.IntN(2)],
			// Drawn after every other choice, so that the earlier
			// seeds' events start as they did before it existed.
		}
		if ev%2 == 1 {
			e.bothLose = []float64{0, 0.03}[rng.IntN(2)]
		}
		for i := range n {
			e.trf.Players = append(e.trf.Players, TRFPlayer{Name: fmt.Sprintf("P%d", i+1), Rating: 2600 - 7*i})
		}
		// A quarter of the events have team mates who must not meet, a
		// quarter a bye worth half a point or nothing.
		if rng.IntN(4) == 0 {
			for range 1 + rng.IntN(3) {
				group := rng.Perm(n)[:2+rng.IntN(3)]
				e.trf.Forbidden = append(e.trf.Forbidden, group)
			}
		}
		if rng.IntN(4) == 0 {
			bye := []float64{0.5, 0}[rng.IntN(2)]
			e.trf.ByePoints = &bye
		}
		last := e.trf.Rounds
		if to > 0 {
			last = min(last, to)
		}
		for r := 1; r <= last; r++ {
			name := fmt.Sprintf("s%d-e%d-r%d", seed, ev, r)
			in := filepath.Join(dir, name+".trf")
			out := filepath.Join(dir, name+".out")
			e.markAbsences(r)
			var trf bytes.Buffer
			if err := WriteTRF(&trf, e.trf); err != nil {
				t.Fatal(err)
			}
			e.writeAbsences(&trf, r)
			if r < from {
				var ours bytes.Buffer
				if err := PairTRF(bytes.NewReader(trf.Bytes()), &ours); err != nil {
					t.Logf("%s: %v; event ends before the rounds compared", name, err)
					break
				}
				if err := e.play(r, ours.String()); err != nil {
					t.Fatalf("%s: our pairing: %v", name, err)
				}
				continue
			}
			if err := os.WriteFile(in, trf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			args := strings.Fields(strings.NewReplacer("{in}", in, "{out}", out).Replace(cmd))
			refErr := exec.Command(args[0], args[1:]...).Run()
			want, _ := os.ReadFile(out)
			var got bytes.Buffer
			ourErr := PairTRF(bytes.NewReader(trf.Bytes()), &got)
			if ee, ok := refErr.(*exec.ExitError); ok && ee.ExitCode() != 1 {
				// Only exit code 1 means "no valid pairing" (bbpPairings);
				// anything else is the reference failing: the event stops.
				t.Logf("%s: reference failed (%v); event abandoned", name, refErr)
				keepCase(t, keep, name, trf.Bytes(), want, got.Bytes())
				failed++
				break
			}
			rounds++
			if refErr != nil || ourErr != nil {
				if (refErr == nil) != (ourErr == nil) {
					differ++
					t.Errorf("%s (%d players): reference error %v, ours %v", name, n, refErr, ourErr)
					keepCase(t, keep, name, trf.Bytes(), want, got.Bytes())
				}
				break // no legal pairing: the event ends here for both
			}
			if got.String() != string(want) {
				differ++
				t.Errorf("%s (%d players, round %d of %d): pairing differs (want | got):\n%s", name, n, r, e.trf.Rounds, sideBySide(string(want), got.String()))
				keepCase(t, keep, name, trf.Bytes(), want, got.Bytes())
			}
			if err := e.play(r, string(want)); err != nil {
				t.Fatalf("%s: reference pairing: %v", name, err)
			}
		}
		doubles, bothLost = doubles+e.doubles, bothLost+e.bothLost
		t.Logf("event %d: %d players, %d rounds planned; %d differences so far", ev, n, planned, differ)
	}
	t.Logf("%d events, %d rounds paired, %d differ; the reference failed in %d events", events, rounds, differ, failed)
	t.Logf("the histories held %d double forfeits (-/-) and %d played games both lost (0/0)", doubles, bothLost)
	t.Logf("brackets left partly to the first matching: %d; decisions handed from the tight graph to the trials: %d", orderExhausted-approx, orderFallbacks-fallbacks)
}

// crossEvent is one random tournament of the cross-check.
type crossEvent struct {
	rng                    *rand.Rand
	trf                    *TRF
	draws, forfeit, absent float64
	bothLose               float64         // played games scored 0-0
	doubles, bothLost      int             // double forfeits and 0-0 games so far
	away                   map[int]float64 // absent in the round being paired, with the points given
}

// markAbsences makes a few players absent for round r: a zero-point bye
// entered before the round is paired, which both engines must leave out.
func (e *crossEvent) markAbsences(r int) {
	e.away = map[int]float64{}
	if e.absent == 0 || r == 1 {
		return
	}
	for i := range e.trf.Players {
		if e.rng.Float64() < e.absent {
			// Mostly zero-point absences, some half- and full-point byes.
			e.away[i] = []float64{0, 0, 0, 0.5, 0.5, 1}[e.rng.IntN(6)]
		}
	}
}

// writeAbsences adds round r's entry ("0000 - Z", or H or F for a half- or
// full-point bye) to the lines of the players absent from it, as an arbiter
// does before pairing the round.
func (e *crossEvent) writeAbsences(trf *bytes.Buffer, r int) {
	if len(e.away) == 0 {
		return
	}
	lines := strings.SplitAfter(trf.String(), "\n")
	var b strings.Builder
	for _, l := range lines {
		if strings.HasPrefix(l, "001 ") {
			id, err := strconv.Atoi(strings.TrimSpace(l[4:8]))
			if pts, away := e.away[id-1]; err == nil && away {
				code := map[float64]string{0: "Z", 0.5: "H", 1: "F"}[pts]
				l = strings.TrimSuffix(l, "\n") + strings.Repeat(" ", max(0, trfFirstGame+(r-1)*trfGameWidth-len(strings.TrimSuffix(l, "\n")))) + "0000 - " + code + "\n"
			}
		}
		b.WriteString(l)
	}
	trf.Reset()
	trf.WriteString(b.String())
}

// play records round r as paired in the plain form, with random results.
func (e *crossEvent) play(r int, plain string) error {
	lines := strings.Split(strings.TrimSpace(plain), "\n")
	if len(lines) == 0 {
		return fmt.Errorf("empty pairing")
	}
	count, err := strconv.Atoi(strings.TrimSpace(lines[0]))
	if err != nil || count != len(lines)-1 {
		return fmt.Errorf("first line %q does not count the %d pairs", lines[0], len(lines)-1)
	}
	for i, pts := range e.away {
		e.trf.Games = append(e.trf.Games, Game{Round: r, Black: i, White: Bye, BlackPoints: pts, Forfeit: true})
	}
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		if len(f) != 2 {
			return fmt.Errorf("line %q", l)
		}
		a, err1 := strconv.Atoi(f[0])
		b, err2 := strconv.Atoi(f[1])
		if err1 != nil || err2 != nil || a < 1 || a > len(e.trf.Players) || b < 0 || b > len(e.trf.Players) {
			return fmt.Errorf("line %q", l)
		}
		if b == 0 {
			e.trf.Games = append(e.trf.Games, AllocatedBye(r, a-1))
			continue
		}
		g := Decided(r, a-1, b-1, 0)
		x := e.rng.Float64()
		switch {
		case x < e.draws:
			g = Decided(r, a-1, b-1, 0.5)
		case x < e.draws+(1-e.draws)/2:
			g = Decided(r, a-1, b-1, 1)
		}
		switch {
		case g.BlackPoints != 0.5 && e.rng.Float64() < e.forfeit:
			g.Forfeit = true
			// A third of the forfeits are double: both absent, "-"/"-".
			if e.rng.IntN(3) == 0 {
				g.BlackPoints, g.WhitePoints = 0, 0
				e.doubles++
			}
		case e.rng.Float64() < e.bothLose:
			g.BlackPoints, g.WhitePoints = 0, 0 // played, both lose: "0"/"0"
			e.bothLost++
		}
		e.trf.Games = append(e.trf.Games, g)
	}
	return nil
}

func keepCase(t *testing.T, dir, name string, trf, want, got []byte) {
	if dir == "" {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for ext, b := range map[string][]byte{".trf": trf, ".want": want, ".got": got} {
		if err := os.WriteFile(filepath.Join(dir, name+ext), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
