package rules

import (
	"strings"
	"testing"
)

func TestProcedureNames(t *testing.T) {
	for _, name := range ProcedureNames() {
		p, err := ParseProcedure(name)
		if err != nil || p.String() != name {
			t.Errorf("%q: %v, %v", name, p, err)
		}
		var q Procedure
		if b, err := p.MarshalText(); err != nil || q.UnmarshalText(b) != nil || q != p {
			t.Errorf("%q: text round trip gives %v (%v)", name, q, err)
		}
	}
	for _, bad := range []string{"", "None", "swap", "swap2 ", "RIF"} {
		if _, err := ParseProcedure(bad); err == nil || !strings.Contains(err.Error(), "none, swap2, rif") {
			t.Errorf("%q: err = %v", bad, err)
		}
	}
}

func TestProcedureCheck(t *testing.T) {
	renju, err := ByName("renju")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		p    Procedure
		size int
		want string // "" for no error
	}{
		{NoProcedure, 15, ""},
		{Swap2Procedure, 15, ""},
		{Swap2Procedure, 3, "out of range"},
		{RIFProcedure, 15, ""},
		{RIFProcedure, 14, "odd board"},
		{RIFProcedure, 5, "odd board"},
		{Procedure(7), 15, "Procedure(7) is not one of"},
	} {
		err := c.p.Check(renju, c.size)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%v on %d: err = %v, want %q", c.p, c.size, err, c.want)
		}
	}
	if _, err := Procedure(9).MarshalText(); err == nil {
		t.Error("an unknown procedure was written as text")
	}
}
