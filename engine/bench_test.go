package engine

import (
	"bufio"
	"bytes"
	"os"
	"syscall"
	"testing"
	"time"

	"gomoku-arena/rules"
)

// inProcess is an Engine whose "process" is a goroutine of this test on
// real pipes, answering every move request at once with 7,7: what is left
// of a move is the driver (command, pipes, wait, parse, notes, clock
// reading). It must not be killed or closed (there is no process group).
func inProcess(b *testing.B) *Engine {
	b.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	outR, outW, err := stdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := newStdout(outR)
	if err != nil {
		b.Fatal(err)
	}
	answer := []byte("7,7\n")
	go func() {
		r := bufio.NewReader(inR)
		for {
			l, err := r.ReadSlice('\n')
			if err != nil {
				outW.Close()
				return
			}
			if bytes.HasPrefix(l, []byte("BEGIN")) || bytes.HasPrefix(l, []byte("TURN")) || string(l) == "DONE\n" {
				outW.Write(answer)
			}
		}
	}()
	p := &proc{group: &group{pid: -1, exited: make(chan struct{})}, stdin: inW, out: out, started: true}
	b.Cleanup(func() {
		inW.Close()
		out.close()
		inR.Close()
	})
	return &Engine{spec: Spec{StartTimeout: DefaultStartTimeout, WriteTimeout: DefaultWriteTimeout}, name: "in-process", p: p}
}

// BenchmarkMoveInProcess is one move request (TURN, with the time_left
// INFO queued before it as the arbiter does, or BOARD with 40 stones)
// through the driver to an in-process engine, with allocations.
func BenchmarkMoveInProcess(b *testing.B) {
	b.Run("turn", func(b *testing.B) {
		e := inProcess(b)
		b.ReportAllocs()
		for b.Loop() {
			e.QueueInfo(Info{Key: "time_left", Value: "60000"})
			r := e.Turn(rules.Point{X: 7, Y: 8}, time.Now().Add(time.Second))
			if r.Fault != "" {
				b.Fatal(r)
			}
		}
	})
	b.Run("board", func(b *testing.B) {
		e := inProcess(b)
		stones := make([]Stone, 40)
		for i := range stones {
			stones[i] = Stone{Point: rules.Point{X: i % 15, Y: i / 15}, Field: 1 + i%2}
		}
		b.ReportAllocs()
		for b.Loop() {
			r := e.Board(stones, time.Now().Add(time.Second))
			if r.Fault != "" {
				b.Fatal(r)
			}
		}
	})
}

// BenchmarkEngineStart is an engine process's start and close (cat: the
// program costs nothing of its own), as a table's first game pays for each
// engine: the working folder, the process (in its PID namespace, with a
// private /tmp as root) and its end. runner-µs/start is this process's own
// processor time (getrusage RUSAGE_SELF: its threads, not the engines).
func BenchmarkEngineStart(b *testing.B) {
	var r0, r1 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &r0)
	for b.Loop() {
		e, err := Start(Spec{Name: "cat", Command: "cat"})
		if err != nil {
			b.Fatal(err)
		}
		e.Close()
	}
	syscall.Getrusage(syscall.RUSAGE_SELF, &r1)
	cpu := time.Duration(syscall.TimevalToNsec(r1.Utime) - syscall.TimevalToNsec(r0.Utime) + syscall.TimevalToNsec(r1.Stime) - syscall.TimevalToNsec(r0.Stime))
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "runner-µs/start")
}
