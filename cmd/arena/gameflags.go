package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"gomoku-arena/arbiter"
	"gomoku-arena/clock"
	"gomoku-arena/engine"
	"gomoku-arena/event"
	"gomoku-arena/internal/config"
	"gomoku-arena/rules"
)

// gameFlags are the flags `arena match` and `arena check` share: the rule
// and the board, the clock, how games open, and the engines' settings.
type gameFlags struct {
	rule                         *string
	size                         *int
	tc, turn, inc, tolerance     *time.Duration
	hang, startTimeout           *time.Duration
	policy                       config.Policy
	procedure                    rules.Procedure
	boardMode                    *bool
	depth, nodes, threads, infos limitFlag
	memory                       limitFlag
}

func addGameFlags(fs *flags) *gameFlags {
	g := &gameFlags{}
	g.rule = fs.String("rule", "outer-open", "rule: "+strings.Join(rules.Names(), ", "))
	g.size = fs.Int("size", 0, "board size (0 = the rule's default)")
	g.tc = fs.Duration("tc", clock.DefaultMatch, "match time per side per game (0 = none)")
	g.turn = fs.Duration("turn", 0, "time limit per move (0 = none)")
	g.inc = fs.Duration("inc", 0, "increment per move")
	g.tolerance = fs.Duration("tolerance", clock.DefaultTolerance, "lateness accepted before a move loses on time")
	g.hang = fs.Duration("hang", clock.DefaultHang, "the longest wait for one move, timed or not")
	fs.TextVar(&g.policy, "opening-policy", config.PolicyStrict, "outer-open: strict (a first stone outside the zone loses) or arbiter-opens (the arbiter places Black's first stone)")
	fs.Var(&g.depth, "depth", "search depth limit per move (INFO max_depth); NAME:N for one engine")
	fs.Var(&g.nodes, "nodes", "node limit per move (INFO max_node); NAME:N for one engine")
	fs.Var(&g.threads, "threads", "threads (INFO thread_num); NAME:N for one engine")
	fs.Var(&g.memory, "max-memory", "memory limit in bytes, or with K, M, G (INFO max_memory); NAME:SIZE for one engine")
	fs.Var(&g.infos, "info", "raw INFO KEY=VALUE sent before every game; NAME:KEY=VALUE for one engine; repeatable")
	fs.TextVar(&g.procedure, "opening-procedure", rules.NoProcedure, "how games open: none, swap2 (SWAP2BOARD) or rif (the RIF renju opening, for engines that speak the extension; others play from the list)")
	g.boardMode = fs.Bool("board-mode", false, "send the whole position (BOARD) before every move instead of TURN")
	g.startTimeout = fs.Duration("start-timeout", 10*time.Second, "deadline for an engine to start and answer START")
	return g
}

// game is the rule, the board size (the rule's default for 0) and the
// clock the flags ask for.
func (g *gameFlags) game() (rules.Rule, int, clock.Control, error) {
	rule, err := rules.ByName(*g.rule)
	if err != nil {
		return nil, 0, clock.Control{}, fmt.Errorf("%w: -rule: %v", errUsage, err)
	}
	size := *g.size
	if size == 0 {
		size = rule.DefaultSize()
	}
	ctl := clock.Control{Match: *g.tc, Turn: *g.turn, Increment: *g.inc, Tolerance: *g.tolerance, Hang: *g.hang}
	if err := ctl.Validate(); err != nil {
		return nil, 0, ctl, fmt.Errorf("%w: %v", errUsage, err)
	}
	if err := clock.CheckDuration(*g.startTimeout); err != nil {
		return nil, 0, ctl, fmt.Errorf("%w: -start-timeout: %v", errUsage, err)
	}
	return rule, size, ctl, nil
}

// entrants are the engines of the command line (ENGINE or NAME=ENGINE),
// with the clock and the per-engine settings of the flags.
func (g *gameFlags) entrants(args []string, ctl clock.Control) ([]arbiter.Entrant, error) {
	var ents []arbiter.Entrant
	for i, arg := range args {
		name, cmd := engineArg(arg, i)
		fields := strings.Fields(cmd)
		if len(fields) == 0 {
			return nil, fmt.Errorf("%w: engine %d: empty command", errUsage, i+1)
		}
		ents = append(ents, arbiter.Entrant{
			Spec:      engine.Spec{Name: name, Command: fields[0], Args: fields[1:], StartTimeout: *g.startTimeout},
			BoardMode: *g.boardMode, Clock: ctl,
		})
	}
	event.UniqueNames(ents)
	for _, l := range []struct {
		flag string
		key  string
		f    limitFlag
		size bool
	}{{"depth", "max_depth", g.depth, false}, {"nodes", "max_node", g.nodes, false}, {"threads", "thread_num", g.threads, false}, {"max-memory", "max_memory", g.memory, true}} {
		if err := l.f.apply(ents, l.flag, l.key, l.size); err != nil {
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
	}
	if err := g.infos.apply(ents, "info", "", false); err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	return ents, nil
}

// holdMemory makes -max-memory the limit each engine is held to (engine
// Limits.Memory), not only what it is told: arena check measures engines
// against it as an event does. -info max_memory=N still changes only what
// an engine is told, and replaces what -max-memory tells it.
func (g *gameFlags) holdMemory(ents []arbiter.Entrant) error {
	told := make([]arbiter.Entrant, len(ents))
	for i, e := range ents {
		told[i].Spec.Name = e.Spec.Name
	}
	if err := g.memory.apply(told, "max-memory", "max_memory", true); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	for i, e := range told {
		for _, in := range e.Infos {
			n, _ := strconv.ParseInt(in.Value, 10, 64)
			ents[i].Spec.Limits.Memory = n
		}
		// As in an event, an engine is told one max_memory: its own (-info)
		// when it has one. Told twice, an engine may size its hash to the
		// first before the second shrinks it, and its peak stays.
		last := -1
		for j, in := range ents[i].Infos {
			if in.Key == "max_memory" {
				last = j
			}
		}
		kept := ents[i].Infos[:0]
		for j, in := range ents[i].Infos {
			if in.Key != "max_memory" || j == last {
				kept = append(kept, in)
			}
		}
		ents[i].Infos = kept
	}
	return nil
}
