package engine

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"time"
)

// Probe is for a compliance check (package check), not for games: it writes
// text to the engine as it is (one or more whole lines) and returns the
// lines the engine answers, until one satisfies done (it is included), the
// deadline passes (FaultTimeout) or the process ends (FaultExit). It lets a
// check see what the game methods hide on purpose: a second START, an
// ABOUT before START, an INFO line's complaint, END. Nothing of the
// engine's state follows the probe: a START sent here leaves the Engine
// believing what it believed before (so NewGame still sends RESTART or
// START as it would have).
func (e *Engine) Probe(text string, deadline time.Time, done func(Line) bool) (lines []string, f Fault, detail string) {
	p := e.current()
	if p == nil {
		return nil, FaultExit, "not running"
	}
	x := e.exchange(p, e.orDefault(deadline), &e.pending)
	defer x.done()
	if f, detail := x.send([]byte(text)); f != "" {
		return nil, f, detail
	}
	for {
		l, f, detail := x.next()
		if f != "" {
			return lines, f, detail
		}
		lines = append(lines, clip(l.text, maxNoteLen))
		if done != nil && done(ParseLine(l.text)) {
			x.answered = true
			return lines, "", ""
		}
	}
}

// Exited waits until the engine's process has ended, at most until
// deadline, and reports whether it did (a check's END test).
func (e *Engine) Exited(deadline time.Time) bool {
	p := e.current()
	if p == nil {
		return true
	}
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	}
}

// Lingering counts the processes still running (zombies aside) in the
// process group of the engine's latest process, after that process has
// ended: helpers an engine left behind when it exited on END. The arena
// kills them anyway (Close); a check reports them.
func (e *Engine) Lingering() int {
	e.mu.Lock()
	p := e.p
	e.mu.Unlock()
	if p == nil {
		return 0
	}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	n := 0
	for _, d := range ents {
		pid, err := strconv.Atoi(d.Name())
		if err != nil || pid == p.pid {
			continue
		}
		b, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...: comm may hold spaces and ")".
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 3 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		if g, _ := strconv.Atoi(f[2]); g == p.pid {
			n++
		}
	}
	return n
}
