package config

import (
	"strings"
	"testing"
	"time"
)

const remoteEvent = `name = "t"
%s
[[engine]]
name = "far"
remote = true
%s
[[engine]]
name = "b"
command = "builtin:random"
`

func TestRemoteKeys(t *testing.T) {
	cfg := func(event, far string) string {
		return strings.Replace(strings.Replace(remoteEvent, "%s", event, 1), "%s", far, 1)
	}
	ev, err := Parse("t.toml", []byte(cfg("", "")))
	if err != nil {
		t.Fatal(err)
	}
	if got := ev.RemoteNames(); len(got) != 1 || got[0] != "far" {
		t.Fatalf("remote names %q", got)
	}
	r := ev.Remote
	if r.Listen != DefaultListen || r.GracePeriod() != 5*time.Minute || r.Disconnects() != 3 || r.Allowance != nil {
		t.Fatalf("defaults: %+v grace %v disconnects %d", r, r.GracePeriod(), r.Disconnects())
	}
	ev, err = Parse("t.toml", []byte(cfg("[remote]\nlisten = \"127.0.0.1:9000\"\ngrace = \"30s\"\nmax_disconnects = 0\nnetwork_allowance = \"200ms\"\n", "")))
	if err != nil {
		t.Fatal(err)
	}
	if r := ev.Remote; r.Listen != "127.0.0.1:9000" || r.GracePeriod() != 30*time.Second || r.Disconnects() != 0 || r.Allowance.Duration != 200*time.Millisecond {
		t.Fatalf("set: %+v", r)
	}
	for _, c := range []struct{ event, far, want string }{
		{"", `command = "builtin:greedy"`, `t.toml:6: engine[0].command: engine "far": a remote engine runs on its entrant's machine`},
		{"", `args = ["x"]`, `engine[0].command: engine "far": a remote engine`},
		{"[remote]\ncert = \"c.pem\"\n", "", `t.toml:3: remote.cert: cert and key go together`},
		{"[remote]\ngrace = \"-1s\"\n", "", `t.toml:3: remote.grace: negative duration -1s`},
		{"[remote]\nmax_disconnects = -1\n", "", `t.toml:3: remote.max_disconnects: must not be negative`},
		{"[remote]\nport = 1\n", "", `remote.port: unknown key`},
	} {
		_, err := Parse("t.toml", []byte(cfg(c.event, c.far)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q %q: %v, want %q", c.event, c.far, err, c.want)
		}
	}
}
