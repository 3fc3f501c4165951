package remote

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// RelayMain is `arena engine relay NAME`: the local process the arbiter
// runs for remote entrant NAME. Its stdin goes to the gateway (the socket
// it inherits as descriptor 3, Gateway.RelayFile) and on to the remote
// engine; the engine's output comes back on its stdout, its stderr on its
// stderr. When the remote engine ends, the relay ends the same way; when
// the entrant forfeits by disconnection, it exits with ExitDisconnect.
func RelayMain(args []string) int {
	if len(args) != 1 {
		fmt.Fprintln(os.Stderr, "arena engine relay: want the remote entrant's name (the event runs this, not a person)")
		return 2
	}
	// Not dumpable: a process of the same user (an unconfined engine) may
	// neither trace it nor read its /proc files.
	unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
	f := os.NewFile(3, "gateway")
	conn, err := net.FileConn(f)
	f.Close()
	c, ok := conn.(*net.UnixConn)
	if err != nil || !ok {
		fmt.Fprintln(os.Stderr, "arena engine relay: no gateway (descriptor 3 is not the event's socket; the event runs this, not a person)")
		return 2
	}
	go func() {
		io.Copy(c, os.Stdin)
		c.CloseWrite()
	}()
	r := bufio.NewReaderSize(c, 64<<10)
	out := bufio.NewWriterSize(os.Stdout, 64<<10)
	for {
		line, err := readLine(r, MaxLine+16)
		if err != nil {
			out.Flush()
			fmt.Fprintln(os.Stderr, "arena engine relay: the gateway closed")
			return 1
		}
		kind, text, _ := strings.Cut(line, " ")
		switch kind {
		case "L":
			out.WriteString(text)
			out.WriteByte('\n')
			if r.Buffered() == 0 {
				out.Flush()
			}
		case "E":
			fmt.Fprintln(os.Stderr, text)
		case "X":
			out.Flush()
			code, detail, _ := strings.Cut(text, " ")
			n, _ := strconv.Atoi(code)
			if n < 0 { // the remote engine was killed by a signal: so is the relay
				fmt.Fprintln(os.Stderr, "arena engine relay: remote engine: "+detail)
				syscall.Kill(os.Getpid(), syscall.Signal(-n))
				select {}
			}
			if n == ExitDisconnect {
				fmt.Fprintln(os.Stderr, "arena engine relay: "+detail)
			}
			return n
		}
	}
}
