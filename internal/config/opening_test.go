package config

import (
	"strings"
	"testing"

	"gomoku-arena/rules"
)

// The modes are read into their types, a misspelt one refused with the line
// and the key; the defaults are the types' zero values.
func TestOpeningProcedureKeys(t *testing.T) {
	ev, err := Parse("t.toml", []byte(good))
	if err != nil || ev.OpeningProcedure != rules.NoProcedure || ev.OpeningPolicy != PolicyStrict || ev.Sandbox != SandboxNone {
		t.Fatalf("default procedure %q, %v", ev.OpeningProcedure, err)
	}
	src := strings.Replace(good, `format = "auto"`, "format = \"auto\"\nopening_procedure = \"swap2\"", 1)
	src = strings.Replace(src, `command = "builtin:greedy"`, "command = \"builtin:greedy\"\nswap2_colors = true", 1)
	ev, err = Parse("t.toml", []byte(src))
	if err != nil || ev.OpeningProcedure != rules.Swap2Procedure || !ev.Engines[0].Swap2Colors || ev.Engines[1].Swap2Colors {
		t.Fatalf("%+v, %v", ev, err)
	}
	for _, c := range []struct{ set, want string }{
		{`opening_procedure = "swap3"`, `t.toml:4: opening_procedure: opening procedure "swap3" is not one of none, swap2, rif`},
		{`opening_procedure = ""`, `t.toml:4: opening_procedure: opening procedure "" is not one of none, swap2, rif`},
		{`opening_policy = "arbiter"`, `t.toml:4: opening_policy: opening policy "arbiter" is not one of strict, arbiter-opens`},
		{`sandbox = "bubblewrap"`, `t.toml:4: sandbox: sandbox "bubblewrap" is not one of none, bwrap, auto`},
		{`sandbox = 1`, `t.toml:4: sandbox:`},
		{"opening_procedure = \"rif\"\nsize = 14", "t.toml:4: opening_procedure: the RIF opening needs an odd board"},
	} {
		src := strings.Replace(good, `format = "auto"`, "format = \"auto\"\n"+c.set, 1)
		if _, err := Parse("t.toml", []byte(src)); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: %v, want %s", c.set, err, c.want)
		}
	}
}

func TestModeNames(t *testing.T) {
	for _, name := range policyNames {
		if p, err := ParsePolicy(name); err != nil || p.String() != name {
			t.Errorf("%q: %v %v", name, p, err)
		}
	}
	for _, name := range sandboxNames {
		var s Sandbox
		if err := s.UnmarshalText([]byte(name)); err != nil || s.String() != name {
			t.Errorf("%q: %v %v", name, s, err)
		}
		if b, err := s.MarshalText(); err != nil || string(b) != name {
			t.Errorf("%q: marshals as %q (%v)", name, b, err)
		}
	}
	for _, name := range lifetimeNames {
		var l Lifetime
		if err := l.UnmarshalText([]byte(name)); err != nil || l.String() != name {
			t.Errorf("%q: %v %v", name, l, err)
		}
	}
	if _, err := Sandbox(5).MarshalText(); err == nil || Sandbox(5).String() != "Sandbox(5)" {
		t.Errorf("Sandbox(5): %v, %s", err, Sandbox(5))
	}
}
