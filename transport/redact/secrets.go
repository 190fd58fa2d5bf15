package redact

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/url"
	"slices"
	"strings"
	"sync"
)

// Mask stands for a secret value taken out of text.
const Mask = "[redacted]"

// MinSecret is the shortest value Secrets takes: shorter ones would blank
// out ordinary words and numbers (and break the JSON they stand in).
const MinSecret = 4

// Secrets is the set of secret values one elicit process holds: header
// values, an OAuth client secret, PKCE verifiers, authorization codes,
// tokens, secret URL query values. Every sink that prints, journals,
// records or shows text a server could have written (stderr, stdout,
// recordings, the TUI) passes it through the same Secrets, since a server
// may echo what it was sent ("you sent client_secret=…").
//
// Its methods are safe for concurrent use, and a nil *Secrets holds
// nothing (String returns its text as it is). It is a value owned by
// whoever starts the work (the command, the engine), never package state.
type Secrets struct {
	mu sync.RWMutex
	// forms are every secret in each form it may be echoed in (as is,
	// URL-encoded, JSON-escaped), longest first, so that a secret holding
	// another goes whole.
	forms []string
	seen  map[string]bool
	// grams are the MinSecret-byte pieces of the forms: a cut can end a
	// secret's beginning only after one of them (maskCuts).
	grams map[string]bool
}

// NewSecrets returns an empty set.
func NewSecrets() *Secrets { return &Secrets{seen: map[string]bool{}, grams: map[string]bool{}} }

// Add adds values (those shorter than MinSecret are ignored). A value
// "Scheme credentials" (an Authorization header) adds the credentials
// alone as well.
func (s *Secrets) Add(values ...string) {
	if s == nil {
		return
	}
	var add []string
	for _, v := range values {
		v = strings.TrimSpace(v)
		add = append(add, forms(v)...)
		if _, cred, ok := strings.Cut(v, " "); ok {
			add = append(add, forms(strings.TrimSpace(cred))...)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// A new slice each time: readers hold the old one (snapshot).
	next := slices.Clone(s.forms)
	for _, f := range add {
		if len(f) >= MinSecret && !s.seen[f] {
			s.seen[f] = true
			next = append(next, f)
		}
	}
	if len(next) == len(s.forms) {
		return
	}
	grams := maps.Clone(s.grams)
	for _, f := range next[len(s.forms):] {
		for i := 0; i+MinSecret <= len(f); i++ {
			grams[f[i:i+MinSecret]] = true
		}
	}
	slices.SortStableFunc(next, func(a, b string) int { return len(b) - len(a) })
	s.forms, s.grams = next, grams
}

// forms are the ways v may appear in text elicit prints: as is, in a
// form or query (url.QueryEscape, and its %20 flavour), in a JSON string
// (escaped with and without HTML escaping).
func forms(v string) []string {
	if len(v) < MinSecret {
		return nil
	}
	out := []string{v, url.QueryEscape(v), url.PathEscape(v)}
	for _, html := range []bool{false, true} {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(html)
		if enc.Encode(v) == nil {
			q := bytes.TrimSpace(b.Bytes())
			out = append(out, string(q[1:len(q)-1]))
		}
	}
	return out
}

// Len is how many forms the set holds (for tests and benchmarks).
func (s *Secrets) Len() int {
	if s == nil {
		return 0
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.forms)
}

// snapshot is the forms now: Add replaces the slice rather than change
// it, so it may be used after the lock is let go.
func (s *Secrets) snapshot() []string {
	forms, _ := s.snapshotGrams()
	return forms
}

func (s *Secrets) snapshotGrams() ([]string, map[string]bool) {
	if s == nil {
		return nil, nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.forms, s.grams
}

// String is text with every secret replaced by Mask, and the beginning
// of one that was cut short ("tok-12…", an excerpt of an echo) too.
func (s *Secrets) String(text string) string {
	forms, grams := s.snapshotGrams()
	for _, f := range forms {
		if strings.Contains(text, f) {
			text = strings.ReplaceAll(text, f, Mask)
		}
	}
	if b := maskCuts([]byte(text), forms, grams); b != nil {
		return string(b)
	}
	return text
}

// Bytes is b with every secret replaced by Mask, as String; b itself
// when it holds none (so a caller may keep b when the result is b).
func (s *Secrets) Bytes(b []byte) []byte {
	forms, grams := s.snapshotGrams()
	for _, f := range forms {
		if bytes.Contains(b, []byte(f)) {
			b = bytes.ReplaceAll(b, []byte(f), []byte(Mask))
		}
	}
	if c := maskCuts(b, forms, grams); c != nil {
		return c
	}
	return b
}

// maskCuts masks the beginning of a secret that ends where b was cut (a
// cut mark follows it, maybe after a quote): a whole secret is masked
// already, its first half would still give most of it away. Nil when
// there is none.
func maskCuts(b []byte, forms []string, grams map[string]bool) []byte {
	if len(forms) == 0 {
		return nil
	}
	var out []byte
	// A text cut short ends in "…" (elicit's excerpts, after the closing
	// quote of a quoted one) or "..." (others').
	for _, mark := range [][]byte{[]byte("…"), []byte("...")} {
		from := 0
		for {
			i := bytes.Index(b[from:], mark)
			if i < 0 {
				break
			}
			end := from + i
			if end > 0 && b[end-1] == '"' {
				end--
			}
			// Only after a piece of a secret can one's beginning end.
			if end < MinSecret || !grams[string(b[end-MinSecret:end])] {
				from += i + len(mark)
				continue
			}
			if k := partial(b[:end], forms); k >= MinSecret {
				if out == nil {
					out = bytes.Clone(b)
				}
				// Same length: the indexes found in b hold in out.
				copy(out[end-k:end], bytes.Repeat([]byte("*"), k))
			}
			from += i + len(mark)
		}
	}
	return out
}

// Error is err with its text redacted; errors.Is and errors.As still see
// err's chain. err itself when its text holds no secret.
func (s *Secrets) Error(err error) error {
	if err == nil {
		return nil
	}
	text := err.Error()
	red := s.String(text)
	if red == text {
		return err
	}
	return &redactedError{text: red, err: err}
}

// redactedError shows a redacted text and keeps the chain for errors.Is
// and errors.As. Whoever unwraps it and prints an inner error's text
// gets the secret back: sinks redact again (Writer).
type redactedError struct {
	text string
	err  error
}

func (e *redactedError) Error() string { return e.text }
func (e *redactedError) Unwrap() error { return e.err }
