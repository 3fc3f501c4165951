package engine

// An engine's environment is declared, never inherited: the shell that runs
// the arbiter holds the organizer's secrets (API tokens, cloud keys, the
// SSH agent's socket), and an engine can read its own environment. An
// engine gets a standard PATH, HOME and TMPDIR pointing into what it may
// use, and the KEY=VALUE pairs its Spec adds (the config's env), which win
// over these.

// systemPath is the PATH an engine starts with: the system's programs, for
// engines that are scripts or start helpers by name.
const systemPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

// Environ is the environment an engine with working directory dir and the
// extra pairs of its Spec starts with.
func Environ(dir string, extra []string) []string {
	env := []string{"PATH=" + systemPath, "HOME=" + dir, "TMPDIR=/tmp"}
	// A later pair wins over an earlier one with the same key (os/exec
	// keeps the last).
	return append(env, extra...)
}
