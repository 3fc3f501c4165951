package event

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gomoku-arena/internal/config"
)

// An engine's command may name a folder of Gomocup builds: the event runs
// the one for its rule and size, and a folder without one is refused before
// any game, naming the config, the engine and the folder.
func TestEngineFolderOfBuilds(t *testing.T) {
	dir := t.TempDir()
	builds := filepath.Join(dir, "x")
	os.Mkdir(builds, 0o755)
	for _, name := range []string{"pbrain-x_renju", "pbrain-x_freestyle-15", "pbrain-x_20"} {
		os.WriteFile(filepath.Join(builds, name), []byte("#!/bin/sh\n"), 0o755)
	}
	os.Mkdir(filepath.Join(dir, "empty"), 0o755)
	load := func(command string) (*Event, error) {
		path := filepath.Join(dir, "ev.toml")
		src := "name = \"ev\"\nrule = \"freestyle\"\noutput = \"out\"\n\n[[engine]]\nname = \"x\"\ncommand = \"" + command +
			"\"\n\n[[engine]]\nname = \"greedy\"\ncommand = \"builtin:greedy\"\n"
		os.WriteFile(path, []byte(src), 0o644)
		cfg, err := config.Load(path)
		if err != nil {
			return nil, err
		}
		return New(cfg)
	}
	ev, err := load("./x")
	if err != nil {
		t.Fatal(err)
	}
	if got := ev.t.Director.Entrants[0].Spec.Command; got != filepath.Join(builds, "pbrain-x_freestyle-15") {
		t.Errorf("program %q", got)
	}
	_, err = load("./empty")
	if err == nil || !strings.Contains(err.Error(), `ev.toml:7: engine[0].command: engine "x": folder `) || !strings.Contains(err.Error(), "holds no pbrain-* program") {
		t.Errorf("a folder without builds: %v", err)
	}
}
