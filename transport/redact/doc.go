// Package redact takes secrets out of what elicit shows about a server's
// address. A person may put an API key in a URL's query or user info; the
// request carries it to that origin, but frames, errors, the traffic view,
// recordings and anything printed get the redacted form instead.
package redact
