package engine

import (
	"io"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"gomoku-arena/rules"
)

func readAll(t *testing.T, r io.Reader, max int) []string {
	t.Helper()
	lr := newLineReader(r, max)
	var out []string
	for {
		b, trunc, err := lr.ReadLine()
		if err != nil {
			return out
		}
		s := string(b)
		if trunc {
			s += "<cut>"
		}
		out = append(out, s)
	}
}

func TestLineReader(t *testing.T) {
	tests := []struct {
		name string
		in   string
		max  int
		want []string
	}{
		{"LF", "a\nb\n", 10, []string{"a", "b"}},
		{"CR", "a\rb\r", 10, []string{"a", "b"}},
		{"CRLF", "a\r\nb\r\n", 10, []string{"a", "b"}},
		{"mixed", "a\r\n\nb\rc\n\r\nd", 10, []string{"a", "", "b", "c", "", "d"}},
		{"empty lines", "\n\n", 10, []string{"", ""}},
		{"last line without ending", "7,7", 10, []string{"7,7"}},
		{"truncated", "abcdefghij\nxy\n", 4, []string{"abcd<cut>", "xy"}},
		{"exactly max", "abcd\n", 4, []string{"abcd"}},
		{"truncated at EOF", "abcdefgh", 4, []string{"abcd<cut>"}},
		{"truncated then CRLF", "abcdefgh\r\nz", 4, []string{"abcd<cut>", "z"}},
	}
	for _, tt := range tests {
		for _, one := range []bool{false, true} {
			name := tt.name
			var r io.Reader = strings.NewReader(tt.in)
			if one { // CR and LF in separate reads
				name += "/one byte reads"
				r = iotest.OneByteReader(r)
			}
			t.Run(name, func(t *testing.T) {
				got := readAll(t, r, tt.max)
				if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
					t.Errorf("got %q, want %q", got, tt.want)
				}
			})
		}
	}
}

// endless yields n bytes of 'x' without ever holding them.
type endless struct{ n int }

func (e *endless) Read(p []byte) (int, error) {
	if e.n == 0 {
		return 0, io.EOF
	}
	k := min(len(p), e.n)
	for i := range p[:k] {
		p[i] = 'x'
	}
	e.n -= k
	return k, nil
}

func TestLineReaderHugeLineIsBounded(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	lr := newLineReader(io.MultiReader(&endless{n: 10 << 20}, strings.NewReader("\n7,7\n")), MaxLine)
	b, trunc, err := lr.ReadLine()
	if err != nil || !trunc || len(b) != MaxLine {
		t.Fatalf("huge line: len %d truncated %v err %v", len(b), trunc, err)
	}
	b, trunc, err = lr.ReadLine()
	if err != nil || trunc || string(b) != "7,7" {
		t.Fatalf("line after the huge one: %q %v %v", b, trunc, err)
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("reading a 10 MB line allocated %d bytes", grew)
	}
}

func TestOutQueueDropsOldest(t *testing.T) {
	q := newOutQueue()
	line := strings.Repeat("m", 1000)
	for range 2 * maxQueueBytes / len(line) {
		q.push(outLine{text: line})
	}
	q.push(outLine{text: "7,7"})
	n, dropped := 0, 0
	var last string
	for {
		l, ok, d, _ := q.pop()
		dropped += d
		if !ok {
			break
		}
		n++
		last = l.text
	}
	if last != "7,7" || dropped == 0 || n*len(line) > maxQueueBytes+len(line) {
		t.Errorf("kept %d lines, dropped %d, last %q", n, dropped, last)
	}
}

func TestRing(t *testing.T) {
	var r ring
	if got := r.snapshot(); len(got) != 0 {
		t.Fatalf("empty ring: %q", got)
	}
	for i := range stderrLines + 5 {
		r.add(strings.Repeat("x", i))
	}
	got := r.snapshot()
	if len(got) != stderrLines || len(got[0]) != 5 || len(got[len(got)-1]) != stderrLines+4 {
		t.Errorf("ring kept %d lines, first len %d", len(got), len(got[0]))
	}
}

// An engine that floods stdout while no request waits (here 8 MiB of
// MESSAGE lines after its move, eight times the pipe) is drained by the
// idle drainer: it finishes its flood (and says so on stderr) before the
// next request, the arbiter keeps a bounded part of it, and the next move is
// read as usual.
func TestFloodBetweenRequestsIsDrained(t *testing.T) {
	t.Parallel()
	script := `while read -r line; do
 case "$line" in
  START*) echo OK;;
  ABOUT) echo 'name="flood"';;
  BEGIN) echo 7,7; { head -c 8388608 /dev/zero | tr '\0' 'm' | fold -w 1000; echo; } | sed 's/^/MESSAGE /'; echo flooded >&2;;
  TURN*) echo 8,8;;
 esac
done`
	e, err := Start(Spec{Name: "flood", Command: "/bin/sh", Args: []string{"-c", script}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	if err := e.NewGame(15, nil, in(generous)); err != nil {
		t.Fatal(err)
	}
	if r := e.Begin(in(generous)); r.Fault != "" || r.Move != (rules.Point{X: 7, Y: 7}) {
		t.Fatalf("BEGIN: %+v", r)
	}
	for end := in(generous); !slices.Contains(e.Stderr(), "flooded"); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the engine is still blocked on its flood: stdout is not drained between requests")
		}
	}
	r := e.Turn(rules.Point{X: 0, Y: 0}, in(generous))
	if r.Fault != "" || r.Move != (rules.Point{X: 8, Y: 8}) {
		t.Fatalf("TURN after the flood: %s %s %s, %d notes, last %.80q", r.Fault, r.Detail, r.Line, len(r.Notes), r.Notes[len(r.Notes)-1])
	}
	if !hasNote(r, "output lines dropped unread") || len(r.Notes) > maxNotes+1 {
		t.Errorf("notes after the flood: %d, %.80q", len(r.Notes), r.Notes[len(r.Notes)-1])
	}
}

// stuttering returns its input in pieces of the given sizes, with a
// temporary error (nothing waiting, or a drainer's kick) before each.
type stuttering struct {
	data  []byte
	sizes []byte
	n     int
	gap   bool
}

func (s *stuttering) Read(p []byte) (int, error) {
	if len(s.data) == 0 {
		return 0, io.EOF
	}
	s.gap = !s.gap
	if s.gap {
		if s.n%2 == 0 {
			return 0, errWouldBlock
		}
		return 0, errKicked
	}
	k := 1
	if len(s.sizes) > 0 {
		k = int(s.sizes[s.n%len(s.sizes)])%7 + 1
	}
	s.n++
	k = min(k, len(p), len(s.data))
	copy(p, s.data[:k])
	s.data = s.data[k:]
	return k, nil
}

// Temporary errors between reads never change the lines: a line cut by
// one is continued by the next ReadLine, never split, lost or ended early.
func FuzzLineReaderResumes(f *testing.F) {
	f.Add([]byte("7,7\r\nMESSAGE x\rabc\n\n8,8"), []byte{1, 2, 3}, 4)
	f.Add([]byte("abcdefghij\r\nxy\r"), []byte{0}, 3)
	f.Fuzz(func(t *testing.T, in, sizes []byte, max int) {
		if max < 1 || max > 64 {
			return
		}
		want := readAll(t, strings.NewReader(string(in)), max)
		lr := newLineReader(&stuttering{data: in, sizes: sizes}, max)
		var got []string
		for {
			b, trunc, err := lr.ReadLine()
			if temporary(err) {
				continue
			}
			if err != nil {
				break
			}
			s := string(b)
			if trunc {
				s += "<cut>"
			}
			got = append(got, s)
		}
		if strings.Join(got, "|") != strings.Join(want, "|") || len(got) != len(want) {
			t.Errorf("with stutters %q, without %q", got, want)
		}
	})
}
