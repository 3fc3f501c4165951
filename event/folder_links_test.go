package event

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gomoku-arena/engine"
	"gomoku-arena/internal/config"
)

// TestPlantedFoldersUnderTheOutputAreNotFollowed: someone who may write
// into the output folder replaced transcripts/ or engines/NAME by a link
// to another folder before the run. The run fails naming the link, and
// nothing is written where it points: no transcript, no engine's working
// folder (under bubblewrap the engine would have had it read-write).
func TestPlantedFoldersUnderTheOutputAreNotFollowed(t *testing.T) {
	for _, plant := range []string{"transcripts", "engines/greedy", "engines"} {
		for _, sandbox := range []string{"none", "bwrap"} {
			t.Run(plant+"/"+sandbox, func(t *testing.T) {
				if sandbox == "bwrap" {
					if _, err := engine.Bwrap(); err != nil {
						t.Skip(err)
					}
				}
				dir, elsewhere := t.TempDir(), t.TempDir()
				link := filepath.Join(dir, "out", plant)
				if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(elsewhere, link); err != nil {
					t.Fatal(err)
				}
				cfg, err := config.Load(writeConfig(t, dir, "planted", `rule = "freestyle"
format = "round-robin"
output = "out"
transcript = "4KiB"
sandbox = "`+sandbox+`"
[clock]
match = "30s"
[[engine]]
name = "greedy"
command = "builtin:greedy"
[[engine]]
name = "faulty"
command = "builtin:faulty"
`))
				if err != nil {
					t.Fatal(err)
				}
				ev, err := New(cfg) // the engines' folders are checked here
				if err == nil {
					_, _, err = runObserved(ev) // the transcripts' here
				}
				if err == nil || !strings.Contains(err.Error(), "is a link") {
					t.Errorf("run: %v, want the link refused", err)
				}
				if ents, _ := os.ReadDir(elsewhere); len(ents) != 0 {
					t.Errorf("the run wrote through the link: %s holds %s", elsewhere, ents[0].Name())
				}
			})
		}
	}
}
