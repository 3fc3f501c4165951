package event

import (
	"fmt"
	"os"
	"strings"

	"gomoku-arena/arbiter"
	"gomoku-arena/engine"
	"gomoku-arena/internal/config"
)

// Confinement is how the engines of an event or a match are held beyond
// their limits: the sandbox setting and freeze_idle, as an event file
// names them (sandbox, freeze_idle) and `arena match` flags do (-sandbox,
// -freeze-idle). One function, confine, applies it for both.
type Confinement struct {
	Sandbox    config.Sandbox
	FreezeIdle bool
}

// organizers are the paths of the organizer's that no sandboxed engine
// may see: Hide (the output folder, the config, the openings, the TLS
// files; the users' homes are added by confine) and Private (the config's
// folder: nothing shown to an engine may be or hold it).
type organizers struct {
	Hide, Private []string
}

// confine sets c on every entrant but the remote ones (remote[i]: nothing
// of theirs runs here, so there is nothing to confine or freeze): the
// freeze, and the sandbox (engine.Sandbox), which shows an engine its
// program, its working folder and its own declared files (files[i],
// resolved), and hides the organizer's paths and its rivals' working
// folders, programs and declared files. The entrants' programs and
// folders are resolved already. A layout the sandbox cannot contain is
// refused, under "auto" too: running it unconfined would be the silent
// failure the setting is there to prevent. notices say when the sandbox
// could not be set up under "auto" and engines run unconfined, or when the
// freeze falls back to signals; errors begin with where, the setting's
// origin (the config file, or -sandbox).
func confine(ents []arbiter.Entrant, files [][]string, remote []bool, c Confinement, org organizers, where string) (notices []string, err error) {
	local := func(i int) bool { return i >= len(remote) || !remote[i] }
	if c.FreezeIdle {
		for i := range ents {
			if local(i) {
				ents[i].Spec.Limits.FreezeIdle = true
			}
		}
		if _, err := engine.Freezer(); err != nil {
			notices = append(notices, fmt.Sprintf("freeze_idle: %v; engines are frozen by SIGSTOP to each of their processes, which an engine that keeps starting new ones can dodge", err))
		}
	}
	if c.Sandbox == config.SandboxNone {
		return notices, nil
	}
	bw, err := engine.Bwrap()
	switch {
	case err != nil && c.Sandbox == config.SandboxBwrap:
		return nil, fmt.Errorf("%s: %w", where, err)
	case err != nil:
		return append(notices, fmt.Sprintf("%v; engines run unconfined", err)), nil
	}
	hide := append([]string{}, org.Hide...)
	hide = append(hide, "/root", "/home")
	if home, err := os.UserHomeDir(); err == nil {
		hide = append(hide, home)
	}
	fileOf := func(i int) []string {
		if i < len(files) {
			return files[i]
		}
		return nil
	}
	for i := range ents {
		if !local(i) {
			continue
		}
		s := &engine.Sandbox{Bwrap: bw, Hide: hide, Private: org.Private, Show: fileOf(i)}
		for j, o := range ents {
			if j == i || o.Spec.Name == ents[i].Spec.Name {
				continue
			}
			if o.Spec.Dir != "" {
				s.RivalDirs = append(s.RivalDirs, o.Spec.Dir)
			}
			if strings.ContainsRune(o.Spec.Command, '/') {
				s.RivalFiles = append(s.RivalFiles, o.Spec.Command) // a folder of builds: the build this event runs
			}
			s.RivalFiles = append(s.RivalFiles, fileOf(j)...)
		}
		ents[i].Spec.Sandbox = s
		if err := s.Check(ents[i].Spec); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
	}
	return notices, nil
}
