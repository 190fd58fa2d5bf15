package client

import "github.com/elicit-dev/elicit/transport"

// legacySSE returns the 2024-11-05 HTTP+SSE transport for the same server
// as t (Streamable HTTP), or nil when t has no such older form.
func legacySSE(t transport.Transport) transport.Transport {
	h, ok := t.(*transport.HTTP)
	if !ok {
		return nil
	}
	return &transport.SSE{URL: h.URL, Header: h.Header, Client: h.Client, Observer: h.Observer}
}
