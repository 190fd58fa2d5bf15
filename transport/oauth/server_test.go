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
	echoToken    bool // refuse every token request, echoing it in error_description
	refuseReg    bool
	expiresIn    int
	refresh      bool
	needScope    string // a scope tools/call needs (403 insufficient_scope)
	refuseAll    bool   // 403 needScope whatever the token has
	challScope   string // scope in the 401
	// Revocation (RFC 7009): revocation publishes /revoke; authMethod is
	// the one client authentication it lists and registers clients with
	// ("" = none, public clients); revokeStatus answers every revocation
	// with that status; revokeHang never answers; dpopNonce asks for a
	// DPoP nonce once.
	revocation   bool
	authMethod   string
	revokeStatus int
	revokeHang   bool
	dpopNonce    string
	revokeAuth   []string // revocation_endpoint_auth_methods_supported, taken instead of the registered method
	revokeURL    string   // revocation_endpoint instead of /revoke here
	release      chan struct{}

	// What it saw.
	authorizeReqs []url.Values
	tokenReqs     []url.Values
	registrations int
	mcpAuth       []string // Authorization of each /mcp request
	tokens        map[string][]string
	codes         map[string]url.Values
	n             int
	clients       map[string]fakeClient // by client_id
	owner         map[string]string     // token (access or refresh) -> client_id
	refreshTokens map[string]bool       // live refresh tokens
	revokeReqs    []revokeReq
}

type fakeClient struct{ secret, method string }

// revokeReq is one revocation request as the server saw it.
type revokeReq struct {
	form          url.Values
	authorization string
	dpop          string
	method        string // the client authentication used
}

func newFakeServer(t *testing.T) *fakeServer {
	f := &fakeServer{t: t, s256: []string{"S256"}, expiresIn: 3600, tokens: map[string][]string{}, codes: map[string]url.Values{},
		clients: map[string]fakeClient{}, owner: map[string]string{}, refreshTokens: map[string]bool{}, release: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("/mcp", f.mcp)
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", f.prm)
	mux.HandleFunc("/.well-known/oauth-authorization-server", f.asMeta)
	mux.HandleFunc("/authorize", f.authorize)
	mux.HandleFunc("/token", f.token)
	mux.HandleFunc("/register", f.register)
	mux.HandleFunc("/revoke", f.revoke)
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	t.Cleanup(func() { close(f.release) }) // before Close: a hung revocation ends
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
	methods := []string{"none"}
	if f.authMethod != "" {
		methods = []string{f.authMethod}
	}
	m := map[string]any{
		"issuer":                           iss,
		"authorization_endpoint":           f.srv.URL + "/authorize",
		"token_endpoint":                   f.srv.URL + "/token",
		"registration_endpoint":            f.srv.URL + "/register",
		"code_challenge_methods_supported": f.s256,
		"authorization_response_iss_parameter_supported": f.issSupported,
		"token_endpoint_auth_methods_supported":          methods,
	}
	switch {
	case f.revokeURL != "":
		m["revocation_endpoint"] = f.revokeURL
	case f.revocation:
		m["revocation_endpoint"] = f.srv.URL + "/revoke"
	}
	if f.revokeAuth != nil {
		m["revocation_endpoint_auth_methods_supported"] = f.revokeAuth
	}
	f.json(w, http.StatusOK, m)
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
	if f.echoToken {
		var sent []string
		for k, vs := range r.PostForm {
			sent = append(sent, k+"="+strings.Join(vs, ","))
		}
		f.json(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant",
			"error_description": "you sent " + strings.Join(sent, " ") + " as " + r.PostForm.Encode() + " with " + r.Header.Get("Authorization")})
		return
	}
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
		if !f.refreshTokens[r.PostForm.Get("refresh_token")] {
			f.json(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant", "error_description": "unknown refresh token"})
			return
		}
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
	client, _, _ := f.clientOf(r)
	f.owner[tok] = client
	resp := map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": f.expiresIn, "scope": strings.Join(scopes, " ")}
	if f.refresh {
		rt := fmt.Sprintf("rt-%d", f.n)
		resp["refresh_token"] = rt
		f.refreshTokens[rt] = true
		f.owner[rt] = client
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
	id := fmt.Sprintf("client-%d", f.registrations)
	m["client_id"] = id
	c := fakeClient{method: "none"}
	if f.authMethod != "" {
		c = fakeClient{secret: fmt.Sprintf("secret-%d", f.registrations), method: f.authMethod}
		m["client_secret"] = c.secret
		m["token_endpoint_auth_method"] = c.method
	}
	f.clients[id] = c
	f.json(w, http.StatusCreated, m)
}

// clientOf reads a request's client authentication: the client_id, the
// method used (a Basic header, a body secret, or neither) and its secret.
func (f *fakeServer) clientOf(r *http.Request) (id, method, secret string) {
	if u, p, ok := r.BasicAuth(); ok {
		id, _ = url.QueryUnescape(u)
		secret, _ = url.QueryUnescape(p)
		return id, "client_secret_basic", secret
	}
	if r.PostForm.Has("client_secret") {
		return r.PostForm.Get("client_id"), "client_secret_post", r.PostForm.Get("client_secret")
	}
	return r.PostForm.Get("client_id"), "none", ""
}

// revoke is an RFC 7009 revocation endpoint: the client must
// authenticate exactly as it registered, the token must be its own, and a
// revoked token is refused from then on (the access token at /mcp, the
// refresh token at /token).
func (f *fakeServer) revoke(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	hang := f.revokeHang
	f.mu.Unlock()
	if hang {
		select {
		case <-r.Context().Done():
		case <-f.release:
		}
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	_ = r.ParseForm()
	id, method, secret := f.clientOf(r)
	f.revokeReqs = append(f.revokeReqs, revokeReq{form: r.PostForm, authorization: r.Header.Get("Authorization"), dpop: r.Header.Get("DPoP"), method: method})
	if f.dpopNonce != "" && r.Header.Get("DPoP") != "" && !strings.Contains(dpopClaims(r.Header.Get("DPoP")), f.dpopNonce) {
		w.Header().Set("DPoP-Nonce", f.dpopNonce)
		f.json(w, http.StatusBadRequest, map[string]string{"error": "use_dpop_nonce"})
		return
	}
	if f.revokeStatus != 0 {
		// A server that echoes what it got, token and all.
		f.json(w, f.revokeStatus, map[string]string{"error": "server_error", "error_description": "cannot revoke " + r.PostForm.Get("token") + " now"})
		return
	}
	c, ok := f.clients[id]
	if f.revokeAuth != nil && c.method != "none" {
		c.method = f.revokeAuth[0]
	}
	if !ok || c.method != method || c.secret != secret {
		f.json(w, http.StatusUnauthorized, map[string]string{"error": "invalid_client"})
		return
	}
	tok := r.PostForm.Get("token")
	if owner, ok := f.owner[tok]; ok && owner != id {
		f.json(w, http.StatusBadRequest, map[string]string{"error": "invalid_request", "error_description": "not your token"})
		return
	}
	delete(f.tokens, tok)
	delete(f.refreshTokens, tok)
	f.json(w, http.StatusOK, map[string]any{})
}

// dpopClaims is a DPoP proof's decoded claims, "" if it does not decode.
func dpopClaims(jwt string) string {
	parts := strings.Split(jwt, ".")
	if len(parts) != 3 {
		return ""
	}
	b, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return ""
	}
	return string(b)
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
