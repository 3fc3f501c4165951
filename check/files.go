package check

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxWalked bounds the entries of a declared folder the files check looks
// at for links, so that a package of millions of files costs a bounded
// walk; past it the finding says how far it looked.
const maxWalked = 100000

// filesFinding shows where each file the engine's author declared (the
// sandbox shows them read-only, engine.Sandbox.Show) resolves to, and
// warns of a declared path that is a link, or a link inside a declared
// folder whose target lies outside it: through it the engine reads a
// folder nobody declared.
func (c *checker) filesFinding() {
	sb := c.ent.Spec.Sandbox
	switch {
	case sb == nil:
		c.add("files", Pass, "not sandboxed: the engine reads what its user may", "")
		return
	case len(sb.Show) == 0:
		c.add("files", Pass, "no declared files", "")
		return
	}
	// One finding, every declared path in it, passes included: the
	// resolved paths are what the organizer reads here.
	var seen []string
	verdict, remedy := Pass, ""
	note := func(v Verdict, line, fix string) {
		seen = append(seen, line)
		if rank[v] > rank[verdict] {
			verdict = v
		}
		if fix != "" && remedy == "" {
			remedy = fix
		}
	}
	for _, p := range sb.Show {
		abs, err := filepath.Abs(p)
		if err != nil {
			abs = p
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			note(Fail, fmt.Sprintf("declared %s: %v", p, err), "declare files that exist beside the program")
			continue
		}
		if real != abs {
			note(Warn, fmt.Sprintf("declared %s is a link: it resolves to %s", p, real),
				"declare the target itself, so the config says what the engine is shown")
		} else {
			note(Pass, fmt.Sprintf("declared %s resolves to %s", p, real), "")
		}
		out, walked, err := linksOut(real)
		if err != nil {
			note(Warn, fmt.Sprintf("declared %s: %v", p, err), "")
		}
		for _, l := range out {
			note(Warn, fmt.Sprintf("declared %s holds the link %s, which resolves to %s, outside it", p, l[0], l[1]),
				"replace a link by what it names, or declare its target: a link widens what the engine is shown")
		}
		if walked > maxWalked {
			note(Warn, fmt.Sprintf("declared %s holds more than %d entries: only the first were looked at for links", p, maxWalked), "")
		}
	}
	c.add("files", verdict, strings.Join(seen, "; "), remedy)
}

// linksOut lists the links under folder dir (none when dir is a file)
// whose targets resolve outside it, as [link, target], walking at most
// maxWalked entries without following links.
func linksOut(dir string) (out [][2]string, walked int, err error) {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, 0, err
	}
	stop := fmt.Errorf("walked %d entries", maxWalked)
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable entry is the engine's problem too; not a link out
		}
		if walked++; walked > maxWalked {
			return stop
		}
		if d.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		target, err := filepath.EvalSymlinks(path)
		if err != nil {
			target = "a missing file (" + err.Error() + ")"
		} else if target == dir || strings.HasPrefix(target, dir+string(filepath.Separator)) {
			return nil
		}
		out = append(out, [2]string{path, target})
		return nil
	})
	if err == stop {
		err = nil
	}
	return out, walked, err
}
