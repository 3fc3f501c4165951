package event

import (
	"fmt"
	"os"
	"path/filepath"

	"gomoku-arena/event/identity"
	"gomoku-arena/event/outfolder"
	"gomoku-arena/event/verify"
	"gomoku-arena/results/bayeselo"
	"gomoku-arena/results/journal"
	"gomoku-arena/results/record"
)

// RatedGames are the games of a rating list (`arena rate`), gathered from
// event and match folders and PGN files.
type RatedGames struct {
	// Names are the players in order of first appearance, each game's first
	// mover before its second, as BayesElo numbers them.
	Names []string
	Games []bayeselo.Game
	// Unfinished counts PGN games whose result is "*": no result, so not
	// rated (BayesElo ignores them too).
	Unfinished int
	// NotPlayed counts journaled double forfeits: neither engine started
	// the game, which counts as not played.
	NotPlayed int

	index map[string]int
}

// GatherRatedGames reads every path: a folder is an event or match output
// folder (its event.json and journal.jsonl, every line verified as on
// resume), anything else a PGN file. The first mover of a journaled game is
// its Black, which is PGN's White. A path named twice is refused, since its
// games would count twice; a folder or file that cannot be read is an error
// naming it (and the line).
func GatherRatedGames(paths []string) (*RatedGames, error) {
	rg := &RatedGames{index: map[string]int{}}
	seen := map[string]string{}
	for _, path := range paths {
		abs, err := filepath.Abs(path)
		if err != nil {
			return nil, err
		}
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
		if first, dup := seen[abs]; dup {
			return nil, fmt.Errorf("%s is named twice (as %s and %s): its games would count twice", abs, first, path)
		}
		seen[abs] = path
		st, err := os.Stat(path)
		if err != nil {
			return nil, err
		}
		if st.IsDir() {
			err = rg.readFolder(path)
		} else {
			err = rg.readPGN(path)
		}
		if err != nil {
			return nil, err
		}
	}
	return rg, nil
}

func (rg *RatedGames) player(name string) int {
	i, ok := rg.index[name]
	if !ok {
		i = len(rg.Names)
		rg.index[name] = i
		rg.Names = append(rg.Names, name)
	}
	return i
}

func (rg *RatedGames) add(first, second string, r bayeselo.Result) {
	a := rg.player(first)
	b := rg.player(second)
	rg.Games = append(rg.Games, bayeselo.Game{First: a, Second: b, Result: r})
}

func (rg *RatedGames) readFolder(dir string) error {
	id, err := identity.Read(filepath.Join(dir, identity.File))
	if err != nil {
		return fmt.Errorf("%s is not an event or match folder: %w", dir, err)
	}
	path := filepath.Join(dir, outfolder.JournalFile)
	recs, err := journal.Read(path)
	if err != nil {
		return err
	}
	if err := verify.Journal(id, recs); err != nil { // rated as arena standings counts them, or not at all
		return fmt.Errorf("journal %s: %w", path, err)
	}
	for _, rec := range record.Ruled(recs) { // as the arbiter's decisions leave them
		switch {
		case !rec.IsGame():
			continue // a bye or a withdrawal
		case rec.End == record.DoubleForfeit || rec.End == record.Forfeited: // not played over the board
			rg.NotPlayed++
			continue
		}
		black, _ := rec.Points()
		r := bayeselo.Draw
		switch black {
		case 1:
			r = bayeselo.FirstWins
		case 0:
			r = bayeselo.SecondWins
		}
		rg.add(rec.Black, rec.White, r)
	}
	return nil
}

func (rg *RatedGames) readPGN(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return record.ReadPGN(f, path, func(g record.PGNGame) error {
		switch g.Result {
		case "1-0":
			rg.add(g.White, g.Black, bayeselo.FirstWins)
		case "0-1":
			rg.add(g.White, g.Black, bayeselo.SecondWins)
		case "1/2-1/2":
			rg.add(g.White, g.Black, bayeselo.Draw)
		default:
			rg.Unfinished++
		}
		return nil
	})
}
