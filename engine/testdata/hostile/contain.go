package main

import (
	"os"
	"strings"
)

// Attacks on what an engine inherits:
//
//	env=NAME      look for NAME in its own environment, as the kernel
//	              gave it (/proc/self/environ): "MESSAGE env NAME yes|no"
//	ls=DIR        list DIR: "MESSAGE ls DIR name,name,..." (sorted; "-"
//	              when it cannot, "" when empty)
func containAttack(kind, arg string, say func(string, ...any)) {
	switch kind {
	case "env":
		b, err := os.ReadFile("/proc/self/environ")
		found := false
		for _, kv := range strings.Split(string(b), "\x00") {
			if strings.HasPrefix(kv, arg+"=") {
				found = true
			}
		}
		if err != nil {
			found = false
		}
		say("MESSAGE env %s %s", arg, map[bool]string{true: "yes", false: "no"}[found])
	case "ls":
		ents, err := os.ReadDir(arg)
		if err != nil {
			say("MESSAGE ls %s -", arg)
			return
		}
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		say("MESSAGE ls %s %s", arg, strings.Join(names, ","))
	}
}
