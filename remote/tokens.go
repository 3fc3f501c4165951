package remote

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"gomoku-arena/internal/durable"
)

// Tokens: one per remote entrant, made by the arena and shown once; the
// event folder keeps only their SHA-256 hashes, in remote/tokens.json.

// tokensFormat is the version of tokens.json.
const tokensFormat = 1

type tokenFile struct {
	Format int               `json:"format"`
	Hashes map[string]string `json:"sha256"` // entrant name -> hex SHA-256 of its token
}

// Dir is where an event folder keeps the remote entrants' token hashes and
// the generated certificate.
func Dir(folder string) string { return filepath.Join(folder, "remote") }

func tokensPath(folder string) string { return filepath.Join(Dir(folder), "tokens.json") }

// readHashes reads the token hashes of an event folder; no file is no
// tokens.
func readHashes(folder string) (map[string]string, error) {
	b, err := durable.ReadRegular(folder, filepath.Join("remote", "tokens.json"), 64<<20) // through no link
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, err
	}
	var f tokenFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("%s: %v", tokensPath(folder), err)
	}
	if f.Format != tokensFormat {
		return nil, fmt.Errorf("%s: format %d, this arena reads %d", tokensPath(folder), f.Format, tokensFormat)
	}
	if f.Hashes == nil {
		f.Hashes = map[string]string{}
	}
	return f.Hashes, nil
}

func writeHashes(folder string, h map[string]string) error {
	b, err := json.MarshalIndent(tokenFile{Format: tokensFormat, Hashes: h}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(folder, 0o755); err != nil { // the output folder, as named
		return err
	}
	// remote/ is walked without following a link: the output folder may be shared.
	return durable.WriteFileIn(folder, filepath.Join("remote", "tokens.json"), append(b, '\n'), 0o600)
}

func hashToken(token string) string {
	s := sha256.Sum256([]byte(token))
	return hex.EncodeToString(s[:])
}

func newToken() string {
	b := make([]byte, 24)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// IssueTokens gives a token to every named entrant that has none (and to
// every one named in renew, replacing its token) and returns the new
// tokens by name: the only time they are seen.
func IssueTokens(folder string, names []string, renew ...string) (map[string]string, error) {
	h, err := readHashes(folder)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, n := range names {
		if _, ok := h[n]; ok && !contains(renew, n) {
			continue
		}
		t := newToken()
		h[n], out[n] = hashToken(t), t
	}
	if len(out) == 0 {
		return out, nil
	}
	return out, writeHashes(folder, h)
}

// RevokeToken removes name's token: its connections are refused and its
// live session is ended.
func RevokeToken(folder, name string) error {
	h, err := readHashes(folder)
	if err != nil {
		return err
	}
	if _, ok := h[name]; !ok {
		return fmt.Errorf("%s has no token for %q", tokensPath(folder), name)
	}
	delete(h, name)
	return writeHashes(folder, h)
}

// entrantOf is the entrant whose token this is, or "". Every hash is
// compared, in constant time each.
func entrantOf(h map[string]string, token string) string {
	want := hashToken(token)
	names := make([]string, 0, len(h))
	for n := range h {
		names = append(names, n)
	}
	sort.Strings(names)
	found := ""
	for _, n := range names {
		if subtle.ConstantTimeCompare([]byte(h[n]), []byte(want)) == 1 {
			found = n
		}
	}
	return found
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
