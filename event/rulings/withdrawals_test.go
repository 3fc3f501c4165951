package rulings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The request file keeps the organizer's requests in order, and refuses
// lines it cannot read.
func TestWithdrawalRequestFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), WithdrawalFile)
	if err := RequestWithdrawal(path, "b", "asked to leave"); err != nil {
		t.Fatal(err)
	}
	if err := RequestWithdrawal(path, "c", ""); err != nil {
		t.Fatal(err)
	}
	qs, err := ReadWithdrawalRequests(path)
	if err != nil || len(qs) != 2 || qs[0].Engine != "b" || qs[0].Reason != "asked to leave" || qs[1].Engine != "c" {
		t.Fatalf("requests %+v, %v", qs, err)
	}
	if err := os.WriteFile(path, []byte("{\"engine\": \"b\"}\nnot json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadWithdrawalRequests(path); err == nil || !strings.Contains(err.Error(), ":2:") {
		t.Errorf("bad line: err = %v", err)
	}
}
