package brains

import (
	"fmt"
	"io"
	"math/rand"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"gomoku-arena/rules"
)

// engine chooses moves. The session has already found the immediate wins and
// the opponent's immediate wins (r.wins, r.threats); an engine only decides.
type engine interface {
	about() string
	move(r *root, lim limits) (rules.Point, bool)
}

// limits is how much an engine may spend on one move. Zero depth or nodes
// means no limit; the budget always applies.
type limits struct {
	start  time.Time
	budget time.Duration
	depth  int
	nodes  int64
}

// settings are the key=value arguments after the engine name.
type settings struct {
	seed   int64
	depth  int
	nodes  int64
	timeMS int64 // fixed time per move, overriding the clock
}

var makers = map[string]func(settings) engine{
	"random": func(s settings) engine { return &randomEngine{rng: rand.New(rand.NewSource(s.seed))} },
	"greedy": func(settings) engine { return greedyEngine{} },
	"search": func(settings) engine { return newSearchEngine() },
}

// Names lists the bundled engines, sorted.
func Names() []string {
	var names []string
	for n := range makers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Main runs the engine args[0] (with optional key=value settings: seed,
// depth, nodes, time in ms per move) on the pbrain protocol until END or the
// end of stdin. It returns the process exit code: 0 after END or EOF, 2 for
// an unknown engine or a bad setting, 1 if reading stdin fails.
func Main(args []string, stdin io.Reader, stdout io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintf(os.Stderr, "brains: name an engine: %s\n", strings.Join(Names(), ", "))
		return 2
	}
	mk, ok := makers[args[0]]
	if !ok {
		fmt.Fprintf(os.Stderr, "brains: unknown engine %q (known: %s)\n", args[0], strings.Join(Names(), ", "))
		return 2
	}
	set, err := parseSettings(args[1:])
	if err != nil {
		fmt.Fprintf(os.Stderr, "brains: engine %s: %v\n", args[0], err)
		return 2
	}
	return newSession(mk(set), set, stdin, stdout).run()
}

func parseSettings(args []string) (settings, error) {
	s := settings{seed: time.Now().UnixNano()}
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok {
			return s, fmt.Errorf("setting %q: want key=value", a)
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return s, fmt.Errorf("setting %q: want a non-negative integer", a)
		}
		switch k {
		case "seed":
			s.seed = n
		case "depth":
			s.depth = int(n)
		case "nodes":
			s.nodes = n
		case "time":
			s.timeMS = n
		default:
			return s, fmt.Errorf("unknown setting %q (known: seed, depth, nodes, time)", k)
		}
	}
	return s, nil
}

func aboutLine(name string) string {
	return fmt.Sprintf(`name="%s", version="1.0", author="gomoku-arena", country="-"`, name)
}
