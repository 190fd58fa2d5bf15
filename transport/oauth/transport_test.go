package oauth_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/transport/oauth"
)

func newTransport(t *testing.T, f *fakeServer, store *oauth.Store, mod func(*oauth.Config)) *oauth.Transport {
	t.Helper()
	cfg := oauth.Config{Resource: f.url(), Store: store, Open: browser}
	if mod != nil {
		mod(&cfg)
	}
	tr, err := oauth.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestAuthorizesStoresAndReuses(t *testing.T) {
	f := newFakeServer(t)
	store := &oauth.Store{Dir: filepath.Join(t.TempDir(), "auth")}
	var states []oauth.State
	tr := newTransport(t, f, store, func(c *oauth.Config) { c.OnState = func(s oauth.State) { states = append(states, s) } })
	resp, err := get(t, tr, f.url())
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("got %v, %v", resp, err)
	}
	if len(f.authorizeReqs) != 1 || f.registrations != 1 {
		t.Fatalf("%d authorizations, %d registrations", len(f.authorizeReqs), f.registrations)
	}
	a := f.authorizeReqs[0]
	if a.Get("code_challenge_method") != "S256" || a.Get("resource") != f.url() || a.Get("scope") != "read" ||
		!strings.HasPrefix(a.Get("redirect_uri"), "http://127.0.0.1:") {
		t.Errorf("authorization request %v", a)
	}
	if got := strings.Join(func() []string {
		s := make([]string, len(states))
		for i, v := range states {
			s[i] = string(v)
		}
		return s
	}(), ","); got != "authorizing,authorized" {
		t.Errorf("states %s", got)
	}
	rec, err := store.Load(f.url())
	if err != nil || rec == nil || rec.Token == nil || rec.Issuer != f.srv.URL || rec.Clients[f.srv.URL].Kind != "dynamic" {
		t.Fatalf("stored %+v, %v", rec, err)
	}
	files, _ := filepath.Glob(filepath.Join(store.Dir, "*.json"))
	fi, _ := os.Stat(files[0])
	if len(files) != 1 || fi.Mode().Perm() != 0o600 {
		t.Errorf("files %v mode %v", files, fi.Mode())
	}
	// A new Transport (a new run) uses the stored token: no second sign-in.
	tr2 := newTransport(t, f, store, func(c *oauth.Config) { c.Open = nil })
	if resp, err := get(t, tr2, f.url()); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("second run: %v, %v", resp, err)
	}
	if len(f.authorizeReqs) != 1 {
		t.Errorf("the stored token was not reused: %d authorizations", len(f.authorizeReqs))
	}
}

// Each way a server can get it wrong is named, and nothing is stored.
func TestBadServersAreNamedAndNothingIsKept(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(f *fakeServer)
		want  error
		// authorizeReqs the flow may make before it sees the problem.
		authorizations int
	}{
		{"no S256", func(f *fakeServer) { f.s256 = []string{"plain"} }, oauth.ErrNoS256, 0},
		{"no PKCE at all", func(f *fakeServer) { f.s256 = nil }, oauth.ErrNoS256, 0},
		{"state mismatch", func(f *fakeServer) { f.badState = true }, oauth.ErrState, 1},
		{"iss mismatch", func(f *fakeServer) { f.issSupported, f.badIss = true, "https://evil.example.com" }, oauth.ErrIssuer, 1},
		{"iss normalised", func(f *fakeServer) { f.issSupported, f.badIss = true, f.srv.URL+"/" }, oauth.ErrIssuer, 1},
		{"unadvertised iss that differs", func(f *fakeServer) { f.badIss = "https://evil.example.com" }, oauth.ErrIssuer, 1},
		{"metadata names another issuer", func(f *fakeServer) { f.asIssuer = "https://attacker.example.com" }, oauth.ErrMetadataIssuer, 0},
		{"resource metadata for another resource", func(f *fakeServer) { f.prmResource = "https://evil.example.com/mcp" }, oauth.ErrResource, 0},
		{"token response without access_token", func(f *fakeServer) { f.noAccessTok = true }, oauth.ErrNoAccessToken, 1},
		{"registration refused", func(f *fakeServer) { f.refuseReg = true }, oauth.ErrRegistration, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeServer(t)
			tc.setup(f)
			store := &oauth.Store{Dir: filepath.Join(t.TempDir(), "auth")}
			tr := newTransport(t, f, store, nil)
			_, err := get(t, tr, f.url())
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			var oe *oauth.Error
			if !errors.As(err, &oe) || oe.Resource != f.url() {
				t.Errorf("error %v does not name the server", err)
			}
			if len(f.authorizeReqs) != tc.authorizations {
				t.Errorf("%d authorization requests, want %d", len(f.authorizeReqs), tc.authorizations)
			}
			if rec, _ := store.Load(f.url()); rec != nil {
				t.Errorf("a failed authorization stored %+v", rec)
			}
			// It stands: the next request does not ask again.
			if _, err2 := get(t, tr, f.url()); !errors.Is(err2, tc.want) || len(f.authorizeReqs) != tc.authorizations {
				t.Errorf("second request: %v, %d authorizations", err2, len(f.authorizeReqs))
			}
			// Until a new connection: then it tries again.
			tr.NewConnection()
			if _, err3 := get(t, tr, f.url()); !errors.Is(err3, tc.want) || len(f.authorizeReqs) != 2*tc.authorizations {
				t.Errorf("after NewConnection: %v, %d authorizations", err3, len(f.authorizeReqs))
			}
		})
	}
}

// A challenge's resource_metadata on a plain-http host that is not
// loopback is refused before it is fetched.
func TestMetadataOnForbiddenOriginIsRefused(t *testing.T) {
	rs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://metadata.example.com/prm"`)
		w.WriteHeader(http.StatusUnauthorized)
	}))
	defer rs.Close()
	tr, err := oauth.New(oauth.Config{Resource: rs.URL + "/mcp", Open: browser})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := get(t, tr, rs.URL+"/mcp"); !errors.Is(err, oauth.ErrOrigin) {
		t.Fatalf("error %v, want ErrOrigin", err)
	}
}

// The token goes to the resource's origin and nowhere else: not to
// another port of the same host, not to another host.
func TestTokenOnlyToItsOrigin(t *testing.T) {
	f := newFakeServer(t)
	tr := newTransport(t, f, nil, nil)
	if _, err := get(t, tr, f.url()); err != nil {
		t.Fatal(err)
	}
	var seen string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = r.Header.Get("Authorization")
		w.WriteHeader(http.StatusUnauthorized)
	}))
	defer other.Close()
	resp, err := get(t, tr, other.URL+"/mcp")
	if err != nil || resp.StatusCode != http.StatusUnauthorized || seen != "" {
		t.Fatalf("other origin got Authorization %q (%v, %v)", seen, resp, err)
	}
	if last := f.mcpAuth[len(f.mcpAuth)-1]; !strings.HasPrefix(last, "Bearer tok-") {
		t.Errorf("the resource got %q", last)
	}
}

// 403 insufficient_scope steps up with the union of the scopes; a server
// that still refuses what was granted gets no third sign-in.
func TestStepUpUnionAndLimit(t *testing.T) {
	f := newFakeServer(t)
	f.needScope = "write"
	tr := newTransport(t, f, nil, nil)
	resp, err := get(t, tr, f.url())
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("got %v, %v", resp, err)
	}
	if len(f.authorizeReqs) != 2 || f.authorizeReqs[1].Get("scope") != "read write" {
		t.Fatalf("authorizations %v", f.authorizeReqs)
	}
	// Now the server wants admin, and refuses even once it is granted:
	// one step-up, then the error, not a third sign-in.
	f.mu.Lock()
	f.needScope, f.refuseAll = "admin", true
	f.mu.Unlock()
	_, err = get(t, tr, f.url())
	if !errors.Is(err, oauth.ErrStepUpLimit) {
		t.Fatalf("error %v, want ErrStepUpLimit", err)
	}
	if len(f.authorizeReqs) != 3 || f.authorizeReqs[2].Get("scope") != "read write admin" {
		t.Fatalf("%d authorizations: %v", len(f.authorizeReqs), f.authorizeReqs)
	}
	if _, err := get(t, tr, f.url()); !errors.Is(err, oauth.ErrStepUpLimit) || len(f.authorizeReqs) != 3 {
		t.Errorf("next request: %v after %d authorizations", err, len(f.authorizeReqs))
	}
}

// An expired token with a refresh token is refreshed before it is sent,
// with the resource on the refresh request (x/oauth2 alone sends none).
func TestRefreshCarriesResource(t *testing.T) {
	f := newFakeServer(t)
	f.refresh, f.expiresIn = true, 1 // within x/oauth2's 10 s early expiry: stale at once
	store := &oauth.Store{Dir: filepath.Join(t.TempDir(), "auth")}
	tr := newTransport(t, f, store, nil)
	if _, err := get(t, tr, f.url()); err != nil {
		t.Fatal(err)
	}
	var states []oauth.State
	tr2 := newTransport(t, f, store, func(c *oauth.Config) {
		c.Open = nil
		c.OnState = func(s oauth.State) { states = append(states, s) }
	})
	if resp, err := get(t, tr2, f.url()); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("after expiry: %v, %v", resp, err)
	}
	last := f.tokenReqs[len(f.tokenReqs)-1]
	if last.Get("grant_type") != "refresh_token" || last.Get("resource") != f.url() {
		t.Fatalf("refresh request %v", last)
	}
	if len(states) == 0 || states[0] != oauth.StateRefreshing {
		t.Errorf("states %v", states)
	}
	rec, _ := store.Load(f.url())
	if rec.Token.RefreshToken == "" || rec.Token.AccessToken == "tok-2" {
		t.Errorf("the rotated token was not stored: %+v", rec.Token)
	}
}
