package live_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"gomoku-arena/live"
)

// A served folder may be written by others: only the regular files of its
// games/ are served, never what a link there points at (issue 27).
func TestGameFilesFollowNoLink(t *testing.T) {
	folder := t.TempDir()
	games := filepath.Join(folder, "games")
	os.Mkdir(games, 0o755)
	os.WriteFile(filepath.Join(games, "0001-a-vs-b.sgf"), []byte("(;GM[4])"), 0o644)
	secret := filepath.Join(t.TempDir(), "shadow")
	os.WriteFile(secret, []byte("root:secret"), 0o600)
	os.Symlink(secret, filepath.Join(games, "evil.sgf"))
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "0002-a-vs-b.sgf"), []byte("(;outside)"), 0o644)
	linked := filepath.Join(t.TempDir(), "linked")
	os.Mkdir(linked, 0o755)
	os.Symlink(outside, filepath.Join(linked, "games"))

	srv := live.NewServer()
	path := srv.Add("ev", folder, live.NewHub())
	other := srv.Add("other", linked, live.NewHub())
	ts := httptest.NewServer(srv)
	defer ts.Close()
	get := func(p string) (int, string) {
		res, err := http.Get(ts.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if code, body := get(path + "games/0001-a-vs-b.sgf"); code != 200 || body != "(;GM[4])" {
		t.Errorf("a game file: %d %q", code, body)
	}
	for _, p := range []string{path + "games/evil.sgf", other + "games/0002-a-vs-b.sgf"} {
		if code, body := get(p); code != http.StatusNotFound {
			t.Errorf("%s: %d %q, want 404", p, code, body)
		}
	}
}
