package oauth

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"golang.org/x/oauth2"
)

// flow is one run of authorization for a Transport.
type flow struct {
	cfg *Config
	t   *Transport
	// dpop: bind the token to a DPoP key (the authorization server
	// offers ES256 and the resource server takes DPoP).
	dpop bool
}

func (f *flow) http() *http.Client { return f.t.httpClient }

func (f *flow) logf(format string, args ...any) { f.t.logf(format, args...) }

// grantResult is what a successful flow stores.
type grantResult struct {
	d      *discovered
	client Client
	token  *oauth2.Token
	scopes []string
	dpop   []byte // PKCS#8 of the DPoP key, if bound
}

// scopes picks what to ask for (2025-11-25 "Scope Selection Strategy"):
// the challenge's scope, else the configured scopes, else the resource's
// scopes_supported, else nothing; on step-up, the union with what was
// asked before (2026-07-28, SEP-2350); offline_access when the
// authorization server lists it (SEP-2207), since elicit keeps refresh
// tokens.
func (f *flow) scopes(d *discovered, ch challenge, before []string) []string {
	var s []string
	switch {
	case len(ch.scope) > 0:
		s = ch.scope
	case len(f.cfg.Scopes) > 0:
		s = f.cfg.Scopes
	case d.prm != nil && len(d.prm.ScopesSupported) > 0:
		s = d.prm.ScopesSupported
	}
	if ch.stepUp() {
		s = union(before, s)
	}
	if len(s) > 0 && contains(d.asm.ScopesSupported, "offline_access") && !contains(s, "offline_access") {
		s = append(append([]string(nil), s...), "offline_access")
	}
	return s
}

func union(a, b []string) []string {
	out := append([]string(nil), a...)
	for _, v := range b {
		if !contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// authorizationCode runs the authorization code grant with PKCE.
func (f *flow) authorizationCode(ctx context.Context, d *discovered, rec *Record, scopes []string, stepUp bool) (*grantResult, error) {
	if f.cfg.Open == nil {
		return nil, &Error{Resource: f.cfg.Resource, Step: "authorization",
			Err: fmt.Errorf("the server needs authorization at %s, and nobody is here to open it (run elicit auth login)", d.asm.Issuer)}
	}
	if d.asm.AuthorizationEndpoint == "" {
		return nil, &Error{Resource: f.cfg.Resource, Step: "discovery",
			Err: fmt.Errorf("authorization server %s has no authorization_endpoint", d.asm.Issuer)}
	}
	port := f.cfg.RedirectPort
	if port == 0 && f.cfg.ClientID == "" {
		if c, ok := rec.Clients[d.asm.Issuer]; ok && c.Kind == "dynamic" {
			port = portOf(c.RedirectURIs)
		}
	}
	cb, err := listenCallback(port)
	if err != nil && port != 0 && f.cfg.RedirectPort == 0 {
		// The registered port is taken: a new registration takes another.
		cb, err = listenCallback(0)
	}
	if err != nil {
		return nil, &Error{Resource: f.cfg.Resource, Step: "authorization", Err: err}
	}
	defer cb.close()

	client, err := f.identity(ctx, d, rec, cb.redirectURI())
	if err != nil {
		return nil, &Error{Resource: f.cfg.Resource, Step: "registration", Err: err}
	}
	f.t.holdClient(client)
	cfg := oauth2Config(d, client, cb.redirectURI(), scopes)
	verifier := oauth2.GenerateVerifier()
	f.hold(verifier)
	state := rand.Text()
	authURL := cfg.AuthCodeURL(state,
		oauth2.S256ChallengeOption(verifier),
		oauth2.SetAuthURLParam("resource", d.resource))

	f.t.setState(StateAuthorizing)
	f.logf("authorization at %s for %s", d.asm.Issuer, d.resource)
	res, err := f.ask(ctx, cb, Authorization{URL: authURL, Issuer: d.asm.Issuer, Resource: d.resource, Scopes: scopes, StepUp: stepUp})
	if err != nil {
		return nil, &Error{Resource: f.cfg.Resource, Step: "authorization", Err: err}
	}
	f.hold(res.code)
	if err := checkResponse(res, state, d.asm.Issuer, d.asm.AuthorizationResponseIssParameterSupported); err != nil {
		return nil, &Error{Resource: f.cfg.Resource, Step: "authorization", Err: err}
	}
	tc, dpop, err := f.tokenContext(ctx, d, f.dpop)
	if err != nil {
		return nil, &Error{Resource: f.cfg.Resource, Step: "token", Err: err}
	}
	tok, err := cfg.Exchange(tc, res.code,
		oauth2.VerifierOption(verifier),
		oauth2.SetAuthURLParam("resource", d.resource))
	if err != nil {
		return nil, &Error{Resource: f.cfg.Resource, Step: "token", Err: tokenError(err)}
	}
	return &grantResult{d: d, client: client, token: tok, scopes: scopes, dpop: dpop.pkcs8()}, nil
}

// ask shows the authorization to the person and waits for the callback.
// Open runs in its own goroutine; its context ends with the wait.
func (f *flow) ask(ctx context.Context, cb *callback, a Authorization) (callbackResult, error) {
	wait := f.cfg.Timeout
	if wait <= 0 {
		wait = DefaultTimeout
	}
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(errors.New("authorization ended"))
	f.t.waiting.Add(1)
	defer f.t.waiting.Add(-1)
	timer := time.NewTimer(wait)
	defer timer.Stop()
	done := make(chan error, 1)
	go func() { done <- f.cfg.Open(actx, a) }()
	opened := done
	defer func() {
		cancel(errors.New("authorization ended"))
		if opened != nil {
			<-opened
		}
	}()
	for {
		select {
		case err := <-opened:
			if err != nil {
				return callbackResult{}, fmt.Errorf("%w: %v", ErrDenied, err)
			}
			opened = nil // shown; wait for the callback
		case r := <-cb.got:
			// Said to Open (a pane shows it as its end).
			cancel(errors.New("the browser came back to elicit"))
			return r, nil
		case <-timer.C:
			return callbackResult{}, fmt.Errorf("%w: no answer at %s within %v", ErrTimeout, cb.redirectURI(), wait)
		case <-ctx.Done():
			return callbackResult{}, context.Cause(ctx)
		}
	}
}

// checkResponse judges the authorization response, in the spec's order:
// state, then iss (RFC 9207 and the 2026-07-28 table; a plain string
// compare, no normalising), and only then an error it carries (an error
// from the wrong issuer is not shown).
func checkResponse(r callbackResult, state, issuer string, issAdvertised bool) error {
	if r.state != state {
		return ErrState
	}
	switch {
	case r.hasIss && r.iss != issuer:
		return fmt.Errorf("%w: got %q, want %q", ErrIssuer, r.iss, issuer)
	case !r.hasIss && issAdvertised:
		return fmt.Errorf("%w: %s promises iss (authorization_response_iss_parameter_supported) and sent none", ErrIssuer, issuer)
	}
	if r.err != "" {
		msg := r.err
		if r.errDesc != "" {
			msg += ": " + r.errDesc
		}
		return fmt.Errorf("%w: %s", ErrDenied, msg)
	}
	if r.code == "" {
		return fmt.Errorf("%w: the authorization response has no code", ErrDenied)
	}
	return nil
}

// oauth2Config is the x/oauth2 view of a client at d's server. The auth
// style is always explicit: x/oauth2's auto-detection tries Basic first
// and keeps it whenever the server does not fail, which is wrong for
// client_secret_post and none.
func oauth2Config(d *discovered, c Client, redirect string, scopes []string) *oauth2.Config {
	style := oauth2.AuthStyleInParams // post, and none (no secret)
	secret := c.ClientSecret
	switch c.AuthMethod {
	case "client_secret_basic":
		style = oauth2.AuthStyleInHeader
	case "none":
		secret = ""
	}
	return &oauth2.Config{
		ClientID: c.ClientID, ClientSecret: secret,
		Endpoint: oauth2.Endpoint{
			AuthURL: d.asm.AuthorizationEndpoint, TokenURL: d.asm.TokenEndpoint, AuthStyle: style,
		},
		RedirectURL: redirect,
		Scopes:      scopes,
	}
}

// tokenError names what a token endpoint said.
func tokenError(err error) error {
	var re *oauth2.RetrieveError
	switch {
	case errors.As(err, &re):
		msg := re.ErrorCode
		if msg == "" {
			msg = fmt.Sprintf("HTTP %d", re.Response.StatusCode)
		}
		if re.ErrorDescription != "" {
			msg += ": " + re.ErrorDescription
		}
		return fmt.Errorf("%w: the token endpoint said %s", ErrDenied, msg)
	case strings.Contains(err.Error(), "missing access_token"):
		return ErrNoAccessToken
	}
	return err
}

// portOf is the port of the first loopback redirect URI, 0 if none.
func portOf(uris []string) int {
	for _, u := range uris {
		var port int
		if _, err := fmt.Sscanf(u, "http://127.0.0.1:%d/", &port); err == nil {
			return port
		}
	}
	return 0
}
