// Package redact keeps secrets out of what elicit shows and writes.
//
// A person may put an API key in a URL's query or user info; the request
// carries it to that origin, but frames, errors, the traffic view,
// recordings and anything printed get the redacted form instead (URL,
// Error).
//
// Secrets is the set of secret values one process holds (header values,
// client secrets, PKCE verifiers, codes, tokens), which every sink masks
// as Mask: a server may echo what it was sent. Writer applies it to a
// stream (stdout, stderr).
//
// Files that hold secrets are private (private.go): 0600, in a folder
// elicit makes 0700 or finds to be the person's own and closes to 0700.
package redact
