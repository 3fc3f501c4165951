package remote

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"time"
)

// message is one WebSocket message between the gateway and a client, as
// JSON. From the gateway: hello (L: the entrant's name), open (S: start an
// engine for stream S), in (lines for S's engine, separated by newlines:
// a block such as BOARD ... DONE travels whole), close (end S's engine), rtt (MS: the measured round trip). From the client: out and err
// (lines the engine wrote on stdout, or the latest of its stderr lines), exit (S's engine ended; C
// its exit code, or minus the signal that ended it; L as Go says it).
type message struct {
	T  string  `json:"t"`
	S  uint64  `json:"s,omitempty"`
	L  string  `json:"l,omitempty"`
	C  int     `json:"c,omitempty"`
	MS float64 `json:"ms,omitempty"`
}

// Bounds on what crosses the network.
const (
	// MaxLine is the longest line relayed either way; a longer one is cut
	// there and the rest of it dropped.
	MaxLine = 64 << 10
	// maxMessage bounds one WebSocket message (a line and its envelope).
	maxMessage = 2*MaxLine + 1024
	// pingEvery is how often the gateway measures the round trip; a
	// session that does not answer within idleTimeout is dropped.
	pingEvery   = 5 * time.Second
	idleTimeout = 20 * time.Second
	// writeTimeout bounds one write to the network.
	writeTimeout = 10 * time.Second
)

// Close codes of a session the gateway ends for good: the client stops
// instead of reconnecting.
const (
	closeOver     = 4000 // the event is over: nothing more to play
	closeReplaced = 4001 // a newer connection with the entrant's token took over
	closeRevoked  = 4003 // the token was revoked
	closeRefused  = 4008 // the client broke the rules (another entrant's stream)
)

// ExitDisconnect is the relay's exit status when its entrant stayed away
// past the grace period, or disconnected too often in one game: the
// arbiter records the forfeit as a disconnection.
const ExitDisconnect = 86

// readLine reads one line of at most max bytes, without its end of line;
// the rest of a longer line is read and dropped. It returns io.EOF only
// when nothing was read.
func readLine(r *bufio.Reader, max int) (string, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line) < max {
			take := chunk
			if room := max - len(line); len(take) > room {
				take = take[:room]
			}
			line = append(line, take...)
		}
		switch {
		case err == nil:
			return string(bytes.TrimRight(line, "\r\n")), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) > 0:
			return string(bytes.TrimRight(line, "\r\n")), nil
		default:
			return "", err
		}
	}
}
