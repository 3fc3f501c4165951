package engine

import (
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"gomoku-arena/clock"
	"gomoku-arena/rules"
)

// The protocol's INFO words: every key the arena tells an engine is written
// here, from typed values (a clock, a rule, a byte count), so that what an
// engine hears is decided in one place. docs/protocol.md lists them.

// Info is one INFO line: INFO key value. event.json keeps an entrant's
// extra lines in this form ({"key": ..., "value": ...}).
type Info struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// The keys the arena sends. An event's config may add others of an
// engine's own (its options); those are sent as written.
const (
	KeyTimeoutTurn   = "timeout_turn"
	KeyTimeoutMatch  = "timeout_match"
	KeyTimeIncrement = "time_increment"
	KeyTimeLeft      = "time_left"
	KeyRule          = "rule"
	KeyGameType      = "game_type"
	KeyRuleName      = "rule_name" // the arena's extension, for rules without a Gomocup code
	KeyFolder        = "folder"
	KeyMaxMemory     = "max_memory"
	KeyThreadNum     = "thread_num"
	KeyMaxDepth      = "max_depth"
	KeyMaxNode       = "max_node"
)

// unlimited is what the protocol sends for "no limit" in time_left, and the
// most its millisecond times carry to an engine that reads them as 32-bit
// integers.
const unlimited = math.MaxInt32

// ms is d in whole milliseconds, at most 2147483647: a clock grown by
// increments is never sent as a number an engine cannot hold.
func ms(d time.Duration) string { return strconv.FormatInt(min(d.Milliseconds(), unlimited), 10) }

// ClockInfos tell an engine its time control before a game. timeout_turn
// is never 0 in a game with a clock, since engines read 0 as "play
// instantly": without a per-move limit they are told the match time, and
// without any clock the hang cap.
func ClockInfos(c clock.Control) []Info {
	turn := c.Turn
	if turn == 0 {
		turn = c.Match
	}
	if turn == 0 {
		turn = c.HangLimit()
	}
	infos := []Info{{KeyTimeoutTurn, ms(turn)}, {KeyTimeoutMatch, ms(c.Match)}}
	if c.Increment > 0 {
		infos = append(infos, Info{KeyTimeIncrement, ms(c.Increment)})
	}
	return infos
}

// TimeLeft is the line sent before each move request: the time left on the
// mover's clock, or 2147483647 when it has no match clock.
func TimeLeft(c *clock.Clock) Info {
	if c.Control().Match == 0 {
		return Info{KeyTimeLeft, strconv.Itoa(unlimited)}
	}
	return Info{KeyTimeLeft, ms(c.Left())}
}

// RuleInfos tell an engine the rule: the Gomocup code for engines that know
// only those, game_type 2 (tournament), and, for a rule that has no Gomocup
// code of its own ("outer-open", "pente", "keryo-pente": the code says
// freestyle), the extension key rule_name with the arena's rule name. Rules
// with a code do not get rule_name: engines that do not know the key
// complain about it (Rapfi prints "ERROR Unknown command: FREESTYLE"), and
// c-gomoku-cli never sends it. An event that wants it anyway gives it as
// one of an engine's INFO options.
func RuleInfos(r rules.Rule) []Info {
	infos := []Info{{KeyRule, strconv.Itoa(r.Code())}, {KeyGameType, "2"}}
	if !gomocupCoded[r.Name()] {
		infos = append(infos, Info{KeyRuleName, r.Name()})
	}
	return infos
}

// gomocupCoded is the rules that a Gomocup rule code names on its own.
var gomocupCoded = map[string]bool{"freestyle": true, "standard": true, "renju": true, "caro": true, "caro-exact": true}

// GameInfos are the lines an engine is told before every game, in the order
// they are sent: its time control, the rule, its working folder (an
// absolute path, for persistent files; left out when empty), then extra
// (the entrant's limits and options). Each key is told once (Once): an
// entrant's own value replaces the arena's (info timeout_turn = "1500"
// replaces the clock's), and a later line of extra an earlier one.
func GameInfos(c clock.Control, r rules.Rule, folder string, extra []Info) []Info {
	infos := append(ClockInfos(c), RuleInfos(r)...)
	if folder != "" {
		infos = append(infos, Folder(folder))
	}
	return Once(append(infos, extra...))
}

// Once is infos with each key told once: where a key comes again, its
// last value takes the place of its first line. An engine told a key twice
// may act on the first value before the second arrives (Rapfi sizes its
// hash to the first max_memory, and its peak stays there), so a default
// and the value that replaces it are never both sent. Keys are compared
// as engines read them, without regard to case.
func Once(infos []Info) []Info {
	first := map[string]int{}
	out := make([]Info, 0, len(infos))
	for _, in := range infos {
		k := strings.ToLower(in.Key)
		if i, seen := first[k]; seen {
			out[i].Value = in.Value
			continue
		}
		first[k] = len(out)
		out = append(out, in)
	}
	return out
}

// Folder names the engine's working folder, for its persistent files.
func Folder(dir string) Info { return Info{KeyFolder, dir} }

// MaxMemory is the memory limit in bytes.
func MaxMemory(bytes int64) Info { return Info{KeyMaxMemory, strconv.FormatInt(bytes, 10)} }

// ThreadNum is the number of threads the engine may use.
func ThreadNum(n int64) Info { return Info{KeyThreadNum, strconv.FormatInt(n, 10)} }

// MaxDepth limits the engine's search depth.
func MaxDepth(n int64) Info { return Info{KeyMaxDepth, strconv.FormatInt(n, 10)} }

// MaxNode limits the nodes the engine searches.
func MaxNode(n int64) Info { return Info{KeyMaxNode, strconv.FormatInt(n, 10)} }

// Line is the line that tells in, as the engine writes it: "INFO key
// value\n", a line break inside the key or value made a space.
func (in Info) Line() string { return string(appendInfo(nil, in)) }

// ParseInfo reads an INFO line as Line writes it ("INFO key value", the
// line break left off or not); ok is false for any other line. The relay
// of a remote entrant reads the arbiter's lines so.
func ParseInfo(line string) (in Info, ok bool) {
	f := strings.Fields(line)
	if len(f) != 3 || f[0] != "INFO" {
		return Info{}, false
	}
	return Info{f[1], f[2]}, true
}

// TimeLeftLess is a time_left line in with d, the time that ran since it
// was written, taken off (at least 0); the untimed value, and any other
// line, as it is.
func TimeLeftLess(in Info, d time.Duration) Info {
	if in.Key != KeyTimeLeft {
		return in
	}
	left, err := strconv.ParseInt(in.Value, 10, 64)
	if err != nil || left >= unlimited {
		return in
	}
	return Info{KeyTimeLeft, strconv.FormatInt(max(0, left-d.Milliseconds()), 10)}
}

// RefusesExtension reports whether note (an engine's line as Reply.Notes
// keeps it: "ERROR Unknown command: OUTER-OPEN") is an engine refusing one
// of the arena's extension INFO keys (rule_name) that rule sends (RuleInfos):
// an ERROR or UNKNOWN line naming the key or the value it was sent. Such a
// refusal is the engine not knowing an extension, not an error of the game:
// the record keeps it, the hall screen does not show it.
func RefusesExtension(note string, r rules.Rule) bool {
	kind, text, _ := strings.Cut(note, " ")
	if kind != "ERROR" && kind != "UNKNOWN" {
		return false
	}
	for _, in := range RuleInfos(r) {
		if in.Key != KeyRuleName {
			continue
		}
		for _, w := range []string{in.Key, in.Value} {
			if namesCommand(text, []byte(w)) {
				return true
			}
		}
	}
	return false
}

// Extensions are the arena's extension INFO keys an entrant refused
// (RefusedExtension): after one refusal, seen by arena check or in a game,
// the key is not sent to that entrant again. Safe for concurrent use; the
// nil set refuses nothing.
type Extensions struct {
	mu   sync.Mutex
	keys map[string]bool
}

// Refuse records that the entrant refused key, and reports whether it is
// new; the nil set keeps nothing.
func (x *Extensions) Refuse(key string) bool {
	if x == nil {
		return false
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.keys[key] {
		return false
	}
	if x.keys == nil {
		x.keys = map[string]bool{}
	}
	x.keys[key] = true
	return true
}

// Filter is infos without the lines of the keys refused.
func (x *Extensions) Filter(infos []Info) []Info {
	if x == nil {
		return infos
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if len(x.keys) == 0 {
		return infos
	}
	out := make([]Info, 0, len(infos))
	for _, in := range infos {
		if !x.keys[in.Key] {
			out = append(out, in)
		}
	}
	return out
}

// RefusedExtension is the extension key (rule_name) that note refuses, as
// RefusesExtension reads it.
func RefusedExtension(note string, r rules.Rule) (string, bool) {
	if RefusesExtension(note, r) {
		return KeyRuleName, true
	}
	return "", false
}
