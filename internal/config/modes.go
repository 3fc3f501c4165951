package config

import "gomoku-arena/internal/mode"

// The event's modes are types parsed when the file is read (their
// UnmarshalText), so that a misspelt value is an error naming the file, the
// line and the key, and code past the config sees only the constants. The
// zero value of each is its default.

// Policy is the opening policy: how an outer-open event treats Black's first stone (the
// opening_policy key).
type Policy uint8

const (
	PolicyStrict       Policy = iota // a first black stone outside the two outer rows loses
	PolicyArbiterOpens               // the arbiter places Black's first stone from the legal ones
)

var policyNames = []string{PolicyStrict: "strict", PolicyArbiterOpens: "arbiter-opens"}

// ParsePolicy reads a policy's name: "strict" or "arbiter-opens".
func ParsePolicy(s string) (Policy, error) {
	return mode.Parse[Policy]("opening policy", policyNames, s)
}

func (p Policy) String() string { return mode.Name("Policy", policyNames, p) }
func (p Policy) MarshalText() ([]byte, error) {
	return mode.Marshal("opening policy", policyNames, p)
}
func (p *Policy) UnmarshalText(b []byte) error { return unmarshalMode(ParsePolicy, p, b) }

// Sandbox is how engines are confined (the sandbox key; engine.Sandbox).
type Sandbox uint8

const (
	SandboxNone  Sandbox = iota // engines run unconfined
	SandboxBwrap                // engines run in bubblewrap; an error where it does not work
	SandboxAuto                 // bubblewrap where it works, else unconfined with a notice
)

var sandboxNames = []string{SandboxNone: "none", SandboxBwrap: "bwrap", SandboxAuto: "auto"}

// ParseSandbox reads a sandbox setting's name: "none", "bwrap" or "auto".
func ParseSandbox(s string) (Sandbox, error) { return mode.Parse[Sandbox]("sandbox", sandboxNames, s) }

func (s Sandbox) String() string                { return mode.Name("Sandbox", sandboxNames, s) }
func (s Sandbox) MarshalText() ([]byte, error)  { return mode.Marshal("sandbox", sandboxNames, s) }
func (s *Sandbox) UnmarshalText(b []byte) error { return unmarshalMode(ParseSandbox, s, b) }

func unmarshalMode[M ~uint8](parse func(string) (M, error), m *M, b []byte) error {
	v, err := parse(string(b))
	if err != nil {
		return err
	}
	*m = v
	return nil
}

// Lifetime is how long an engine process lives (the process_lifetime key;
// arbiter.Lifetime, which says what each keeps and costs).
type Lifetime uint8

const (
	LifetimeReuse Lifetime = iota // one process per entrant, RESTART between games
	LifetimePair                  // c-gomoku-cli's: a new process when a table's pair changes, START every game
	LifetimeGame                  // a new process every game
)

var lifetimeNames = []string{LifetimeReuse: "reuse", LifetimePair: "pair", LifetimeGame: "game"}

// ParseLifetime reads a process lifetime's name: "reuse", "pair" or "game".
func ParseLifetime(s string) (Lifetime, error) {
	return mode.Parse[Lifetime]("process lifetime", lifetimeNames, s)
}

func (l Lifetime) String() string { return mode.Name("Lifetime", lifetimeNames, l) }
func (l Lifetime) MarshalText() ([]byte, error) {
	return mode.Marshal("process lifetime", lifetimeNames, l)
}
func (l *Lifetime) UnmarshalText(b []byte) error { return unmarshalMode(ParseLifetime, l, b) }
