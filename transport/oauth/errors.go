package oauth

import (
	"errors"
	"fmt"
)

// Errors a failed authorization wraps, so callers (and tests) can tell
// them apart. Each names the rule the server broke; the flow stores
// nothing when one of them ends it.
var (
	// ErrNoS256: the authorization server does not offer PKCE with S256.
	ErrNoS256 = errors.New("the authorization server does not offer PKCE with S256")
	// ErrState: the callback's state is not the one we sent.
	ErrState = errors.New("the authorization response's state does not match the request's")
	// ErrIssuer: the callback's iss is missing where the server promised
	// one, or is not the issuer we asked (RFC 9207).
	ErrIssuer = errors.New("the authorization response's iss does not match the authorization server")
	// ErrMetadataIssuer: an authorization server metadata document names
	// another issuer than the one it was fetched for.
	ErrMetadataIssuer = errors.New("the authorization server metadata names another issuer")
	// ErrResource: the protected resource metadata is for another
	// resource than this server (RFC 9728 §3.3).
	ErrResource = errors.New("the protected resource metadata is for another resource")
	// ErrOrigin: a metadata document or endpoint is on an origin it may
	// not be on (not https and not loopback, or a scheme a browser must
	// never open).
	ErrOrigin = errors.New("a metadata document or endpoint is on a forbidden origin")
	// ErrNoAccessToken: the token response has no access_token.
	ErrNoAccessToken = errors.New("the token response has no access_token")
	// ErrRegistration: dynamic client registration was refused.
	ErrRegistration = errors.New("the authorization server refused to register elicit")
	// ErrNoClient: there is no way to identify elicit to the
	// authorization server.
	ErrNoClient = errors.New("no client identity fits this authorization server")
	// ErrDenied: the authorization server (or the person) refused.
	ErrDenied = errors.New("authorization was refused")
	// ErrTimeout: nobody completed the authorization in time.
	ErrTimeout = errors.New("authorization timed out")
	// ErrStepUpLimit: the server keeps asking for scopes it was already
	// granted; asking again would loop.
	ErrStepUpLimit = errors.New("the server still says insufficient_scope after step-up")
	// ErrClientIssuer: pre-registered client credentials belong to
	// another authorization server than the one the server now names.
	ErrClientIssuer = errors.New("the pre-registered client belongs to another authorization server")
)

// Error is a failed authorization: what was being done, for which
// server, and why.
type Error struct {
	Resource string // the MCP server URL
	Step     string // "discovery", "registration", "authorization", "token", ...
	Err      error
}

func (e *Error) Error() string {
	return fmt.Sprintf("oauth for %s: %s: %v", e.Resource, e.Step, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// AuthorizationFailed marks the error for layers that cannot import this
// package (the client's era probe): the server was reached and answered;
// what failed is authorization, so no other era or transport is tried.
func (e *Error) AuthorizationFailed() bool { return true }
