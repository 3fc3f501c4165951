package event

import (
	"context"
	"strings"
	"testing"
)

// An engine that refuses the arena's extension INFO key (the faulty
// engine's info-error answers INFO rule_name outer-open with "ERROR Unknown
// command: OUTER-OPEN", as Rapfi does) is sent it no more once it refused
// it: its first game's record holds the refusal, its later games' do not.
func TestRefusedExtensionIsNotSentAgain(t *testing.T) {
	dir := t.TempDir()
	path := writeConfig(t, dir, "ext", `name = "ext"
rule = "outer-open"
format = "double-round-robin"
output = "out"
[clock]
match = "20s"
[[engine]]
name = "rapfi-like"
command = "builtin:faulty"
args = ["info-error"]
[[engine]]
name = "greedy"
command = "builtin:greedy"
`)
	ev, obs := runOK(t, path)
	refusals := 0
	games := gamesOf(readJournal(t, ev.Folder()))
	if len(games) != 2 {
		t.Fatalf("%d games", len(games))
	}
	for i, g := range games {
		n := 0
		for _, m := range g.Messages {
			if strings.Contains(m, "OUTER-OPEN") {
				n++
			}
		}
		if i == 0 && n == 0 {
			t.Fatalf("game 1 has no refusal to learn from: %q", g.Messages)
		}
		if i > 0 && n > 0 {
			t.Errorf("game %d: the refused key was sent again: %q", g.Game, g.Messages)
		}
		refusals += n
	}
	said := 0
	for _, n := range obs.notices() {
		if strings.Contains(n, "does not take the extension INFO rule_name") {
			said++
		}
		if strings.Contains(n, "ERROR") {
			t.Errorf("a notice carries an engine's ERROR: %q", n)
		}
	}
	if said != 1 {
		t.Errorf("the refusal was noticed %d times, want once", said)
	}
}

// A refusal arena check saw is remembered too: the event checked before it
// runs never sends the key to that engine, not even in its first game.
func TestRefusalSeenByTheCheckIsRemembered(t *testing.T) {
	dir := t.TempDir()
	path := writeConfig(t, dir, "ext", `name = "ext"
rule = "outer-open"
format = "double-round-robin"
output = "out"
[clock]
match = "20s"
[[engine]]
name = "rapfi-like"
command = "builtin:faulty"
args = ["info-error"]
[[engine]]
name = "greedy"
command = "builtin:greedy"
`)
	ev := loadEvent(t, path)
	s := ev.CheckSettings()
	s.Concurrency = 1
	ev.Check(context.Background(), s, false, nil)
	if _, _, err := runObserved(ev); err != nil {
		t.Fatal(err)
	}
	for _, g := range gamesOf(readJournal(t, ev.Folder())) {
		for _, m := range g.Messages {
			if strings.Contains(m, "OUTER-OPEN") {
				t.Errorf("game %d: the key the check saw refused was sent: %q", g.Game, m)
			}
		}
	}
}
