package engine

// Program is the file spec runs and its arguments, found as Start finds
// them (a builtin is this executable; a relative path is the arbiter's;
// a bare name is looked up in $PATH), without starting it.
func (s Spec) Program() (path string, args []string, err error) {
	e := &Engine{spec: s}
	if err := e.resolve(); err != nil {
		return "", nil, err
	}
	return e.path, e.args, nil
}
