package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Gomocup entrants submit a folder (a zip) that may hold several builds of
// one engine, named for the rule and board size each plays:
// pbrain-NAME_freestyle-15, pbrain-NAME_renju, pbrain-NAME_20, pbrain-NAME64
// and so on. An entrant's command may name such a folder; the program is
// then chosen as the Gomocup judge (GomocupJudge, client.py) chooses it:
//
//   - the builds are the folder's executable files named pbrain-* (any
//     case); an extension (.exe) and a trailing 64-bit mark (_64, -64, 64)
//     are set aside before the name is read;
//   - a name ending _{rule}-{size} fits that rule and size, _{rule} that
//     rule, _{size} that size, where rule is freestyle, standard, renju or
//     caro (from the Gomocup rule code: 4 renju, 8 caro, 1 exact five,
//     freestyle otherwise; Outer-Open and Pente play freestyle builds) and
//     size is 15 or 20; a build for another rule or size does not fit;
//   - the best fit wins: rule and size, then rule, then size, then a build
//     that names neither; when none fits, every build counts as one that
//     names neither;
//   - among equals, a build with 64 in its name wins on a 64-bit machine
//     (one without, on a 32-bit one).
//
// Where the judge would take whichever build the folder lists first, the
// arena refuses the folder and names the builds that tie.

// gomocupRules and gomocupSizes are the names the judge reads.
var (
	gomocupRules = []string{"freestyle", "standard", "renju", "caro"}
	gomocupSizes = []string{"15", "20"}
)

// GomocupBuild is the program to run for command: command itself, unless it
// names a folder, whose build for the Gomocup rule code and board size is
// chosen as above. The error names the folder and what is wrong with it.
func GomocupBuild(command string, ruleCode, size int) (string, error) {
	if command == "" || strings.HasPrefix(command, "builtin:") {
		return command, nil
	}
	st, err := os.Stat(command)
	if err != nil || !st.IsDir() {
		return command, nil // a program (or a missing one: Check says so)
	}
	entries, err := os.ReadDir(command)
	if err != nil {
		return "", fmt.Errorf("folder %s: %w", command, err)
	}
	var builds []string
	for _, de := range entries {
		name := de.Name()
		if !strings.HasPrefix(strings.ToLower(name), "pbrain-") {
			continue
		}
		if fi, err := os.Stat(filepath.Join(command, name)); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			builds = append(builds, name)
		}
	}
	if len(builds) == 0 {
		return "", fmt.Errorf("folder %s holds no pbrain-* program (an executable file named pbrain-NAME)", command)
	}
	sort.Strings(builds)
	best := chooseBuilds(builds, gomocupRuleName(ruleCode), strconv.Itoa(size), strconv.IntSize == 64)
	if len(best) > 1 {
		return "", fmt.Errorf("folder %s: %s fit rule %s and size %d equally; keep one, or name the program itself",
			command, strings.Join(best, " and "), gomocupRuleName(ruleCode), size)
	}
	return filepath.Join(command, best[0]), nil
}

// gomocupRuleName is the judge's name for a Gomocup rule code.
func gomocupRuleName(code int) string {
	switch {
	case code&4 != 0:
		return "renju"
	case code&8 != 0:
		return "caro"
	case code&1 != 0:
		return "standard"
	}
	return "freestyle"
}

// chooseBuilds returns the builds that fit rule and size best (one, or
// several that tie).
func chooseBuilds(builds []string, rule, size string, is64 bool) []string {
	type scored struct {
		name        string
		compat      int
		archMatches bool
	}
	var all []scored
	best := 0
	for _, b := range builds {
		c := buildFit(b, rule, size)
		all = append(all, scored{b, c, strings.Contains(b, "64") == is64})
		best = max(best, c)
	}
	if best == 0 { // nothing fits: all count as builds that name neither
		for i := range all {
			all[i].compat = 1
		}
		best = 1
	}
	var top []scored
	for _, s := range all {
		if s.compat == best {
			top = append(top, s)
		}
	}
	var out []string
	arch := false
	for _, s := range top {
		arch = arch || s.archMatches
	}
	for _, s := range top {
		if s.archMatches == arch {
			out = append(out, s.name)
		}
	}
	return out
}

// buildFit is how well a build's name fits: 4 rule and size, 3 rule, 2
// size, 1 neither named, 0 another rule or size.
func buildFit(name, rule, size string) int {
	base := strings.ToLower(strings.TrimSuffix(name, filepath.Ext(name)))
	for _, mark := range []string{"_64", "-64", "64"} {
		if b, ok := strings.CutSuffix(base, mark); ok {
			base = b
			break
		}
	}
	fileRule, fileSize := "", ""
	for _, r := range gomocupRules {
		for _, s := range gomocupSizes {
			if strings.HasSuffix(base, "_"+r+"-"+s) {
				fileRule, fileSize = r, s
			}
		}
	}
	if fileRule == "" {
		for _, r := range gomocupRules {
			if strings.HasSuffix(base, "_"+r) {
				fileRule = r
			}
		}
	}
	if fileRule == "" {
		for _, s := range gomocupSizes {
			if strings.HasSuffix(base, "_"+s) {
				fileSize = s
			}
		}
	}
	switch {
	case fileRule != "" && fileRule != rule, fileSize != "" && fileSize != size:
		return 0
	case fileRule != "" && fileSize != "":
		return 4
	case fileRule != "":
		return 3
	case fileSize != "":
		return 2
	}
	return 1
}
