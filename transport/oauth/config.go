package oauth

import (
	"context"
	"net/http"
	"time"

	"github.com/elicit-dev/elicit/transport/redact"
)

// Config says how to authorize to one MCP server.
type Config struct {
	// Resource is the MCP endpoint URL; tokens go only to its origin.
	Resource string

	// ClientID and ClientSecret are pre-registered credentials (the
	// secret may be empty: a public client). They come first in the
	// spec's order of identities.
	ClientID     string
	ClientSecret string
	// ClientMetadataURL is a client ID metadata document URL (https, with
	// a path) to use as the client_id where the authorization server
	// supports them; it must be served at that URL by whoever configures
	// it.
	ClientMetadataURL string
	// Scopes are asked for when the challenge names none (before the
	// resource's scopes_supported).
	Scopes []string
	// RedirectPort is the loopback port of the callback listener; 0 takes
	// the port a stored registration lists, else a free one.
	RedirectPort int
	// ClientName is the client_name sent when registering (default
	// "elicit").
	ClientName string

	// Grant, when set, replaces the authorization code flow with a grant
	// that needs no person (client credentials, JWT bearer, enterprise
	// token exchange).
	Grant Grant
	// NoDPoP keeps tokens plain bearer tokens. Otherwise they are
	// DPoP-bound (RFC 9449) where both sides take DPoP: the authorization
	// server lists ES256 in dpop_signing_alg_values_supported, and the
	// resource challenges with the DPoP scheme or lists DPoP in its
	// metadata.
	NoDPoP bool

	// Store keeps tokens and registrations; nil keeps them in memory only.
	Store *Store
	// Open shows the authorization URL to the person (print it, start a
	// browser, put up a pane). It runs in its own goroutine; its ctx ends
	// when the callback came or the flow gave up. An error (the person
	// declined) ends the flow with ErrDenied; returning nil means "shown":
	// the flow keeps waiting for the callback. Nil Open: the code flow
	// fails at once, saying authorization is needed.
	Open func(ctx context.Context, a Authorization) error
	// OnState is told of each change of the authorization state.
	OnState func(State)
	// HTTPClient makes discovery, registration and token requests; nil is
	// a client with a 30 s timeout that follows no redirect to another
	// origin.
	HTTPClient *http.Client
	// Timeout bounds the wait for the person (default 5 minutes).
	Timeout time.Duration
	// ProtocolVersion is sent as MCP-Protocol-Version with discovery
	// requests (2025-03-26 asks for it), if set.
	ProtocolVersion string
	// Logf, if set, gets one line per step (never a token or secret).
	Logf func(format string, args ...any)
	// Secrets is the process's set of secrets: the flow adds each one it
	// holds (the client secret, PKCE verifiers, authorization codes,
	// assertions, tokens) as it gets it, and every error and log line the
	// Transport gives out is redacted with it, since an authorization
	// server may echo what it was sent. Nil: New makes one of its own.
	Secrets *redact.Secrets
}

// Authorization is what the person is asked to open.
type Authorization struct {
	URL      string // the full authorization URL
	Issuer   string // the authorization server
	Resource string // the MCP server it is for
	Scopes   []string
	StepUp   bool // more scope for a server already authorized
}

// State is the authorization state of a server, for its status line.
type State string

// The states.
const (
	StateAuthorizing State = "authorizing" // waiting for the person or the server
	StateAuthorized  State = "authorized"
	StateExpired     State = "expired" // the token ran out; the server will say 401
	StateRefreshing  State = "refreshing"
	StateFailed      State = "auth failed"
)

// DefaultTimeout is how long the flow waits for the person by default.
const DefaultTimeout = 5 * time.Minute

// httpTimeout bounds one discovery, registration or token request.
const httpTimeout = 30 * time.Second
