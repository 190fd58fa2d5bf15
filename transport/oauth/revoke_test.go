package oauth_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/transport/oauth"
)

// loggedIn signs in to f through a transport on a fresh store and returns
// the store and the record kept.
func loggedIn(t *testing.T, f *fakeServer, mod func(*oauth.Config)) (*oauth.Store, *oauth.Record) {
	t.Helper()
	store := &oauth.Store{Dir: filepath.Join(t.TempDir(), "auth")}
	if resp, err := get(t, newTransport(t, f, store, mod), f.url()); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("sign in: %v, %v", resp, err)
	}
	rec, err := store.Load(f.url())
	if err != nil || rec == nil || rec.Token == nil {
		t.Fatalf("kept %+v, %v", rec, err)
	}
	return store, rec
}

// refreshAt asks f's token endpoint for a refresh, as a client would.
func refreshAt(t *testing.T, f *fakeServer, rt string) int {
	t.Helper()
	resp, err := http.PostForm(f.srv.URL+"/token", url.Values{"grant_type": {"refresh_token"}, "refresh_token": {rt}, "resource": {f.url()}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func outcomes(l *oauth.LoggedOut) string {
	var s []string
	for _, r := range l.Tokens {
		s = append(s, r.Token+"="+string(r.Outcome))
	}
	return strings.Join(s, ",")
}

func checkForgotten(t *testing.T, store *oauth.Store, f *fakeServer) {
	t.Helper()
	if rec, err := store.Load(f.url()); rec != nil || err != nil {
		t.Errorf("logout kept %+v, %v", rec, err)
	}
}

// Logout revokes the refresh token, then the access token, at the
// issuer's revocation endpoint, as the client they were issued to; the
// server refuses both afterwards, and the record is gone.
func TestLogoutRevokesAtTheServer(t *testing.T) {
	for _, method := range []string{"", "client_secret_basic", "client_secret_post"} {
		t.Run("auth "+method, func(t *testing.T) {
			f := newFakeServer(t)
			f.refresh, f.revocation, f.authMethod = true, true, method
			store, rec := loggedIn(t, f, nil)
			if refreshAt(t, f, rec.Token.RefreshToken) != http.StatusOK {
				t.Fatal("the server refuses the refresh token before logout")
			}
			out, err := newTransport(t, f, store, nil).Logout(t.Context(), true)
			if err != nil || !out.Kept || out.Issuer != f.srv.URL {
				t.Fatalf("logout: %+v, %v", out, err)
			}
			if got := outcomes(out); got != "refresh token=revoked,access token=revoked" {
				t.Fatalf("outcomes %s (%v)", got, out.Tokens)
			}
			checkForgotten(t, store, f)
			want := method
			if want == "" {
				want = "none"
			}
			if len(f.revokeReqs) != 2 {
				t.Fatalf("%d revocation requests", len(f.revokeReqs))
			}
			for i, hint := range []string{"refresh_token", "access_token"} {
				r := f.revokeReqs[i]
				if r.form.Get("token_type_hint") != hint || r.method != want {
					t.Errorf("request %d: hint %q, client auth %s; want %s, %s", i, r.form.Get("token_type_hint"), r.method, hint, want)
				}
				if want == "client_secret_basic" && (r.form.Has("client_secret") || r.form.Has("client_id")) {
					t.Errorf("basic auth and the client in the body too: %v", r.form)
				}
				if want != "client_secret_basic" && r.authorization != "" {
					t.Errorf("an Authorization header with %s", want)
				}
			}
			if f.revokeReqs[0].form.Get("token") != rec.Token.RefreshToken || f.revokeReqs[1].form.Get("token") != rec.Token.AccessToken {
				t.Error("the tokens sent are not the ones kept")
			}
			if refreshAt(t, f, rec.Token.RefreshToken) != http.StatusBadRequest {
				t.Error("the server still takes the refresh token after logout")
			}
			req, _ := http.NewRequest(http.MethodPost, f.url(), strings.NewReader(`{}`))
			req.Header.Set("Authorization", "Bearer "+rec.Token.AccessToken)
			if resp, err := http.DefaultTransport.RoundTrip(req); err != nil || resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("the access token after logout: %v, %v", resp, err)
			} else {
				resp.Body.Close()
			}
		})
	}
}

// An authorization server whose revocation endpoint lists another
// secret method than the one registered gets the secret that way.
func TestLogoutRevocationAuthMethodsSupported(t *testing.T) {
	f := newFakeServer(t)
	f.refresh, f.revocation, f.authMethod = true, true, "client_secret_basic"
	f.revokeAuth = []string{"client_secret_post"}
	store, _ := loggedIn(t, f, nil)
	out, err := newTransport(t, f, store, nil).Logout(t.Context(), true)
	if err != nil || outcomes(out) != "refresh token=revoked,access token=revoked" {
		t.Fatalf("logout: %s, %v (%v)", outcomes(out), err, out.Tokens)
	}
	if r := f.revokeReqs[0]; r.method != "client_secret_post" || r.authorization != "" {
		t.Errorf("revocation authenticated by %s (Authorization %q)", r.method, r.authorization)
	}
}

// The revocation endpoint the issuer's metadata names may be on another
// origin (RFC 8414 ties no endpoint to the issuer's; the token endpoint is
// trusted the same way), but not on plain http to a host that is not
// loopback, and a redirect is not followed with a token.
func TestLogoutRevocationEndpointOrigin(t *testing.T) {
	t.Run("another origin", func(t *testing.T) {
		f := newFakeServer(t)
		f.refresh = true
		other := httptest.NewServer(http.HandlerFunc(f.revoke))
		t.Cleanup(other.Close)
		f.revokeURL = other.URL + "/revoke"
		store, _ := loggedIn(t, f, nil)
		out, err := newTransport(t, f, store, nil).Logout(t.Context(), true)
		if err != nil || outcomes(out) != "refresh token=revoked,access token=revoked" || out.Tokens[0].Endpoint != f.revokeURL || len(f.revokeReqs) != 2 {
			t.Fatalf("logout: %s, %v, %d requests (%v)", outcomes(out), err, len(f.revokeReqs), out.Tokens)
		}
	})
	t.Run("plain http", func(t *testing.T) {
		f := newFakeServer(t)
		f.refresh = true
		store, _ := loggedIn(t, f, nil)
		f.mu.Lock()
		f.revokeURL = "http://revoke.example/revoke"
		f.mu.Unlock()
		out, err := newTransport(t, f, store, nil).Logout(t.Context(), true)
		if err != nil || outcomes(out) != "refresh token=failed,access token=failed" || !errors.Is(out.Tokens[0].Err, oauth.ErrOrigin) {
			t.Fatalf("logout: %s, %v (%v)", outcomes(out), err, out.Tokens)
		}
		checkForgotten(t, store, f)
	})
	t.Run("redirect", func(t *testing.T) {
		f := newFakeServer(t)
		f.refresh = true
		other := httptest.NewServer(http.RedirectHandler(f.srv.URL+"/revoke", http.StatusTemporaryRedirect))
		t.Cleanup(other.Close)
		f.revokeURL = other.URL + "/revoke"
		store, _ := loggedIn(t, f, nil)
		out, err := newTransport(t, f, store, nil).Logout(t.Context(), true)
		if err != nil || outcomes(out) != "refresh token=failed,access token=failed" ||
			!strings.Contains(out.Tokens[0].Err.Error(), "HTTP 307: a redirect, which is not followed") || len(f.revokeReqs) != 0 {
			t.Fatalf("logout: %s, %v, %d requests reached the target (%v)", outcomes(out), err, len(f.revokeReqs), out.Tokens)
		}
	})
}

// A pre-registered confidential client's secret is not kept: logout
// takes it from the configuration, and says so when it is not there.
func TestLogoutPreregisteredSecret(t *testing.T) {
	f := newFakeServer(t)
	f.refresh, f.revocation, f.authMethod = true, true, "client_secret_post"
	f.clients["pre"] = fakeClient{secret: "pre-secret", method: "client_secret_post"}
	withSecret := func(c *oauth.Config) { c.ClientID, c.ClientSecret = "pre", "pre-secret" }
	store, _ := loggedIn(t, f, withSecret)
	out, err := newTransport(t, f, store, withSecret).Logout(t.Context(), true)
	if err != nil || outcomes(out) != "refresh token=revoked,access token=revoked" {
		t.Fatalf("logout: %s, %v (%v)", outcomes(out), err, out.Tokens)
	}
	if f.revokeReqs[0].form.Get("client_secret") != "pre-secret" || f.registrations != 0 {
		t.Errorf("revocation %v after %d registrations", f.revokeReqs[0].form, f.registrations)
	}

	store, _ = loggedIn(t, f, withSecret)
	out, err = newTransport(t, f, store, func(c *oauth.Config) { c.ClientID = "pre" }).Logout(t.Context(), true)
	if err != nil || outcomes(out) != "refresh token=failed,access token=failed" ||
		!strings.Contains(out.Tokens[0].Err.Error(), "none is configured") {
		t.Fatalf("logout without the secret: %s, %v (%v)", outcomes(out), err, out.Tokens)
	}
	checkForgotten(t, store, f)
}

// A server without revocation_endpoint: the tokens are forgotten only,
// and nothing is sent.
func TestLogoutWithoutRevocationEndpoint(t *testing.T) {
	f := newFakeServer(t)
	f.refresh = true
	store, _ := loggedIn(t, f, nil)
	out, err := newTransport(t, f, store, nil).Logout(t.Context(), true)
	if err != nil || outcomes(out) != "refresh token=no revocation endpoint,access token=no revocation endpoint" {
		t.Fatalf("logout: %s, %v", outcomes(out), err)
	}
	if !strings.Contains(out.Tokens[0].Err.Error(), "publishes no revocation_endpoint") {
		t.Errorf("why: %v", out.Tokens[0].Err)
	}
	if len(f.revokeReqs) != 0 {
		t.Errorf("%d revocation requests", len(f.revokeReqs))
	}
	checkForgotten(t, store, f)
}

// A server that fails (and echoes the token) or never answers: the
// record goes all the same, the reason is one line without the token, and
// the wait is bounded by the HTTP client's timeout.
func TestLogoutRevocationFails(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
		hang   bool
		want   string
	}{
		{"400", http.StatusBadRequest, false, "HTTP 400: server_error: cannot revoke [redacted] now"},
		{"500", http.StatusInternalServerError, false, "HTTP 500: server_error"},
		{"hang", 0, true, "Client.Timeout exceeded"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeServer(t)
			f.refresh, f.revocation = true, true
			store, rec := loggedIn(t, f, nil)
			f.mu.Lock()
			f.revokeStatus, f.revokeHang = tc.status, tc.hang
			f.mu.Unlock()
			tr := newTransport(t, f, store, func(c *oauth.Config) { c.HTTPClient = &http.Client{Timeout: 300 * time.Millisecond} })
			out, err := tr.Logout(t.Context(), true)
			if err != nil || outcomes(out) != "refresh token=failed,access token=failed" {
				t.Fatalf("logout: %s, %v", outcomes(out), err)
			}
			for _, r := range out.Tokens {
				msg := r.Err.Error()
				if !strings.Contains(msg, tc.want) || strings.Contains(msg, rec.Token.AccessToken) ||
					strings.Contains(msg, rec.Token.RefreshToken) || strings.Contains(msg, "\n") {
					t.Errorf("%s: %q, want %q and no token", r.Token, msg, tc.want)
				}
			}
			checkForgotten(t, store, f)
		})
	}
}

// Offline logout sends nothing and says the tokens were not revoked.
func TestLogoutNoRevoke(t *testing.T) {
	f := newFakeServer(t)
	f.refresh, f.revocation = true, true
	store, rec := loggedIn(t, f, nil)
	out, err := newTransport(t, f, store, nil).Logout(t.Context(), false)
	if err != nil || outcomes(out) != "refresh token=not asked,access token=not asked" || len(f.revokeReqs) != 0 {
		t.Fatalf("logout: %s, %v, %d requests", outcomes(out), err, len(f.revokeReqs))
	}
	checkForgotten(t, store, f)
	if refreshAt(t, f, rec.Token.RefreshToken) != http.StatusOK {
		t.Error("the refresh token was revoked by an offline logout")
	}
	out, err = newTransport(t, f, store, nil).Logout(t.Context(), true)
	if err != nil || out.Kept || len(out.Tokens) != 0 {
		t.Errorf("second logout: %+v, %v", out, err)
	}
}

// A DPoP-bound token's revocation carries a proof for the revocation
// endpoint (no ath: no token is presented as authorization), and the
// server's nonce is honoured once.
func TestLogoutDPoP(t *testing.T) {
	f := newFakeServer(t)
	f.revocation, f.dpopNonce = true, "n-42"
	f.clients["dpop-client"] = fakeClient{method: "none"}
	f.tokens["at-d"], f.refreshTokens["rt-d"] = nil, true
	f.owner["at-d"], f.owner["rt-d"] = "dpop-client", "dpop-client"
	priv, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	der, _ := x509.MarshalPKCS8PrivateKey(priv)
	store := &oauth.Store{Dir: filepath.Join(t.TempDir(), "auth")}
	if _, err := store.Update(f.url(), func(r *oauth.Record) error {
		r.Issuer, r.Resource, r.TokenEndpoint = f.srv.URL, f.url(), f.srv.URL+"/token"
		r.Token = &oauth.Token{AccessToken: "at-d", TokenType: "DPoP", RefreshToken: "rt-d", DPoPKey: der, Expiry: time.Now().Add(time.Hour)}
		r.Clients = map[string]oauth.Client{f.srv.URL: {Kind: "dynamic", ClientID: "dpop-client", AuthMethod: "none"}}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	out, err := newTransport(t, f, store, nil).Logout(t.Context(), true)
	if err != nil || outcomes(out) != "refresh token=revoked,access token=revoked" {
		t.Fatalf("logout: %s, %v (%v)", outcomes(out), err, out.Tokens)
	}
	if len(f.revokeReqs) != 3 { // the nonce retry, then one each
		t.Fatalf("%d revocation requests", len(f.revokeReqs))
	}
	for i, r := range f.revokeReqs {
		c := dpopClaims(r.dpop)
		if !strings.Contains(c, `"htm":"POST"`) || !strings.Contains(c, `"htu":"`+f.srv.URL+`/revoke"`) || strings.Contains(c, `"ath"`) {
			t.Errorf("request %d's proof: %s", i, c)
		}
		if (i > 0) != strings.Contains(c, "n-42") {
			t.Errorf("request %d's nonce: %s", i, c)
		}
	}
	if f.refreshTokens["rt-d"] {
		t.Error("the refresh token is still live")
	}
}
