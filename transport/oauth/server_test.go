package oauth_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/transport/oauth"
)

// fakeServer is an MCP resource server and its authorization server on
// one origin, each part of which a test can break: what RFC 9728, RFC
// 8414, RFC 7591, RFC 7636 and RFC 9207 say, and the ways servers get it
// wrong. It verifies PKCE and the resource itself.
type fakeServer struct {
	t   *testing.T
	srv *httptest.Server

	mu sync.Mutex
	// What it serves (tests change these before the first request).
	prmResource  string   // "" = the MCP URL
	asIssuer     string   // "" = the origin
	s256         []string // code_challenge_methods_supported
	issSupported bool
	badState     bool
	badIss       string // iss to send instead of the issuer
	noAccessTok  bool
	refuseReg    bool
	expiresIn    int
	refresh      bool
	needScope    string // a scope tools/call needs (403 insufficient_scope)
	refuseAll    bool   // 403 needScope whatever the token has
	challScope   string // scope in the 401

	// What it saw.
	authorizeReqs []url.Values
	tokenReqs     []url.Values
	registrations int
	mcpAuth       []string // Authorization of each /mcp request
	tokens        map[string][]string
	codes         map[string]url.Values
	n             int
}

func newFakeServer(t *testing.T) *fakeServer {
	f := &fakeServer{t: t, s256: []string{"S256"}, expiresIn: 3600, tokens: map[string][]string{}, codes: map[string]url.Values{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/mcp", f.mcp)
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", f.prm)
	mux.HandleFunc("/.well-known/oauth-authorization-server", f.asMeta)
	mux.HandleFunc("/authorize", f.authorize)
	mux.HandleFunc("/token", f.token)
	mux.HandleFunc("/register", f.register)
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeServer) url() string { return f.srv.URL + "/mcp" }

func (f *fakeServer) json(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (f *fakeServer) mcp(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	auth := r.Header.Get("Authorization")
	f.mcpAuth = append(f.mcpAuth, auth)
	tok, _ := strings.CutPrefix(auth, "Bearer ")
	scopes, ok := f.tokens[tok]
	if !ok {
		ch := fmt.Sprintf(`Bearer resource_metadata="%s/.well-known/oauth-protected-resource/mcp"`, f.srv.URL)
		if f.challScope != "" {
			ch += fmt.Sprintf(`, scope="%s"`, f.challScope)
		}
		w.Header().Set("WWW-Authenticate", ch)
		f.json(w, http.StatusUnauthorized, map[string]string{"error": "invalid_token"})
		return
	}
	if f.needScope != "" && (f.refuseAll || !contains(scopes, f.needScope)) {
		w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope="%s", resource_metadata="%s/.well-known/oauth-protected-resource/mcp"`, f.needScope, f.srv.URL))
		f.json(w, http.StatusForbidden, map[string]string{"error": "insufficient_scope"})
		return
	}
	f.json(w, http.StatusOK, map[string]any{"jsonrpc": "2.0", "id": 1, "result": map[string]any{}})
}

func contains(l []string, s string) bool {
	for _, v := range l {
		if v == s {
			return true
		}
	}
	return false
}

func (f *fakeServer) prm(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	res := f.prmResource
	if res == "" {
		res = f.url()
	}
	f.json(w, http.StatusOK, map[string]any{"resource": res, "authorization_servers": []string{f.srv.URL}, "scopes_supported": []string{"read"}})
}

func (f *fakeServer) asMeta(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	iss := f.asIssuer
	if iss == "" {
		iss = f.srv.URL
	}
	f.json(w, http.StatusOK, map[string]any{
		"issuer":                           iss,
		"authorization_endpoint":           f.srv.URL + "/authorize",
		"token_endpoint":                   f.srv.URL + "/token",
		"registration_endpoint":            f.srv.URL + "/register",
		"code_challenge_methods_supported": f.s256,
		"authorization_response_iss_parameter_supported": f.issSupported,
		"token_endpoint_auth_methods_supported":          []string{"none"},
	})
}

func (f *fakeServer) authorize(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	q := r.URL.Query()
	f.authorizeReqs = append(f.authorizeReqs, q)
	f.n++
	code := fmt.Sprintf("code-%d", f.n)
	f.codes[code] = q
	back, _ := url.Parse(q.Get("redirect_uri"))
	v := url.Values{"code": {code}, "state": {q.Get("state")}}
	if f.badState {
		v.Set("state", "forged")
	}
	switch {
	case f.badIss != "":
		v.Set("iss", f.badIss)
	case f.issSupported:
		v.Set("iss", f.srv.URL)
	}
	back.RawQuery = v.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

func (f *fakeServer) token(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	_ = r.ParseForm()
	f.tokenReqs = append(f.tokenReqs, r.PostForm)
	var scopes []string
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		a, ok := f.codes[r.PostForm.Get("code")]
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		if !ok || base64.RawURLEncoding.EncodeToString(sum[:]) != a.Get("code_challenge") {
			f.json(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant", "error_description": "PKCE"})
			return
		}
		if r.PostForm.Get("resource") != a.Get("resource") || r.PostForm.Get("resource") != f.url() {
			f.json(w, http.StatusBadRequest, map[string]string{"error": "invalid_target"})
			return
		}
		delete(f.codes, r.PostForm.Get("code"))
		scopes = strings.Fields(a.Get("scope"))
	case "refresh_token":
		if r.PostForm.Get("resource") != f.url() {
			f.json(w, http.StatusBadRequest, map[string]string{"error": "invalid_target"})
			return
		}
		scopes = []string{"read"}
	}
	if f.noAccessTok {
		f.json(w, http.StatusOK, map[string]any{"token_type": "Bearer"})
		return
	}
	f.n++
	tok := fmt.Sprintf("tok-%d", f.n)
	f.tokens[tok] = scopes
	resp := map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": f.expiresIn, "scope": strings.Join(scopes, " ")}
	if f.refresh {
		resp["refresh_token"] = fmt.Sprintf("rt-%d", f.n)
	}
	f.json(w, http.StatusOK, resp)
}

func (f *fakeServer) register(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.registrations++
	var m map[string]any
	_ = json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&m)
	if f.refuseReg {
		f.json(w, http.StatusBadRequest, map[string]string{"error": "invalid_redirect_uri", "error_description": "not on my list"})
		return
	}
	m["client_id"] = fmt.Sprintf("client-%d", f.registrations)
	f.json(w, http.StatusCreated, m)
}

// browser is Config.Open for tests: it GETs the URL and follows the
// redirects to the loopback listener, as a browser does.
func browser(ctx context.Context, a oauth.Authorization) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.URL, nil)
	if err != nil {
		return err
	}
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return nil
}

// get sends one request through t to u.
func get(t *testing.T, rt http.RoundTripper, u string) (*http.Response, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, u, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := rt.RoundTrip(req)
	if err == nil {
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	return resp, err
}
