package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/elicit-dev/elicit/transport/redact"
)

// Why these fetches are not oauthex.GetProtectedResourceMetadata and
// auth.GetAuthServerMetadata: those return errors without types on
// purpose, so a document that is absent (404: try the next URL, or fall
// back to 2025-03-26) cannot be told from one that is present and wrong
// (RFC 9728 §3.3 and RFC 8414 §3.3: MUST NOT be used, which ends the flow),
// nor an issuer mismatch from a server without PKCE, and elicit names each.
// auth's URL builder also treats an issuer ending in "/" as having a path
// and asks for ".../oauth-authorization-server/" (RFC 8414 §3.1 drops the
// "/"). The metadata types, the checks and the URL order are theirs.

// discovered is what discovery found for one challenge.
type discovered struct {
	// resource is the RFC 8707 resource to ask tokens for: the protected
	// resource metadata's resource, byte for byte, or the MCP URL for a
	// 2025-03-26 server.
	resource string
	prm      *oauthex.ProtectedResourceMetadata // nil for a 2025-03-26 server
	asm      *oauthex.AuthServerMeta
	// legacy: no protected resource metadata; the MCP origin is the
	// authorization server (2025-03-26).
	legacy bool
	// dpopAlgs is the server's dpop_signing_alg_values_supported, which
	// oauthex.AuthServerMeta does not carry.
	dpopAlgs []string
}

// asExtra is what elicit reads of authorization server metadata beyond
// oauthex.AuthServerMeta.
type asExtra struct {
	DPoPAlgs []string `json:"dpop_signing_alg_values_supported"`
}

// errAbsent marks a metadata URL that has no document (4xx): the next
// URL in the order is tried.
var errAbsent = errors.New("no document")

// metadataLimit bounds one metadata document.
const metadataLimit = 1 << 20

// discover runs discovery for a challenge to a request to mcpURL.
func (f *flow) discover(ctx context.Context, mcpURL string, ch challenge) (*discovered, error) {
	prm, err := f.protectedResource(ctx, mcpURL, ch.resourceMetadata)
	if err != nil && !errors.Is(err, errAbsent) {
		return nil, err
	}
	if prm == nil {
		// 2025-03-26: the MCP server's origin is the authorization server.
		u, _ := url.Parse(mcpURL)
		origin := u.Scheme + "://" + u.Host
		asm, extra, err := f.authServer(ctx, origin)
		switch {
		case errors.Is(err, errAbsent):
			asm = &oauthex.AuthServerMeta{
				Issuer:                origin,
				AuthorizationEndpoint: origin + "/authorize",
				TokenEndpoint:         origin + "/token",
				RegistrationEndpoint:  origin + "/register",
				// 2025-03-26 requires PKCE S256 of every server.
				CodeChallengeMethodsSupported: []string{"S256"},
			}
		case err != nil:
			return nil, err
		}
		return &discovered{resource: mcpURL, asm: asm, legacy: true, dpopAlgs: extra.DPoPAlgs}, nil
	}
	var firstErr error
	for _, issuer := range prm.AuthorizationServers {
		asm, extra, err := f.authServer(ctx, issuer)
		if err == nil {
			return &discovered{resource: prm.Resource, prm: prm, asm: asm, dpopAlgs: extra.DPoPAlgs}, nil
		}
		if errors.Is(err, errAbsent) {
			err = fmt.Errorf("authorization server %s publishes no metadata", issuer)
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	return nil, firstErr
}

// protectedResource finds the protected resource metadata (RFC 9728) in
// the spec's order: the challenge's URL, the path-aware well-known URL,
// the root one. It returns errAbsent when none has a document.
func (f *flow) protectedResource(ctx context.Context, mcpURL, fromChallenge string) (*oauthex.ProtectedResourceMetadata, error) {
	u, err := url.Parse(mcpURL)
	if err != nil {
		return nil, fmt.Errorf("MCP URL: %w", err)
	}
	origin := u.Scheme + "://" + u.Host
	type try struct {
		url     string
		accepts []string // resource values that identify this server there
	}
	var tries []try
	if fromChallenge != "" {
		tries = append(tries, try{fromChallenge, []string{mcpURL}})
	}
	if p := strings.TrimSuffix(u.EscapedPath(), "/"); p != "" {
		w := origin + "/.well-known/oauth-protected-resource" + p
		if u.RawQuery != "" {
			w += "?" + u.RawQuery
		}
		tries = append(tries, try{w, []string{mcpURL}})
	}
	// At the root the identifier is the origin; a document naming the
	// full MCP URL names this server too.
	tries = append(tries, try{origin + "/.well-known/oauth-protected-resource", []string{origin, mcpURL}})
	for _, t := range tries {
		var prm oauthex.ProtectedResourceMetadata
		err := f.getJSON(ctx, t.url, &prm)
		if errors.Is(err, errAbsent) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("protected resource metadata %s: %w", redact.URL(t.url), err)
		}
		if !contains(t.accepts, prm.Resource) {
			return nil, fmt.Errorf("%w: %s names %q, this server is %q", ErrResource, redact.URL(t.url), prm.Resource, redact.URL(mcpURL))
		}
		if len(prm.AuthorizationServers) == 0 {
			return nil, fmt.Errorf("protected resource metadata %s lists no authorization_servers", redact.URL(t.url))
		}
		for i, as := range prm.AuthorizationServers {
			if err := checkEndpoint(as); err != nil {
				return nil, fmt.Errorf("protected resource metadata %s: authorization_servers[%d]: %w", redact.URL(t.url), i, err)
			}
		}
		return &prm, nil
	}
	return nil, errAbsent
}

// authServerURLs is the MCP order of metadata URLs for an issuer
// (2025-11-25 "Authorization Server Metadata Discovery").
func authServerURLs(issuer string) ([]string, error) {
	u, err := url.Parse(issuer)
	if err != nil {
		return nil, fmt.Errorf("issuer %q: %w", issuer, err)
	}
	origin := u.Scheme + "://" + u.Host
	p := strings.TrimSuffix(u.EscapedPath(), "/")
	if p == "" {
		return []string{
			origin + "/.well-known/oauth-authorization-server",
			origin + "/.well-known/openid-configuration",
		}, nil
	}
	return []string{
		origin + "/.well-known/oauth-authorization-server" + p,
		origin + "/.well-known/openid-configuration" + p,
		origin + p + "/.well-known/openid-configuration",
	}, nil
}

// authServer fetches and checks an authorization server's metadata; it
// returns errAbsent when no URL has a document.
func (f *flow) authServer(ctx context.Context, issuer string) (*oauthex.AuthServerMeta, asExtra, error) {
	var extra asExtra
	if err := checkEndpoint(issuer); err != nil {
		return nil, extra, fmt.Errorf("issuer: %w", err)
	}
	urls, err := authServerURLs(issuer)
	if err != nil {
		return nil, extra, err
	}
	for _, mu := range urls {
		var asm oauthex.AuthServerMeta
		err := f.getJSON(ctx, mu, &asm, &extra)
		if errors.Is(err, errAbsent) {
			continue
		}
		if err != nil {
			return nil, extra, fmt.Errorf("authorization server metadata %s: %w", mu, err)
		}
		// A document that fails a check is not used, and no other URL is
		// tried instead: the server said what it is.
		if !issuersEqual(asm.Issuer, issuer) {
			return nil, extra, fmt.Errorf("%w: %s names %q, fetched for %q", ErrMetadataIssuer, mu, asm.Issuer, issuer)
		}
		if !contains(asm.CodeChallengeMethodsSupported, "S256") {
			return nil, extra, fmt.Errorf("%w: %s lists code_challenge_methods_supported %v", ErrNoS256, mu, asm.CodeChallengeMethodsSupported)
		}
		for _, e := range []struct{ name, v string }{
			{"authorization_endpoint", asm.AuthorizationEndpoint},
			{"token_endpoint", asm.TokenEndpoint},
			{"registration_endpoint", asm.RegistrationEndpoint},
			{"revocation_endpoint", asm.RevocationEndpoint},
		} {
			if e.v == "" {
				continue
			}
			if err := checkEndpoint(e.v); err != nil {
				return nil, extra, fmt.Errorf("authorization server metadata %s: %s: %w", mu, e.name, err)
			}
		}
		if asm.TokenEndpoint == "" {
			return nil, extra, fmt.Errorf("authorization server metadata %s has no token_endpoint", mu)
		}
		return &asm, extra, nil
	}
	return nil, extra, errAbsent
}

// issuersEqual compares issuers as go-sdk does (authutil.IssuersEqual):
// exactly, or but for one trailing "/".
func issuersEqual(a, b string) bool {
	return a == b || strings.TrimSuffix(a, "/") == strings.TrimSuffix(b, "/")
}

// checkEndpoint refuses a URL a client must not use for OAuth: not http
// or https, or plain http to anything but a loopback host (2025-06-18 on:
// every authorization server endpoint is https; RFC 8252 allows loopback).
func checkEndpoint(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("%w: %q: %v", ErrOrigin, raw, err)
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
	case "http":
		if !isLoopback(u.Hostname()) {
			return fmt.Errorf("%w: %q is plain http to a host that is not loopback", ErrOrigin, raw)
		}
	default:
		return fmt.Errorf("%w: %q is not an http or https URL", ErrOrigin, raw)
	}
	if u.Host == "" {
		return fmt.Errorf("%w: %q has no host", ErrOrigin, raw)
	}
	return nil
}

// isLoopback reports a loopback host: localhost or a loopback address.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// getJSON GETs a metadata document into v. A 4xx is errAbsent; any
// other failure, a type other than JSON or a body that does not decode
// is an error.
func (f *flow) getJSON(ctx context.Context, raw string, vs ...any) error {
	if err := checkEndpoint(raw); err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, raw, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	if f.cfg.ProtocolVersion != "" {
		// 2025-03-26: clients SHOULD say their version during discovery.
		req.Header.Set("MCP-Protocol-Version", f.cfg.ProtocolVersion)
	}
	resp, err := f.http().Do(req)
	if err != nil {
		// The well-known URLs keep the resource's query, and with it any key in it.
		return redact.Error(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 400 && resp.StatusCode < 500 {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
		return errAbsent
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "application/json" {
		return fmt.Errorf("content type %q, want application/json", resp.Header.Get("Content-Type"))
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, metadataLimit+1))
	if err != nil {
		return err
	}
	if len(body) > metadataLimit {
		return fmt.Errorf("larger than %d bytes", metadataLimit)
	}
	for _, v := range vs {
		if err := json.Unmarshal(body, v); err != nil {
			return fmt.Errorf("decode: %w", err)
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
