package main

import (
	"fmt"
	"strings"

	"gomoku-arena/results/sample"
)

// cliDump is the block c-gomoku-cli prints before anything else
// (options.cpp, options_print): its settings, one "key = value" a line, in
// its names and units (milliseconds, 0/1 for flags), and each engine's as
// given (-each applied). Options the arena ignores (-draw, -resign) show
// their defaults; settings where the arena differs (docs/gomoku-cli.md)
// show what is played.
func cliDump(p *matchPlan) string {
	const dashes = "---------------------------\n"
	var b strings.Builder
	flag := func(v bool) int {
		if v {
			return 1
		}
		return 0
	}
	line := func(k string, v any) { fmt.Fprintf(&b, "%s = %v\n", k, v) }
	c := p.CLI
	b.WriteString(dashes)
	b.WriteString("Global Options:\n")
	line("openings", c.openings)
	if c.openings != "" {
		line("openingType", c.openingType)
	}
	line("boardSize", p.Match.Plan.Director.Size)
	line("gameRule", p.Match.RuleCode)
	line("pgn", p.Match.PGN)
	line("sgf", p.Match.SGF)
	line("msg", p.Match.Msg)
	line("log", flag(p.Match.Log != ""))
	if s := p.Match.Sample; s != nil {
		line("sample", s.File)
		format := "csv"
		switch s.Format {
		case sample.Bin, sample.BinLZ4:
			format = "bin"
		case sample.Binpack, sample.BinpackLZ4:
			format = "binpack"
		}
		line("sample.format", format)
		line("sample.compress", flag(s.Format.Compressed()))
		line("sample.freq", fmt.Sprintf("%.6g", s.Freq))
	} else {
		line("sample", "")
	}
	line("random", flag(p.Match.Plan.Suite.Order.String() == "random"))
	line("repeat", flag(p.Match.Plan.Suite.Pairs))
	line("transform", flag(p.Match.Plan.Suite.Transform.String() != "none"))
	line("sprt", flag(p.Match.Plan.SPRT != nil))
	line("gauntlet", flag(p.Match.Plan.Gauntlet))
	if p.Match.Plan.Gauntlet {
		line("loseonly", flag(p.Match.Plan.LoseOnly))
	}
	line("concurrency", p.Match.Plan.Director.Concurrency)
	line("games", p.Match.Plan.Games)
	line("rounds", p.Match.Plan.Rounds)
	line("resignCount", 0)
	line("resignScore", 0)
	line("drawCount", 0)
	line("drawScore", 0)
	line("drawAfter", p.Match.Plan.Director.MoveCap)
	line("fatalerror", flag(p.Match.Plan.FatalError))
	line("debug", flag(p.Debug))
	b.WriteString("\n")
	line("Engine number", len(p.Match.Plan.Director.Entrants))
	for i, ent := range p.Match.Plan.Director.Entrants {
		e := c.engines[i]
		b.WriteString(dashes)
		fmt.Fprintf(&b, "Engine %d Options:\n", i)
		line("name", e.name)
		line("cmd", e.cmd)
		line("nodes", e.nodes)
		line("depth", e.depth)
		line("timeoutTurn", ent.Clock.Turn.Milliseconds())
		line("timeoutMatch", ent.Clock.Match.Milliseconds())
		line("increment", ent.Clock.Increment.Milliseconds())
		line("maxMemory", e.mem)
		line("thread", e.threads)
		line("tolerance", ent.Clock.Tolerance.Milliseconds())
		for _, o := range e.options {
			fmt.Fprintf(&b, "option.%s=%s\n", o.Key, o.Value)
		}
	}
	b.WriteString(dashes)
	return b.String()
}
