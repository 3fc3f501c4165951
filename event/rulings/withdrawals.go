package rulings

import (
	"encoding/json"
	"errors"
	"fmt"
	"gomoku-arena/internal/durable"
	"gomoku-arena/schedule"
	"os"
	"strings"
	"time"
)

// The organizer's withdrawal requests (arena withdraw): a file of the
// event's folder, one JSON object a line, that the running event (or the
// next run of it) reads before it pairs each Swiss round.

// WithdrawalFile is the name of the request file in an event's folder.
const WithdrawalFile = "withdrawals.jsonl"

// RequestWithdrawal records durably, in the request file at path (one JSON
// object a line), that the organizer withdraws engine from the event. The
// running event (or the next run of it) withdraws the entrant before the
// next round it pairs.
func RequestWithdrawal(path, engine, reason string) error {
	if strings.TrimSpace(engine) == "" {
		return fmt.Errorf("withdrawal: no engine named")
	}
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if _, err := ReadWithdrawalRequests(path); err != nil {
		return err
	}
	line, err := json.Marshal(schedule.WithdrawalRequest{Engine: engine, Reason: reason, Time: time.Now().UTC()})
	if err != nil {
		return err
	}
	if len(old) > 0 && old[len(old)-1] != '\n' {
		old = append(old, '\n')
	}
	return durable.WriteFile(path, append(append(old, line...), '\n'))
}

// ReadWithdrawalRequests reads the request file at path; a missing file has
// no requests. A line that is not a request is an error naming it.
func ReadWithdrawalRequests(path string) ([]schedule.WithdrawalRequest, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []schedule.WithdrawalRequest
	for i, l := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		var q schedule.WithdrawalRequest
		dec := json.NewDecoder(strings.NewReader(l))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&q); err != nil || q.Engine == "" {
			return nil, fmt.Errorf("%s:%d: not a withdrawal request (want {\"engine\": NAME, ...}): %q", path, i+1, l)
		}
		out = append(out, q)
	}
	return out, nil
}
