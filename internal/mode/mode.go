// Package mode reads and writes the small enumerations that configs and
// flags name by word (an opening order, a sandbox setting): a mode is the
// index of its name in a list, so a misspelt word is an error naming the
// words there are, never a guess.
package mode

import (
	"fmt"
	"slices"
	"strings"
)

// Parse finds s among names; the index is the mode. what names the setting
// in the error.
func Parse[M ~uint8](what string, names []string, s string) (M, error) {
	if i := slices.Index(names, s); i >= 0 {
		return M(i), nil
	}
	return 0, fmt.Errorf("%s %q is not one of %s", what, s, strings.Join(names, ", "))
}

// Name is m's name, or Type(N) for a value that is not one.
func Name[M ~uint8](typ string, names []string, m M) string {
	if int(m) < len(names) {
		return names[m]
	}
	return fmt.Sprintf("%s(%d)", typ, uint8(m))
}

// Marshal is m's name as text, refusing a value that has none.
func Marshal[M ~uint8](what string, names []string, m M) ([]byte, error) {
	if int(m) >= len(names) {
		return nil, fmt.Errorf("%s %d is not one of %s", what, uint8(m), strings.Join(names, ", "))
	}
	return []byte(names[m]), nil
}
