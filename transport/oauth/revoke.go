package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/elicit-dev/elicit/transport/redact"
)

// Token revocation at logout (RFC 7009). Logging out forgets the stored
// record first (under the store's lock, so the last rotated token is the
// one revoked), then asks the issuer's revocation_endpoint to revoke the
// refresh token and the access token, each with its token_type_hint,
// authenticating as the client the token was issued to.
//
// Where the tokens go: only to the revocation_endpoint of the issuer's
// own metadata, fetched afresh by the discovery the flow uses (issuer
// match, https or loopback http), as the token endpoint is trusted with
// the refresh token and the client secret. RFC 8414 puts no endpoint on
// the issuer's origin (token endpoints elsewhere are common), so neither
// does this. The requests follow no redirect at all: a token in a POST
// body goes to the URL the metadata named, or nowhere.
//
// DPoP: RFC 9449 asks nothing of revocation, but a DPoP-bound token's
// proof goes along (and a server nonce is honoured once): servers that
// ignore it lose nothing, and some want proof of possession before
// revoking a public client's bound token.

// RevokeTimeout bounds the whole revocation at logout: discovery and
// both requests. A slow or absent authorization server never holds a
// logout longer.
const RevokeTimeout = 10 * time.Second

// revokeLimit bounds what is read of a revocation response.
const revokeLimit = 16 << 10

// Outcome is what became of one token at logout.
type Outcome string

// The outcomes.
const (
	// Revoked: the revocation endpoint answered 200 (RFC 7009 §2.2; also
	// what it answers for a token it no longer knows).
	Revoked Outcome = "revoked"
	// NoEndpoint: the authorization server publishes no
	// revocation_endpoint (or no metadata at all): forgotten only.
	NoEndpoint Outcome = "no revocation endpoint"
	// Expired: the access token had expired already; it was not sent.
	Expired Outcome = "expired"
	// Failed: revocation was tried and did not succeed; Err says why.
	Failed Outcome = "failed"
	// NotAsked: revocation was not asked for (offline logout).
	NotAsked Outcome = "not asked"
)

// Revocation is the fate of one token.
type Revocation struct {
	// Token is "refresh token" or "access token".
	Token   string
	Outcome Outcome
	// Endpoint is the revocation endpoint used, if any.
	Endpoint string
	// Err says why for Failed, and what was found for NoEndpoint. It
	// holds server text (for the caller to show as untrusted) and never
	// a token or secret.
	Err error
}

// LoggedOut is what Logout did.
type LoggedOut struct {
	// Kept: there was a stored record, now deleted.
	Kept bool
	// Issuer of the forgotten tokens ("" if none were kept).
	Issuer string
	// Tokens: one entry per forgotten token, refresh token first.
	Tokens []Revocation
}

// Logout forgets the server's stored tokens and registrations and, with
// revoke, asks the issuer to revoke the tokens (bounded by
// RevokeTimeout). The record is deleted whatever revocation does; the
// error is only the store's.
func (t *Transport) Logout(ctx context.Context, revoke bool) (*LoggedOut, error) {
	var old *Record
	_, err := t.cfg.Store.Update(t.cfg.Resource, func(r *Record) error {
		if t.cfg.Store == nil {
			t.mu.Lock()
			*r = *t.rec
			t.mu.Unlock()
		}
		if r.Token != nil || len(r.Clients) > 0 {
			old = cloneRecord(r)
		}
		*r = Record{URL: t.cfg.Resource}
		return nil
	})
	if err != nil {
		return nil, err
	}
	t.install(&Record{URL: t.cfg.Resource})
	out := &LoggedOut{Kept: old != nil}
	if old == nil || old.Token == nil {
		return out, nil
	}
	out.Issuer = old.Issuer
	if !revoke {
		out.Tokens = revokeAll(old.Token, Revocation{Outcome: NotAsked})
		return out, nil
	}
	ctx, cancel := context.WithTimeout(ctx, RevokeTimeout)
	defer cancel()
	f := &flow{cfg: &t.cfg, t: t}
	out.Tokens = f.revoke(ctx, old)
	return out, nil
}

// revokeAll is the same result for each token tok holds.
func revokeAll(tok *Token, r Revocation) []Revocation {
	var out []Revocation
	if tok.RefreshToken != "" {
		r.Token = "refresh token"
		out = append(out, r)
	}
	if tok.AccessToken != "" {
		r.Token = "access token"
		out = append(out, r)
	}
	return out
}

// revoke revokes rec's tokens at its issuer's revocation endpoint.
func (f *flow) revoke(ctx context.Context, rec *Record) []Revocation {
	f.t.hold(rec) // another process may have rotated them since New
	tok := rec.Token
	if rec.Issuer == "" {
		return revokeAll(tok, Revocation{Outcome: Failed, Err: errors.New("the record names no authorization server")})
	}
	asm, _, err := f.authServer(ctx, rec.Issuer)
	switch {
	case errors.Is(err, errAbsent):
		return revokeAll(tok, Revocation{Outcome: NoEndpoint, Err: fmt.Errorf("%s publishes no authorization server metadata", rec.Issuer)})
	case err != nil:
		return revokeAll(tok, Revocation{Outcome: Failed, Err: fmt.Errorf("discovery: %w", f.scrub(err))})
	case asm.RevocationEndpoint == "":
		return revokeAll(tok, Revocation{Outcome: NoEndpoint, Err: fmt.Errorf("%s publishes no revocation_endpoint", rec.Issuer)})
	}
	endpoint := asm.RevocationEndpoint
	c, ok := rec.Clients[rec.Issuer]
	if !ok {
		return revokeAll(tok, Revocation{Outcome: Failed, Endpoint: endpoint, Err: fmt.Errorf("no client registration for %s is kept", rec.Issuer)})
	}
	auth, err := f.revocationAuth(c, rec.Issuer, asm.RevocationEndpointAuthMethodsSupported)
	if err != nil {
		return revokeAll(tok, Revocation{Outcome: Failed, Endpoint: endpoint, Err: err})
	}
	var key *dpopKey
	if len(tok.DPoPKey) > 0 {
		if key, err = parseDPoPKey(tok.DPoPKey); err != nil {
			return revokeAll(tok, Revocation{Outcome: Failed, Endpoint: endpoint, Err: err})
		}
	}
	client := f.revocationClient(key)
	var out []Revocation
	// The refresh token first: revoking it SHOULD end the grant's access
	// tokens as well (RFC 7009 §2.1); the access token is sent anyway.
	if tok.RefreshToken != "" {
		out = append(out, f.revokeOne(ctx, client, endpoint, auth, "refresh token", "refresh_token", tok.RefreshToken, tok))
	}
	if tok.AccessToken != "" {
		if tok.expired(time.Now()) {
			out = append(out, Revocation{Token: "access token", Outcome: Expired})
		} else {
			out = append(out, f.revokeOne(ctx, client, endpoint, auth, "access token", "access_token", tok.AccessToken, tok))
		}
	}
	return out
}

// revocationAuth is how the client authenticates at the revocation
// endpoint: as it registered (or was configured) for the token endpoint,
// as RFC 7009 §2.1 says. Where the server lists
// revocation_endpoint_auth_methods_supported without that secret method
// but with the other one, the listed one is used: the secret is the same.
type revocationAuth struct {
	clientID, secret string
	method           string // client_secret_basic, client_secret_post, private_key_jwt or none
	assertion        string // private_key_jwt
}

func (f *flow) revocationAuth(c Client, issuer string, listed []string) (revocationAuth, error) {
	a := revocationAuth{clientID: c.ClientID, method: c.AuthMethod}
	switch c.AuthMethod {
	case "", "none":
		a.method = "none"
		return a, nil
	case "client_secret_basic", "client_secret_post":
	case "private_key_jwt":
		g, ok := f.cfg.Grant.(*ClientCredentials)
		if !ok || g.Key == nil || g.ClientID != c.ClientID {
			return a, fmt.Errorf("client %s authenticates with a private key, and none is configured for it", c.ClientID)
		}
		assertion, err := clientAssertion(g.Key, c.ClientID, issuer)
		if err != nil {
			return a, err
		}
		a.assertion = assertion
		f.hold(assertion)
		return a, nil
	default:
		return a, fmt.Errorf("client %s authenticates by %s, which logout cannot do", c.ClientID, c.AuthMethod)
	}
	a.secret = c.ClientSecret
	if c.Kind != "dynamic" {
		// A pre-registered secret stays in the person's config.
		a.secret = f.configuredSecret(c.ClientID)
	}
	if a.secret == "" {
		return a, fmt.Errorf("client %s has a secret (%s), and none is configured for it", c.ClientID, c.AuthMethod)
	}
	if len(listed) > 0 && !contains(listed, a.method) {
		for _, m := range []string{"client_secret_basic", "client_secret_post"} {
			if contains(listed, m) {
				a.method = m
				break
			}
		}
	}
	return a, nil
}

// configuredSecret is the configured secret of client id, "" if the
// configuration is for another client or has none.
func (f *flow) configuredSecret(id string) string {
	switch g := f.cfg.Grant.(type) {
	case *ClientCredentials:
		if g.ClientID == id {
			return g.ClientSecret
		}
	case *JWTBearer:
		if g.ClientID == id {
			return g.ClientSecret
		}
	case *Enterprise:
		if g.ClientID == id {
			return g.ClientSecret
		}
	}
	if f.cfg.ClientID == id {
		return f.cfg.ClientSecret
	}
	return ""
}

// revocationClient is the flow's HTTP client following no redirect, with
// DPoP proofs when key is set.
func (f *flow) revocationClient(key *dpopKey) *http.Client {
	base := f.http()
	c := *base
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	if c.Timeout == 0 || c.Timeout > RevokeTimeout {
		c.Timeout = RevokeTimeout
	}
	if key != nil {
		c.Transport = &tokenRequests{base: transportOf(base), dpop: key}
	}
	return &c
}

// revokeOne posts one revocation request (RFC 7009 §2.1).
func (f *flow) revokeOne(ctx context.Context, client *http.Client, endpoint string, a revocationAuth, what, hint, token string, tok *Token) Revocation {
	r := Revocation{Token: what, Endpoint: endpoint}
	err := f.postRevocation(ctx, client, endpoint, a, hint, token)
	if err != nil {
		r.Outcome = Failed
		r.Err = f.scrub(err)
		return r
	}
	f.logf("revoked the %s at %s", what, endpoint)
	r.Outcome = Revoked
	return r
}

func (f *flow) postRevocation(ctx context.Context, client *http.Client, endpoint string, a revocationAuth, hint, token string) error {
	if err := checkEndpoint(endpoint); err != nil {
		return err
	}
	form := url.Values{"token": {token}, "token_type_hint": {hint}}
	switch a.method {
	case "none":
		form.Set("client_id", a.clientID)
	case "client_secret_post":
		form.Set("client_id", a.clientID)
		form.Set("client_secret", a.secret)
	case "private_key_jwt":
		form.Set("client_id", a.clientID)
		form.Set("client_assertion_type", clientAssertionType)
		form.Set("client_assertion", a.assertion)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if a.method == "client_secret_basic" {
		// RFC 6749 §2.3.1: both parts form-urlencoded first.
		req.SetBasicAuth(url.QueryEscape(a.clientID), url.QueryEscape(a.secret))
	}
	resp, err := client.Do(req)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return fmt.Errorf("no answer within %v", RevokeTimeout)
		}
		return redact.Error(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, revokeLimit))
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return nil
	}
	return revocationError(resp, body)
}

// revocationError names a refused revocation: the status, and the
// OAuth error (RFC 7009 §2.2.1, RFC 6749 §5.2) when the body has one.
func revocationError(resp *http.Response, body []byte) error {
	msg := fmt.Sprintf("HTTP %d", resp.StatusCode)
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		return fmt.Errorf("%s: a redirect, which is not followed with a token", msg)
	}
	var e struct {
		Error       string `json:"error"`
		Description string `json:"error_description"`
	}
	if json.Unmarshal(body, &e) == nil && e.Error != "" {
		msg += ": " + e.Error
		if e.Description != "" {
			msg += ": " + e.Description
		}
		if e.Error == "unsupported_token_type" {
			msg += " (the server does not revoke this kind of token)"
		}
	}
	return errors.New(msg)
}

// errLimit bounds an error's text in runes: a server's description is
// one line of a report, not a page.
const errLimit = 300

// scrub takes every token and secret the process holds out of an
// error's text (a server may echo what it was sent), then cuts it to
// errLimit runes: cutting first could leave part of a token.
func (f *flow) scrub(err error) error {
	if err == nil {
		return nil
	}
	msg := f.cfg.Secrets.String(err.Error())
	if r := []rune(msg); len(r) > errLimit {
		msg = string(r[:errLimit]) + "…"
	}
	if msg == err.Error() {
		return err
	}
	return errors.New(msg)
}
