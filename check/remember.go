package check

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"gomoku-arena/arbiter"
	"gomoku-arena/engine"
	"gomoku-arena/internal/durable"
)

// Memory remembers reports, so that an engine checked once under some
// settings is not checked again under the same ones: a dry run followed by
// the real event, or a second event of the same programs, starts its
// first game at once. A report is keyed by the content of the program the
// entrant runs (not its path or date: a program rebuilt the same is the
// same, one changed in place is not), the content of the files and
// folders its author declared it reads (a changed config.toml or weights
// file is checked again: declaredHash), everything of the entrant the games
// and probes see (arguments, environment, clock, INFO lines, limits,
// board mode, Swap2 format, working folder), the settings (rule, size,
// opening policy and procedure, start timeout, games), and the arena
// program itself (a new arena may check differently). Reports with a fail
// are not remembered: a fail may be the machine's load, and an engine that
// fails is checked again once its settings changed or not.
//
// The reports live in a folder of the user's cache (os.UserCacheDir,
// gomoku-arena/checks: ~/.cache on Linux), not in an event's output
// folder: they are about programs, not events, so two events in two
// folders share them, and deleting them loses nothing but time.
type Memory struct {
	Dir string // "" remembers nothing
}

// DefaultMemory is the user's cache of reports; without a cache folder
// (no $HOME, no $XDG_CACHE_HOME) it remembers nothing.
func DefaultMemory() Memory {
	d, err := os.UserCacheDir()
	if err != nil {
		return Memory{}
	}
	return Memory{Dir: filepath.Join(d, "gomoku-arena", "checks")}
}

// remembered is one file of the memory.
type remembered struct {
	Checked time.Time `json:"checked"`
	Report  Report    `json:"report"`
}

// key is what a report of ent under s is remembered by; an error when the
// program cannot be read (then it is checked, and the check says why).
func key(ent arbiter.Entrant, s Settings) (string, error) {
	path, args, err := ent.Spec.Program()
	if err != nil {
		return "", err
	}
	program, err := fileHash(path)
	if err != nil {
		return "", err
	}
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	arena, err := fileHash(self)
	if err != nil {
		return "", err
	}
	declared, err := declaredHash(declaredFiles(ent.Spec))
	if err != nil {
		return "", err
	}
	procedure, _ := s.Procedure.MarshalText()
	opponent, _, _ := s.Opponent.Program()
	b, err := json.Marshal(struct {
		Arena, Program string
		Declared       string
		Args, Env      []string
		Dir            string
		Clock          any
		Infos          any
		Memory, Hard   int64
		Processes      int
		Board, Colors  bool
		Rule           string
		Size           int
		ArbiterOpens   bool
		Procedure      string
		Start          time.Duration
		Opponent       []string
		Games, Cap     int
		GameTime       time.Duration
	}{arena, program, declared, args, ent.Spec.Env, ent.Spec.Dir, ent.Clock, ent.Infos, ent.Spec.Limits.Memory, ent.Spec.Limits.HardMemory, ent.Spec.Limits.Processes,
		ent.BoardMode, ent.Swap2Colors, s.Rule.Name(), s.Size, s.ArbiterOpens, string(procedure), startTimeout(ent, s),
		append([]string{opponent}, s.Opponent.Args...), s.Games, s.MoveCap, s.GameTime})
	if err != nil {
		return "", err
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:]), nil
}

// The bounds of what declaredHash reads: past them the engine's reports
// are not remembered (it is checked every time) rather than hashing
// without end (variables for the tests).
var (
	maxDeclaredBytes   int64 = 4 << 30
	maxDeclaredEntries       = maxWalked
)

// declaredFiles are the files spec's author declared (Spec.Files), and
// those its sandbox shows that were not declared there.
func declaredFiles(spec engine.Spec) []string {
	files := slices.Clone(spec.Files)
	if spec.Sandbox != nil {
		for _, f := range spec.Sandbox.Show {
			if !slices.Contains(files, f) {
				files = append(files, f)
			}
		}
	}
	return files
}

// declaredHash is the SHA-256 of what the declared paths hold: for each,
// as declared, where it resolves, and for a file its content, for a folder
// every entry's name, type and content, walked without following a link
// (a link counts by the target it names: what it names outside the folder
// is not declared; the files check warns of it). An error, and no key, for
// a path that cannot be read or more than maxDeclaredEntries entries or
// maxDeclaredBytes bytes in all.
func declaredHash(paths []string) (string, error) {
	sum := sha256.New()
	var size int64
	entries := 0
	for _, p := range paths {
		fmt.Fprintf(sum, "declared %q\n", p)
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			// The files check fails it, and a report with a fail is not kept.
			fmt.Fprintf(sum, "unreadable\n")
			continue
		}
		fmt.Fprintf(sum, "resolves to %q\n", real)
		err = filepath.WalkDir(real, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if entries++; entries > maxDeclaredEntries {
				return fmt.Errorf("%s: more than %d entries in the declared files", p, maxDeclaredEntries)
			}
			rel, _ := filepath.Rel(real, path)
			switch t := d.Type(); {
			case t&fs.ModeSymlink != 0:
				target, err := os.Readlink(path)
				if err != nil {
					return err
				}
				fmt.Fprintf(sum, "link %q %q\n", rel, target)
			case t.IsDir():
				fmt.Fprintf(sum, "folder %q\n", rel)
			case t.IsRegular():
				info, err := d.Info()
				if err != nil {
					return err
				}
				if size += info.Size(); size > maxDeclaredBytes {
					return fmt.Errorf("%s: more than %d bytes in the declared files", p, maxDeclaredBytes)
				}
				h, err := fileHash(path)
				if err != nil {
					return err
				}
				fmt.Fprintf(sum, "file %q %s\n", rel, h)
			default:
				fmt.Fprintf(sum, "other %q %v\n", rel, t)
			}
			return nil
		})
		if err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(sum.Sum(nil)), nil
}

// fileHash is the SHA-256 of a file's content, remembered by the file's
// identity, size and time for the life of the process (the arena program
// is hashed once, not once per entrant).
func fileHash(path string) (string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	id := fmt.Sprintf("%s|%d|%d", path, st.Size(), st.ModTime().UnixNano())
	hashes.Lock()
	h, ok := hashes.m[id]
	hashes.Unlock()
	if ok {
		return h, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	sum := sha256.New()
	if _, err := io.Copy(sum, f); err != nil {
		return "", err
	}
	h = hex.EncodeToString(sum.Sum(nil))
	hashes.Lock()
	hashes.m[id] = h
	hashes.Unlock()
	return h, nil
}

var hashes = struct {
	sync.Mutex
	m map[string]string
}{m: map[string]string{}}

// recall is the report remembered for key, if any.
func (m Memory) recall(key string) (remembered, bool) {
	if m.Dir == "" || key == "" {
		return remembered{}, false
	}
	b, err := os.ReadFile(filepath.Join(m.Dir, key+".json"))
	if err != nil {
		return remembered{}, false
	}
	var r remembered
	if json.Unmarshal(b, &r) != nil || len(r.Report.Findings) != len(Names) {
		return remembered{}, false // torn or of another version: checked again
	}
	return r, true
}

// keep remembers r under key; a report with a fail is not kept. A memory
// that cannot be written is only slower next time.
func (m Memory) keep(key string, r Report) error {
	if m.Dir == "" || key == "" || r.Failed() {
		return nil
	}
	if err := os.MkdirAll(m.Dir, 0o700); err != nil {
		return err
	}
	b, err := json.MarshalIndent(remembered{Checked: time.Now().UTC(), Report: r}, "", "  ")
	if err != nil {
		return err
	}
	return durable.WriteFile(filepath.Join(m.Dir, key+".json"), b)
}
