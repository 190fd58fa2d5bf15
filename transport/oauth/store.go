package oauth

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/elicit-dev/elicit/transport/redact"
)

// Store keeps what authorization produced, per MCP server URL: the
// token, the scopes asked for, and the client registrations per issuer.
// One JSON file per server URL in Dir (mode 0700), each mode 0600,
// written to a temporary file and renamed, so a crash never leaves half
// a file; changes go under an advisory lock, so two elicit processes
// rotating one refresh token do not lose it. A Dir that exists already is
// closed to 0700 when it is open to others, and refused when it is
// another user's (redact.PrivateDir), before anything is read from or
// written to it.
//
// A nil *Store keeps nothing: every method is a no-op.
type Store struct {
	Dir string
}

// Record is one server's stored authorization.
type Record struct {
	URL string `json:"url"`
	// Issuer of the token's authorization server; Resource the RFC 8707
	// resource it was issued for.
	Issuer   string `json:"issuer,omitempty"`
	Resource string `json:"resource,omitempty"`
	// TokenEndpoint is where the token is refreshed.
	TokenEndpoint string `json:"token_endpoint,omitempty"`
	Token         *Token `json:"token,omitempty"`
	// Scopes are the scopes last asked for (the step-up union builds on
	// them across runs).
	Scopes []string `json:"scopes,omitempty"`
	// Clients are registrations, by issuer: dynamic ones to reuse, and
	// which issuer pre-registered credentials were first used with.
	Clients map[string]Client `json:"clients,omitempty"`
}

// Token is a stored token. Never logged, never shown.
type Token struct {
	AccessToken  string    `json:"access_token"`
	TokenType    string    `json:"token_type,omitempty"`
	RefreshToken string    `json:"refresh_token,omitempty"`
	Expiry       time.Time `json:"expiry,omitzero"`
	Scope        string    `json:"scope,omitempty"` // as granted, if the server said
	// DPoPKey is the PKCS#8 DER (base64 in JSON) of the key a DPoP-bound
	// token is bound to.
	DPoPKey []byte `json:"dpop_key,omitempty"`
}

// Client is one client identity at one authorization server.
type Client struct {
	// Kind is "dynamic" (RFC 7591), "preregistered" or "metadata" (CIMD).
	Kind         string    `json:"kind"`
	ClientID     string    `json:"client_id"`
	ClientSecret string    `json:"client_secret,omitempty"`
	AuthMethod   string    `json:"token_endpoint_auth_method,omitempty"`
	RedirectURIs []string  `json:"redirect_uris,omitempty"`
	Registered   time.Time `json:"registered,omitzero"`
}

// file is where url's record lives: a hash, so no URL needs escaping.
func (s *Store) file(url string) string {
	sum := sha256.Sum256([]byte(url))
	return filepath.Join(s.Dir, hex.EncodeToString(sum[:16])+".json")
}

// Load returns url's record, or nil if there is none.
func (s *Store) Load(url string) (*Record, error) {
	if s == nil {
		return nil, nil
	}
	if err := redact.CheckPrivateDir(s.Dir); err != nil {
		return nil, fmt.Errorf("oauth store: %w", err)
	}
	b, err := redact.ReadPrivate(s.file(url))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("oauth store: %w", err)
	}
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("oauth store: %s: %w", s.file(url), err)
	}
	if r.URL != url {
		return nil, nil // a hash collision, or a hand-edited file
	}
	return &r, nil
}

// Update changes url's record under the store's lock: fn gets the stored
// record (a fresh one if none) and changes it; returning an error leaves
// the file as it was. A record fn empties of token and clients is
// removed.
func (s *Store) Update(url string, fn func(*Record) error) (*Record, error) {
	if s == nil {
		r := &Record{URL: url}
		return r, fn(r)
	}
	unlock, err := s.lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	r, err := s.Load(url)
	if err != nil {
		return nil, err
	}
	if r == nil {
		r = &Record{URL: url}
	}
	if err := fn(r); err != nil {
		return nil, err
	}
	if r.Token == nil && len(r.Clients) == 0 {
		if err := os.Remove(s.file(url)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("oauth store: %w", err)
		}
		return r, nil
	}
	return r, s.write(url, r)
}

// Delete removes url's record.
func (s *Store) Delete(url string) error {
	_, err := s.Update(url, func(r *Record) error {
		*r = Record{URL: url}
		return nil
	})
	return err
}

// List returns every stored record.
func (s *Store) List() ([]*Record, error) {
	if s == nil {
		return nil, nil
	}
	if err := redact.CheckPrivateDir(s.Dir); err != nil {
		return nil, fmt.Errorf("oauth store: %w", err)
	}
	matches, err := filepath.Glob(filepath.Join(s.Dir, "*.json"))
	if err != nil {
		return nil, err
	}
	var out []*Record
	for _, m := range matches {
		b, err := redact.ReadPrivate(m)
		if err != nil {
			continue
		}
		var r Record
		if json.Unmarshal(b, &r) == nil && r.URL != "" {
			out = append(out, &r)
		}
	}
	return out, nil
}

func (s *Store) write(url string, r *Record) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("oauth store: %w", err)
	}
	if err := redact.WritePrivate(s.file(url), b); err != nil {
		return fmt.Errorf("oauth store: %w", err)
	}
	return nil
}

// lockWait bounds how long Update waits for another elicit process
// holding the store's lock.
const lockWait = 10 * time.Second

// lock takes the store's advisory lock on Dir/.lock, making Dir private
// (redact.PrivateDir) first, waiting at most lockWait.
func (s *Store) lock() (func(), error) {
	if err := redact.PrivateDir(s.Dir); err != nil {
		return nil, fmt.Errorf("oauth store: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(s.Dir, ".lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("oauth store: %w", err)
	}
	deadline := time.Now().Add(lockWait)
	for {
		ok, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("oauth store: lock: %w", err)
		}
		if ok {
			break
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("oauth store: another elicit holds %s for over %v", f.Name(), lockWait)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return func() {
		unlock(f)
		f.Close()
	}, nil
}
