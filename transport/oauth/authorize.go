package oauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// authorize runs discovery and a grant for challenge ch to a request
// sent with token generation gen, and stores the result. before is the
// scope asked for last time. Discovery runs afresh on every challenge
// (the authorization server may have moved); when it has not, a 401 to a
// token with a refresh token is answered by refreshing, which needs no
// person (refreshed reports that).
func (t *Transport) authorize(ctx context.Context, ch challenge, before []string, gen int) (refreshed bool, err error) {
	f := &flow{cfg: &t.cfg, t: t}
	t.setState(StateAuthorizing)
	t.mu.Lock()
	rec := cloneRecord(t.rec)
	t.mu.Unlock()
	if t.cfg.Store != nil {
		// What another process stored meanwhile (a registration) counts.
		if stored, err := t.cfg.Store.Load(t.cfg.Resource); err == nil && stored != nil {
			rec = stored
			t.hold(rec)
		}
	}
	d, err := f.discover(ctx, t.cfg.Resource, ch)
	if err != nil {
		t.setState(StateFailed)
		var oe *Error
		if errors.As(err, &oe) {
			return false, t.redacted(err)
		}
		return false, t.redacted(&Error{Resource: t.cfg.Resource, Step: "discovery", Err: err})
	}
	t.mu.Lock()
	tryRefresh := !ch.stepUp() && rec.Issuer == d.asm.Issuer && rec.Token != nil && rec.Token.RefreshToken != "" && gen != t.refreshedGen
	t.mu.Unlock()
	if tryRefresh {
		if err := t.refresh(ctx); err == nil {
			return true, nil
		}
	}
	if rec.Issuer != "" && rec.Issuer != d.asm.Issuer {
		// The server moved to another authorization server (2026-07-28:
		// credentials are per issuer; register anew there). Nothing of the
		// old one is presented to the new one.
		t.logf("authorization server changed from %s to %s", rec.Issuer, d.asm.Issuer)
		before = nil
	}
	scopes := f.scopes(d, ch, before)
	f.dpop = !t.cfg.NoDPoP && contains(d.dpopAlgs, "ES256") &&
		(ch.scheme == "dpop" || d.prm != nil && (d.prm.DPOPBoundAccessTokensRequired || len(d.prm.DPOPSigningAlgValuesSupported) > 0))
	var res *grantResult
	switch g := t.grantFor(d); {
	case g != nil:
		res, err = g.grant(ctx, f, d, scopes)
	default:
		res, err = f.authorizationCode(ctx, d, rec, scopes, ch.stepUp())
	}
	if err != nil {
		// The token endpoint's error may echo the request: the verifier,
		// the code, the client secret.
		err = t.redacted(err)
		t.setState(StateFailed)
		t.mu.Lock()
		t.failed = err
		t.mu.Unlock()
		return false, err
	}
	stored, err := t.cfg.Store.Update(t.cfg.Resource, func(r *Record) error {
		if r.Issuer != "" && r.Issuer != d.asm.Issuer {
			delete(r.Clients, r.Issuer)
		}
		r.Issuer, r.Resource, r.TokenEndpoint = d.asm.Issuer, d.resource, d.asm.TokenEndpoint
		r.Token = storedToken(res.token, res.dpop)
		r.Scopes = res.scopes
		if r.Clients == nil {
			r.Clients = map[string]Client{}
		}
		c := res.client
		c.ClientSecret = secretToKeep(c)
		r.Clients[d.asm.Issuer] = c
		return nil
	})
	if err != nil {
		t.setState(StateFailed)
		return false, t.redacted(&Error{Resource: t.cfg.Resource, Step: "store", Err: err})
	}
	t.install(stored)
	t.mu.Lock()
	t.failed = nil
	t.mu.Unlock()
	t.setState(StateAuthorized)
	return false, nil
}

// grantFor is the grant to use at d's server other than the
// authorization code: the configured one, or client credentials when the
// server offers that grant and not the authorization code, and a secret
// is configured (a machine client, the client credentials extension).
func (t *Transport) grantFor(d *discovered) Grant {
	if t.cfg.Grant != nil {
		return t.cfg.Grant
	}
	g := d.asm.GrantTypesSupported
	if t.cfg.ClientID != "" && t.cfg.ClientSecret != "" && contains(g, grantClientCredentials) && !contains(g, "authorization_code") {
		return &ClientCredentials{ClientID: t.cfg.ClientID, ClientSecret: t.cfg.ClientSecret}
	}
	return nil
}

// secretToKeep: a dynamic registration's secret is needed to refresh and
// is stored; a pre-registered one stays in the person's config.
func secretToKeep(c Client) string {
	if c.Kind == "dynamic" {
		return c.ClientSecret
	}
	return ""
}

func cloneRecord(r *Record) *Record {
	c := *r
	c.Clients = make(map[string]Client, len(r.Clients))
	for k, v := range r.Clients {
		c.Clients[k] = v
	}
	return &c
}

// Login authorizes now, without waiting for a server's 401: it makes
// one unauthenticated request to the server to learn its challenge (a
// POST, as MCP requests are), then runs the flow. A server that answers
// without a challenge needs no authorization, and Login says so.
func (t *Transport) Login(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.cfg.Resource,
		strings.NewReader(`{"jsonrpc":"2.0","id":0,"method":"ping"}`))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := t.base().RoundTrip(req)
	if err != nil {
		return t.redacted(fmt.Errorf("oauth: reach %s: %w", t.cfg.Resource, err))
	}
	ch := readChallenge(resp)
	drain(resp)
	if resp.StatusCode != http.StatusUnauthorized && !ch.stepUp() {
		return fmt.Errorf("%w (it answered HTTP %d without a challenge)", ErrNotNeeded, resp.StatusCode)
	}
	t.flowMu.Lock()
	defer t.flowMu.Unlock()
	t.mu.Lock()
	before := append([]string(nil), t.rec.Scopes...)
	t.mu.Unlock()
	_, err = t.authorize(ctx, ch, before, -1)
	return err
}

// ErrNotNeeded: Login found a server that asks for no authorization.
var ErrNotNeeded = errors.New("the server asks for no authorization")
