package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/transport/oauth"
)

// revokingAS is an authorization server with an RFC 7009 revocation
// endpoint for the binary's logout: metadata, a token endpoint that
// refreshes only live refresh tokens, and a revocation endpoint that
// authenticates the client as it was registered (client_secret_post)
// and kills the token. Tests break it with status or hang.
type revokingAS struct {
	srv *httptest.Server

	mu         sync.Mutex
	revocation bool // publish revocation_endpoint
	status     int  // answer every revocation with this status
	hang       bool // never answer a revocation
	live       map[string]bool
	revokes    []url.Values
	release    chan struct{}
}

const (
	testClientID     = "logout-client"
	testClientSecret = "logout-secret-value"
	testAccess       = "access-token-value-1"
	testRefresh      = "refresh-token-value-1"
)

func newRevokingAS(t *testing.T) *revokingAS {
	a := &revokingAS{revocation: true, live: map[string]bool{testAccess: true, testRefresh: true}, release: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		defer a.mu.Unlock()
		m := map[string]any{
			"issuer": a.srv.URL, "authorization_endpoint": a.srv.URL + "/authorize", "token_endpoint": a.srv.URL + "/token",
			"code_challenge_methods_supported": []string{"S256"}, "token_endpoint_auth_methods_supported": []string{"client_secret_post"},
		}
		if a.revocation {
			m["revocation_endpoint"] = a.srv.URL + "/revoke"
		}
		asJSON(w, http.StatusOK, m)
	})
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		defer a.mu.Unlock()
		_ = r.ParseForm()
		if r.PostForm.Get("grant_type") != "refresh_token" || !a.live[r.PostForm.Get("refresh_token")] {
			asJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant"})
			return
		}
		asJSON(w, http.StatusOK, map[string]any{"access_token": "access-token-value-2", "token_type": "Bearer"})
	})
	mux.HandleFunc("/revoke", func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		hang := a.hang
		a.mu.Unlock()
		if hang {
			select {
			case <-r.Context().Done():
			case <-a.release:
			}
			return
		}
		a.mu.Lock()
		defer a.mu.Unlock()
		_ = r.ParseForm()
		a.revokes = append(a.revokes, r.PostForm)
		if a.status != 0 {
			// Echoes the token: elicit must not print it.
			asJSON(w, a.status, map[string]string{"error": "server_error", "error_description": "no\nrevoking " + r.PostForm.Get("token") + " \x1b[31mtoday"})
			return
		}
		if r.PostForm.Get("client_id") != testClientID || r.PostForm.Get("client_secret") != testClientSecret {
			asJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_client"})
			return
		}
		delete(a.live, r.PostForm.Get("token"))
		asJSON(w, http.StatusOK, map[string]any{})
	})
	a.srv = httptest.NewServer(mux)
	t.Cleanup(a.srv.Close)
	t.Cleanup(func() { close(a.release) })
	return a
}

func asJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// keep stores a record for mcpURL as a sign-in at a would have: a
// dynamic confidential client and its tokens.
func (a *revokingAS) keep(t *testing.T, state, mcpURL string) {
	t.Helper()
	store := &oauth.Store{Dir: filepath.Join(state, "elicit", "auth")}
	if _, err := store.Update(mcpURL, func(r *oauth.Record) error {
		r.Issuer, r.Resource, r.TokenEndpoint = a.srv.URL, mcpURL, a.srv.URL+"/token"
		r.Token = &oauth.Token{AccessToken: testAccess, TokenType: "Bearer", RefreshToken: testRefresh, Expiry: time.Now().Add(time.Hour)}
		r.Clients = map[string]oauth.Client{a.srv.URL: {Kind: "dynamic", ClientID: testClientID, ClientSecret: testClientSecret, AuthMethod: "client_secret_post"}}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// kept stores a sign-in's record (keep) in a fresh state directory and
// returns that directory and the MCP URL the record is for.
func (a *revokingAS) kept(t *testing.T) (state, mcpURL string) {
	t.Helper()
	state, mcpURL = t.TempDir(), a.srv.URL+"/mcp"
	a.keep(t, state, mcpURL)
	return state, mcpURL
}

// runLogout runs the binary's auth logout for mcpURL, with state as its
// XDG_STATE_HOME.
func runLogout(t *testing.T, state, mcpURL string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	return runElicit(t, []string{"XDG_STATE_HOME=" + state}, append([]string{"auth", "logout", "--url", mcpURL}, args...)...)
}

func (a *revokingAS) refreshes(t *testing.T) bool {
	t.Helper()
	resp, err := http.PostForm(a.srv.URL+"/token", url.Values{"grant_type": {"refresh_token"}, "refresh_token": {testRefresh}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

func noneKept(t *testing.T, state string) {
	t.Helper()
	if files, _ := filepath.Glob(filepath.Join(state, "elicit", "auth", "*.json")); len(files) != 0 {
		t.Errorf("logout left %v", files)
	}
}

func noSecrets(t *testing.T, out string) {
	t.Helper()
	for _, s := range []string{testAccess, testRefresh, testClientSecret, "\x1b[31m"} {
		if strings.Contains(out, s) {
			t.Errorf("the output has %q:\n%s", s, out)
		}
	}
}

// elicit auth logout revokes the tokens at the authorization server
// (which then refuses the refresh token), says so per token, and forgets
// them.
func TestAuthLogoutRevokes(t *testing.T) {
	a := newRevokingAS(t)
	state, mcpURL := a.kept(t)
	if !a.refreshes(t) {
		t.Fatal("the refresh token does not work before logout")
	}
	stdout, stderr, err := runLogout(t, state, mcpURL)
	if err != nil {
		t.Fatalf("logout: %v\n%s\n%s", err, stdout, stderr)
	}
	for _, want := range []string{"logged out", "refresh token  revoked at " + a.srv.URL + "/revoke", "access token   revoked at " + a.srv.URL + "/revoke"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	noSecrets(t, stdout+stderr)
	if stderr != "" {
		t.Errorf("stderr after a clean logout:\n%s", stderr)
	}
	noneKept(t, state)
	if a.refreshes(t) {
		t.Error("the authorization server still takes the refresh token after logout")
	}
	if len(a.revokes) != 2 || a.revokes[0].Get("token_type_hint") != "refresh_token" || a.revokes[1].Get("token_type_hint") != "access_token" {
		t.Errorf("revocations %v", a.revokes)
	}
}

// Forgotten only: the server has no revocation endpoint, or --no-revoke;
// both say the tokens stay valid there, and exit 0.
func TestAuthLogoutForgetsOnly(t *testing.T) {
	for _, tc := range []struct {
		name       string
		revocation bool
		args       []string
		want       string
	}{
		{"no endpoint", false, nil, "forgotten only: " + "%s publishes no revocation_endpoint"},
		{"no-revoke", true, []string{"--no-revoke"}, "forgotten only (--no-revoke)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newRevokingAS(t)
			a.revocation = tc.revocation
			state, mcpURL := a.kept(t)
			stdout, stderr, err := runLogout(t, state, mcpURL, tc.args...)
			want := strings.ReplaceAll(tc.want, "%s", a.srv.URL)
			if err != nil || !strings.Contains(stdout, "refresh token  "+want) || !strings.Contains(stdout, "access token   "+want) ||
				!strings.Contains(stdout, "valid at "+a.srv.URL) {
				t.Errorf("logout: %v\n%s\n%s", err, stdout, stderr)
			}
			noSecrets(t, stdout+stderr)
			noneKept(t, state)
			if len(a.revokes) != 0 || !a.refreshes(t) {
				t.Errorf("%d revocations; refresh token live: %v", len(a.revokes), a.refreshes(t))
			}
		})
	}
}

// The revocation fails (an error status, echoing the token, with control
// characters): the tokens are forgotten all the same, exit 0, and the
// output says per token that they were not revoked and why, in one
// line, without the token.
func TestAuthLogoutRevocationFails(t *testing.T) {
	a := newRevokingAS(t)
	a.status = http.StatusInternalServerError
	state, mcpURL := a.kept(t)
	stdout, stderr, err := runLogout(t, state, mcpURL)
	if err != nil {
		t.Fatalf("logout: %v\n%s\n%s", err, stdout, stderr)
	}
	for _, want := range []string{
		"refresh token  NOT revoked at " + a.srv.URL + "/revoke: HTTP 500: server_error: no",
		"access token   NOT revoked at " + a.srv.URL + "/revoke: HTTP 500", "[redacted]", "forgotten here, it stays valid at " + a.srv.URL,
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, "warning: revocation failed (refresh token, access token): forgotten here, still valid at "+a.srv.URL) {
		t.Errorf("stderr has no warning:\n%s", stderr)
	}
	if n := strings.Count(stdout, "\n"); n != 3 {
		t.Errorf("%d lines, want 3 (the server's newline kept?):\n%s", n, stdout)
	}
	noSecrets(t, stdout+stderr)
	noneKept(t, state)
}

// Against the TypeScript SDK's authorization server (its router, its
// revocation handler and client authentication; testdata/ts-revoking-as.mjs
// adds refresh tokens and revokeToken to its example provider): elicit
// signs in as the public client it registers, logout revokes both tokens
// there, and the SDK then refuses the refresh token and the resource the
// access token.
func TestAuthLogoutRevokesAtTypeScriptSDK(t *testing.T) {
	mcpURL, authURL := tsNodeServer(t, filepath.Join("testdata", "ts-revoking-as.mjs"))
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	env := []string{"XDG_STATE_HOME=" + state, "BROWSER=" + browserScript(t, dir, filepath.Join(dir, "browser.log"), false)}
	if stdout, stderr, err := runElicit(t, env, "auth", "login", "--url", mcpURL); err != nil || !strings.Contains(stdout, "refresh token         yes") {
		t.Fatalf("auth login: %v\n%s\n%s", err, stdout, stderr)
	}
	rec, err := (&oauth.Store{Dir: filepath.Join(state, "elicit", "auth")}).Load(mcpURL)
	if err != nil || rec == nil || rec.Token == nil || rec.Token.RefreshToken == "" {
		t.Fatalf("kept %+v, %v", rec, err)
	}
	client := rec.Clients[rec.Issuer]
	if client.AuthMethod != "none" {
		t.Fatalf("registered as %+v; the test expects a public client", client)
	}
	refresh := func() int {
		resp, err := http.PostForm(authURL+"/token", url.Values{"grant_type": {"refresh_token"}, "refresh_token": {rec.Token.RefreshToken}, "client_id": {client.ClientID}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := refresh(); code != http.StatusOK {
		t.Fatalf("the SDK refuses the refresh token before logout: HTTP %d", code)
	}

	stdout, stderr, err := runElicit(t, env, "auth", "logout", "--url", mcpURL)
	if err != nil {
		t.Fatalf("logout: %v\n%s\n%s", err, stdout, stderr)
	}
	for _, want := range []string{"refresh token  revoked at " + authURL + "/revoke", "access token   revoked at " + authURL + "/revoke"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout+stderr, rec.Token.AccessToken) || strings.Contains(stdout+stderr, rec.Token.RefreshToken) {
		t.Error("a token was printed")
	}
	noneKept(t, state)
	if code := refresh(); code != http.StatusBadRequest {
		t.Errorf("the SDK answers the revoked refresh token with HTTP %d", code)
	}
	req, _ := http.NewRequest(http.MethodPost, mcpURL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	req.Header.Set("Authorization", "Bearer "+rec.Token.AccessToken)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("the resource answers the revoked access token with HTTP %d", resp.StatusCode)
	}
}

// An authorization server that never answers, or is down: logout ends
// (revocation is bounded at oauth.RevokeTimeout for the whole), forgets
// the tokens, exits 0 and says why they were not revoked.
func TestAuthLogoutServerHangsOrIsDown(t *testing.T) {
	for _, tc := range []struct {
		name string
		hang bool
		want string
	}{
		{"hangs", true, "NOT revoked at %s/revoke: no answer within 10s"},
		{"down", false, "NOT revoked: discovery: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newRevokingAS(t)
			a.hang = tc.hang
			state, mcpURL := a.kept(t)
			if !tc.hang {
				a.srv.Close()
			}
			stdout, stderr, err := runLogout(t, state, mcpURL)
			want := strings.ReplaceAll(tc.want, "%s", a.srv.URL)
			if err != nil || !strings.Contains(stdout, "refresh token  "+want) || !strings.Contains(stdout, "access token   "+want) {
				t.Errorf("logout: %v\n%s\n%s", err, stdout, stderr)
			}
			noSecrets(t, stdout+stderr)
			noneKept(t, state)
		})
	}
}
