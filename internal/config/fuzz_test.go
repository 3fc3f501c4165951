package config

import (
	"os"
	"strings"
	"testing"
)

// FuzzParse feeds the loader arbitrary files: it must return an event or an
// error that names the file, never panic or hang.
func FuzzParse(f *testing.F) {
	f.Add([]byte(good))
	for _, p := range []string{"../../configs/reference.toml", "../../configs/demo.toml", "../../configs/tcga-outer-open.toml", "../../configs/gomocup-league.toml"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("max_memory = \"1.5GiB\"\nsandbox = \"auto\"\n[[engine]]\nname = \"a\"\ncommand = \"builtin:x\"\nmax_processes = -1\n"))
	f.Add([]byte("[[engine]]\n[[engine]]\nname=\"\"\n[engine.clock]\nmatch=\"-1s\""))
	f.Fuzz(func(t *testing.T, src []byte) {
		ev, err := Parse("fuzz.toml", src)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.toml") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		if len(ev.Engines) < 2 || ev.Size < 1 || ev.Concurrency < 1 {
			t.Fatalf("accepted an impossible event: %+v", ev)
		}
	})
}

func TestBytes(t *testing.T) {
	cases := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"350MiB", 350 << 20, true},
		{"0", 0, true},
		{"1.5GiB", 3 << 29, true},
		{"512MB", 512e6, true},
		{"367001600", 367001600, true},
		{"64 KiB", 64 << 10, true},
		{"-1MiB", 0, false},
		{"lots", 0, false},
		{"NaNMiB", 0, false},
		{"1e30GiB", 0, false},
		{"", 0, false},
	}
	for _, tc := range cases {
		var b Bytes
		err := b.UnmarshalText([]byte(tc.in))
		if (err == nil) != tc.ok || b.N != tc.want {
			t.Errorf("%q: %d, %v; want %d ok=%v", tc.in, b.N, err, tc.want, tc.ok)
		}
	}
}
