package faulty

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// habits are the faults real engines were seen to have, for arena check's
// tests (docs/check.md); each is an argument like the others (quirks.go
// has more: restart=unknown, swap2-colors):
//
//	hash-max-memory    at the first move allocate and touch exactly the
//	                   INFO max_memory bytes (a hash sized to the limit)
//	turn-budget        think INFO timeout_turn on every move, whatever
//	                   time_left says (a budget read from timeout_turn alone)
//	turn-plus=DURATION think INFO timeout_turn plus DURATION on every move
//	board-opp-last     answer BOARD only when the last stone listed is the
//	                   opponent's (field 2); otherwise say nothing
//	silent-swap2       read SWAP2BOARD and its stones, and never answer
//	debug-flood=N      N DEBUG lines before every move
type habits struct {
	hashMaxMemory, turnBudget, boardOppLast, silentSwap2 bool
	turnPlus                                             time.Duration
	debugFlood                                           int

	maxMemory   int64         // from INFO max_memory
	timeoutTurn time.Duration // from INFO timeout_turn
	hash        []byte
}

// parse takes one argument; ok is false when it is not a habit's.
func (h *habits) parse(key, val string, hasVal bool) (ok bool, err error) {
	bools := map[string]*bool{"hash-max-memory": &h.hashMaxMemory, "turn-budget": &h.turnBudget, "board-opp-last": &h.boardOppLast,
		"silent-swap2": &h.silentSwap2}
	switch {
	case bools[key] != nil:
		*bools[key] = true
		if hasVal {
			if *bools[key], err = strconv.ParseBool(val); err != nil {
				return true, fmt.Errorf("%s: want true or false, got %q", key, val)
			}
		}
	case key == "turn-plus":
		d, err := time.ParseDuration(val)
		if err != nil || d < 0 {
			return true, fmt.Errorf("%s: want a duration like 500ms, got %q", key, val)
		}
		h.turnPlus = d
	case key == "debug-flood":
		n, err := strconv.Atoi(val)
		if err != nil || n < 1 {
			return true, fmt.Errorf("%s: want a positive integer, got %q", key, val)
		}
		h.debugFlood = n
	default:
		return false, nil
	}
	return true, nil
}

// info notes the INFO values the habits read.
func (h *habits) info(key, val string) {
	n, err := strconv.ParseInt(strings.TrimSpace(val), 10, 64)
	if err != nil {
		return
	}
	switch strings.ToLower(key) {
	case "max_memory":
		h.maxMemory = n
	case "timeout_turn":
		h.timeoutTurn = time.Duration(n) * time.Millisecond
	}
}

// beforeMove is what the habits do before a move: the hash, the think
// time, the DEBUG lines.
func (h *habits) beforeMove(b *brain) {
	if h.hashMaxMemory && h.hash == nil && h.maxMemory > 0 {
		h.hash = make([]byte, h.maxMemory)
		for i := 0; i < len(h.hash); i += 4096 {
			h.hash[i] = 1
		}
	}
	if h.turnBudget || h.turnPlus > 0 {
		time.Sleep(h.timeoutTurn + h.turnPlus)
	}
	for i := range h.debugFlood {
		b.say(fmt.Sprintf("DEBUG node %d of the search, nothing to see", i))
	}
}
