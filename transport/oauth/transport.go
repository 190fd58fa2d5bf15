package oauth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/elicit-dev/elicit/transport/redact"
)

// Transport is an http.RoundTripper that authorizes requests to one MCP
// server (see the package doc). Requests to any other origin pass
// through untouched, and so does a request that already carries an
// Authorization header (one the person configured).
type Transport struct {
	// Base sends the requests; nil is http.DefaultTransport.
	Base http.RoundTripper

	cfg        Config
	res        *url.URL
	httpClient *http.Client

	mu    sync.Mutex
	rec   *Record
	gen   int // bumped whenever the token changes
	state State
	// fruitless counts authorizations in a row after which the server
	// still refused: past maxFruitless, a 401 is returned as it is
	// instead of opening the browser once more.
	fruitless int
	// refreshedGen is the generation a refresh installed: a 401 to that
	// very token authorizes anew instead of refreshing again.
	refreshedGen int
	dpop         *dpopKey
	// failed is the error of the last authorization, which ended it.
	failed error

	flowMu  sync.Mutex // one authorization or refresh at a time
	waiting atomic.Int32
}

// maxFruitless bounds authorizations that the server answers with
// another 401 before anything succeeds.
const maxFruitless = 2

// New returns the Transport for cfg, with what cfg.Store holds for the
// server loaded.
func New(cfg Config) (*Transport, error) {
	u, err := url.Parse(cfg.Resource)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("oauth: %q is not an http or https URL", cfg.Resource)
	}
	if cfg.ClientMetadataURL != "" {
		mu, err := url.Parse(cfg.ClientMetadataURL)
		if err != nil || mu.Scheme != "https" || strings.Trim(mu.Path, "/") == "" {
			return nil, fmt.Errorf("oauth: client metadata URL %q must be https with a path", cfg.ClientMetadataURL)
		}
	}
	if cfg.Secrets == nil {
		cfg.Secrets = redact.NewSecrets()
	}
	cfg.Secrets.Add(cfg.ClientSecret)
	if cfg.Grant != nil {
		cfg.Secrets.Add(cfg.Grant.secrets()...)
	}
	t := &Transport{cfg: cfg, res: u}
	t.httpClient = cfg.HTTPClient
	if t.httpClient == nil {
		t.httpClient = &http.Client{Timeout: httpTimeout, CheckRedirect: sameOriginRedirects}
	}
	rec, err := cfg.Store.Load(cfg.Resource)
	if err != nil {
		return nil, err
	}
	if rec == nil {
		rec = &Record{URL: cfg.Resource}
	}
	t.rec = rec
	t.hold(rec)
	if rec.Token != nil && len(rec.Token.DPoPKey) > 0 {
		if k, err := parseDPoPKey(rec.Token.DPoPKey); err == nil {
			t.dpop = k
		}
	}
	return t, nil
}

// sameOriginRedirects keeps discovery and token requests on the origin
// they were sent to: a metadata document that redirects elsewhere is not
// the one that was asked for.
func sameOriginRedirects(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	if !sameOrigin(req.URL, via[0].URL) {
		return fmt.Errorf("%w: %s redirected to %s", ErrOrigin, originKey(via[0].URL), originKey(req.URL))
	}
	return nil
}

// NewConnection forgets a failed authorization: a new connection (a
// reconnect the person asked for) may sign in again. transport.HTTP calls
// it on each Dial.
func (t *Transport) NewConnection() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.failed, t.fruitless = nil, 0
}

// Waiting reports whether an authorization is waiting on a person:
// timeouts that mean "the server is silent" should stand still meanwhile.
func (t *Transport) Waiting() bool { return t.waiting.Load() > 0 }

// State is the authorization state ("" before any challenge).
func (t *Transport) State() State {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.state
}

func (t *Transport) setState(s State) {
	t.mu.Lock()
	changed := t.state != s
	t.state = s
	t.mu.Unlock()
	if changed && t.cfg.OnState != nil {
		t.cfg.OnState(s)
	}
}

func (t *Transport) base() http.RoundTripper {
	if t.Base != nil {
		return t.Base
	}
	return http.DefaultTransport
}

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !sameOrigin(req.URL, t.res) || req.Header.Get("Authorization") != "" {
		return t.base().RoundTrip(req)
	}
	ctx := req.Context()
	gen, err := t.fresh(ctx)
	if err != nil {
		return nil, err
	}
	resp, err := t.send(req)
	// A request meets at most two challenges: a 401 (authorize), then a
	// 403 insufficient_scope on the new token (step up).
	for round := 0; ; round++ {
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden {
			t.succeeded(resp.StatusCode)
			return resp, nil
		}
		ch := readChallenge(resp)
		if resp.StatusCode == http.StatusForbidden && !ch.stepUp() {
			return resp, nil
		}
		if t.retryDPoPNonce(resp, ch) {
			drain(resp)
			if resp, err = t.send(req); err != nil || (resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden) {
				return resp, err
			}
			ch = readChallenge(resp)
		}
		if round >= 2 || req.Body != nil && req.GetBody == nil {
			return resp, nil // asked enough, or cannot send it again
		}
		if err := t.challenged(ctx, ch, gen); err != nil {
			drain(resp)
			return nil, err
		}
		drain(resp)
		t.mu.Lock()
		gen = t.gen
		t.mu.Unlock()
		resp, err = t.send(req)
	}
}

// send sends req with the current token (a DPoP proof alongside for a
// DPoP-bound token). A request body is taken afresh from GetBody.
func (t *Transport) send(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	if req.GetBody != nil && req.Body != nil && req.Body != http.NoBody {
		b, err := req.GetBody()
		if err != nil {
			return nil, err
		}
		r.Body = b
	}
	t.mu.Lock()
	tok := t.rec.Token
	key := t.dpop
	t.mu.Unlock()
	if tok != nil {
		if tok.isDPoP() && key != nil {
			proof, err := key.proof(r.Method, r.URL, key.nonceFor(r.URL), tok.AccessToken)
			if err != nil {
				return nil, err
			}
			r.Header.Set("Authorization", "DPoP "+tok.AccessToken)
			r.Header.Set("DPoP", proof)
		} else {
			r.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		}
	}
	return t.base().RoundTrip(r)
}

// retryDPoPNonce reports whether resp asks for a DPoP nonce (RFC 9449
// §9) that the request did not carry; the nonce is kept for every later
// proof to that origin.
func (t *Transport) retryDPoPNonce(resp *http.Response, ch challenge) bool {
	t.mu.Lock()
	key := t.dpop
	t.mu.Unlock()
	if key == nil || ch.dpopNonce == "" || ch.err != "use_dpop_nonce" {
		if key != nil && ch.dpopNonce != "" {
			key.setNonce(resp.Request.URL, ch.dpopNonce)
		}
		return false
	}
	had := key.nonceFor(resp.Request.URL)
	key.setNonce(resp.Request.URL, ch.dpopNonce)
	return had != ch.dpopNonce
}

// succeeded notes an answer that was not a refusal.
func (t *Transport) succeeded(status int) {
	if status >= 200 && status < 300 {
		t.mu.Lock()
		t.fruitless = 0
		t.mu.Unlock()
	}
}

func drain(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
	resp.Body.Close()
}

// fresh refreshes an expired token before it is sent, if it can; it
// returns the token's generation.
func (t *Transport) fresh(ctx context.Context) (int, error) {
	t.mu.Lock()
	tok, gen := t.rec.Token, t.gen
	t.mu.Unlock()
	if tok == nil || !tok.expired(time.Now()) {
		return gen, nil
	}
	t.flowMu.Lock()
	defer t.flowMu.Unlock()
	t.mu.Lock()
	if t.gen != gen {
		gen = t.gen
		t.mu.Unlock()
		return gen, nil
	}
	t.mu.Unlock()
	if tok.RefreshToken == "" {
		t.setState(StateExpired)
		return gen, nil // the server will say 401, and that authorizes anew
	}
	if err := t.refresh(ctx); err != nil {
		t.setState(StateExpired)
		t.logf("refresh failed: %v", err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.gen, nil
}

// challenged handles a 401 or a 403 insufficient_scope to a request sent
// with token generation gen: refresh, or authorize (anew, or with more
// scope). It returns nil when the request should be sent again.
func (t *Transport) challenged(ctx context.Context, ch challenge, gen int) error {
	t.flowMu.Lock()
	defer t.flowMu.Unlock()
	t.mu.Lock()
	newer := t.gen != gen
	before := append([]string(nil), t.rec.Scopes...)
	fruitless := t.fruitless
	t.mu.Unlock()
	if newer && !ch.stepUp() {
		return nil // another request got a token meanwhile: try that one
	}
	t.mu.Lock()
	failed := t.failed
	t.mu.Unlock()
	if failed != nil {
		// An authorization failed: its error stands, rather than asking
		// the person (or a token endpoint that refused) again on every
		// request. A new connection starts afresh.
		return failed
	}
	if ch.stepUp() {
		if len(ch.scope) > 0 && subset(ch.scope, before) {
			return &Error{Resource: t.cfg.Resource, Step: "step-up",
				Err: fmt.Errorf("%w: it wants %s, which was asked for already", ErrStepUpLimit, strings.Join(ch.scope, " "))}
		}
	}
	if fruitless >= maxFruitless {
		return &Error{Resource: t.cfg.Resource, Step: "authorization",
			Err: fmt.Errorf("the server refused the last %d tokens it had elicit get; not asking again", fruitless)}
	}
	refreshed, err := t.authorize(ctx, ch, before, gen)
	if !refreshed {
		t.mu.Lock()
		t.fruitless++
		t.mu.Unlock()
	}
	return err
}

func subset(a, b []string) bool {
	for _, v := range a {
		if !contains(b, v) {
			return false
		}
	}
	return true
}

// refresh refreshes the stored token, reading the store first: another
// elicit process may have rotated it already.
func (t *Transport) refresh(ctx context.Context) error {
	t.setState(StateRefreshing)
	f := &flow{cfg: &t.cfg, t: t}
	t.mu.Lock()
	had := t.rec.Token
	t.mu.Unlock()
	rec, err := t.cfg.Store.Update(t.cfg.Resource, func(r *Record) error {
		if t.cfg.Store == nil {
			t.mu.Lock()
			*r = *t.rec
			t.mu.Unlock()
		}
		t.hold(r) // as another process may have left it
		if r.Token != nil && had != nil && r.Token.AccessToken != had.AccessToken && !r.Token.expired(time.Now()) {
			return nil // rotated by someone else
		}
		tok, err := f.refresh(ctx, r)
		if err != nil {
			return t.redacted(err)
		}
		dpop := []byte(nil)
		if r.Token != nil {
			dpop = r.Token.DPoPKey
		}
		r.Token = storedToken(tok, dpop)
		return nil
	})
	if err != nil {
		return err
	}
	t.install(rec)
	t.mu.Lock()
	t.refreshedGen = t.gen
	t.mu.Unlock()
	t.setState(StateAuthorized)
	return nil
}

// install makes rec the current state, with a new token generation.
func (t *Transport) install(rec *Record) {
	t.hold(rec)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.rec = rec
	t.gen++
	t.dpop = nil
	if rec.Token != nil && len(rec.Token.DPoPKey) > 0 {
		if k, err := parseDPoPKey(rec.Token.DPoPKey); err == nil {
			t.dpop = k
		}
	}
}

func (t *Transport) logf(format string, args ...any) {
	if t.cfg.Logf != nil {
		t.cfg.Logf("%s", t.cfg.Secrets.String(fmt.Sprintf(format, args...)))
	}
}

// sameOrigin compares scheme, host and port (default ports filled in).
func sameOrigin(a, b *url.URL) bool {
	port := func(u *url.URL) string {
		if p := u.Port(); p != "" {
			return p
		}
		if strings.EqualFold(u.Scheme, "https") {
			return "443"
		}
		return "80"
	}
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) && port(a) == port(b)
}
