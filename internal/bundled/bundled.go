// Package bundled routes `arena engine NAME ...` to the engines that ship
// with the arena: the playing engines of internal/brains and the misbehaving
// ones of internal/faulty. Any binary that routes os.Args through Main can
// serve as the program behind an engine spec "builtin:NAME" — the arena
// command, and test binaries through their TestMain.
package bundled

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"gomoku-arena/engine"
	"gomoku-arena/internal/brains"
	"gomoku-arena/internal/faulty"
	"gomoku-arena/remote"
)

// Main serves the engine named by args[0] on stdin/stdout and returns the
// process exit code.
func Main(args []string) int {
	if len(args) == 0 {
		fmt.Fprintf(os.Stderr, "arena engine: name an engine: %s, faulty\n", strings.Join(brains.Names(), ", "))
		return 2
	}
	if args[0] == "relay" { // a remote entrant's engine (package remote); not for configs
		return remote.RelayMain(args[1:])
	}
	if args[0] == "faulty" {
		return faulty.Main(args[1:], os.Stdin, os.Stdout, os.Stderr)
	}
	return brains.Main(args, os.Stdin, os.Stdout)
}

// Known reports whether `arena engine NAME` serves an engine of that name.
func Known(name string) bool {
	return name == "faulty" || slices.Contains(brains.Names(), name)
}

// Check is engine.Check plus the bundled engine's name.
func Check(spec engine.Spec) error {
	if name := engine.BuiltinName(spec.Command); name != "" && !Known(name) {
		return fmt.Errorf("engine %q: no bundled engine %q (bundled: %s, faulty)", spec.Name, name, strings.Join(brains.Names(), ", "))
	}
	return engine.Check(spec)
}

// ServeIfAsked runs Main and exits when a test binary was started as an
// engine (os.Args[1] == "engine"); otherwise it returns. Call it first in
// TestMain of packages whose tests start builtin engines.
func ServeIfAsked() {
	if len(os.Args) > 1 && os.Args[1] == "engine" {
		os.Exit(Main(os.Args[2:]))
	}
}
