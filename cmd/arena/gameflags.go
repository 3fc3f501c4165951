package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"gomoku-arena/clock"
	"gomoku-arena/event"
	"gomoku-arena/internal/config"
	"gomoku-arena/rules"
)

// gameFlags are the flags `arena match` and `arena check` share: the rule
// and the board, how games open, and the engines' settings (settings.go:
// the clock, limits, board mode, Swap2 stone format, folder, environment;
// -depth, -nodes, -threads and -info as INFO lines).
type gameFlags struct {
	rule                         *string
	size                         *int
	startTimeout                 *time.Duration
	policy                       config.Policy
	procedure                    rules.Procedure
	settings                     engineFlags
	depth, nodes, threads, infos limitFlag
}

func addGameFlags(fs *flags) *gameFlags {
	g := &gameFlags{}
	g.rule = fs.String("rule", config.DefaultRule, "rule: "+strings.Join(rules.Names(), ", "))
	g.size = fs.Int("size", 0, "board size (0 = the rule's default)")
	g.settings.define(fs.FlagSet)
	fs.TextVar(&g.policy, "opening-policy", config.PolicyStrict, "outer-open: strict (a first stone outside the zone loses) or arbiter-opens (the arbiter places Black's first stone)")
	fs.Var(&g.depth, "depth", "search depth limit per move (INFO max_depth); NAME:N for one engine")
	fs.Var(&g.nodes, "nodes", "node limit per move (INFO max_node); NAME:N for one engine")
	fs.Var(&g.threads, "threads", "threads (INFO thread_num); NAME:N for one engine")
	fs.Var(&g.infos, "info", "raw INFO KEY=VALUE sent before every game; NAME:KEY=VALUE for one engine; repeatable")
	fs.TextVar(&g.procedure, "opening-procedure", rules.NoProcedure, "how games open: none, swap2 (SWAP2BOARD) or rif (the RIF renju opening, for engines that speak the extension; others play from the list)")
	g.startTimeout = fs.Duration("start-timeout", 0, fmt.Sprintf("deadline for an engine to start and answer START (0: %v, the engine's default, as in an event file)", event.DefaultStartTimeout))
	return g
}

// game is the rule and the board size (the rule's default for 0) the
// flags ask for.
func (g *gameFlags) game() (rules.Rule, int, error) {
	rule, err := rules.ByName(*g.rule)
	if err != nil {
		return nil, 0, fmt.Errorf("%w: -rule: %v", errUsage, err)
	}
	size := *g.size
	if size == 0 {
		size = rule.DefaultSize()
	}
	if err := rules.CheckSize(rule, size); err != nil {
		return nil, 0, fmt.Errorf("%w: -size: %v", errUsage, err)
	}
	if err := g.procedure.Check(rule, size); err != nil {
		return nil, 0, fmt.Errorf("%w: -opening-procedure: %v", errUsage, err)
	}
	if err := clock.CheckDuration(*g.startTimeout); err != nil {
		return nil, 0, fmt.Errorf("%w: -start-timeout: %v", errUsage, err)
	}
	return rule, size, nil
}

// common are the settings the flags give every event and match: the
// rule and board (game), how games open, the start timeout; the engines
// are added by engines.
func (g *gameFlags) common(rule rules.Rule, size int) event.Settings {
	return event.Settings{Rule: rule, Size: size, StartTimeout: *g.startTimeout, Policy: g.policy, Procedure: g.procedure}
}

// engines are the engines of the command line (ENGINE or NAME=ENGINE),
// with the per-engine settings of the flags.
func (g *gameFlags) engines(args []string) ([]event.EngineSettings, error) {
	ctl := clock.Default() // as in an event file
	var list []event.EngineSettings
	for i, arg := range args {
		name, cmd := engineArg(arg, i)
		if err := config.CheckName(name); err != nil {
			return nil, fmt.Errorf("%w: engine %d: %v", errUsage, i+1, err)
		}
		fields := strings.Fields(cmd)
		if len(fields) == 0 {
			return nil, fmt.Errorf("%w: engine %d: empty command", errUsage, i+1)
		}
		list = append(list, event.EngineSettings{Name: name, Command: fields[0], Args: fields[1:], StartTimeout: *g.startTimeout, Clock: ctl})
	}
	event.UniqueEngineNames(list)
	if err := g.settings.apply(list); err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	for _, e := range list {
		if err := e.Clock.Validate(); err != nil {
			return nil, fmt.Errorf("%w: %s: engine %q: %v", errUsage, clockFlag(err), e.Name, err)
		}
	}
	for _, l := range []struct {
		flag string
		key  string
		f    limitFlag
		size bool
	}{{"depth", "max_depth", g.depth, false}, {"nodes", "max_node", g.nodes, false}, {"threads", "thread_num", g.threads, false}} {
		if err := l.f.apply(list, l.flag, l.key, l.size); err != nil {
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
	}
	if err := g.infos.apply(list, "info", "", false); err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	return list, nil
}

// clockFlag is the flag of arena match that gives the clock setting a
// clock.Control.Validate error is about (-tc for the match time, -inc...).
func clockFlag(err error) string {
	var se *clock.SettingError
	if errors.As(err, &se) {
		if s := settingByKey(se.Setting); s != nil {
			return "-" + s.flag
		}
	}
	return "the clock flags"
}
