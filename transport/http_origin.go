package transport

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// ErrOtherOrigin is wrapped by the error of a request that a server
// redirected to another origin (scheme, host and port): the configured
// headers (credentials among them) were given for one origin, and Go's
// client would carry all but Authorization and Cookie to any host, and
// those too to another port of the same host.
var ErrOtherOrigin = errors.New("refused to follow a redirect to another origin")

// httpMaxRedirects is Go's own limit, which a custom CheckRedirect replaces.
const httpMaxRedirects = 10

// originClient returns the client every request of one Conn goes through:
// c (or a private client when c is nil, own true) with a redirect policy
// that stays on the origin of the first request and never adds a Referer.
// A caller's client is copied, not changed; its own CheckRedirect still
// runs after ours.
func originClient(c *http.Client) (client *http.Client, own bool) {
	if c == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		c, own = &http.Client{Transport: tr}, true
	} else {
		cp := *c
		c = &cp
	}
	next := c.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		first := via[0]
		if !sameOrigin(first.URL, req.URL) {
			return fmt.Errorf("%w: %s redirected to %s; the configured headers go only to %s",
				ErrOtherOrigin, originOf(via[len(via)-1].URL), originOf(req.URL), originOf(first.URL))
		}
		// Go sets Referer to the previous URL (path and query included,
		// which may name a session or a token); keep only one we set.
		if ref := first.Header.Values("Referer"); len(ref) > 0 {
			req.Header["Referer"] = append([]string(nil), ref...)
		} else {
			req.Header.Del("Referer")
		}
		if len(via) >= httpMaxRedirects {
			return fmt.Errorf("stopped after %d redirects", httpMaxRedirects)
		}
		if next != nil {
			return next(req, via)
		}
		return nil
	}
	return c, own
}

// originOf renders u's origin, scheme://host[:port], the way the user
// wrote the URL: no user info, path or query (they may hold secrets).
func originOf(u *url.URL) string {
	return strings.ToLower(u.Scheme) + "://" + u.Host
}

// sameOrigin compares scheme, host and port, with the scheme's default port
// filled in, as browsers do.
func sameOrigin(a, b *url.URL) bool {
	port := func(u *url.URL) string {
		if p := u.Port(); p != "" {
			return p
		}
		if strings.EqualFold(u.Scheme, "https") {
			return "443"
		}
		return "80"
	}
	return strings.EqualFold(a.Scheme, b.Scheme) &&
		strings.EqualFold(a.Hostname(), b.Hostname()) &&
		port(a) == port(b)
}
