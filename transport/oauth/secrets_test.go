package oauth_test

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/transport/oauth"
)

// sentSecrets are the secret values of the token requests f saw, in the
// forms an echo may show them.
func sentSecrets(t *testing.T, f *fakeServer) []string {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.tokenReqs) == 0 {
		t.Fatal("no token request was made")
	}
	var out []string
	for _, r := range f.tokenReqs {
		for _, k := range []string{"client_secret", "code_verifier", "code", "refresh_token", "client_assertion"} {
			if v := r.Get(k); v != "" {
				out = append(out, v, url.QueryEscape(v))
			}
		}
	}
	return out
}

// logLines collects a Transport's Logf lines.
type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *logLines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

func holdsNone(t *testing.T, what, text string, secrets []string) {
	t.Helper()
	for _, s := range secrets {
		if strings.Contains(text, s) {
			t.Errorf("%s holds %q: %s", what, s, text)
		}
	}
}

// A token endpoint that echoes the request ("you sent client_secret=…
// code_verifier=…"): the error the Transport gives out says what it said,
// with none of the secrets, for each way of authenticating the client.
func TestTokenErrorEchoIsRedacted(t *testing.T) {
	for _, method := range []string{"client_secret_post", "client_secret_basic"} {
		t.Run(method, func(t *testing.T) {
			f := newFakeServer(t)
			f.echoToken, f.authMethod = true, method
			var log logLines
			tr := newTransport(t, f, nil, func(c *oauth.Config) { c.Logf = log.logf })
			_, err := get(t, tr, f.url())
			if err == nil || !strings.Contains(err.Error(), "you sent") {
				t.Fatalf("err = %v, want the server's echo", err)
			}
			secrets := sentSecrets(t, f)
			f.mu.Lock()
			for _, c := range f.clients {
				secrets = append(secrets, c.secret)
			}
			f.mu.Unlock()
			holdsNone(t, "the error", err.Error(), secrets)
			holdsNone(t, "the log", log.String(), secrets)
			if method == "client_secret_basic" && !strings.Contains(err.Error(), "with Basic [redacted]") {
				t.Errorf("the Basic credentials are not masked: %v", err)
			}
			// The error stands for the next request too (t.failed).
			_, err = get(t, tr, f.url())
			holdsNone(t, "the second error", fmt.Sprint(err), secrets)
		})
	}
}

// A pre-registered secret and a refresh token echoed by the refresh
// request: the log line of the failed refresh holds neither.
func TestRefreshErrorEchoIsRedacted(t *testing.T) {
	f := newFakeServer(t)
	f.echoToken = true
	store := &oauth.Store{Dir: filepath.Join(t.TempDir(), "auth")}
	const secret, refresh = "configured-secret-value", "kept-refresh-token-value"
	if _, err := store.Update(f.url(), func(r *oauth.Record) error {
		r.Issuer, r.Resource, r.TokenEndpoint = f.srv.URL, f.url(), f.srv.URL+"/token"
		r.Token = &oauth.Token{AccessToken: "expired-access-token", TokenType: "Bearer", RefreshToken: refresh, Expiry: time.Now().Add(-time.Hour)}
		r.Clients = map[string]oauth.Client{f.srv.URL: {Kind: "preregistered", ClientID: "pre", AuthMethod: "client_secret_post"}}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var log logLines
	tr := newTransport(t, f, store, func(c *oauth.Config) {
		c.ClientID, c.ClientSecret, c.Logf, c.Open = "pre", secret, log.logf, nil
	})
	_, err := get(t, tr, f.url())
	if !strings.Contains(log.String(), "you sent") {
		t.Fatalf("no refresh failure was logged: %q (err %v)", log.String(), err)
	}
	holdsNone(t, "the log", log.String(), []string{secret, refresh, "expired-access-token"})
	holdsNone(t, "the error", fmt.Sprint(err), []string{secret, refresh, "expired-access-token"})
}

// A refresh token another process rotated into the store after this
// Transport loaded it, echoed by a failing refresh: masked as well.
func TestRefreshOfARotatedTokenIsRedacted(t *testing.T) {
	f := newFakeServer(t)
	f.echoToken = true
	store := &oauth.Store{Dir: filepath.Join(t.TempDir(), "auth")}
	keep := func(access, refresh string) {
		t.Helper()
		if _, err := store.Update(f.url(), func(r *oauth.Record) error {
			r.Issuer, r.Resource, r.TokenEndpoint = f.srv.URL, f.url(), f.srv.URL+"/token"
			r.Token = &oauth.Token{AccessToken: access, TokenType: "Bearer", RefreshToken: refresh, Expiry: time.Now().Add(-time.Hour)}
			r.Clients = map[string]oauth.Client{f.srv.URL: {Kind: "dynamic", ClientID: "c", AuthMethod: "none"}}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	keep("expired-access-token-1", "first-refresh-token-1")
	var log logLines
	tr := newTransport(t, f, store, func(c *oauth.Config) { c.Logf, c.Open = log.logf, nil })
	keep("expired-access-token-2", "rotated-refresh-token-2") // another process
	_, err := get(t, tr, f.url())
	if !strings.Contains(log.String(), "you sent") {
		t.Fatalf("no refresh failure was logged: %q (err %v)", log.String(), err)
	}
	holdsNone(t, "the log", log.String(), []string{"rotated-refresh-token-2", "expired-access-token-2"})
}
