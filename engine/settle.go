package engine

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"time"
)

// An engine is not done with its answer when the answer has been read.
// Rapfi prints its move and only then clears its "thinking" flag; a command
// it reads while the flag is set is dropped by its first word, and the rest
// of the line is read as the next command ("INFO time_left 1234" becomes
// the command TIME_LEFT: "ERROR Unknown command: TIME_LEFT"). Frozen at once
// after its answer (freeze_idle: the Gomocup manager suspends it there too)
// it is stopped inside that window and thawed straight into the next
// command; an opponent that answers at once leaves it no time either. Other
// engines keep searching for a while after they answer and refuse commands
// meanwhile ("BAD COMMAND TURN 8,4 IN SEARCH MODE").
//
// So before a command goes out, the arbiter lets the engine settle: it
// waits until none of the engine's threads is running or ready to run
// (state R in /proc/PID/task/TID/stat), until the engine has run settleCPU
// of processor time meanwhile (an engine that ponders, or polls its input
// busily, never settles; the bound is what a frozen engine may ponder when
// thawed), or for settleWait at most. Processor time rather than wall time
// bounds it, so that a loaded machine, where a ready thread waits long for
// a processor, does not cut the wait short. The wait is before the command
// is written: it is no one's think time.
const (
	settleCPU     = 2 * time.Millisecond
	settleWait    = time.Second
	settlePoll    = time.Millisecond       // while the engine is busy
	settleConfirm = 200 * time.Microsecond // between the two looks that find it idle
)

// settle waits until the process's threads are all off the processor (seen
// so twice in a row, a moment apart: a thread of a busy engine can be off it
// for an instant, say while its runtime collects garbage), until the engine
// has run cpuMax meanwhile (0: no bound), or until limit.
func (p *proc) settle(limit time.Time, cpuMax time.Duration) {
	busy, cpu0 := activity(p.pid)
	for idle := 0; p.alive() && time.Now().Before(limit); {
		pause := settleConfirm
		if busy {
			idle, pause = 0, settlePoll
		} else if idle++; idle == 2 {
			return
		}
		time.Sleep(pause)
		var cpu time.Duration
		if busy, cpu = activity(p.pid); cpuMax > 0 && cpu-cpu0 >= cpuMax {
			return
		}
	}
}

// activity reports whether any thread of the engine's processes is running
// or ready to run, and the processor time its threads have used (from
// schedstat, in nanoseconds). Best effort: what cannot be read counts as
// idle.
func activity(leader int) (busy bool, cpu time.Duration) {
	for _, pid := range tree(leader) {
		base := "/proc/" + strconv.Itoa(pid) + "/task/"
		tasks, err := os.ReadDir(base)
		if err != nil {
			continue
		}
		for _, t := range tasks {
			if b, err := os.ReadFile(base + t.Name() + "/schedstat"); err == nil {
				if f := strings.Fields(string(b)); len(f) > 0 {
					ns, _ := strconv.ParseInt(f[0], 10, 64)
					cpu += time.Duration(ns)
				}
			}
			if busy {
				continue
			}
			b, err := os.ReadFile(base + t.Name() + "/stat")
			if err != nil {
				continue
			}
			// "pid (comm) S ...": comm may hold spaces and parentheses,
			// so the state is the field after the last ')'.
			if i := bytes.LastIndexByte(b, ')'); i >= 0 && i+2 < len(b) && b[i+2] == 'R' {
				busy = true
			}
		}
	}
	return busy, cpu
}
