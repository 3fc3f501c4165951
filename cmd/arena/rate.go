package main

import (
	"fmt"
	"io"
	"strings"

	"gomoku-arena/event"
	"gomoku-arena/results/bayeselo"
	"gomoku-arena/results/report"
)

func runRate(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("rate", "[flags] FOLDER|FILE.pgn ...",
		"Prints the rating list of every game in the event and match folders (their journals) and PGN files\n"+
			"named, as Rémi Coulom's BayesElo computes it with its default commands (elo, mm, exactdist,\n"+
			"ratings): the same Elo, 95% intervals, games, score, average opponent and draws. In a PGN file\n"+
			"White is the engine that moved first; a journaled game's first mover is its Black. See docs/rating.md.", stdout)
	offset := fs.Float64("offset", 0, "add this to every rating (BayesElo's offset; Gomocup uses 1600)")
	format := fs.String("format", "text", "output: text (BayesElo's table), markdown, csv, json or html")
	def := bayeselo.DefaultOptions()
	advantage := fs.Float64("advantage", def.Advantage, "the first mover's advantage in Elo (BayesElo's advantage; Gomocup's build uses 0)")
	drawElo := fs.Float64("drawelo", def.DrawElo, "the draw parameter in Elo (BayesElo's drawelo; Gomocup's build uses 0.01)")
	los := fs.Bool("los", false, "also print the likelihood of superiority of every pair (BayesElo's los); with csv, only it")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usageError{fmt.Errorf("%w: name at least one folder or PGN file", errUsage), fs.usage}
	}
	f := report.TableFormat(strings.ToLower(*format))
	switch f {
	case report.Text, report.Markdown, report.CSV, report.JSON, report.HTML:
	default:
		return usageError{fmt.Errorf("%w: -format %q: want text, markdown, csv, json or html", errUsage, *format), fs.usage}
	}
	rg, err := event.GatherRatedGames(fs.Args())
	if err != nil {
		return err
	}
	if len(rg.Games) == 0 {
		return fmt.Errorf("no rated games in %s", strings.Join(fs.Args(), ", "))
	}
	list, err := bayeselo.Rate(rg.Names, rg.Games, bayeselo.Options{Offset: *offset, Advantage: *advantage, DrawElo: *drawElo})
	if err != nil {
		return err
	}
	var table [][]float64
	if *los {
		if table, err = list.LOS(); err != nil {
			return err
		}
	}
	if rg.Unfinished > 0 {
		fmt.Fprintf(stderr, "%d PGN game(s) with result * (unfinished) not rated\n", rg.Unfinished)
	}
	if rg.NotPlayed > 0 {
		fmt.Fprintf(stderr, "%d double forfeit(s) not rated: neither engine played\n", rg.NotPlayed)
	}
	return report.WriteRatings(stdout, list, table, f)
}
