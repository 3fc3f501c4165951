// Package faulty is a deliberately misbehaving pbrain engine, for tests and
// for organisers checking their setup: it plays a simple game (the first empty
// point scanning out from the centre) and answers the protocol properly,
// except for the faults chosen by its arguments.
//
// Arguments are key or key=value, one per argument, combined freely; K is the
// engine's own move number in the current game, from 1:
//
//	crash-at=K         exit with status 3 instead of the Kth move
//	assert-at=K        instead of the Kth move, write a C assertion failure
//	                   to stderr (after two lines of chatter) and exit with
//	                   status 134, as a shell reports abort()
//	hang-at=K          never answer the Kth move (keeps reading input)
//	deaf-at=K          never answer the Kth move and stop reading input
//	illegal-at=K       play an occupied point as the Kth move
//	offboard-at=K      play 99,99 as the Kth move
//	negative-at=K      play -1,3 as the Kth move
//	malformed-at=K     send "7," as the Kth move
//	exit-after-move=K  send the Kth move, then exit at once (status 0)
//	double-at=K        send the Kth move twice
//	garbage            binary junk and stray lines before every move
//	messages=N         N MESSAGE lines before every move
//	say=TEXT           a MESSAGE line with TEXT before every move (markup, say)
//	stderr-flood=BYTES that many bytes on stderr before every move
//	long-line=BYTES    a line of that many bytes before every move
//	suggest            SUGGEST the move, then play what PLAY says
//	think=DURATION     sleep before every move
//	slow-start=DURATION sleep before answering START
//	silent-start       never answer START
//	refuse-start       answer START with "ERROR cannot play"
//	unknown-restart    answer RESTART with UNKNOWN
//	ignore-end         ignore END, stdin EOF and SIGTERM
//	spawn-child        start a helper process (this program with sleep=10m)
//	                   that lingers unless its process group is killed; its
//	                   pid is announced as "MESSAGE child pid N"
//	sleep=DURATION     do nothing but sleep (the helper's mode)
//	ponder             think busily all the time, also on the opponent's
//	                   time, and before every move report the milliseconds
//	                   spent so since the previous one: "MESSAGE pondered Nms"
//	hog=BYTES          at the first move (or SWAP2BOARD answer) allocate and
//	                   touch that much memory, and keep it
//	fork-bomb=N        at the first move fork min(N, 200) copies of itself
//	                   that only wait, as far as the process limit lets it,
//	                   and report "MESSAGE forked K of N" (the first error too)
//	info-error         answer an INFO line whose key is not one of Gomocup's
//	                   with "ERROR Unknown command: VALUE" (the value in
//	                   capitals), as Rapfi does: it reads the value as the
//	                   next command
//	info-delay=DURATION sleep that long on every INFO line before going on,
//	                   so its ERROR comes after the next command was written
//	info-once          exit with status 3 on an INFO line whose key it was
//	                   already told in this game (time_left, told before
//	                   every move, excepted), as an engine that acts on the
//	                   first value it is told (a hash sized to the first
//	                   max_memory) forfeits when it is told another
//	exit-on-info=KEY=VALUE exit with status 3 on the line INFO KEY VALUE, as
//	                   a public engine panics on timeout_match 0
//	rif                take part in the arena's RIF extension (RIFPROBE OK;
//	                   simple legal answers to RIFOPEN, RIFSWAP, RIFOFFER,
//	                   RIFCHOOSE); without it RIF commands are UNKNOWN
//
// SWAP2BOARD is answered with three stones at the centre of the empty board
// and SWAP to any other, so that opening-procedure faults can be staged.
//
// The router (the arena binary, or a test's TestMain) runs it as
// "PROGRAM engine faulty ARGS..." and exits with Main's result.
package faulty

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"gomoku-arena/rules"
)

// maxForks caps fork-bomb, so that a test can never take a machine down.
const maxForks = 200

// think is ponder's busy loop. It counts the processor time its thread
// actually got: not the wall time, which a loaded machine or a SIGSTOP
// stretches while the loop does not run.
func (b *brain) think() {
	runtime.LockOSThread()
	last := threadCPU()
	for {
		t0 := time.Now()
		for n := 0; time.Since(t0) < time.Millisecond; n++ {
		}
		now := threadCPU()
		b.pondered.Add(int64(now - last))
		last = now
	}
}

// threadCPU is the processor time of the calling thread.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// forkBomb forks up to min(n, maxForks) copies of this process that only
// pause until killed. It forks without exec, so the copies share this
// process's memory and cost the machine next to nothing. The raw fork is
// safe because a copy runs no Go code: only raw pause calls.
func forkBomb(n int) string {
	n = min(n, maxForks)
	made := 0
	var first syscall.Errno
	for range n {
		pid, _, errno := syscall.RawSyscall(syscall.SYS_FORK, 0, 0, 0)
		switch {
		case errno != 0:
			if first == 0 {
				first = errno
			}
			continue
		case pid == 0: // the copy
			for {
				syscall.RawSyscall(syscall.SYS_PAUSE, 0, 0, 0)
			}
		}
		made++
	}
	msg := fmt.Sprintf("MESSAGE forked %d of %d", made, n)
	if first != 0 {
		msg += " (" + first.Error() + ")"
	}
	return msg
}

// Exit statuses of Main.
const (
	ExitOK    = 0
	ExitUsage = 2
	ExitCrash = 3   // crash-at
	ExitAbort = 134 // assert-at
)

type options struct {
	crashAt, assertAt, hangAt, deafAt, doubleAt, illegalAt, offboardAt, negativeAt, malformedAt, exitAfterMove     int
	messages, stderrFlood, longLine, hog, forkBomb                                                                 int
	garbage, suggest, silentStart, refuseStart, unknownRestart, ignoreEnd, spawn, ponder, infoError, rif, infoOnce bool
	think, slowStart, sleep, infoDelay                                                                             time.Duration
	say                                                                                                            string
	exitOnInfo                                                                                                     [2]string // exit-on-info's key and value
	habits                                                                                                         habits    // habits.go
	q                                                                                                              quirks    // quirks.go
}

func parseArgs(args []string) (options, error) {
	var o options
	ints := map[string]*int{
		"crash-at": &o.crashAt, "assert-at": &o.assertAt, "hang-at": &o.hangAt, "deaf-at": &o.deafAt, "double-at": &o.doubleAt, "illegal-at": &o.illegalAt,
		"offboard-at": &o.offboardAt, "negative-at": &o.negativeAt, "malformed-at": &o.malformedAt,
		"exit-after-move": &o.exitAfterMove, "messages": &o.messages, "stderr-flood": &o.stderrFlood,
		"long-line": &o.longLine, "hog": &o.hog, "fork-bomb": &o.forkBomb,
	}
	bools := map[string]*bool{
		"garbage": &o.garbage, "suggest": &o.suggest, "silent-start": &o.silentStart,
		"refuse-start": &o.refuseStart, "unknown-restart": &o.unknownRestart,
		"ignore-end": &o.ignoreEnd, "spawn-child": &o.spawn, "ponder": &o.ponder,
		"info-error": &o.infoError, "rif": &o.rif, "info-once": &o.infoOnce,
	}
	durs := map[string]*time.Duration{"think": &o.think, "slow-start": &o.slowStart, "sleep": &o.sleep, "info-delay": &o.infoDelay}
	for _, a := range args {
		key, val, hasVal := strings.Cut(a, "=")
		switch {
		case ints[key] != nil:
			n, err := strconv.Atoi(val)
			if err != nil || n < 1 {
				return o, fmt.Errorf("%s: want a positive integer, got %q", key, val)
			}
			*ints[key] = n
		case bools[key] != nil:
			b := true
			if hasVal {
				var err error
				if b, err = strconv.ParseBool(val); err != nil {
					return o, fmt.Errorf("%s: want true or false, got %q", key, val)
				}
			}
			*bools[key] = b
		case durs[key] != nil:
			d, err := time.ParseDuration(val)
			if err != nil || d < 0 {
				return o, fmt.Errorf("%s: want a duration like 500ms, got %q", key, val)
			}
			*durs[key] = d
		case key == "say":
			o.say = val
		case key == "exit-on-info":
			k, v, ok := strings.Cut(val, "=")
			if !ok || k == "" {
				return o, fmt.Errorf("%s: want KEY=VALUE, got %q", key, val)
			}
			o.exitOnInfo = [2]string{k, v}
		default:
			if handled, err := o.q.set(key, val); handled {
				if err != nil {
					return o, err
				}
				continue
			}
			if ok, err := o.habits.parse(key, val, hasVal); !ok {
				return o, fmt.Errorf("unknown argument %q", a)
			} else if err != nil {
				return o, err
			}
		}
	}
	return o, nil
}

// Main runs the engine on the given streams and returns its exit status.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 1 && (args[0] == "help" || args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		fmt.Fprint(stdout, Usage)
		return ExitOK
	}
	o, err := parseArgs(args)
	if err != nil {
		fmt.Fprintln(stderr, "faulty:", err)
		fmt.Fprintln(stderr, "faulty: `arena engine faulty help` lists its arguments")
		return ExitUsage
	}
	if o.sleep > 0 {
		time.Sleep(o.sleep)
		return ExitOK
	}
	b := &brain{o: o, in: bufio.NewReader(stdin), out: bufio.NewWriter(stdout), errw: stderr}
	if o.ignoreEnd {
		signal.Ignore(syscall.SIGTERM)
	}
	if o.spawn {
		if err := b.spawnChild(); err != nil {
			fmt.Fprintln(stderr, "faulty: spawn-child:", err)
			return ExitUsage
		}
	}
	if o.ponder {
		go b.think()
	}
	code := b.run()
	if o.ignoreEnd && code == ExitOK {
		for { // "keeps running": only SIGKILL ends it
			time.Sleep(time.Hour)
		}
	}
	return code
}

func (b *brain) spawnChild() error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	c := exec.Command(exe, "engine", "faulty", "sleep=10m")
	if err := c.Start(); err != nil {
		return err
	}
	b.say("MESSAGE child pid " + strconv.Itoa(hostPid(c.Process.Pid)))
	return nil
}

// hostPid translates a child's pid into the pid the arbiter sees. An engine
// may run in its own PID namespace, where pids are its own; /proc, though,
// is the arbiter's, so /proc/self names this process by its outer pid and
// the children files list the outer pids of its children.
func hostPid(pid int) int {
	self, err := os.Readlink("/proc/self")
	if err != nil {
		return pid
	}
	tasks, _ := os.ReadDir("/proc/" + self + "/task")
	for _, t := range tasks {
		b, err := os.ReadFile("/proc/" + self + "/task/" + t.Name() + "/children")
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			outer, _ := strconv.Atoi(f)
			if outer == pid || nsPid(outer) == pid {
				return outer
			}
		}
	}
	return pid
}

// nsPid is the innermost pid of the process with outer pid outer.
func nsPid(outer int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(outer) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f, ok := strings.CutPrefix(line, "NSpid:"); ok {
			ids := strings.Fields(f)
			n, _ := strconv.Atoi(ids[len(ids)-1])
			return n
		}
	}
	return 0
}

// brain is the engine's state: its own view of the board.
type brain struct {
	o     options
	in    *bufio.Reader
	out   *bufio.Writer
	errw  io.Writer
	size  int
	board []int8            // 0 empty, 1 own, 2 opponent's, 3 blocked
	order []int             // board indices from the centre outwards
	moves int               // own moves requested in this game
	told  map[string]string // INFO keys told in this game, and their values (info-once)

	pondered atomic.Int64 // ns spent thinking since the last move (ponder)
	hog      []byte       // memory held (hog)
	bombed   bool         // fork-bomb done
}

func (b *brain) say(lines ...string) {
	for _, l := range lines {
		b.out.WriteString(l)
		b.out.WriteByte('\n')
	}
	b.out.Flush()
}

func (b *brain) readLine() (string, bool) {
	s, err := b.in.ReadString('\n')
	if err != nil && s == "" {
		return "", false
	}
	return strings.TrimRight(s, "\r\n"), true
}

// run serves commands until END or EOF and returns the exit status.
func (b *brain) run() int {
	for {
		line, ok := b.readLine()
		if !ok {
			return ExitOK
		}
		if line, ok = b.quirkLine(line); !ok {
			continue
		}
		word, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
		code := -1
		switch strings.ToUpper(word) {
		case "START":
			if b.o.silentStart {
				continue
			}
			time.Sleep(b.o.slowStart)
			n, err := strconv.Atoi(strings.TrimSpace(rest))
			switch {
			case b.o.refuseStart:
				b.say("ERROR cannot play")
			case err != nil || n < 5 || n > 100:
				b.say("ERROR unsupported size " + rest)
			default:
				b.newGame(n)
				b.say("OK")
			}
		case "RESTART":
			if quirky, exit := b.restartReply(); exit {
				return ExitOK
			} else if quirky {
				continue
			}
			if b.o.unknownRestart {
				b.say("UNKNOWN RESTART is not supported")
			} else if b.size == 0 {
				b.say("ERROR no game")
			} else {
				b.newGame(b.size)
				b.say("OK")
			}
		case "INFO":
			if !b.info(rest) {
				return ExitCrash
			}
		case "":
		case "ABOUT":
			if b.o.q.silentAbout {
				continue
			}
			b.say(`name="faulty", version="1.0", author="gomoku-arena", country="CZ"`)
		case "BEGIN":
			code = b.move()
		case "TURN":
			if x, y, ok := pair(rest); ok {
				b.set(x, y, 2)
			}
			code = b.move()
		case "BOARD":
			b.clear()
			last := 0
			if !b.readBlock(func(f []string) {
				if len(f) == 3 {
					last, _ = strconv.Atoi(f[2])
					x, _ := strconv.Atoi(f[0])
					y, _ := strconv.Atoi(f[1])
					v, _ := strconv.Atoi(f[2])
					b.set(x, y, int8(v))
				}
			}) {
				return ExitOK
			}
			if b.o.habits.boardOppLast && last != 2 {
				continue
			}
			code = b.move()
		case "SWAP2BOARD":
			code = b.swap2()
		case "RIFPROBE", "RIFOPEN", "RIFSWAP", "RIFOFFER", "RIFCHOOSE":
			if !b.o.rif {
				b.say("UNKNOWN command " + word)
				continue
			}
			if code = b.rifCommand(strings.ToUpper(word), rest); code >= 0 {
				return code
			}
		case "TAKEBACK":
			if x, y, ok := pair(rest); ok {
				b.set(x, y, 0)
			}
			b.say("OK")
		case "END":
			if b.o.ignoreEnd {
				continue
			}
			return ExitOK
		default:
			b.say("UNKNOWN command " + word)
		}
		if code >= 0 {
			return code
		}
	}
}

// gomocupInfo is the INFO keys of the Gomocup protocol.
var gomocupInfo = map[string]bool{
	"timeout_turn": true, "timeout_match": true, "time_left": true, "max_memory": true, "game_type": true,
	"rule": true, "evaluate": true, "folder": true, "max_depth": true, "max_node": true, "thread_num": true,
}

// info takes one INFO line: info-delay, then info-error's complaint; false
// when the engine exits on it (info-once, exit-on-info).
func (b *brain) info(rest string) bool {
	time.Sleep(b.o.infoDelay)
	key, val, _ := strings.Cut(strings.TrimSpace(rest), " ")
	val = strings.TrimSpace(val)
	if e := b.o.exitOnInfo; e[0] != "" && strings.EqualFold(key, e[0]) && val == e[1] {
		fmt.Fprintf(b.errw, "panic: cannot take INFO %s %s\n", key, val)
		return false
	}
	if b.o.infoOnce && !strings.EqualFold(key, "time_left") {
		if b.told == nil {
			b.told = map[string]string{}
		}
		k := strings.ToLower(key)
		if was, twice := b.told[k]; twice {
			fmt.Fprintf(b.errw, "INFO %s told twice in one game: %s, then %s\n", key, was, val)
			return false
		}
		b.told[k] = val
	}
	b.o.habits.info(key, val)
	if b.o.infoError && !gomocupInfo[strings.ToLower(key)] {
		b.say("ERROR Unknown command: " + strings.ToUpper(strings.TrimSpace(val)))
	}
	return true
}

func (b *brain) newGame(size int) {
	b.size, b.moves, b.told = size, 0, nil
	b.board = make([]int8, size*size)
	b.order = b.order[:0]
	c := (size - 1) / 2
	for r := 0; r < size; r++ { // rings of growing distance from the centre
		for y := c - r; y <= c+r; y++ {
			for x := c - r; x <= c+r; x++ {
				if max(abs(x-c), abs(y-c)) == r && x >= 0 && y >= 0 && x < size && y < size {
					b.order = append(b.order, y*size+x)
				}
			}
		}
	}
}

func (b *brain) clear() {
	for i := range b.board {
		b.board[i] = 0
	}
}

func (b *brain) set(x, y int, v int8) {
	if x >= 0 && y >= 0 && x < b.size && y < b.size {
		b.board[y*b.size+x] = v
	}
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func pair(s string) (x, y int, ok bool) {
	xs, ys, found := strings.Cut(s, ",")
	x, err1 := strconv.Atoi(strings.TrimSpace(xs))
	y, err2 := strconv.Atoi(strings.TrimSpace(ys))
	return x, y, found && err1 == nil && err2 == nil
}

// hogMemory allocates and touches hog's memory once.
func (b *brain) hogMemory() {
	if b.o.hog > 0 && b.hog == nil {
		b.hog = make([]byte, b.o.hog)
		for i := 0; i < len(b.hog); i += 4096 {
			b.hog[i] = 1
		}
	}
}

// readBlock reads a stone block up to DONE, handing each line's
// comma-separated fields to stone; false when input ends first.
func (b *brain) readBlock(stone func(fields []string)) bool {
	for {
		l, ok := b.readLine()
		if !ok {
			return false
		}
		if strings.EqualFold(strings.TrimSpace(l), "DONE") {
			return true
		}
		stone(strings.Split(strings.TrimSpace(l), ","))
	}
}

// swap2 answers SWAP2BOARD once its stone block is read: three stones at
// the centre of the empty board, SWAP to any other.
func (b *brain) swap2() int {
	stones := 0
	if !b.readBlock(func(f []string) {
		if b.swap2Stone(f) {
			stones++
		}
	}) {
		return ExitOK
	}
	if b.o.habits.silentSwap2 {
		return -1
	}
	b.hogMemory()
	if stones > 0 {
		b.say("SWAP")
		return -1
	}
	c := b.size / 2
	b.say(fmt.Sprintf("%d,%d %d,%d %d,%d", c, c, c+1, c, c, c+1))
	return -1
}

// move answers a move request; it returns an exit status to stop, or -1.
func (b *brain) move() int {
	if b.size == 0 {
		b.say("ERROR no START")
		return -1
	}
	b.moves++
	k := b.moves
	time.Sleep(b.o.think)
	b.o.habits.beforeMove(b)
	if b.o.ponder {
		b.say(fmt.Sprintf("MESSAGE pondered %dms", b.pondered.Swap(0)/int64(time.Millisecond)))
	}
	b.hogMemory()
	if b.o.forkBomb > 0 && !b.bombed {
		b.bombed = true
		b.say(forkBomb(b.o.forkBomb))
	}
	for i := range b.o.messages {
		b.say(fmt.Sprintf("MESSAGE depth %d eval %d pv 7,7 8,8", i+1, i*3-k))
	}
	if b.o.say != "" {
		b.say("MESSAGE " + b.o.say)
	}
	if b.o.stderrFlood > 0 {
		flood(b.errw, b.o.stderrFlood)
	}
	if b.o.garbage {
		b.junk(k)
	}
	if b.o.longLine > 0 {
		b.out.Flush()
		flood(b.out, b.o.longLine-1)
		b.say("") // the newline
	}
	switch k {
	case b.o.crashAt:
		b.out.Flush()
		return ExitCrash
	case b.o.assertAt:
		b.out.Flush()
		fmt.Fprintf(b.errw, "search: depth 1 nodes %d\nsearch: depth 2 nodes %d\n", 40*k, 900*k)
		fmt.Fprintf(b.errw, "faulty: engine.c:42: brain_turn: Assertion `move %d < 0' failed.\n", k)
		return ExitAbort
	case b.o.hangAt:
		b.out.Flush()
		return -1
	case b.o.deafAt:
		b.out.Flush()
		for {
			time.Sleep(time.Hour)
		}
	}
	x, y := b.choose()
	move := strconv.Itoa(x) + "," + strconv.Itoa(y)
	switch k {
	case b.o.illegalAt:
		x, y = b.occupied()
		move = strconv.Itoa(x) + "," + strconv.Itoa(y)
	case b.o.offboardAt:
		move = "99,99"
	case b.o.negativeAt:
		move = "-1,3"
	case b.o.malformedAt:
		move = "7,"
	}
	if b.o.suggest {
		b.say("SUGGEST " + move)
		for {
			l, ok := b.readLine()
			if !ok {
				return ExitOK
			}
			if w, rest, _ := strings.Cut(strings.TrimSpace(l), " "); strings.EqualFold(w, "PLAY") {
				move = strings.TrimSpace(rest)
				x, y, _ = pair(move)
				break
			}
		}
	}
	if b.at(x, y) == 0 {
		b.set(x, y, 1)
	}
	b.afterMove() // started first: its work goes on while the move is read
	b.say(move)
	if k == b.o.doubleAt {
		b.say(move)
	}
	if k == b.o.exitAfterMove {
		return ExitOK
	}
	return -1
}

func (b *brain) at(x, y int) int8 {
	if x < 0 || y < 0 || x >= b.size || y >= b.size {
		return 3
	}
	return b.board[y*b.size+x]
}

// choose is the first empty point from the centre out; the centre itself
// when the board is full (the arbiter judges that).
func (b *brain) choose() (x, y int) {
	for _, i := range b.order {
		if b.board[i] == 0 {
			return i % b.size, i / b.size
		}
	}
	c := (b.size - 1) / 2
	return c, c
}

// occupied is a point with a stone on it, preferring the opponent's; the
// centre if the board is empty.
func (b *brain) occupied() (x, y int) {
	best := -1
	for i, v := range b.board {
		if v == 2 {
			best = i
			break
		}
		if v != 0 && best < 0 {
			best = i
		}
	}
	if best < 0 {
		c := (b.size - 1) / 2
		return c, c
	}
	return best % b.size, best / b.size
}

// flood writes n bytes of text lines (the last one without a newline when n
// is not a multiple of the line length) without holding them in memory.
func flood(w io.Writer, n int) {
	line := []byte(strings.Repeat("flood ", 16) + "\n")
	if bw, ok := w.(*bufio.Writer); ok { // a long line: no newlines at all
		line = []byte(strings.Repeat("x", 4096))
		for ; n > 0; n -= len(line) {
			bw.Write(line[:min(n, len(line))])
		}
		return
	}
	for ; n > 0; n -= len(line) {
		if _, err := w.Write(line[:min(n, len(line))]); err != nil {
			return
		}
	}
}

// junk writes binary junk and stray lines that are neither moves nor
// keywords (and one unsolicited ERROR, which must not forfeit).
func (b *brain) junk(k int) {
	r := rand.New(rand.NewPCG(uint64(k), 7))
	bin := []byte{0}
	for range 16 + r.IntN(200) {
		c := byte(r.IntN(256))
		if c == '\n' || c == '\r' {
			c = 0xff
		}
		bin = append(bin, c)
	}
	b.out.Write(bin)
	b.out.WriteString("\r\n")
	b.out.WriteString("ERROR unsolicited complaint about INFO\n")
	stray := []string{"hello from faulty", "thinking...", "7 8", "OKAY", "", "   ", "x,y",
		"name=faulty", "DEBUG nodes 12345", "SUGGESTION 7,7", "UNKNOWN what"}
	for range 3 + r.IntN(5) {
		b.out.WriteString(stray[r.IntN(len(stray))])
		b.out.WriteString([]string{"\n", "\r", "\r\n"}[r.IntN(3)])
	}
	b.out.Flush()
}

// rifCommand answers the RIF extension (rif): moves 1-3 as a direct opening
// at the centre, SWAP to moves 1-3, two 5th moves that no symmetry of the
// position maps onto each other, and the first offer when choosing. It
// returns an exit status to stop, or -1.
func (b *brain) rifCommand(cmd, rest string) int {
	if cmd == "RIFPROBE" {
		b.say("OK")
		return -1
	}
	var stones []rules.Point
	if !b.readBlock(func(f []string) {
		if len(f) >= 2 {
			x, _ := strconv.Atoi(f[0])
			y, _ := strconv.Atoi(f[1])
			stones = append(stones, rules.Point{X: x, Y: y})
		}
	}) {
		return ExitOK
	}
	c := b.size / 2
	switch cmd {
	case "RIFOPEN":
		b.say(fmt.Sprintf("%d,%d %d,%d %d,%d", c, c, c, c-1, c+1, c+1))
	case "RIFSWAP":
		b.say("SWAP")
	case "RIFOFFER":
		b.say(b.offers(stones))
	case "RIFCHOOSE":
		first, _, _ := strings.Cut(strings.TrimSpace(rest), " ")
		b.say(first)
	}
	return -1
}

// offers picks two empty points near the centre that no symmetry of the
// position maps onto each other.
func (b *brain) offers(stones []rules.Point) string {
	free, _ := rules.ByName("freestyle")
	pos, err := rules.Setup(free, b.size, stones)
	if err != nil {
		return "ERROR RIFOFFER: " + err.Error()
	}
	syms := rules.PositionSymmetries(pos)
	var empty []rules.Point
	for _, i := range b.order {
		p := rules.Point{X: i % b.size, Y: i / b.size}
		if pos.Board.At(p) == rules.Empty {
			empty = append(empty, p)
		}
	}
	for i, a := range empty {
	next:
		for _, o := range empty[i+1:] {
			for _, k := range syms {
				if rules.Transform(a, b.size, k) == o {
					continue next
				}
			}
			return a.String() + " " + o.String()
		}
	}
	return "ERROR RIFOFFER: no two offers"
}
