package event

import (
	"gomoku-arena/arbiter"
	"gomoku-arena/engine"
	"gomoku-arena/internal/config"
)

// Containment is what one entrant's engine can reach, as the event would
// start it: under the sandbox, every path it is shown (read-only or
// read-write) and every path hidden inside those (nothing else of the
// machine's files is there); unconfined, a sentence saying what it can
// reach instead. `arena check` prints it for each entrant.
type Containment struct {
	Entrant string
	// Sandbox is "bwrap", "none" (unconfined: the event's setting, or
	// "auto" without bubblewrap) or "remote" (nothing of it runs here).
	Sandbox string
	Paths   []engine.Exposure // under "bwrap"
	Note    string            // under "none" and "remote"
}

// Unconfined is what an engine run with sandbox = "none" can reach.
const Unconfined = "unconfined: it reads and writes whatever the arbiter's user may, and sees the machine's processes and network; " +
	"its environment is its own (PATH, HOME, TMPDIR and its env); as root, its /tmp and /dev/shm are its own, counted as its memory and gone with it, " +
	"and every other RAM-backed filesystem is read-only to it; as another user, it shares the machine's /tmp and /dev/shm"

// Containments describes, for each entrant of cfg, what its engine can
// reach (Containment). A layout the sandbox cannot contain is the error
// the event would stop with.
func Containments(cfg *config.Event) ([]Containment, error) {
	s, err := SettingsOf(cfg)
	if err != nil {
		return nil, err
	}
	ents, _, err := entrants(s, s.Out)
	if err != nil {
		return nil, err
	}
	remote := make([]bool, len(ents))
	for i, e := range s.Engines {
		remote[i] = e.Remote
	}
	return containments(ents, remote)
}

// containments describes what each of the confined entrants can reach.
func containments(ents []arbiter.Entrant, remote []bool) ([]Containment, error) {
	var cs []Containment
	for i, ent := range ents {
		c := Containment{Entrant: ent.Spec.Name}
		if i < len(remote) && remote[i] {
			c.Sandbox, c.Note = "remote", "remote: it runs on its entrant's machine; here only its relay runs"
			cs = append(cs, c)
			continue
		}
		var err error
		if s := ent.Spec.Sandbox; s != nil {
			c.Sandbox = "bwrap"
			if c.Paths, err = s.View(ent.Spec); err != nil {
				return nil, err
			}
		} else {
			c.Sandbox, c.Note = "none", Unconfined
		}
		cs = append(cs, c)
	}
	return cs, nil
}
