package rules

import (
	"fmt"
	"strings"
)

// Procedure is how the opening of a game is made: by the arbiter (the
// event's opening stones, if any) or by the players under an opening
// procedure's protocol. The zero value is NoProcedure.
type Procedure uint8

const (
	NoProcedure    Procedure = iota // the opening stones, if any, are placed by the arbiter
	Swap2Procedure                  // Swap2 (swap2.go), through the protocol's SWAP2BOARD
	RIFProcedure                    // the RIF renju opening (rif.go), through the RIF extension
)

// procedureNames are the names configs and flags use.
var procedureNames = [...]string{NoProcedure: "none", Swap2Procedure: "swap2", RIFProcedure: "rif"}

// ProcedureNames lists the names ParseProcedure accepts.
func ProcedureNames() []string { return procedureNames[:] }

// ParseProcedure reads a procedure's name: "none", "swap2" or "rif".
func ParseProcedure(s string) (Procedure, error) {
	for p, name := range procedureNames {
		if s == name {
			return Procedure(p), nil
		}
	}
	return 0, fmt.Errorf("opening procedure %q is not one of %s", s, strings.Join(procedureNames[:], ", "))
}

func (p Procedure) String() string {
	if int(p) < len(procedureNames) {
		return procedureNames[p]
	}
	return fmt.Sprintf("Procedure(%d)", uint8(p))
}

// Check reports whether p can open games of rule on a board of the given
// size; a value that is not one of the constants is an error too.
func (p Procedure) Check(rule Rule, size int) error {
	var err error
	switch p {
	case NoProcedure:
		return nil
	case Swap2Procedure:
		_, err = NewSwap2(rule, size)
	case RIFProcedure:
		_, err = NewRIF(rule, size)
	default:
		return fmt.Errorf("opening procedure %v is not one of %s", p, strings.Join(procedureNames[:], ", "))
	}
	return err
}

// MarshalText writes the procedure's name.
func (p Procedure) MarshalText() ([]byte, error) {
	if int(p) >= len(procedureNames) {
		return nil, fmt.Errorf("opening procedure %v is not one of %s", p, strings.Join(procedureNames[:], ", "))
	}
	return []byte(p.String()), nil
}

// UnmarshalText reads a procedure's name (ParseProcedure).
func (p *Procedure) UnmarshalText(b []byte) error {
	v, err := ParseProcedure(string(b))
	if err != nil {
		return err
	}
	*p = v
	return nil
}
