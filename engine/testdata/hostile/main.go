// Command hostile is an engine written by a rival who tries to get out of
// its containment; the engine tests build it (go build) and run it as a real
// subprocess. It plays legal moves (the first empty point) and, while it
// answers its first move request of each game, carries out the attacks
// named by its arguments, reporting each outcome in a MESSAGE line:
//
//	read=PATH     read PATH (a file, or list a folder): "MESSAGE read PATH yes|no"
//	write=PATH    append a line to PATH: "MESSAGE write PATH yes|no"
//	fill=DIR:N    write N bytes to a new file in DIR, kept while it runs:
//	              "MESSAGE fill FILE wrote N"
//	hydra=FILE    (at START) start a chain of helpers, each writing its
//	              generation number to FILE, then forking the next and exiting
//	slow=FILE:MS  create FILE (a sign the request arrived), then think MS ms
//	fds=N         try every descriptor 3..N: for each open one, "MESSAGE fd K
//	              TARGET", and for a file "read=WHAT write=yes|no", having
//	              read its first bytes and written a line through it; then
//	              "MESSAGE fds tried 3-N"
//
// and the attacks of contain.go.
package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"
)

func main() {
	if len(os.Args) == 3 && os.Args[1] == "hydra" {
		hydra(os.Args[2])
		return
	}
	var attacks []string
	for _, a := range os.Args[1:] {
		attacks = append(attacks, a)
	}
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	say := func(format string, a ...any) {
		fmt.Fprintf(out, format+"\n", a...)
		out.Flush()
	}
	size := 15
	taken := map[[2]int]bool{}
	moves := 0
	move := func() {
		if moves == 0 {
			for _, a := range attacks {
				attack(a, say)
			}
		}
		moves++
		for y := 0; y < size; y++ {
			for x := 0; x < size; x++ {
				if !taken[[2]int{x, y}] {
					taken[[2]int{x, y}] = true
					say("%d,%d", x, y)
					return
				}
			}
		}
	}
	stone := func(s string) {
		f := strings.Split(s, ",")
		if len(f) >= 2 {
			x, _ := strconv.Atoi(strings.TrimSpace(f[0]))
			y, _ := strconv.Atoi(strings.TrimSpace(f[1]))
			taken[[2]int{x, y}] = true
		}
	}
	for in.Scan() {
		line := strings.TrimSpace(in.Text())
		cmd, arg, _ := strings.Cut(line, " ")
		switch strings.ToUpper(cmd) {
		case "START": // a game begins, as after RESTART (a runner may START a process again)
			size, _ = strconv.Atoi(arg)
			taken, moves = map[[2]int]bool{}, 0
			for _, a := range attacks {
				if f, ok := strings.CutPrefix(a, "hydra="); ok {
					spawnHydra(f)
				}
			}
			say("OK")
		case "RESTART":
			taken, moves = map[[2]int]bool{}, 0
			say("OK")
		case "BEGIN":
			move()
		case "TURN":
			stone(arg)
			move()
		case "BOARD":
			for in.Scan() && !strings.EqualFold(strings.TrimSpace(in.Text()), "DONE") {
				stone(in.Text())
			}
			move()
		case "ABOUT":
			say(`name="hostile", version="1"`)
		case "END":
			return
		}
	}
}

func yesNo(err error) string {
	if err == nil {
		return "yes"
	}
	return "no"
}

func attack(a string, say func(string, ...any)) {
	kind, arg, _ := strings.Cut(a, "=")
	switch kind {
	case "read":
		var err error
		if st, e := os.Stat(arg); e != nil {
			err = e
		} else if st.IsDir() {
			var ents []os.DirEntry
			if ents, err = os.ReadDir(arg); err == nil && len(ents) == 0 {
				err = fmt.Errorf("empty")
			}
		} else {
			_, err = os.ReadFile(arg)
		}
		say("MESSAGE read %s %s", arg, yesNo(err))
	case "write":
		f, err := os.OpenFile(arg, os.O_WRONLY|os.O_APPEND, 0)
		if err == nil {
			_, err = f.WriteString(`{"forged":true}` + "\n")
			f.Close()
		}
		say("MESSAGE write %s %s", arg, yesNo(err))
	case "fill":
		dir, n, _ := strings.Cut(arg, ":")
		want, _ := strconv.ParseInt(n, 10, 64)
		f, err := os.CreateTemp(dir, "hostile-fill-")
		var wrote int64
		name := dir
		if err == nil {
			name = f.Name()
			buf := make([]byte, 1<<20)
			for i := range buf {
				buf[i] = byte(i*7 + 1)
			}
			for wrote < want {
				k, err := f.Write(buf[:min(int64(len(buf)), want-wrote)])
				wrote += int64(k)
				if err != nil {
					break
				}
			}
			f.Close()
		}
		say("MESSAGE fill %s wrote %d", name, wrote)
	case "fds":
		n, _ := strconv.Atoi(arg)
		tryDescriptors(n, say)
	case "slow":
		file, ms, _ := strings.Cut(arg, ":")
		os.WriteFile(file, nil, 0o644)
		d, _ := strconv.Atoi(ms)
		time.Sleep(time.Duration(d) * time.Millisecond)
	default:
		containAttack(kind, arg, say) // contain.go
	}
}

// spawnHydra starts the helper chain in a session of its own (out of the
// engine's process group, which a signal to the group would reach at once).
func spawnHydra(file string) {
	self, err := os.Executable()
	if err != nil {
		return
	}
	c := exec.Command(self, "hydra", file)
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := c.Start(); err == nil {
		go c.Wait()
	}
}

// hydra records its generation in file (20 digits, written in place), does
// a little work, forks the next generation and exits, thousands of times a
// second: at any moment the process that will run next may not be born
// yet. The child of a fork has one thread and runs only raw system calls.
func hydra(file string) {
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		os.Exit(1)
	}
	fd := f.Fd()
	var buf [21]byte
	buf[20] = '\n'
	for gen := uint64(1); ; gen++ {
		for i, n := 19, gen; i >= 0; i, n = i-1, n/10 {
			buf[i] = byte('0' + n%10)
		}
		syscall.RawSyscall6(syscall.SYS_PWRITE64, fd, uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)), 0, 0, 0)
		for i := 0; i < 20000; i++ {
			work += i
		}
		pid, _, errno := syscall.RawSyscall6(syscall.SYS_CLONE, uintptr(syscall.SIGCHLD), 0, 0, 0, 0, 0)
		if errno != 0 || pid != 0 {
			syscall.RawSyscall(syscall.SYS_EXIT_GROUP, 0, 0, 0)
		}
	}
}

var work int

// tryDescriptors reads from and writes through every descriptor 3..n that
// it was given.
func tryDescriptors(n int, say func(string, ...any)) {
	for fd := 3; fd <= n; fd++ {
		var st syscall.Stat_t
		if syscall.Fstat(fd, &st) != nil {
			continue
		}
		target, _ := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", fd))
		if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
			say("MESSAGE fd %d %s", fd, target) // Go's own poller, or a pipe: not read, which could block
			continue
		}
		buf := make([]byte, 64)
		read := "no"
		if k, err := syscall.Pread(fd, buf, 0); err == nil && k > 0 {
			read = strconv.Quote(string(buf[:k]))
		}
		_, err := syscall.Write(fd, []byte("hostile wrote through an inherited descriptor\n"))
		say("MESSAGE fd %d %s read=%s write=%s", fd, target, read, yesNo(err))
	}
	say("MESSAGE fds tried 3-%d", n)
}
