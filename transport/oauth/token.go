package oauth

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// tokenRequests wraps the client that x/oauth2 sends token requests with:
// it adds the RFC 8707 resource to refresh requests (x/oauth2's refresher
// sends only grant_type and refresh_token, and the MCP spec wants the
// resource on every token request), and a DPoP proof to every request
// when the token is to be DPoP-bound, with the one retry RFC 9449 §8
// allows for a server nonce.
type tokenRequests struct {
	base     http.RoundTripper
	resource string
	dpop     *dpopKey // nil: no DPoP
}

func (t *tokenRequests) RoundTrip(req *http.Request) (*http.Response, error) {
	body, err := t.body(req)
	if err != nil {
		return nil, err
	}
	send := func(nonce string) (*http.Response, error) {
		r := req.Clone(req.Context())
		if body != nil {
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
			r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
		}
		if t.dpop != nil {
			proof, err := t.dpop.proof(r.Method, r.URL, nonce, "")
			if err != nil {
				return nil, err
			}
			r.Header.Set("DPoP", proof)
		}
		return t.base.RoundTrip(r)
	}
	resp, err := send(t.dpop.nonceFor(req.URL))
	if err != nil || t.dpop == nil {
		return resp, err
	}
	nonce := resp.Header.Get("DPoP-Nonce")
	if nonce == "" {
		return resp, nil
	}
	t.dpop.setNonce(req.URL, nonce)
	if resp.StatusCode != http.StatusBadRequest || !isUseDPoPNonce(resp) {
		return resp, nil
	}
	resp.Body.Close()
	return send(nonce)
}

// body returns the request's form body with the resource added to a
// refresh request; nil for a request without a body.
func (t *tokenRequests) body(req *http.Request) ([]byte, error) {
	if req.Body == nil {
		return nil, nil
	}
	b, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, err
	}
	mt, _, _ := mime.ParseMediaType(req.Header.Get("Content-Type"))
	if mt != "application/x-www-form-urlencoded" || t.resource == "" {
		return b, nil
	}
	v, err := url.ParseQuery(string(b))
	if err != nil {
		return b, nil
	}
	if v.Get("grant_type") == "refresh_token" && !v.Has("resource") {
		v.Set("resource", t.resource)
		return []byte(v.Encode()), nil
	}
	return b, nil
}

// isUseDPoPNonce reads a token error response for use_dpop_nonce.
func isUseDPoPNonce(resp *http.Response) bool {
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	resp.Body = io.NopCloser(bytes.NewReader(b))
	return err == nil && bytes.Contains(b, []byte("use_dpop_nonce"))
}

// tokenContext is ctx carrying the HTTP client x/oauth2 sends d's token
// requests with (see tokenRequests), and the DPoP key the token will be
// bound to when dpop is set.
func (f *flow) tokenContext(ctx context.Context, d *discovered, dpop bool) (context.Context, *dpopKey, error) {
	var key *dpopKey
	if dpop {
		k, err := newDPoPKey()
		if err != nil {
			return nil, nil, err
		}
		key = k
	}
	return f.tokenContextWith(ctx, d.resource, key), key, nil
}

func (f *flow) tokenContextWith(ctx context.Context, resource string, key *dpopKey) context.Context {
	base := f.http()
	c := *base
	c.Transport = &tokenRequests{base: transportOf(base), resource: resource, dpop: key}
	return context.WithValue(ctx, oauth2.HTTPClient, &c)
}

func transportOf(c *http.Client) http.RoundTripper {
	if c.Transport != nil {
		return c.Transport
	}
	return http.DefaultTransport
}

// refresh trades rec's refresh token for a new token at its token
// endpoint, with x/oauth2's refresher (which keeps the old refresh token
// when the server sends none).
func (f *flow) refresh(ctx context.Context, rec *Record) (*oauth2.Token, error) {
	if rec.Token == nil || rec.Token.RefreshToken == "" || rec.TokenEndpoint == "" {
		return nil, fmt.Errorf("no refresh token")
	}
	c, ok := rec.Clients[rec.Issuer]
	if !ok {
		return nil, fmt.Errorf("no client registration for %s", rec.Issuer)
	}
	if c.Kind == "preregistered" {
		c.ClientSecret = f.cfg.ClientSecret
	}
	d := &discovered{resource: rec.Resource, asm: &oauthex.AuthServerMeta{Issuer: rec.Issuer, TokenEndpoint: rec.TokenEndpoint}}
	cfg := oauth2Config(d, c, "", nil)
	var key *dpopKey
	if len(rec.Token.DPoPKey) > 0 {
		k, err := parseDPoPKey(rec.Token.DPoPKey)
		if err != nil {
			return nil, err
		}
		key = k
	}
	old := &oauth2.Token{RefreshToken: rec.Token.RefreshToken, Expiry: time.Unix(1, 0)}
	tok, err := cfg.TokenSource(f.tokenContextWith(ctx, rec.Resource, key), old).Token()
	if err != nil {
		return nil, tokenError(err)
	}
	return tok, nil
}

// storedToken converts a token response for the store.
func storedToken(t *oauth2.Token, dpop []byte) *Token {
	scope, _ := t.Extra("scope").(string)
	return &Token{
		AccessToken: t.AccessToken, TokenType: t.Type(), RefreshToken: t.RefreshToken,
		Expiry: t.Expiry.UTC(), Scope: scope, DPoPKey: dpop,
	}
}

// expired reports a token past its expiry (10 s early, as x/oauth2 does).
func (t *Token) expired(now time.Time) bool {
	return !t.Expiry.IsZero() && now.Add(10*time.Second).After(t.Expiry)
}

// isDPoP reports a DPoP-bound token (RFC 9449 token_type DPoP).
func (t *Token) isDPoP() bool { return strings.EqualFold(t.TokenType, "DPoP") }
