package engine

import (
	"os"
	"testing"

	"gomoku-arena/internal/faulty"
)

// TestMain routes "engine faulty ARGS..." to the faulty engine, so that
// Spec{Command: "builtin:faulty"} runs this test binary as a real engine
// subprocess.
func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == "engine" && os.Args[2] == "faulty" {
		os.Exit(faulty.Main(os.Args[3:], os.Stdin, os.Stdout, os.Stderr))
	}
	if how := os.Getenv(fdsArbiterEnv); how != "" {
		os.Exit(fdsArbiter(how))
	}
	if how := os.Getenv(freezeArbiterEnv); how != "" {
		os.Exit(freezeArbiter(how))
	}
	code := m.Run()
	removeHostile()
	os.Exit(code)
}
