package config

import (
	"gomoku-arena/arbiter"
	"strings"
	"testing"
)

func TestOpeningProcedureKeys(t *testing.T) {
	ev, err := Parse("t.toml", []byte(good))
	if err != nil || ev.OpeningProcedure != arbiter.ProcedureNone {
		t.Fatalf("default procedure %q, %v", ev.OpeningProcedure, err)
	}
	src := strings.Replace(good, `format = "auto"`, "format = \"auto\"\nopening_procedure = \"swap2\"", 1)
	src = strings.Replace(src, `command = "builtin:greedy"`, "command = \"builtin:greedy\"\nswap2_colors = true", 1)
	ev, err = Parse("t.toml", []byte(src))
	if err != nil || ev.OpeningProcedure != arbiter.ProcedureSwap2 || !ev.Engines[0].Swap2Colors || ev.Engines[1].Swap2Colors {
		t.Fatalf("%+v, %v", ev, err)
	}
	for _, c := range []struct{ set, want string }{
		{`opening_procedure = "swap3"`, `t.toml:4: opening_procedure: "swap3" is not one of none, swap2, rif`},
		{"opening_procedure = \"rif\"\nsize = 14", "t.toml:4: opening_procedure: the RIF opening needs an odd board"},
	} {
		src := strings.Replace(good, `format = "auto"`, "format = \"auto\"\n"+c.set, 1)
		if _, err := Parse("t.toml", []byte(src)); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: %v, want %s", c.set, err, c.want)
		}
	}
}
