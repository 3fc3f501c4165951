package standings

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"gomoku-arena/pairing"
	"gomoku-arena/results/record"
)

// rr4 is a single round robin of A=0, B=1, C=2, D=3:
//
//	A beats C, B beats A, A draws D   A 1.5
//	C beats B, C draws D              C 1.5 (lost to A)
//	B beats D                         B 2   (beat A, lost to C)
//	                                  D 1   (two draws, lost to B)
func rr4() []GameResult {
	return []GameResult{
		Played(1, 0, 2, 1, record.Five),
		Played(1, 1, 3, 1, record.Five),
		Played(2, 1, 0, 1, record.Five),
		Played(2, 2, 3, 0.5, record.FullBoard),
		Played(3, 3, 0, 0.5, record.MoveCap),
		Played(3, 2, 1, 1, record.Time),
	}
}

func TestStandingsRoundRobinByHand(t *testing.T) {
	// Sonneborn-Berger (win: opponent's points, draw: half of them):
	//	A: beat C 1.5 + lost B 0 + drew D ½·1 = 2.0
	//	B: beat A 1.5 + beat D 1 + lost C 0   = 2.5
	//	C: beat B 2 + drew D ½·1 + lost A 0   = 2.5
	//	D: drew A ½·1.5 + drew C ½·1.5        = 1.5
	// Direct encounter between A and C (tied on 1.5): A won, A 1 C 0.
	// Wins: A 1, B 2, C 1, D 0.
	// Koya: max score 3, so opponents with ≥ 1.5: A, B, C.
	//	A: C 1 + B 0 = 1;  B: A 1 + C 0 = 1;  C: B 1 + A 0 = 1;  D: ½ + ½ = 1
	tests := []struct {
		name      string
		tiebreaks []Tiebreak
		want      []Standing
	}{
		{"SB before DE: C ahead of A", RoundRobinTiebreaks(), []Standing{
			{Rank: 1, RankTo: 1, Entrant: 1, Points: 2, Games: 3, Wins: 2, Losses: 1, BlackWins: 2, ForfeitLosses: 0, Tiebreaks: []float64{2.5, 0, 2, 1}},
			{Rank: 2, RankTo: 2, Entrant: 2, Points: 1.5, Games: 3, Wins: 1, Draws: 1, Losses: 1, BlackWins: 1, Tiebreaks: []float64{2.5, 0, 1, 1}},
			{Rank: 3, RankTo: 3, Entrant: 0, Points: 1.5, Games: 3, Wins: 1, Draws: 1, Losses: 1, BlackWins: 1, Tiebreaks: []float64{2, 0, 1, 1}},
			{Rank: 4, RankTo: 4, Entrant: 3, Points: 1, Games: 3, Draws: 2, Losses: 1, Tiebreaks: []float64{1.5, 0, 0, 1}},
		}},
		{"DE first: A ahead of C", []Tiebreak{DirectEncounter, SonnebornBerger}, []Standing{
			{Rank: 1, RankTo: 1, Entrant: 1, Points: 2, Games: 3, Wins: 2, Losses: 1, BlackWins: 2, Tiebreaks: []float64{0, 2.5}},
			{Rank: 2, RankTo: 2, Entrant: 0, Points: 1.5, Games: 3, Wins: 1, Draws: 1, Losses: 1, BlackWins: 1, Tiebreaks: []float64{1, 2}},
			{Rank: 3, RankTo: 3, Entrant: 2, Points: 1.5, Games: 3, Wins: 1, Draws: 1, Losses: 1, BlackWins: 1, Tiebreaks: []float64{0, 2.5}},
			{Rank: 4, RankTo: 4, Entrant: 3, Points: 1, Games: 3, Draws: 2, Losses: 1, Tiebreaks: []float64{0, 1.5}},
		}},
		{"Koya ties A and C: shared places, seeding order", []Tiebreak{Koya}, []Standing{
			{Rank: 1, RankTo: 1, Entrant: 1, Points: 2, Games: 3, Wins: 2, Losses: 1, BlackWins: 2, Tiebreaks: []float64{1}},
			{Rank: 2, RankTo: 3, Entrant: 0, Points: 1.5, Games: 3, Wins: 1, Draws: 1, Losses: 1, BlackWins: 1, Tiebreaks: []float64{1}},
			{Rank: 2, RankTo: 3, Entrant: 2, Points: 1.5, Games: 3, Wins: 1, Draws: 1, Losses: 1, BlackWins: 1, Tiebreaks: []float64{1}},
			{Rank: 4, RankTo: 4, Entrant: 3, Points: 1, Games: 3, Draws: 2, Losses: 1, Tiebreaks: []float64{1}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := DefaultOptions(false)
			opt.Tiebreaks = tt.tiebreaks
			got, err := Standings(4, rr4(), opt)
			if err != nil {
				t.Fatal(err)
			}
			// C's win over B was on time: a forfeit win, still on the board.
			for i := range tt.want {
				if tt.want[i].Entrant == 2 {
					tt.want[i].ForfeitWins = 1
				}
				if tt.want[i].Entrant == 1 {
					tt.want[i].ForfeitLosses = 1
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got\n%s\nwant\n%s", dump(got), dump(tt.want))
			}
		})
	}
}

// swiss5 is three Swiss rounds of five entrants with byes and a refusal:
//
//	R1: 0 beats 1, 2 draws 3, 4 bye
//	R2: 4 beats 0, 1 wins by 2's refusal (unplayed), 3 bye
//	R3: 0 beats 3, 4 draws 2, 1 bye
//
// Points: 0: 2, 1: 2 (forfeit win, bye), 2: 1, 3: 1.5, 4: 2.5.
func swiss5() []GameResult {
	return []GameResult{
		Played(1, 0, 1, 1, record.Five),
		Played(1, 2, 3, 0.5, record.FullBoard),
		ByeResult(1, 4),
		Played(2, 4, 0, 1, record.Five),
		Played(2, 1, 2, 1, record.Refusal),
		ByeResult(2, 3),
		Played(3, 3, 0, 0, record.Five),
		Played(3, 4, 2, 0.5, record.MoveCap),
		ByeResult(3, 1),
	}
}

func TestStandingsSwissByHand(t *testing.T) {
	// Dummy opponents (C.07 Art. 16.4): own points, capped by the forfeit
	// opponent's points or, for a bye, ½ × 3 rounds = 1.5.
	//
	// Buchholz values by round, Cut-1, Median-1:
	//	0: 1→2, 4→2.5, 3→1.5                        BH 6    C1 4.5  M1 2
	//	1: 0→2, ff win vs 2→min(2,1)=1, bye→1.5    BH 4.5  C1 3.5  M1 1.5
	//	2: 3→1.5, ff loss vs 1→min(1,2)=1, 4→2.5   BH 5    C1 4 (the forfeit loss is cut) M1 1.5
	//	3: 2→1, bye→min(1.5,1.5)=1.5, 0→2          BH 4.5  C1 3.5  M1 1.5
	//	4: bye→min(2.5,1.5)=1.5, 0→2, 2→1          BH 4.5  C1 3.5  M1 1.5
	// Sonneborn-Berger (points × value):
	//	0: 2 + 0 + 1.5 = 3.5;  1: 0 + 1 + 1.5 = 2.5;  2: .75 + 0 + 1.25 = 2
	//	3: .5 + 1.5 + 0 = 2;   4: 1.5 + 2 + .5 = 4
	// WIN (rounds worth a win): 0: 2, 1: 2, 2: 0, 3: 1, 4: 2.
	// ARO with ratings 2000, 1900, 1800, 1700, 1600 (board games only):
	//	0: (1900+1600+1700)/3 = 1733.3 → 1733;  1: 2000;  2: (1700+1600)/2 = 1650
	//	3: (1800+2000)/2 = 1900;  4: (2000+1800)/2 = 1900
	// Wins moving second, on the board (SMW, FIDE's BWG): only 0, in round
	// 3 against 3. Games moving second on the board (SMG, FIDE's BPG): 0
	// rounds 2 and 3; 1 round 1 (its round 2 refusal was no game); 2 round 3;
	// 3 round 1; 4 none.
	// Ranking by BH-C1: 4 (2.5 points), then 0 and 1 on 2 points split by
	// BH-C1 4.5 > 3.5, then 3, then 2.
	opt := DefaultOptions(true)
	opt.Tiebreaks = []Tiebreak{BuchholzCut1, Buchholz, MedianBuchholz, SonnebornBerger, MostWins, AverageRatingOfOpponents, SecondMoverWins, SecondMoverGames}
	opt.Ratings = []float64{2000, 1900, 1800, 1700, 1600}
	got, err := Standings(5, swiss5(), opt)
	if err != nil {
		t.Fatal(err)
	}
	want := []Standing{
		{Rank: 1, RankTo: 1, Entrant: 4, Points: 2.5, Games: 2, Wins: 1, Draws: 1, BlackWins: 1, Byes: 1, Tiebreaks: []float64{3.5, 4.5, 1.5, 4, 2, 1900, 0, 0}},
		{Rank: 2, RankTo: 2, Entrant: 0, Points: 2, Games: 3, Wins: 2, Losses: 1, BlackWins: 1, Tiebreaks: []float64{4.5, 6, 2, 3.5, 2, 1733, 1, 2}},
		{Rank: 3, RankTo: 3, Entrant: 1, Points: 2, Games: 2, Wins: 1, Losses: 1, ForfeitWins: 1, Byes: 1, Tiebreaks: []float64{3.5, 4.5, 1.5, 2.5, 2, 2000, 0, 1}},
		{Rank: 4, RankTo: 4, Entrant: 3, Points: 1.5, Games: 2, Draws: 1, Losses: 1, Byes: 1, Tiebreaks: []float64{3.5, 4.5, 1.5, 2, 1, 1900, 0, 1}},
		{Rank: 5, RankTo: 5, Entrant: 2, Points: 1, Games: 3, Draws: 2, Losses: 1, ForfeitLosses: 1, Tiebreaks: []float64{4, 5, 1.5, 2, 0, 1650, 0, 1}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%s\nwant\n%s", dump(got), dump(want))
	}
}

func TestBuchholzCutsForfeitLossFirst(t *testing.T) {
	// Entrant 0 of six, Swiss, 4 rounds (bye cap 2):
	//	R1 beats 1, R2 loses by refusing against 2, R3 beats 3, R4 beats 4.
	// Everyone else is set up to finish: 1 on 0, 2 on 3, 3 on 1, 4 on 1.
	// 0 has 3 points. Values: 1→0, forfeit loss vs 2→min(3,3)=3, 3→1, 4→1.
	// Cut-1 cuts the forfeit loss (C.07 Art. 16.5), not the 0: 0+1+1 = 2.
	// Median-1 then cuts the greatest of the rest (1): 1.
	games := []GameResult{
		Played(1, 0, 1, 1, ""),
		Played(1, 2, 5, 1, ""),
		Played(1, 3, 4, 0.5, ""),
		Played(2, 0, 2, 0, record.Refusal),
		Played(2, 1, 5, 0, ""),
		Played(2, 3, 4, 0.5, ""),
		Played(3, 0, 3, 1, ""),
		Played(3, 2, 4, 1, ""),
		Played(3, 1, 5, 0, ""),
		Played(4, 0, 4, 1, ""),
		Played(4, 1, 2, 0, ""),
		Played(4, 3, 5, 0, ""),
	}
	opt := Options{ByePoints: 1, Swiss: true, Tiebreaks: []Tiebreak{Buchholz, BuchholzCut1, MedianBuchholz}}
	got, err := Standings(6, games, opt)
	if err != nil {
		t.Fatal(err)
	}
	points := map[int]float64{0: 3, 1: 0, 2: 4, 3: 1, 4: 1, 5: 3}
	for _, s := range got {
		if s.Points != points[s.Entrant] {
			t.Fatalf("entrant %d: %g points, want %g (fix the fixture)", s.Entrant, s.Points, points[s.Entrant])
		}
		if s.Entrant == 0 {
			// With 2 on 4 points the forfeit value is min(3, 4) = 3.
			if want := []float64{5, 2, 1}; !reflect.DeepEqual(s.Tiebreaks, want) {
				t.Errorf("entrant 0: BH, BH-C1, BH-M1 = %v, want %v", s.Tiebreaks, want)
			}
		}
	}
}

func TestDirectEncounterNeedsEveryoneMet(t *testing.T) {
	// 0 and 1 tie on 1 point but never met: direct encounter separates
	// nobody and they share second place.
	games := []GameResult{
		Played(1, 0, 2, 1, ""),
		Played(1, 1, 3, 1, ""),
		Played(2, 2, 1, 1, ""),
		Played(2, 3, 0, 1, ""),
	}
	// 2: 1 (beat 1), 3: 1 (beat 0): four entrants on 1 point; nobody has met
	// all three others and each scored 1 against the rest, so no one
	// stays alone on top whatever the missing games give (C.07 6.3): all
	// share 1st-4th.
	got, err := Standings(4, games, Options{Tiebreaks: []Tiebreak{DirectEncounter}})
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range got {
		if s.Rank != 1 || s.RankTo != 4 || s.Entrant != i || s.Tiebreaks[0] != 1 {
			t.Errorf("got %s", dump(got))
			break
		}
	}
}

func TestStandingsDoubleRoundRobinShared(t *testing.T) {
	// Two entrants trade wins: 1-1, shared first place on every tie-break.
	games := []GameResult{
		Played(1, 0, 1, 1, ""),
		Played(2, 1, 0, 1, ""),
	}
	got, err := Standings(2, games, DefaultOptions(false))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range got {
		if s.Rank != 1 || s.RankTo != 2 || s.Points != 1 || s.BlackWins != 1 {
			t.Errorf("got %s", dump(got))
		}
	}
}

func TestStandingsErrors(t *testing.T) {
	tests := []struct {
		name  string
		games []GameResult
		want  string
	}{
		{"out of range", []GameResult{Played(1, 0, 5, 0, "")}, "in 0..2"},
		{"self", []GameResult{Played(1, 1, 1, 0, "")}, "distinct"},
		{"round zero", []GameResult{Played(0, 0, 1, 1, "")}, "round 0"},
		{"score", []GameResult{Played(1, 0, 1, 0.7, "")}, "0.7 points"},
		{"two games a round", []GameResult{Played(1, 0, 1, 0, ""), Played(1, 2, 0, 0, "")}, "entrant 0 has two games"},
	}
	for _, tt := range tests {
		_, err := Standings(3, tt.games, DefaultOptions(false))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want it to mention %q", tt.name, err, tt.want)
		}
	}
}

func TestGameResultsFromRecords(t *testing.T) {
	recs := []*record.Record{{Round: 1, Black: "alpha", White: "beta", Winner: 2, End: record.Five}}
	index := map[string]int{"alpha": 0, "beta": 1}
	got, err := GameResults(recs, index)
	if err != nil {
		t.Fatal(err)
	}
	want := []GameResult{Played(1, 0, 1, recs[0].Score(), record.Five)}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	bye, err := GameResults([]*record.Record{{Round: 2, Black: "beta", End: record.ByeEnd}}, index)
	if err != nil || !reflect.DeepEqual(bye, []GameResult{ByeResult(2, 1)}) {
		t.Errorf("bye record: %+v, %v", bye, err)
	}
	if _, err := GameResults([]*record.Record{{Black: "gamma", White: "beta"}}, index); err == nil {
		t.Error("unknown engine: no error")
	}
}

func TestParseTiebreaks(t *testing.T) {
	got, err := ParseTiebreaks([]string{"buchholz-cut1", "aro", "second-mover-wins"})
	if err != nil || !reflect.DeepEqual(got, []Tiebreak{BuchholzCut1, AverageRatingOfOpponents, SecondMoverWins}) {
		t.Errorf("got %v, %v", got, err)
	}
	for _, bad := range [][]string{{"buchholz", "buchholz"}, {"progressive"}, {"black-wins"}} {
		if _, err := ParseTiebreaks(bad); err == nil {
			t.Errorf("ParseTiebreaks(%q): no error", bad)
		}
	}
}

// randomSwissLike plays random results over a schedule where each round
// pairs entrants at random (rematches allowed; standings do not care).
func randomSwissLike(n, rounds int, seed uint64) []GameResult {
	rng := rand.New(rand.NewPCG(seed, 1))
	var games []GameResult
	ends := []record.Termination{record.Five, record.Five, record.FullBoard, record.Time, record.Crash, record.Refusal}
	for r := 1; r <= rounds; r++ {
		perm := rng.Perm(n)
		for i := 0; i+1 < n; i += 2 {
			g := Played(r, perm[i], perm[i+1], 0, ends[rng.IntN(len(ends))])
			sc := float64(rng.IntN(3)) / 2
			if g.End != record.FullBoard && sc == 0.5 {
				sc = 1
			}
			if g.End == record.FullBoard {
				sc = 0.5
			}
			g.BlackPoints, g.WhitePoints = sc, 1-sc
			g.Forfeit = NotPlayed(g.End)
			games = append(games, g)
		}
		if n%2 == 1 {
			games = append(games, ByeResult(r, perm[n-1]))
		}
	}
	return games
}

func TestStandingsInvariants(t *testing.T) {
	for seed := range uint64(30) {
		n := 5 + int(seed)
		games := randomSwissLike(n, 7, seed)
		opt := DefaultOptions(seed%2 == 0)
		opt.Tiebreaks = append(opt.Tiebreaks, MedianBuchholz, Koya, MostWins)
		st, err := Standings(n, games, opt)
		if err != nil {
			t.Fatal(err)
		}
		total, want := 0.0, 0.0
		for _, g := range games {
			want++
			if g.White == Bye {
				want += opt.ByePoints - 1
			}
		}
		for i, s := range st {
			total += s.Points
			if s.Games != s.Wins+s.Draws+s.Losses || s.Games+s.Byes != 7 {
				t.Fatalf("seed %d: entrant %d: %+v", seed, s.Entrant, s)
			}
			if i > 0 {
				p := st[i-1]
				if p.Points < s.Points || (s.Rank != p.Rank && s.Rank != i+1) || (s.Rank == p.Rank) != (s.RankTo == p.RankTo) {
					t.Fatalf("seed %d: bad order at %d: %s", seed, i, dump(st))
				}
			}
		}
		if total != want {
			t.Errorf("seed %d: points sum to %g, want %g", seed, total, want)
		}
	}
}

// A full round robin played out ranks by the Berger schedule's own games.
func TestStandingsOverBergerSchedule(t *testing.T) {
	var games []GameResult
	for _, round := range pairing.DoubleRoundRobin(5) {
		for _, p := range round {
			if p.White == pairing.Bye {
				games = append(games, ByeResult(p.Round, p.Black))
				continue
			}
			// The lower seed always wins: ranks follow the seeding.
			s := 0.0
			if p.Black < p.White {
				s = 1
			}
			games = append(games, Played(p.Round, p.Black, p.White, s, record.Five))
		}
	}
	st, err := Standings(5, games, DefaultOptions(false))
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range st {
		// 2 byes (1 point each) + 2 wins against each lower seed.
		if want := 2 + 2*float64(4-i); s.Entrant != i || s.Rank != i+1 || s.Points != want {
			t.Errorf("place %d: entrant %d, rank %d, %g points; want entrant %d, %g points", i+1, s.Entrant, s.Rank, s.Points, i, want)
		}
	}
}

func dump(st []Standing) string {
	var b strings.Builder
	for _, s := range st {
		fmt.Fprintf(&b, "%+v\n", s)
	}
	return b.String()
}

func BenchmarkStandings5000(b *testing.B) {
	games := randomSwissLike(5000, 11, 1)
	opt := DefaultOptions(true)
	opt.Tiebreaks = append(opt.Tiebreaks, MedianBuchholz, MostWins, Koya)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Standings(5000, games, opt); err != nil {
			b.Fatal(err)
		}
	}
}
