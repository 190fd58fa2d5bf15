package client

import "github.com/elicit-dev/elicit/transport"

// legacySSE returns the 2024-11-05 HTTP+SSE transport for the same server
// as t (Streamable HTTP), or nil when t has no such older form.
func legacySSE(t transport.Transport) transport.Transport {
	if f, ok := t.(transport.LegacyFallback); ok {
		return f.Legacy()
	}
	return nil
}
