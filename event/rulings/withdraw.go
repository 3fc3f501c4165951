package rulings

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"gomoku-arena/event/identity"
	"gomoku-arena/event/outfolder"
	"gomoku-arena/event/verify"
	"gomoku-arena/pairing"
	"gomoku-arena/results/journal"
	"gomoku-arena/results/record"
)

// Withdraw asks the Swiss event in folder, as its organizer, to withdraw the
// engine called name before the next round it pairs (running or not): the
// request is written durably beside the journal. It returns the event's
// name.
func Withdraw(folder, name, reason string) (string, error) {
	id, err := identity.Read(filepath.Join(folder, identity.File))
	if err != nil {
		return "", fmt.Errorf("%s is not an event folder: %w", folder, err)
	}
	if id.Kind != identity.KindEvent {
		return "", fmt.Errorf("%s holds %s: withdrawals apply to events", folder, identity.KindName[id.Kind])
	}
	if !slices.ContainsFunc(id.Engines, func(e identity.Entrant) bool { return e.Name == name }) {
		return "", fmt.Errorf("%s: no engine %q in the event", folder, name)
	}
	release, err := Hold(folder) // another withdrawal is read, or waits for this one
	if err != nil {
		return "", err
	}
	defer release()
	if err := withdrawable(folder, id, name); err != nil {
		return "", err
	}
	return id.Name, RequestWithdrawal(filepath.Join(folder, WithdrawalFile), name, reason)
}

// withdrawable refuses a request that could take effect in no round: the
// event has begun its last round (a withdrawal takes effect before the next
// round is paired, and there is none), the entrant is already withdrawn, or
// a request for it is already waiting.
func withdrawable(folder string, id *identity.Identity, name string) error {
	path := filepath.Join(folder, outfolder.JournalFile)
	done, err := journal.Read(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if err := verify.Journal(id, done); err != nil { // a request is written only beside a journal believed
		return fmt.Errorf("journal %s: %w", path, err)
	}
	last := 0
	for _, rec := range done {
		if rec.End == record.Withdrawn && rec.Black == name {
			return fmt.Errorf("%s: %s was already withdrawn from round %d (%s)", folder, name, rec.Round, rec.Detail)
		}
		if rec.End != record.Withdrawn {
			last = max(last, rec.Round)
		}
	}
	if id.Pairing != string(pairing.SwissFormat) {
		t, err := verify.Tournament(id)
		if err != nil {
			return err
		}
		from, err := t.WithdrawnFrom(name, done)
		if err != nil {
			return err
		}
		if from == 0 {
			return fmt.Errorf("%s: %s has no game left to play: there is nothing to withdraw it from", folder, name)
		}
	} else if last >= id.Rounds {
		return fmt.Errorf("%s: the event has reached its last round (round %d of %d): there is no round left to withdraw %s from",
			folder, last, id.Rounds, name)
	}
	requests, err := ReadWithdrawalRequests(filepath.Join(folder, WithdrawalFile))
	if err != nil {
		return err
	}
	for _, q := range requests {
		if q.Engine == name {
			return fmt.Errorf("%s: the withdrawal of %s was already requested (%s); it takes effect before the next round is paired",
				folder, name, q.Time.Format("2006-01-02 15:04:05 MST"))
		}
	}
	return nil
}
