package bounds

import (
	"errors"
	"testing"
)

// Each check refuses a value past its bound with an error that names the
// setting as an event file's key does, for every front end to say where
// the value was given; a value within the bound passes.
func TestChecksNameTheirSetting(t *testing.T) {
	cases := []struct {
		setting  string
		check    func(int) error
		ok, bad  []int
		problem0 string // the problem for bad[0]
	}{
		{"concurrency", CheckConcurrency, []int{1, MaxConcurrency}, []int{0, -1, MaxConcurrency + 1}, "0: want 1 to 1024 games at once"},
		{"move_cap", CheckMoveCap, []int{0, 225}, []int{-1}, "-1: must not be negative (0: none)"},
		{"max_processes", CheckProcesses, []int{0, 8}, []int{-1}, "-1: must not be negative (0: no limit)"},
	}
	for _, c := range cases {
		for _, n := range c.ok {
			if err := c.check(n); err != nil {
				t.Errorf("%s %d: %v", c.setting, n, err)
			}
		}
		for i, n := range c.bad {
			var se *SettingError
			if err := c.check(n); !errors.As(err, &se) || se.Setting != c.setting {
				t.Errorf("%s %d: %#v, want a SettingError of %s", c.setting, n, err, c.setting)
			} else if i == 0 && (se.Problem != c.problem0 || se.Error() != c.setting+": "+c.problem0) {
				t.Errorf("%s %d: %q", c.setting, n, se.Error())
			}
		}
	}
}
