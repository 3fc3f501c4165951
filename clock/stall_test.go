package clock

import (
	"testing"
	"time"
)

// TestStalledCountsStallsSinceAMoment checks the accounting on a made-up
// history (the heartbeat itself, and a real SIGSTOP of an arbiter, are
// tested in the engine package): a past stall counts for its part after
// the moment asked about, and a stall the heartbeat has not yet woken from
// counts up to now.
func TestStalledCountsStallsSinceAMoment(t *testing.T) {
	if Stalled(time.Now().Add(-time.Hour)) != 0 {
		t.Fatal("a stall before the heartbeat started")
	}
	now := time.Now()
	heart.mu.Lock()
	heart.base = now.Add(-10 * time.Second)
	heart.stalls = []span{{2 * time.Second, 4 * time.Second}, {5 * time.Second, 6 * time.Second}}
	heart.last = 9 * time.Second // no beat for the last second: stalled now
	heart.mu.Unlock()
	defer func() {
		heart.mu.Lock()
		heart.base, heart.stalls, heart.last = time.Time{}, nil, 0
		heart.mu.Unlock()
	}()
	cases := []struct {
		from     time.Duration // after base
		min, max time.Duration
	}{
		{0, 4 * time.Second, 4*time.Second + 100*time.Millisecond},                  // 2 + 1 + ~1
		{3 * time.Second, 3 * time.Second, 3*time.Second + 100*time.Millisecond},    // 1 + 1 + ~1
		{5500 * time.Millisecond, 1500 * time.Millisecond, 1600 * time.Millisecond}, // 0.5 + ~1
		{9500 * time.Millisecond, 500 * time.Millisecond, 600 * time.Millisecond},   // the ongoing one only
	}
	for _, c := range cases {
		got := Stalled(heart.base.Add(c.from))
		if got < c.min-Beat || got > c.max {
			t.Errorf("stalled since base+%v: %v, want %v..%v", c.from, got, c.min-Beat, c.max)
		}
	}
}
