package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"gomoku-arena/check"
	"gomoku-arena/event"
	"gomoku-arena/internal/config"
	"gomoku-arena/internal/term"
	"gomoku-arena/results/report"
)

func runEvent(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("run", "[flags] EVENT.toml",
		"Plays the event the TOML file describes and prints its standings. If its output folder\n"+
			"already holds a journal, the event continues: finished games are kept and unfinished ones\n"+
			"are replayed from the start. Ctrl-C stops starting games; a second Ctrl-C aborts the games\n"+
			"in progress. Every engine process is ended either way.\n\n"+
			"Before the first game of a new event (not when it continues one), the entrants are checked\n"+
			"under the event's settings as arena check does (the bundled playing engines are left out).\n"+
			"Warnings are printed and the event goes on; if an entrant would forfeit games (a fail), what\n"+
			"to change is printed and the event does not start, unless -force.", stdout)
	extend := fs.Bool("extend", false, "allow continuing an event whose config now asks for more rounds")
	quiet := fs.Bool("quiet", false, "print no line per game, only the standings")
	serve := fs.String("serve", "", "serve the event's live page on ADDR while it runs (host:port; a port alone is 127.0.0.1's)")
	shard := fs.String("shard", "", "play one task of the event spread over a job array: K/N (task K of N, from 0), auto (a Slurm array task) or auto/N (a Kubernetes Indexed Job of N completions); each task writes OUTPUT/shard-K-of-N, every task must run at once, arena merge OUTPUT folds them (docs/leagues.md)")
	noCheck := fs.Bool("no-check", false, "do not check the entrants before a new event")
	force := fs.Bool("force", false, "start a new event even when the check finds entrants that would forfeit games")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%w: want one EVENT.toml, got %d arguments", errUsage, fs.NArg())
	}
	cfg, err := config.Load(fs.Arg(0))
	if err != nil {
		return err
	}
	sh, err := event.TaskShard(*shard, os.Getenv)
	if err != nil {
		return fmt.Errorf("%w: -shard: %v", errUsage, err)
	}
	var ev *event.Event
	if sh.Whole() {
		ev, err = event.New(cfg)
	} else {
		ev, err = event.NewTask(cfg, sh)
	}
	if err != nil {
		return err
	}
	ev.Extend = *extend
	drain, abort, stop := interrupts(stderr)
	defer stop()
	// A task of a spread event is one of many started at once: the
	// organizer checks the entrants once, with arena check EVENT.toml,
	// before submitting the array.
	if !*noCheck && sh.Whole() && !ev.Begun() {
		if err := checkBeforeRun(drain, ev, *force, stdout); err != nil {
			return err
		}
	}
	p := newPrinter(stdout, *quiet, func(g event.GameStarted) string { return g.Black + " vs " + g.White })
	var obs event.Observer = eventView{p, stdout, stderr}
	if *serve != "" {
		page, err := startPage(*serve, cfg.Name, ev.Folder(), stdout)
		if err != nil {
			return err
		}
		defer page.Close()
		obs = event.Observers{obs, page}
	}
	rep, runErr := ev.Run(drain, abort, obs)
	p.close()
	if rep != nil {
		if err := printStandings(stdout, rep); err != nil && runErr == nil {
			runErr = err
		}
		fmt.Fprintf(stdout, "standings, crosstable and games written to %s\n", term.Clean(ev.Folder()))
	}
	return runErr
}

// eventView is what `arena run` shows of an event beyond its printer.
type eventView struct {
	printer
	stdout, stderr io.Writer
}

func (v eventView) Observe(u event.Update) {
	switch u := u.(type) {
	case event.Began:
		if u.Finished > 0 {
			v.println(fmt.Sprintf("continuing %s: %d games already finished", u.Name, u.Finished))
		}
	case event.Notice:
		v.noticeTo(v.stderr, "arena: "+u.Text)
	}
	v.printer.Observe(u)
}

// printStandings prints the standings and the crosstable as text; the
// names in them come from the config or the journal, so they are cleaned
// for the terminal.
func printStandings(w io.Writer, rep *report.Report) error {
	var text bytes.Buffer
	if err := rep.WriteStandings(&text, report.Text); err != nil {
		return err
	}
	if err := rep.WriteCrosstable(&text, report.Text); err != nil {
		return err
	}
	_, err := fmt.Fprint(w, "\n"+term.CleanLines(text.String()))
	return err
}

// interrupts turns the first Ctrl-C into drain (no new games) and the
// second, or SIGTERM, into abort (stop the games in progress).
func interrupts(stderr io.Writer) (drain, abort context.Context, stop func()) {
	drain, stopDrain := context.WithCancel(context.Background())
	abort, stopAbort := context.WithCancel(context.Background())
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	quit := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-sig:
				if s == os.Interrupt && drain.Err() == nil {
					fmt.Fprintln(stderr, "\narena: stopping: no new games start; the games in progress finish (Ctrl-C again to abort them)")
					stopDrain()
					continue
				}
				fmt.Fprintln(stderr, "\narena: aborting the games in progress")
				stopDrain()
				stopAbort()
			case <-quit:
				return
			}
		}
	}()
	return drain, abort, func() {
		signal.Stop(sig)
		close(quit)
		stopDrain()
		stopAbort()
	}
}

// checkBeforeRun checks a new event's entrants and prints what it found
// beyond passes; entrants that would forfeit games stop the event unless
// force is set.
func checkBeforeRun(ctx context.Context, ev *event.Event, force bool, stdout io.Writer) error {
	s := ev.CheckSettings()
	s.Remember = check.DefaultMemory()
	said := false
	reps := ev.Check(ctx, s, true, func(r check.Report) {
		for _, f := range r.Findings {
			if f.Verdict != check.Pass {
				if !said {
					fmt.Fprintln(stdout, "checked the entrants under the event's settings (arena check; -no-check skips it):")
					said = true
				}
				printReport(stdout, r, true)
				return
			}
		}
	})
	if ctx.Err() != nil {
		return fmt.Errorf("stopped while checking the entrants")
	}
	var failed []string
	for _, r := range reps {
		if r.Failed() {
			failed = append(failed, r.Engine)
		}
	}
	switch {
	case len(failed) == 0:
		if len(reps) > 0 && !said {
			fmt.Fprintf(stdout, "checked the entrants under the event's settings: all %d pass%s\n", len(reps), rememberedNote(reps))
		}
		return nil
	case force:
		fmt.Fprintf(stdout, "-force: starting although %s would forfeit games (FAIL above)\n", term.Clean(strings.Join(failed, ", ")))
		return nil
	}
	return fmt.Errorf("not started: %s would forfeit games under the event's settings (FAIL above); change what the remedies say, or run with -force to play anyway (-no-check skips the check)", strings.Join(failed, ", "))
}
