// Package oauth is the client side of MCP authorization (OAuth 2.1) for
// HTTP servers, in every era the spec covers (2025-03-26 to 2026-07-28),
// plus the auth extensions the conformance suite exercises.
//
// Transport is an http.RoundTripper to put under an MCP HTTP transport. It
// attaches the access token to requests for the resource's origin only (a
// redirect elsewhere, or any other host, never sees it) and handles the
// server's challenges: a 401 runs discovery and authorization, a 403
// insufficient_scope steps up, and the request is sent once more.
//
// The flow, in the spec's order:
//
//  1. Protected resource metadata (RFC 9728): the WWW-Authenticate
//     resource_metadata URL, else the path-aware well-known URL, else the
//     root one; its resource must be the server's. None anywhere means a
//     2025-03-26 server: the MCP origin is the authorization server.
//  2. Authorization server metadata (RFC 8414, OpenID discovery) in the
//     spec's URL order; its issuer must match, and it must offer PKCE S256.
//     A 2025-03-26 server without metadata gets the default endpoints.
//  3. Client identity: pre-registered (config), else a client ID metadata
//     document when the server supports them and one is configured, else
//     dynamic registration (kept per issuer in the Store and reused).
//  4. Scopes: the challenge's, else the configured ones, else the
//     resource's scopes_supported, else none; offline_access when the
//     authorization server lists it; step-up asks for the union.
//  5. Authorization code with PKCE S256, state and the RFC 8707 resource,
//     through a loopback listener on 127.0.0.1; the person opens the URL
//     (Config.Open). The callback's state and RFC 9207 iss are checked.
//  6. Token request (client_secret_basic, client_secret_post or none as
//     registered) with the resource; refresh adds the resource too.
//
// What it takes from libraries: golang.org/x/oauth2 builds the
// authorization URL, PKCE and the token and refresh requests; go-sdk's
// oauthex parses WWW-Authenticate, registers clients and holds the
// metadata types, and its auth package finds authorization server
// metadata. Where they fall short it wraps them (see each file): the
// protected resource metadata fetch tells "absent" from "invalid" (the
// spec treats them differently, oauthex does not), refresh requests get
// the resource (x/oauth2 sends none), registrations persist across runs
// and follow the spec's order of identities, an issuer that ends in "/"
// does not get a "/" appended to its well-known URL, and an unadvertised
// but matching iss is accepted.
//
// Transport.Logout forgets them and, where the issuer publishes a
// revocation_endpoint, revokes the refresh and access tokens there (RFC
// 7009) as the client they were issued to, bounded by RevokeTimeout; see
// revoke.go.
//
// Tokens and registrations live in a Store: one file per server URL,
// mode 0600, written atomically, in a folder of the person's own that is
// 0700 (one open to others is closed first, another user's refused).
// Nothing of them is ever logged: every secret the flow holds goes into
// Config.Secrets, which every error and log line it gives out is
// redacted with.
package oauth
