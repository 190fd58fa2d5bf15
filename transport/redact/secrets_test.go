package redact_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/elicit-dev/elicit/transport/redact"
)

// TestSecretsString: each secret goes in every form it may be echoed in,
// longest first; short values are not taken.
func TestSecretsString(t *testing.T) {
	t.Parallel()
	s := redact.NewSecrets()
	s.Add("s3cr3t/with+chars&<x>", "Bearer tok-0123456789", "abc", "")
	for _, c := range []struct{ in, want string }{
		{"a s3cr3t/with+chars&<x> b", "a [redacted] b"},
		{"form: " + url.Values{"client_secret": {"s3cr3t/with+chars&<x>"}}.Encode(), "form: client_secret=[redacted]"},
		{"header Bearer tok-0123456789.", "header [redacted]."},
		{"token tok-0123456789 alone", "token [redacted] alone"},
		{"abc stays abc", "abc stays abc"},
	} {
		if got := s.String(c.in); got != c.want {
			t.Errorf("String(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, html := range []bool{false, true} {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(html)
		_ = enc.Encode(map[string]string{"m": "you sent s3cr3t/with+chars&<x>"})
		got := string(s.Bytes(b.Bytes()))
		if strings.Contains(got, "s3cr3t") || !json.Valid([]byte(got)) {
			t.Errorf("JSON (html escaping %v): %s", html, got)
		}
	}
	var none *redact.Secrets
	if none.String("x s3cr3t/with+chars&<x>") != "x s3cr3t/with+chars&<x>" || none.Len() != 0 {
		t.Error("a nil Secrets changed text")
	}
}

// TestSecretsError: the text is redacted, the chain kept.
func TestSecretsError(t *testing.T) {
	t.Parallel()
	s := redact.NewSecrets()
	s.Add("verifier-0123456789")
	err := s.Error(fmt.Errorf("token: %w: you sent verifier-0123456789", fs.ErrPermission))
	if strings.Contains(err.Error(), "verifier") || !errors.Is(err, fs.ErrPermission) {
		t.Errorf("Error = %v (is ErrPermission: %v)", err, errors.Is(err, fs.ErrPermission))
	}
	plain := errors.New("nothing secret")
	if s.Error(plain) != plain || s.Error(nil) != nil {
		t.Error("an error without a secret was replaced")
	}
}

// TestWriterSplitSecret: a secret cut across writes, at every cut, is
// still masked, and what cannot begin a secret is not held.
func TestWriterSplitSecret(t *testing.T) {
	t.Parallel()
	const secret = "abcdefgh-secret-ijkl"
	text := "one abcdefgh-secret-ijkl two abcd\nabcdefgh-secret-ijk\n"
	for cut := range len(text) + 1 {
		s := redact.NewSecrets()
		s.Add(secret)
		var out bytes.Buffer
		w := s.Writer(&out)
		if n, err := w.Write([]byte(text[:cut])); err != nil || n != cut {
			t.Fatalf("Write: %d, %v", n, err)
		}
		_, _ = w.Write([]byte(text[cut:]))
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if want := "one [redacted] two abcd\nabcdefgh-secret-ijk\n"; out.String() != want {
			t.Errorf("cut at %d: %q, want %q", cut, out.String(), want)
		}
	}
	s := redact.NewSecrets()
	s.Add(secret)
	var out bytes.Buffer
	w := s.Writer(&out)
	_, _ = w.Write([]byte("a line that ends\n"))
	if out.String() != "a line that ends\n" {
		t.Errorf("held back what begins no secret: %q", out.String())
	}
}

// TestSecretsConcurrent: adding while redacting (the race detector
// judges).
func TestSecretsConcurrent(t *testing.T) {
	t.Parallel()
	s := redact.NewSecrets()
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			for j := range 200 {
				s.Add(fmt.Sprintf("secret-%d-%04d", i, j))
				_ = s.String(fmt.Sprintf("text secret-%d-%04d", i, j))
			}
		})
	}
	wg.Wait()
	if got := s.String("x secret-3-0199 y"); got != "x [redacted] y" {
		t.Errorf("got %q", got)
	}
}

// TestSecretsCut: the beginning of a secret where a text was cut short
// (an excerpt ending in "…", quoted or not, or "...") is masked too; a
// beginning too short to tell, or one not at a cut, is left.
func TestSecretsCut(t *testing.T) {
	t.Parallel()
	s := redact.NewSecrets()
	s.Add("bearer-token-0123456789")
	for in, want := range map[string]string{
		"Authorization: Bearer bearer-token-…":         "Authorization: Bearer *************…",
		`body "…Bearer bearer-token-012"… and more`:    `body "…Bearer ****************"… and more`,
		"x bearer-token-0123... y":                     "x *****************... y",
		"x bearer-token-0123456789 and bearer-token-…": "x [redacted] and *************…",
		"short bea…":            "short bea…",
		"bearer-token- not cut": "bearer-token- not cut",
	} {
		if got := s.String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
		if got := string(s.Bytes([]byte(in))); got != want {
			t.Errorf("Bytes(%q) = %q, want %q", in, got, want)
		}
	}
}

// BenchmarkSecretsBytes: masking a 16 MiB output (the largest result a
// headless command prints) with a run's usual set: an Authorization
// header and an OAuth client's secrets, verifier, code and tokens.
func BenchmarkSecretsBytes(b *testing.B) {
	s := redact.NewSecrets()
	s.Add("Bearer hdr-0123456789abcdef", "client-secret-0123456789", "verifier-0123456789abcdefghijklmnopqrstuvwxyz0",
		"code-0123456789abcdef", "access-0123456789abcdef", "refresh-0123456789abcdef")
	line := []byte(`{"type":"text","text":"an ordinary line of a result, with no secret in it... and a cut…"},` + "\n")
	big := bytes.Repeat(line, (16<<20)/len(line))
	b.SetBytes(int64(len(big)))
	for b.Loop() {
		_ = s.Bytes(big)
	}
}
