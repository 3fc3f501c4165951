package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"gomoku-arena/results/journal"
	"gomoku-arena/results/record"
)

// Remote entrants end to end, over loopback, with real processes: the
// arena serving the event, `arena connect` clients (this test binary as
// the arena command) and their engines (this binary as the bundled ones).

// freeAddr is a loopback address no one listens on now.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// writeRemoteEvent writes an event between the remote entrant "far" and
// the local engines given as TOML tables.
func writeRemoteEvent(t *testing.T, dir, addr, settings, locals string) string {
	t.Helper()
	cfg := filepath.Join(dir, "remote.toml")
	src := `name = "remote"
rule = "freestyle"
output = "out"
` + settings + `
[remote]
listen = "` + addr + `"
grace = "30s"

[[engine]]
name = "far"
remote = true
` + locals
	if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// tokenOf runs arena tokens: far's token and the certificate's fingerprint.
func tokenOf(t *testing.T, cfg string) (token, fp string) {
	t.Helper()
	out, errOut, code := runArena(t, "tokens", cfg)
	if code != 0 {
		t.Fatalf("arena tokens: exit %d\n%s", code, errOut)
	}
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) == 3 && f[0] == "token" && f[1] == "far":
			token = f[2]
		case len(f) == 2 && f[0] == "fingerprint":
			fp = f[1]
		}
	}
	if token == "" || fp == "" {
		t.Fatalf("arena tokens printed\n%s", out)
	}
	return token, fp
}

// client is an `arena connect` process and what it printed.
type client struct {
	cmd *exec.Cmd
	mu  sync.Mutex
	log strings.Builder
	con chan struct{} // closed when it says it is connected
	eof chan struct{} // closed when its stderr is read to the end
}

// wait waits for the client to end, its output read.
func (c *client) wait() error {
	<-c.eof
	return c.cmd.Wait()
}

func startClient(t *testing.T, addr, token, fp string, engine ...string) *client {
	t.Helper()
	args := append([]string{"connect", "-token", token, "-fingerprint", fp, "https://" + addr, "--", os.Args[0], "engine"}, engine...)
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "ARENA_TEST_MAIN=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &client{cmd: cmd, con: make(chan struct{}), eof: make(chan struct{})}
	go func() {
		defer close(c.eof)
		r := bufio.NewReader(stderr)
		once := sync.Once{}
		for {
			l, err := r.ReadString('\n')
			c.mu.Lock()
			c.log.WriteString(l)
			c.mu.Unlock()
			if strings.Contains(l, "connected to") {
				once.Do(func() { close(c.con) })
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { c.kill() })
	return c
}

func (c *client) kill() {
	c.cmd.Process.Signal(syscall.SIGKILL)
	c.cmd.Wait()
}

func (c *client) output() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.log.String()
}

func (c *client) waitConnected(t *testing.T) {
	t.Helper()
	select {
	case <-c.con:
	case <-time.After(30 * time.Second):
		t.Fatalf("the client never connected:\n%s", c.output())
	}
}

// runBackground runs the event in this process and returns a channel with
// its exit code and output.
func runBackground(t *testing.T, cfg string) chan string {
	done := make(chan string, 1)
	go func() {
		out, errOut, code := runArena(t, "run", "-quiet", cfg)
		done <- fmt.Sprintf("exit %d\n%s\n%s", code, out, errOut)
	}()
	return done
}

func waitRun(t *testing.T, done chan string) string {
	t.Helper()
	select {
	case s := <-done:
		if !strings.HasPrefix(s, "exit 0\n") {
			t.Fatalf("arena run: %s", s)
		}
		return s
	case <-time.After(90 * time.Second):
		t.Fatal("the event did not end")
	}
	return ""
}

func readRecords(t *testing.T, dir string) []*record.Record {
	t.Helper()
	recs, err := journal.Read(filepath.Join(dir, "out", "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// A remote entrant and local ones play a whole event; the remote engine's
// records are those of a local one (same fields, ends, files), plus the
// note of the measured round trip.
func TestRemoteEntrantPlaysAnEvent(t *testing.T) {
	dir := t.TempDir()
	addr := freeAddr(t)
	cfg := writeRemoteEvent(t, dir, addr, "format = \"double-round-robin\"\n[clock]\nmatch = \"30s\"\n", `
[[engine]]
name = "greedy"
command = "builtin:greedy"

[[engine]]
name = "random"
command = "builtin:random"
`)
	token, fp := tokenOf(t, cfg)
	c := startClient(t, addr, token, fp, "greedy")
	done := runBackground(t, cfg)
	waitRun(t, done)
	var recs []*record.Record
	for _, r := range readRecords(t, dir) {
		if r.End != record.ByeEnd {
			recs = append(recs, r)
		}
	}
	if len(recs) != 6 {
		t.Fatalf("%d games journaled, want 6", len(recs))
	}
	rtt := false
	for _, r := range recs {
		if r.End.Forfeit() {
			t.Errorf("game %d (%s vs %s) forfeited: %s %s", r.Game, r.Black, r.White, r.End, r.Detail)
		}
		for _, m := range r.Messages {
			rtt = rtt || strings.Contains(m, "plays remotely, network round trip")
		}
		if r.Black == "far" && r.BlackAbout == "" || r.White == "far" && r.WhiteAbout == "" {
			t.Errorf("game %d: the remote engine's ABOUT is missing", r.Game)
		}
	}
	if !rtt {
		t.Error("no record notes the round trip")
	}
	// Identical in form: far's journal lines have the fields local greedy's
	// have against the same opponent with the same colour (the round-trip
	// note aside).
	keys := map[string]string{}
	b, _ := os.ReadFile(filepath.Join(dir, "out", "journal.jsonl"))
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		if m["end"] == "bye" {
			continue
		}
		delete(m, "messages")
		var ks []string
		for k := range m {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		keys[fmt.Sprint(m["black"], " ", m["white"])] = strings.Join(ks, " ")
	}
	for _, pair := range [][2]string{{"far random", "greedy random"}, {"random far", "random greedy"}} {
		if keys[pair[0]] == "" || keys[pair[0]] != keys[pair[1]] {
			t.Errorf("%s has fields %q, %s %q", pair[0], keys[pair[0]], pair[1], keys[pair[1]])
		}
	}
	// far played as greedy does: its games against random look like
	// greedy's own (both win them).
	for _, r := range recs {
		if (r.Black == "far" || r.White == "far") && (r.Black == "random" || r.White == "random") {
			if w := r.WinnerName(); w != "far" {
				t.Errorf("game %d: far (greedy) did not beat random: %s %s", r.Game, r.End, r.Detail)
			}
		}
	}
	// The event is over: the client says so and stops by itself.
	ended := make(chan error, 1)
	go func() { ended <- c.wait() }()
	select {
	case err := <-ended:
		if err != nil || !strings.Contains(c.output(), "the event is over") {
			t.Errorf("the client ended with %v:\n%s", err, c.output())
		}
	case <-time.After(30 * time.Second):
		t.Errorf("the client did not stop after the event:\n%s", c.output())
	}
}

// A client killed mid-game and started again within the grace period
// continues the game: no forfeit, and the record notes the reconnection.
func TestRemoteClientComesBack(t *testing.T) {
	dir := t.TempDir()
	addr := freeAddr(t)
	cfg := writeRemoteEvent(t, dir, addr, "format = \"round-robin\"\n[clock]\nmatch = \"60s\"\n", `
[[engine]]
name = "greedy"
command = "builtin:greedy"
`)
	token, fp := tokenOf(t, cfg)
	c := startClient(t, addr, token, fp, "faulty", "think=500ms")
	done := runBackground(t, cfg)
	c.waitConnected(t)
	time.Sleep(1200 * time.Millisecond)
	c.kill()
	time.Sleep(500 * time.Millisecond)
	c2 := startClient(t, addr, token, fp, "faulty", "think=500ms")
	waitRun(t, done)
	recs := readRecords(t, dir)
	if len(recs) != 1 {
		t.Fatalf("%d games, want 1", len(recs))
	}
	r := recs[0]
	if r.End.Forfeit() {
		t.Fatalf("the game was forfeited: %s %s\nclient: %s", r.End, r.Detail, c2.output())
	}
	back := false
	for _, m := range r.Messages {
		back = back || strings.Contains(m, "far reconnected")
	}
	if !back {
		t.Fatalf("the record does not note the reconnection: %q", r.Messages)
	}
}

// A client that stays away past the grace period forfeits.
func TestRemoteClientStaysAway(t *testing.T) {
	dir := t.TempDir()
	addr := freeAddr(t)
	cfg := writeRemoteEvent(t, dir, addr, "format = \"round-robin\"\n[clock]\nmatch = \"60s\"\n", `
[[engine]]
name = "greedy"
command = "builtin:greedy"
`)
	src, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, []byte(strings.Replace(string(src), `grace = "30s"`, `grace = "1s"`, 1)), 0o644)
	token, fp := tokenOf(t, cfg)
	c := startClient(t, addr, token, fp, "faulty", "think=500ms")
	done := runBackground(t, cfg)
	c.waitConnected(t)
	time.Sleep(time.Second)
	c.kill()
	waitRun(t, done)
	r := readRecords(t, dir)[0]
	if r.End != record.Disconnect || r.WinnerName() != "greedy" || !strings.Contains(strings.Join(r.Stderr, "\n"), "disconnect: far stayed away longer than 1s") {
		t.Fatalf("want far to forfeit by disconnection; got %s %q, stderr %q", r.End, r.Detail, r.Stderr)
	}
}

// A wrong token is refused, and arena connect says so and stops.
func TestRemoteWrongTokenRefused(t *testing.T) {
	dir := t.TempDir()
	addr := freeAddr(t)
	cfg := writeRemoteEvent(t, dir, addr, "format = \"round-robin\"\n", `
[[engine]]
name = "greedy"
command = "builtin:greedy"
`)
	token, fp := tokenOf(t, cfg)
	done := runBackground(t, cfg)
	c := startClient(t, addr, "wrong", fp, "greedy")
	waited := make(chan error, 1)
	go func() { waited <- c.wait() }()
	select {
	case err := <-waited:
		if err == nil || !strings.Contains(c.output(), "unknown or revoked token") {
			t.Errorf("wrong token: %v\n%s", err, c.output())
		}
	case <-time.After(30 * time.Second):
		t.Error("a client with a wrong token kept going")
	}
	// A renewed token works, the old one no longer.
	fresh := readToken(t, cfg)
	old := startClient(t, addr, token, fp, "greedy")
	if err := old.wait(); err == nil || !strings.Contains(old.output(), "unknown or revoked token") {
		t.Errorf("replaced token: %v\n%s", err, old.output())
	}
	startClient(t, addr, fresh, fp, "greedy").waitConnected(t)
	waitRun(t, done)
}

// readToken renews far's token and returns the new one.
func readToken(t *testing.T, cfg string) string {
	out, errOut, code := runArena(t, "tokens", "-renew", "far", cfg)
	if code != 0 {
		t.Fatalf("arena tokens -renew: %s", errOut)
	}
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[1] == "far" {
			return f[2]
		}
	}
	t.Fatalf("no token in %s", out)
	return ""
}

// The fault catalogue holds for a remote engine as for a local one: the
// same misbehaviour ends the game the same way (end, winner, detail, moves).
func TestRemoteFaultCatalogue(t *testing.T) {
	modes := [][]string{
		{"crash-at=3"}, {"hang-at=3"}, {"illegal-at=3"}, {"malformed-at=2"}, {"garbage"},
		{"messages=2000"}, {"long-line=3000000"}, {"stderr-flood=100000"}, {"slow-start=3s"}, {"refuse-start"},
	}
	for _, mode := range modes {
		// Only a hang is meant to end on the clock: every other mode gets a
		// clock no load can run out, so that what is compared is what the
		// engine did, not how busy the machine was.
		// Likewise only a slow start is meant to end on the start timeout:
		// a flooding engine, or one started over a busy network, answers
		// START late on a loaded machine, and 1s would make that a refusal.
		// A minute was not enough: on a 2-core machine running the suite,
		// the client draining a million stderr lines of its engine took
		// longer than that, and the remote engine lost on time.
		clock, start := "5m", "60s"
		if strings.HasPrefix(mode[0], "hang") {
			clock = "6s"
		}
		if strings.HasPrefix(mode[0], "slow-start") {
			start = "1s"
		}
		settings := "format = \"round-robin\"\nstart_timeout = \"" + start + "\"\n[clock]\nmatch = \"" + clock + "\"\ntolerance = \"500ms\"\n"
		t.Run(strings.Join(mode, " "), func(t *testing.T) {
			// Local: the same event with the faulty engine on this machine.
			local := t.TempDir()
			args := `["` + strings.Join(mode, `", "`) + `"]`
			lcfg := filepath.Join(local, "local.toml")
			os.WriteFile(lcfg, []byte("name = \"local\"\nrule = \"freestyle\"\noutput = \"out\"\n"+settings+`
[[engine]]
name = "far"
command = "builtin:faulty"
args = `+args+`

[[engine]]
name = "greedy"
command = "builtin:greedy"
`), 0o644)
			if out, errOut, code := runArena(t, "run", "-quiet", lcfg); code != 0 {
				t.Fatalf("local event: exit %d\n%s\n%s", code, out, errOut)
			}
			want := readRecords(t, local)[0]

			dir := t.TempDir()
			addr := freeAddr(t)
			cfg := writeRemoteEvent(t, dir, addr, settings, `
[[engine]]
name = "greedy"
command = "builtin:greedy"
`)
			token, fp := tokenOf(t, cfg)
			c := startClient(t, addr, token, fp, append([]string{"faulty"}, mode...)...)
			run := runBackground(t, cfg)
			waitRun(t, run)
			got := readRecords(t, dir)[0]
			sameDetail := got.Detail == want.Detail || got.End == record.Time // a time detail quotes the clock as measured
			if got.End != want.End || got.WinnerName() != want.WinnerName() || !sameDetail || len(got.Moves) != len(want.Moves) {
				t.Errorf("remote: %s %s %q after %d moves\n local: %s %s %q after %d moves\nclient: %s",
					got.End, got.WinnerName(), got.Detail, len(got.Moves), want.End, want.WinnerName(), want.Detail, len(want.Moves), c.output())
			}
		})
	}
}

// A SIGKILLed server resumes the event and the client reconnects by
// itself; the event ends with every game played and none forfeited.
func TestRemoteServerKilledAndResumed(t *testing.T) {
	dir := t.TempDir()
	addr := freeAddr(t)
	cfg := writeRemoteEvent(t, dir, addr, "format = \"double-round-robin\"\n[clock]\nmatch = \"60s\"\n", `
[[engine]]
name = "greedy"
command = "builtin:greedy"
`)
	token, fp := tokenOf(t, cfg)
	server := func() *exec.Cmd {
		cmd := exec.Command(os.Args[0], "run", "-quiet", cfg)
		cmd.Env = append(os.Environ(), "ARENA_TEST_MAIN=1")
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		return cmd
	}
	first := server()
	c := startClient(t, addr, token, fp, "faulty", "think=300ms")
	c.waitConnected(t)
	time.Sleep(1500 * time.Millisecond)
	first.Process.Signal(syscall.SIGKILL)
	first.Wait()
	second := server()
	waited := make(chan error, 1)
	go func() { waited <- second.Wait() }()
	select {
	case err := <-waited:
		if err != nil {
			t.Fatalf("the resumed event: %v\n%s", err, second.Stdout)
		}
	case <-time.After(2 * time.Minute):
		t.Fatalf("the resumed event did not end; client:\n%s", c.output())
	}
	recs := readRecords(t, dir)
	if len(recs) != 2 {
		t.Fatalf("%d games, want 2", len(recs))
	}
	for _, r := range recs {
		if r.End.Forfeit() {
			t.Errorf("game %d forfeited: %s %q", r.Game, r.End, r.Detail)
		}
	}
	if n := strings.Count(c.output(), "connected to"); n < 2 {
		t.Errorf("the client connected %d times, want a reconnection:\n%s", n, c.output())
	}
}

// A flood of connection attempts is throttled while a game runs; the
// game is played to its end without a forfeit.
func TestRemoteConnectionFloodDuringGame(t *testing.T) {
	dir := t.TempDir()
	addr := freeAddr(t)
	cfg := writeRemoteEvent(t, dir, addr, "format = \"round-robin\"\n[clock]\nmatch = \"30s\"\n", `
[[engine]]
name = "greedy"
command = "builtin:greedy"
`)
	token, fp := tokenOf(t, cfg)
	c := startClient(t, addr, token, fp, "faulty", "think=200ms")
	done := runBackground(t, cfg)
	c.waitConnected(t)
	refused := 0
	for range 300 {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			refused++
			continue
		}
		conn.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
		if _, err := conn.Read(make([]byte, 1)); err == io.EOF {
			refused++ // closed before any handshake
		}
		conn.Close()
	}
	waitRun(t, done)
	if refused < 250 {
		t.Errorf("only %d of 300 flood connections were cut", refused)
	}
	r := readRecords(t, dir)[0]
	if r.End.Forfeit() {
		t.Fatalf("the game under a connection flood was forfeited: %s %q", r.End, r.Detail)
	}
}
