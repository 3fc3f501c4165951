package engine

import (
	"testing"
	"time"
)

// On probation an engine is settled before each command, except one whose
// leader runs one thread and has no child (lone): however busy its thread
// still is, that thread is the one that reads the command, so the command
// goes out at once. One with a child (or a thread more) is looked at and
// waited for. Each engine below spins, on its one thread, from its answer
// to START on.
func TestOnProbationALoneEngineIsNotWaitedFor(t *testing.T) {
	t.Parallel()
	spin := `while read -r l; do case "$l" in START*) echo OK; while :; do :; done;; esac; done`
	for _, c := range []struct {
		name, script string
		lone         bool
	}{
		{"one thread", spin, true},
		{"with a child", "sleep 600 & " + spin, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e, err := Start(Spec{Name: "sh", Command: "/bin/sh", Args: []string{"-c", c.script}, StartTimeout: generous,
				WriteTimeout: generous, CloseGrace: 100 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { e.Close() })
			newGame(t, e, 15)
			if settle, onProbation := e.settles(); !settle || !onProbation {
				t.Fatalf("settles() = %v, %v; want the engine on probation", settle, onProbation)
			}
			p := e.current()
			if got := p.lone(); got != c.lone {
				t.Errorf("lone() = %v, want %v", got, c.lone)
			}
			if waited := e.settleBefore(p, in(10*time.Second)); waited == c.lone {
				t.Errorf("settleBefore waited: %v, want %v", waited, !c.lone)
			}
		})
	}
}
