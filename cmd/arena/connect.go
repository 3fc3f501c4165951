package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"sort"
	"strings"
	"syscall"

	"gomoku-arena/internal/config"
	"gomoku-arena/remote"
)

func runConnect(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("connect", "[flags] URL -- ENGINE [ARGS...]",
		"Plays a remote entrant's games from this machine: connects to the event's server (TLS, the\n"+
			"token the organizer gave), starts ENGINE here for every game and relays the Gomocup protocol.\n"+
			"The arbiter keeps the clocks: think time is measured at the server and includes the network.\n"+
			"A lost connection is retried with backoff; the engine is restarted and resynced on return.", stdout)
	token := fs.String("token", "", "the entrant's token (or -token-file, which other users cannot see in ps)")
	tokenFile := fs.String("token-file", "", "a file holding the token")
	fp := fs.String("fingerprint", "", "the server certificate's SHA-256, as the event prints it (pins it)")
	entrant := fs.String("entrant", "", "refuse unless the token plays for this entrant")
	if err := parse(fs, args); err != nil {
		return err
	}
	rest := fs.Args()
	if len(rest) < 2 {
		return fmt.Errorf("%w: want URL -- ENGINE [ARGS...]", errUsage)
	}
	u, eng := rest[0], rest[1:]
	if eng[0] == "--" {
		eng = eng[1:]
	}
	if len(eng) == 0 {
		return fmt.Errorf("%w: no engine after --", errUsage)
	}
	if _, err := exec.LookPath(eng[0]); err != nil { // before any game depends on it
		return fmt.Errorf("engine: %w", err)
	}
	if *tokenFile != "" {
		b, err := os.ReadFile(*tokenFile)
		if err != nil {
			return err
		}
		*token = strings.TrimSpace(string(b))
	}
	if *token == "" {
		return fmt.Errorf("%w: -token or -token-file is required", errUsage)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	c := &remote.Client{URL: u, Token: *token, Fingerprint: *fp, Entrant: *entrant, Engine: eng, Log: stderr}
	err := c.Run(ctx)
	if ctx.Err() != nil {
		return nil
	}
	return err
}

func runTokens(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("tokens", "[flags] EVENT.toml",
		"Gives every remote entrant of the event a token, printed once (the event folder keeps only a\n"+
			"hash), and prints the server certificate's fingerprint, which clients pin. Entrants that\n"+
			"have a token keep it; -renew replaces one, -revoke removes one (a running event refuses it\n"+
			"and ends its session within a second).", stdout)
	renew := fs.String("renew", "", "replace this entrant's token")
	revoke := fs.String("revoke", "", "revoke this entrant's token")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%w: want one EVENT.toml, got %d arguments", errUsage, fs.NArg())
	}
	cfg, err := config.Load(fs.Arg(0))
	if err != nil {
		return err
	}
	names := cfg.RemoteNames()
	if len(names) == 0 {
		return fmt.Errorf("%s has no remote engine (remote = true)", cfg.File)
	}
	folder := cfg.OutputDir()
	for _, n := range []string{*renew, *revoke} {
		if n != "" && !isOneOf(names, n) {
			return fmt.Errorf("%q is not a remote engine of %s", n, cfg.File)
		}
	}
	if *revoke != "" {
		if err := remote.RevokeToken(folder, *revoke); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "revoked the token of %s\n", *revoke)
		return nil
	}
	var renewList []string
	if *renew != "" {
		renewList = []string{*renew}
	}
	fresh, err := remote.IssueTokens(folder, names, renewList...)
	if err != nil {
		return err
	}
	keys := make([]string, 0, len(fresh))
	for n := range fresh {
		keys = append(keys, n)
	}
	sort.Strings(keys)
	for _, n := range keys {
		fmt.Fprintf(stdout, "token %s %s\n", n, fresh[n])
	}
	if len(fresh) == 0 {
		fmt.Fprintln(stdout, "every remote entrant has a token (-renew NAME replaces one)")
	}
	_, fp, err := remote.Certificate(folder, cfg.Resolve(cfg.Remote.Cert), cfg.Resolve(cfg.Remote.Key))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "fingerprint %s\n", fp)
	return nil
}

func isOneOf(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
