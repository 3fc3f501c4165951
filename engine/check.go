package engine

import (
	"errors"
	"os"
	"strings"
)

// Check reports, before anything is played, whether spec's program can be
// started: that it exists and is an executable file. A builtin always can;
// whether its name exists is the router's business.
func Check(spec Spec) error {
	if strings.HasPrefix(spec.Command, "builtin:") {
		return nil
	}
	e := &Engine{spec: spec, name: spec.Name}
	if err := e.resolve(); err != nil {
		return startError(spec.Name, spec.Command, err)
	}
	st, err := os.Stat(e.path)
	if err != nil {
		return startError(spec.Name, spec.Command, err)
	}
	if st.IsDir() || st.Mode()&0o111 == 0 {
		return startError(spec.Name, spec.Command, errors.New("not an executable file"))
	}
	return nil
}

// BuiltinName is the bundled engine a "builtin:NAME" command names, or "".
func BuiltinName(command string) string {
	name, ok := strings.CutPrefix(command, "builtin:")
	if !ok {
		return ""
	}
	return name
}
