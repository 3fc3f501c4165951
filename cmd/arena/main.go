// Command arena runs Gomoku-family engine tournaments and matches.
//
// main only routes: each command lives in its own file, parses its own flags
// and prints for people; the work is done by the packages below it.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gomoku-arena/internal/bundled"
	"gomoku-arena/internal/faulty"
	"gomoku-arena/internal/term"
)

// command is one `arena` subcommand.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

var commands map[string]command

func init() {
	commands = map[string]command{
		"run":        {"play an event from a TOML file, or continue it", runEvent},
		"check":      {"check engines before they play: protocol, rule, time, memory; what would forfeit, and what to change", runCheck},
		"match":      {"play an authors' match: two or more engines, SPRT, Elo, rating list", runMatch},
		"gomoku-cli": {"the command line of c-gomoku-cli, played by this arbiter", runGomokuCli},
		"merge":      {"fold the shards of a batch (match -shard) into one journal and its statistics", runMerge},
		"standings":  {"rebuild an event's standings from its journal", runStandings},
		"rate":       {"rating list of event/match folders and PGN files, as BayesElo computes it", runRate},
		"serve":      {"serve the live page of event folders, running or finished", runServe},
		"pair":       {"print the next Swiss round of a TRF file (FIDE Dutch system)", runPair},
		"withdraw":   {"withdraw an engine from a Swiss event, as its organizer", runWithdraw},
		"decide":     {"the arbiter's decision on a game: correct its result, void it (replayed), adjudicate it", runDecide},
		"rules":      {"show what a position means under a rule (board, result, forbidden points)", runRules},
		"connect":    {"play a remote entrant's games from this machine (arena connect URL -- ENGINE)", runConnect},
		"tokens":     {"give remote entrants their tokens, revoke one; print the certificate's fingerprint", runTokens},
		"engine":     {"serve a bundled engine on stdin/stdout (builtin:NAME)", nil},
		"help":       {"explain a command", runHelp},
	}
}

// Exit codes.
const (
	exitOK    = 0
	exitError = 1 // the run failed (bad input, disk, an arbiter fault)
	exitUsage = 2 // bad command line
)

// errUsage marks errors that are the command line's fault.
var errUsage = errors.New("usage")

func main() {
	os.Exit(arena(commandLine(os.Args), os.Stdout, os.Stderr))
}

// commandLine is the arena command line for a program started as argv:
// installed under c-gomoku-cli's name, the program is `arena gomoku-cli`,
// so that c-gomoku-cli's scripts run unchanged.
func commandLine(argv []string) []string {
	if len(argv) == 0 {
		return nil
	}
	if strings.TrimSuffix(filepath.Base(argv[0]), ".exe") == "c-gomoku-cli" {
		return append([]string{"gomoku-cli"}, argv[1:]...)
	}
	return argv[1:]
}

func arena(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	if args[0] == "engine" {
		if len(args) == 2 && isHelpFlag(args[1]) {
			return arena([]string{"help", "engine"}, stdout, stderr)
		}
		return bundled.Main(args[1:])
	}
	if isHelpFlag(args[0]) {
		args[0] = "help"
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "arena: unknown command %q\n\n", args[0])
		usage(stderr)
		return exitUsage
	}
	err := cmd.run(args[1:], stdout, stderr)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	// An error may quote a name or an engine's answer: cleaned for the terminal.
	fmt.Fprintf(stderr, "arena %s: %s\n", args[0], term.CleanLines(err.Error()))
	if errors.Is(err, errUsage) {
		var ue usageError
		if errors.As(err, &ue) {
			fmt.Fprintln(stderr)
			ue.usage(stderr)
		}
		return exitUsage
	}
	var ec exitCoder
	if errors.As(err, &ec) {
		return ec.ExitCode()
	}
	return exitError
}

// isHelpFlag says whether arg asks for help, as every command's -h does.
func isHelpFlag(arg string) bool { return arg == "-h" || arg == "-help" || arg == "--help" }

// exitCoder is an error that chooses its own exit code.
type exitCoder interface{ ExitCode() int }

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: arena COMMAND [flags] [args]\n\ncommands:")
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\n`arena help COMMAND` or `arena COMMAND -h` explains a command's flags.")
}

func runHelp(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		usage(stdout)
		return nil
	}
	switch args[0] {
	case "engine":
		fmt.Fprintf(stdout, "usage: arena engine NAME [key=value ...]\n\nServes a bundled engine on stdin/stdout in the Gomocup protocol.\nIn configs and on the command line, the engine spec builtin:NAME runs it.\n\nengines: %s\n  faulty: a deliberately misbehaving engine for testing a setup; its arguments:\n\n", strings.Join(bundledNames(), ", "))
		fmt.Fprint(stdout, faulty.Usage)
		return nil
	case "help", "-h", "-help", "--help":
		usage(stdout)
		return nil
	}
	cmd, ok := commands[args[0]]
	if !ok {
		return fmt.Errorf("%w: unknown command %q", errUsage, args[0])
	}
	return cmd.run([]string{"-h"}, stdout, stderr)
}

// flags is a command's flag set and what its usage says.
type flags struct {
	*flag.FlagSet
	stdout          io.Writer
	synopsis, about string
}

// newFlags makes a flag set that prints its usage to stdout on -h and
// returns parse errors to the caller instead of exiting.
func newFlags(name, synopsis, about string, stdout io.Writer) *flags {
	fs := &flags{FlagSet: flag.NewFlagSet(name, flag.ContinueOnError), stdout: stdout, synopsis: synopsis, about: about}
	fs.SetOutput(io.Discard)
	fs.Usage = func() {} // parse prints it, to stdout or stderr
	return fs
}

// usage prints the command's usage and flags to w.
func (fs *flags) usage(w io.Writer) {
	fmt.Fprintf(w, "usage: arena %s %s\n\n%s\n\nflags:\n", fs.Name(), fs.synopsis, fs.about)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// parse parses flags wherever they stand among the arguments, as people type
// them (`arena run EVENT.toml -serve :8080`); everything after `--` is an
// argument. -h prints the usage and returns flag.ErrHelp, and a bad flag is a
// usageError, whose usage goes to stderr.
func parse(fs *flags, args []string) error {
	err := parseInterleaved(fs.FlagSet, args)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		fs.usage(fs.stdout)
		return err
	}
	return usageError{fmt.Errorf("%w: %v", errUsage, err), fs.usage}
}

// parseInterleaved parses the flags among args, leaving the other arguments,
// in their order, as fs.Args().
func parseInterleaved(fs *flag.FlagSet, args []string) error {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return err
		}
		consumed := len(args) - fs.NArg()
		if consumed > 0 && args[consumed-1] == "--" {
			positional = append(positional, fs.Args()...)
			break
		}
		if fs.NArg() == 0 {
			break
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
	// A last parse that sets nothing leaves exactly the arguments behind.
	return fs.Parse(append([]string{"--"}, positional...))
}

// usageError is a command line the command cannot read: arena prints the
// error and then how the command is used.
type usageError struct {
	error
	usage func(io.Writer)
}

func (e usageError) Unwrap() error { return e.error }
