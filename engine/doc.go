// Package engine owns one engine subprocess, the protocol and every deadline;
// it is the only package that touches processes and pipes.
//
// An Engine speaks the Gomocup "pbrain" protocol (see PROTOCOL.md) to one
// program. Every call that waits takes a deadline and returns at it: a zero
// deadline is not "forever" but now + Spec.StartTimeout. A game's faults are
// data, not errors: a move request returns a Reply whose Fault says whether the
// engine timed out, exited or sent a malformed move; NewGame returns a typed
// error (*Refusal or *FaultError) so the caller can tell a refusal from a
// timeout from a crash.
//
// # Think time
//
// Reply.Elapsed is wall time from the moment the request (BEGIN, TURN x,y, or
// the whole BOARD block) has been completely written to the engine's stdin to
// the moment its move line has been read from stdout. Writing the command is
// not counted (an engine that does not read its input is caught by the write
// deadline instead), nor is process start-up: START is answered before the
// first move is requested. The same measure applies to every engine.
// Time the arbiter itself did not run (clock.Stalled: it was stopped, or the
// machine was) is left out of Elapsed and moves the deadline back: an engine
// never loses on time to a stall of the arbiter, and each stall is noted in
// the reply.
//
// # Output
//
// stdout is read by the goroutine that waits for an answer, itself: it
// reads the pipe, which is non-blocking, and only when nothing is there yet
// its thread blocks in poll(2) on the pipe (in slices, so that an exit is
// seen even when a helper holds the pipe open) and reads the line; nothing
// else is woken (stdout.go). Lines are split by a bounded line reader (LF, CR or
// CRLF; lines longer than MaxLine are truncated and the rest discarded).
// Between requests a pipe left unread for a few milliseconds is drained by
// a goroutine into a bounded queue (the oldest lines dropped), and stderr is
// drained all the time, so a flooding engine neither blocks for long on a
// full pipe nor grows the arbiter's memory.
//
// Only lines read after a command has been written can answer it: lines
// written before (kept by the drainer, or waiting in the pipe, which is read
// without waiting just before the command goes out) are reported with the
// next reply as notes ("warning: late line" for a move that arrived after
// its request was answered). Engines take their input in order, so a line
// provoked by an earlier command can still come before an answer only while
// something written earlier has had no answer (INFO lines, PLAY, a command
// that timed out); then an ERROR or UNKNOWN counts as a refusal of the
// command only when it names it, and is otherwise noted (Rapfi answers
// INFO rule_name freestyle with "ERROR Unknown command: FREESTYLE"). A late
// line of the very form of an answer (an OK, a move) cannot be told from
// one. Nothing is written to an engine between a move request and its
// answer, except PLAY to accept a SUGGEST, and the request itself again
// when the engine refused it while still busy with its previous search
// ("BAD COMMAND TURN 8,4 IN SEARCH MODE"; think time still runs from the
// first writing).
//
// An engine that is still finishing its previous answer when the next
// command comes (Rapfi clears its thinking flag after printing the move,
// and drops the first word of a command read before) shows it once: its
// ERROR or UNKNOWN names the word after the command word ("ERROR Unknown
// command: TIME_LEFT" for "INFO time_left 1234"). The command is written
// again (a move request or START at once, once the engine settled; an
// INFO line with the next request), and from then on every engine of that
// program is let settle before each command: the arbiter waits until none
// of its threads is runnable, for at most 2 ms of its processor time
// (settle.go), outside the think time. Under freeze_idle every engine is
// settled, since a freeze can land inside that window. A settle is one
// look at a bounded number of threads, with no sleep when none runs; no
// other engine pays for it.
//
// A RESTART not answered OK — UNKNOWN or ERROR, whatever it names,
// silence, an exit — starts the engine afresh, uncharged, with the whole
// start time for the new process.
//
// # Processes
//
// Each engine runs in its own process group with Pdeathsig SIGKILL, so the
// kernel kills the engine if the arbiter's thread dies. Kill and Close signal
// the whole group, so helper processes an engine spawned die with it, and
// always reap. The first Start makes the arbiter a child subreaper
// (PR_SET_CHILD_SUBREAPER): orphaned grandchildren are re-parented to the
// arbiter instead of PID 1 (which in containers often never reaps them), and
// Kill/Close reap the group's zombies. A Program (program.go) is a program
// started the same way for a caller that speaks to it itself: `arena
// connect` runs an entrant's engine so, and relays its lines.
//
// Each engine also runs as process 1 of its own PID namespace where the
// kernel allows, so when the engine dies — killed by Close, or by Pdeathsig
// because the arbiter itself was killed — the kernel kills every process it
// started, even ones that left its group with setsid. As root (CAP_SYS_ADMIN)
// that is a plain PID namespace. An ordinary user gets one inside a new user
// namespace that maps only the user's own uid and gid to themselves, where
// the kernel lets ordinary users make them (user.max_user_namespaces above 0;
// kernel.unprivileged_userns_clone = 1 on Debian kernels that have it; no
// AppArmor, SELinux or seccomp rule against it, as Ubuntu 24.04's
// kernel.apparmor_restrict_unprivileged_userns or a container's default
// seccomp profile may impose). The engine keeps the arbiter's uid and gid and
// has no capabilities (it runs as a non-zero uid), so the arbiter measures
// (/proc), freezes, limits (prlimit) and kills it as it would without the
// namespace, and bubblewrap, which makes its own user namespace when it is
// not setuid, nests inside it. One difference: RLIMIT_NPROC (the process
// limit where no pids cgroup can be made) counts only the processes inside
// the engine's user namespace, so against a limit set as the user's count
// plus Limits.Processes the engine may make as many more processes as the
// user already runs. Files whose owner is not the arbiter's user show as
// owned by nobody inside; access is unchanged. Where neither
// namespace can be made, engines run without one (chosen at the first
// start and remembered), and an engine's helpers outlive a killed arbiter.
// Linux only.
package engine
