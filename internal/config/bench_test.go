package config

import (
	"fmt"
	"strings"
	"testing"
)

// fill repeats line(i) up to MaxBytes.
func fill(line func(i int) string) []byte {
	var b strings.Builder
	for i := 0; ; i++ {
		l := line(i)
		if b.Len()+len(l) > MaxBytes {
			return []byte(b.String())
		}
		b.WriteString(l)
	}
}

// BenchmarkParseAtTheBounds is what the largest, deepest files a config may
// be cost the TOML parser (go test -bench ParseAtTheBounds -benchmem
// ./internal/config/), beside what a file of engines that large costs and
// what refusing the 32 KB nested file of issue 20 costs.
func BenchmarkParseAtTheBounds(b *testing.B) {
	d := MaxDepth - 1
	n := (32 << 10) / 4
	for _, c := range []struct {
		name string
		src  []byte
	}{
		{"inline-tables", fill(func(i int) string {
			return fmt.Sprintf("k%d = %s1%s\n", i, strings.Repeat("{a=", d), strings.Repeat("}", d))
		})},
		{"dotted-keys", fill(func(i int) string { return fmt.Sprintf("%sk%d = 1\n", strings.Repeat("a.", d), i) })},
		{"engines", fill(func(i int) string {
			return fmt.Sprintf("[[engine]]\nname = \"e%d\"\ncommand = \"builtin:random\"\nclock = {match = \"1m\"}\n", i)
		})},
		{"refused-32KB-nested", []byte("x = " + strings.Repeat("{a=", n) + "1" + strings.Repeat("}", n) + "\n")},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.src)))
			for b.Loop() {
				Parse("bench.toml", c.src)
			}
		})
	}
}
