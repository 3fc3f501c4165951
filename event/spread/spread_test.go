package spread

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A published round that is not a round of the event is an error naming
// the file, never played.
func TestPublishedRoundIsChecked(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ name, body, want string }{
		{"other round", `{"format":1,"round":3,"pairings":[]}`, "want format 1, round 2"},
		{"unknown entrant", `{"format":1,"round":2,"pairings":[{"black":0,"white":9}]}`, "entrant 9 is not one of the 5"},
		{"twice", `{"format":1,"round":2,"pairings":[{"black":0,"white":1},{"black":1,"white":-1}]}`, "on two boards"},
		{"unknown field", `{"format":1,"round":2,"pairings":[],"x":1}`, "unknown field"},
	} {
		path := filepath.Join(dir, c.name+".json")
		os.WriteFile(path, []byte(c.body), 0o644)
		if _, _, err := ReadRound(path, 2, 5); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v, want %q naming the file", c.name, err, c.want)
		}
	}
	ok, _ := json.Marshal(RoundFile{Format: 1, Round: 2, Pairings: []RoundPairing{{0, 1}, {2, -1}}})
	path := filepath.Join(dir, "ok.json")
	os.WriteFile(path, ok, 0o644)
	if round, found, err := ReadRound(path, 2, 5); err != nil || !found || len(round) != 2 || round[1].White != -1 {
		t.Errorf("a good round: %v %v %v", round, found, err)
	}
}
