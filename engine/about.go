package engine

import (
	"fmt"
	"strings"
	"time"
)

// About is an engine's answer to ABOUT.
type About struct {
	Name, Version, Author, Country string
	// Fields holds every key="value" pair, including others engines send
	// (www, email); nil for free text.
	Fields map[string]string
	Raw    string // the line as sent, bounded
}

// ParseAbout reads `name="..", version="..", author="..", country=".."`.
// Keys are case-insensitive and may come in any order; old engines answer
// free text, which is kept only in Raw.
func ParseAbout(line string) About {
	a := About{Raw: clip(strings.TrimSpace(line), maxNoteLen)}
	s := line
	for {
		eq := strings.IndexByte(s, '=')
		if eq < 0 {
			break
		}
		key := strings.ToLower(strings.TrimSpace(s[:eq]))
		if i := strings.LastIndexAny(key, ", \t"); i >= 0 {
			key = key[i+1:]
		}
		rest := strings.TrimLeft(s[eq+1:], " \t")
		var val string
		if strings.HasPrefix(rest, `"`) {
			end := strings.IndexByte(rest[1:], '"')
			if end < 0 {
				val, s = rest[1:], ""
			} else {
				val, s = rest[1:1+end], rest[2+end:]
			}
		} else { // unquoted: up to the next comma
			end := strings.IndexByte(rest, ',')
			if end < 0 {
				end = len(rest)
			}
			val, s = strings.TrimSpace(rest[:end]), rest[end:]
		}
		if key == "" {
			continue
		}
		if a.Fields == nil {
			a.Fields = make(map[string]string)
		}
		a.Fields[key] = clip(val, maxNoteLen)
	}
	a.Name, a.Version = a.Fields["name"], a.Fields["version"]
	a.Author, a.Country = a.Fields["author"], a.Fields["country"]
	return a
}

// About asks the engine who it is. An ERROR or UNKNOWN answer is an error
// (with the line in Raw); MESSAGE and DEBUG lines before the answer are
// reported with the next reply.
func (e *Engine) About(deadline time.Time) (About, error) {
	deadline = e.orDefault(deadline)
	p := e.current()
	if p == nil {
		return About{}, &FaultError{Engine: e.name, Op: "ABOUT", Fault: FaultExit, Detail: "not running"}
	}
	x := e.exchange(p, deadline, &e.pending)
	defer x.done()
	if f, detail := x.send([]byte("ABOUT\n")); f != "" {
		return About{}, &FaultError{Engine: e.name, Op: "ABOUT", Fault: f, Detail: detail}
	}
	for {
		l, f, detail := x.next()
		if f != "" {
			return About{}, &FaultError{Engine: e.name, Op: "ABOUT", Fault: f, Detail: detail}
		}
		ln := ParseLine(l.text)
		switch {
		case ln.Kind == LineMessage || ln.Kind == LineDebug:
			x.note(ln, l)
		case ln.Kind == LineError || ln.Kind == LineUnknown:
			if !x.refuses(ln) {
				x.note(ln, l)
				continue
			}
			return About{Raw: clip(l.text, maxNoteLen)}, fmt.Errorf("engine %q: ABOUT: %s", e.name, clip(l.text, maxNoteLen))
		default:
			x.answered = true
			return ParseAbout(l.text), nil
		}
	}
}
