package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"gomoku-arena/check"
	"gomoku-arena/event"
	"gomoku-arena/internal/bundled"
	"gomoku-arena/internal/config"
	"gomoku-arena/internal/term"
)

func runCheck(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("check", "[flags] ENGINE... | EVENT.toml",
		"Checks engines before they play: it drives each through real games against a bundled engine\n"+
			"and through chosen positions and protocol exchanges, under the given settings (the flags of\n"+
			"arena match), or for EVENT.toml under each entrant's own settings in the event. For each\n"+
			"engine it reports findings: a check (start, about, info, turn, board, restart, end, swap2,\n"+
			"rule, time, memory, output, files), a verdict (pass, warn, fail), what was seen and what to change.\n"+
			"fail means the engine would forfeit games under these settings; the exit status is then 1.\n"+
			"docs/check.md explains every check.", stdout)
	gf := addGameFlags(fs)
	asJSON := fs.Bool("json", false, `print {"engines":[{"engine":…,"findings":[{"check":…,"verdict":…,"seen":…,"remedy":…}]}]}`)
	games := fs.Int("games", check.DefaultGames, "check games per engine, colours alternating")
	concurrency := fs.Int("concurrency", 0, "engines checked at once (0 = half the processors)")
	fresh := fs.Bool("fresh", false, "check every engine again, even one whose program was checked under the same settings before (see docs/check.md)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("%w: name the engines, or one EVENT.toml", errUsage)
	}
	drain, _, stop := interrupts(stderr)
	defer stop()
	var reps []check.Report
	show := func(check.Report) {}
	if !*asJSON {
		show = func(r check.Report) { printReport(stdout, r, false) }
	}
	if fs.NArg() == 1 && strings.HasSuffix(fs.Arg(0), ".toml") {
		if flagsSetOtherThan(fs, "json", "concurrency", "fresh") {
			return fmt.Errorf("%w: an event's settings are its own: only -json, -concurrency and -fresh go with EVENT.toml", errUsage)
		}
		cfg, err := config.Load(fs.Arg(0))
		if err != nil {
			return err
		}
		ev, err := event.New(cfg)
		if err != nil {
			return err
		}
		s := ev.CheckSettings()
		s.Concurrency = *concurrency
		if !*fresh {
			s.Remember = check.DefaultMemory()
		}
		if err := s.Validate(); err != nil {
			return inWords(checkFlags, err)
		}
		reps = ev.Check(drain, s, false, show)
	} else {
		s, err := gf.checkSettings()
		if err != nil {
			return err
		}
		list, err := gf.engines(fs.Args())
		if err != nil {
			return err
		}
		ents := event.Entrants(list)
		for _, e := range ents {
			if err := bundled.Check(e.Spec); err != nil {
				return err
			}
		}
		s.Games, s.Concurrency = *games, *concurrency
		if !*fresh {
			s.Remember = check.DefaultMemory()
		}
		if err := s.Validate(); err != nil {
			return inWords(checkFlags, err)
		}
		reps = check.Entrants(drain, ents, s, show)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			Engines []check.Report `json:"engines"`
		}{reps}); err != nil {
			return err
		}
	}
	return checkFailed(drain, reps)
}

// checkSettings are the settings of the games the flags ask for, as
// package check takes them (an event's: event.Event.CheckSettings).
func (g *gameFlags) checkSettings() (check.Settings, error) {
	rule, size, err := g.game()
	if err != nil {
		return check.Settings{}, err
	}
	set := g.common(rule, size) // the settings an event or a match would give, as check takes them
	return set.CheckSettings(), nil
}

// checkFailed is the error that ends a check with an engine that fails,
// or one that was stopped.
func checkFailed(ctx context.Context, reps []check.Report) error {
	var failed []string
	for _, r := range reps {
		if r.Failed() {
			failed = append(failed, r.Engine)
		}
	}
	switch {
	case len(failed) > 0:
		return fmt.Errorf("%d of %d engines would forfeit games under these settings: %s", len(failed), len(reps), strings.Join(failed, ", "))
	case ctx.Err() != nil:
		return fmt.Errorf("stopped before every check was made")
	}
	return nil
}

// printReport prints one engine's findings for people: every finding, or
// with onlyProblems the warnings and fails alone.
func printReport(w io.Writer, r check.Report, onlyProblems bool) {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", r.Engine)
	if r.Remembered != nil {
		fmt.Fprintf(&b, "  (as checked %s: the same program under the same settings; -fresh checks it again)\n", r.Remembered.UTC().Format("2006-01-02 15:04 UTC"))
	}
	for _, f := range r.Findings {
		if onlyProblems && f.Verdict == check.Pass {
			continue
		}
		fmt.Fprintf(&b, "  %-4s  %-7s  %s\n", strings.ToUpper(string(f.Verdict)), f.Check, f.Seen)
		if f.Remedy != "" {
			fmt.Fprintf(&b, "  %-4s  %-7s  remedy: %s\n", "", "", f.Remedy)
		}
	}
	fmt.Fprint(w, term.CleanLines(b.String()))
}

// flagsSetOtherThan reports whether a flag other than those named was set.
func flagsSetOtherThan(fs *flags, names ...string) bool {
	other := false
	fs.Visit(func(f *flag.Flag) {
		if !slices.Contains(names, f.Name) {
			other = true
		}
	})
	return other
}

// rememberedNote says how many of reps were remembered rather than made
// (check.Memory), "" when none was.
func rememberedNote(reps []check.Report) string {
	n := 0
	for _, r := range reps {
		if r.Remembered != nil {
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d of them as checked before: the same programs under the same settings)", n)
}
