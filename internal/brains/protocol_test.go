package brains

import (
	"bufio"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"gomoku-arena/rules"
)

// pipeEngine runs Main in-process behind io.Pipe, as the arbiter would run it
// behind a process's stdin and stdout.
type pipeEngine struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string
	exit  chan int
}

func startEngine(t *testing.T, args ...string) *pipeEngine {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	e := &pipeEngine{t: t, in: inW, lines: make(chan string, 100), exit: make(chan int, 1)}
	go func() {
		code := Main(args, inR, outW)
		outW.Close()
		e.exit <- code
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			e.lines <- strings.TrimRight(sc.Text(), "\r")
		}
		close(e.lines)
	}()
	t.Cleanup(func() { inW.Close() })
	return e
}

// send writes raw text, line endings included.
func (e *pipeEngine) send(text string) {
	e.t.Helper()
	if _, err := io.WriteString(e.in, text); err != nil {
		e.t.Fatalf("write %q: %v", text, err)
	}
}

func (e *pipeEngine) read() string {
	e.t.Helper()
	select {
	case l, ok := <-e.lines:
		if !ok {
			e.t.Fatal("engine closed stdout")
		}
		return l
	case <-time.After(5 * time.Second):
		e.t.Fatal("no reply within 5s")
	}
	return ""
}

func (e *pipeEngine) waitExit() int {
	e.t.Helper()
	select {
	case c := <-e.exit:
		return c
	case <-time.After(5 * time.Second):
		e.t.Fatal("engine did not exit")
	}
	return -1
}

func parseMove(t *testing.T, line string, size int) rules.Point {
	t.Helper()
	x, y, err := parsePair(line)
	if err != nil || x < 0 || y < 0 || x >= size || y >= size {
		t.Fatalf("reply %q is not a move on a %dx%d board", line, size, size)
	}
	return rules.Point{X: x, Y: y}
}

// A step sends one command; want is the exact reply, "move" for any move,
// or "" for no reply.
type step struct{ send, want string }

func TestProtocol(t *testing.T) {
	cases := []struct {
		name   string
		engine string
		steps  []step
	}{
		{"start and about", "greedy", []step{
			{"START 15", "OK"},
			{"ABOUT", `name="greedy", version="1.0", author="gomoku-arena", country="-"`},
		}},
		{"begin then turn", "search", []step{
			{"INFO timeout_turn 100", ""},
			{"START 15", "OK"},
			{"BEGIN", "move"},
			{"TURN 0,0", "move"},
		}},
		{"board", "random", []step{
			{"START 15", "OK"},
			{"BOARD\n7,7,2\n8,8,1\n6,6,2\nDONE", "move"},
		}},
		{"restart", "greedy", []step{
			{"START 15", "OK"},
			{"BEGIN", "7,7"},
			{"RESTART", "OK"},
			{"BEGIN", "7,7"},
		}},
		{"sizes", "search", []step{
			{"START 4", "ERROR unsupported size 4 (supported 5..26)"},
			{"START 27", "ERROR unsupported size 27 (supported 5..26)"},
			{"START x", "ERROR bad board size"},
			{"RECTSTART 15,10", "ERROR only square boards are supported"},
			{"RECTSTART 19,19", "OK"},
			{"BEGIN", "9,9"},
		}},
		{"unknown and info", "random", []step{
			{"INFO max_memory 0", ""},
			{"INFO strange thing", ""},
			{"FOO bar", "UNKNOWN command FOO"},
			{"BEGIN", "ERROR no START yet"},
			{"START 15", "OK"},
			{"TURN 7,7", "move"},
			{"TURN 7,7", `ERROR bad TURN "7,7"`},
			{"TAKEBACK 7,7", "OK"},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := startEngine(t, tc.engine, "seed=1")
			for _, st := range tc.steps {
				e.send(st.send + "\n")
				switch st.want {
				case "":
				case "move":
					parseMove(t, e.read(), 26)
				default:
					if got := e.read(); got != st.want {
						t.Fatalf("%q: got %q, want %q", st.send, got, st.want)
					}
				}
			}
			e.send("END\n")
			if code := e.waitExit(); code != 0 {
				t.Errorf("exit code %d after END", code)
			}
		})
	}
}

// Lines may end in CR, LF or CRLF, mixed.
func TestLineEndings(t *testing.T) {
	for _, eol := range []string{"\n", "\r\n", "\r"} {
		t.Run(strconv.Quote(eol), func(t *testing.T) {
			e := startEngine(t, "greedy")
			e.send("START 15" + eol)
			if got := e.read(); got != "OK" {
				t.Fatalf("START: got %q", got)
			}
			e.send("BOARD" + eol + "7,7,2" + eol + "DONE" + eol)
			parseMove(t, e.read(), 15)
			e.send("ABOUT" + eol)
			if got := e.read(); !strings.HasPrefix(got, `name="greedy"`) {
				t.Fatalf("ABOUT: got %q", got)
			}
			e.send("END" + eol)
			if code := e.waitExit(); code != 0 {
				t.Errorf("exit code %d", code)
			}
		})
	}
}

func TestMainRejects(t *testing.T) {
	for _, args := range [][]string{nil, {"nosuch"}, {"greedy", "depth"}, {"search", "colour=red"}, {"random", "seed=-1"}} {
		if code := Main(args, strings.NewReader(""), io.Discard); code != 2 {
			t.Errorf("Main(%q) = %d, want 2", args, code)
		}
	}
	if code := Main([]string{"random"}, strings.NewReader("START 15\n"), io.Discard); code != 0 {
		t.Errorf("Main at EOF = %d, want 0", code)
	}
	got := Names()
	if strings.Join(got, ",") != "greedy,random,search" {
		t.Errorf("Names() = %v", got)
	}
}

// Under outer-open every engine's first Black stone lies in the zone, told
// either way the arena tells it.
func TestOuterOpenFirstMove(t *testing.T) {
	for _, name := range Names() {
		for _, begin := range []string{"BEGIN", "BOARD\nDONE"} {
			t.Run(name+"/"+strings.Fields(begin)[0], func(t *testing.T) {
				e := startEngine(t, name, "seed=3")
				e.send("START 15\nINFO timeout_turn 100\nINFO rule 0\nINFO rule_name outer-open\n")
				if got := e.read(); got != "OK" {
					t.Fatalf("START: %q", got)
				}
				e.send(begin + "\n")
				m := parseMove(t, e.read(), 15)
				if !rules.InOuterZone(15, m) {
					t.Errorf("first move %v outside the outer-open zone", m)
				}
			})
		}
	}
}

// Every engine plays a whole game against itself on the smallest and the
// largest board, every move legal.
func TestSizes(t *testing.T) {
	free, _ := rules.ByName("freestyle")
	for _, size := range []int{5, 26} {
		for _, name := range Names() {
			t.Run(name+"/"+strconv.Itoa(size), func(t *testing.T) {
				e := startEngine(t, name, "seed=5", "time=20")
				e.send("START " + strconv.Itoa(size) + "\n")
				if got := e.read(); got != "OK" {
					t.Fatalf("START: %q", got)
				}
				p, _ := rules.NewPosition(size)
				e.send("BEGIN\n")
				for ply := 0; ply < 40; ply++ {
					m := parseMove(t, e.read(), size)
					v := free.Play(p, m)
					if v.Illegal {
						t.Fatalf("move %d %v illegal: %s", ply+1, m, v.Reason)
					}
					if v.Over {
						return
					}
					// The engine plays both sides: tell it its own move.
					e.send("BOARD\n")
					for i, q := range p.Moves {
						f := 2
						if i%2 == len(p.Moves)%2 {
							f = 1
						}
						e.send(strconv.Itoa(q.X) + "," + strconv.Itoa(q.Y) + "," + strconv.Itoa(f) + "\n")
					}
					e.send("DONE\n")
				}
			})
		}
	}
}
