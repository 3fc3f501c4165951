package batch

import "testing"

func TestRanges(t *testing.T) {
	if got := Ranges([]int{1, 2, 3, 5, 7, 8}); got != "1-3, 5, 7-8" {
		t.Errorf("ranges = %q", got)
	}
}
