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
	mv := p.Match.View()
	b.WriteString(dashes)
	b.WriteString("Global Options:\n")
	line("openings", c.openings)
	if c.openings != "" {
		line("openingType", c.openingType)
	}
	line("boardSize", mv.Size)
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
	line("random", flag(mv.Order == "random"))
	line("repeat", flag(mv.Pairs))
	line("transform", flag(mv.Transform != "none"))
	line("sprt", flag(mv.SPRT != nil))
	line("gauntlet", flag(mv.Gauntlet))
	if mv.Gauntlet {
		line("loseonly", flag(mv.LoseOnly))
	}
	line("concurrency", mv.Concurrency)
	line("games", mv.Games)
	line("rounds", mv.Rounds)
	line("resignCount", 0)
	line("resignScore", 0)
	line("drawCount", 0)
	line("drawScore", 0)
	line("drawAfter", mv.MoveCap)
	line("fatalerror", flag(mv.FatalError))
	line("debug", flag(p.Debug))
	b.WriteString("\n")
	line("Engine number", len(mv.Names))
	for i := range mv.Names {
		e := c.engines[i]
		b.WriteString(dashes)
		fmt.Fprintf(&b, "Engine %d Options:\n", i)
		line("name", e.name)
		line("cmd", e.cmd)
		line("nodes", e.nodes)
		line("depth", e.depth)
		line("timeoutTurn", mv.Clocks[i].Turn.Milliseconds())
		line("timeoutMatch", mv.Clocks[i].Match.Milliseconds())
		line("increment", mv.Clocks[i].Increment.Milliseconds())
		line("maxMemory", e.mem)
		line("thread", e.threads)
		line("tolerance", mv.Clocks[i].Tolerance.Milliseconds())
		for _, o := range e.options {
			fmt.Fprintf(&b, "option.%s=%s\n", o.Key, o.Value)
		}
	}
	b.WriteString(dashes)
	return b.String()
}
