package oauth

import (
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// challenge is what a 401 or 403 said in WWW-Authenticate (RFC 6750 §3,
// RFC 9728 §5.1), read from every challenge of every header line:
// resource_metadata comes with any scheme (a DPoP server sends it with
// DPoP), the rest is preferred from a Bearer or DPoP challenge.
type challenge struct {
	status           int
	resourceMetadata string
	scope            []string
	err              string // error=, e.g. invalid_token, insufficient_scope
	description      string
	dpopNonce        string // DPoP-Nonce header (RFC 9449 §9)
	scheme           string // the scheme of the challenge read ("bearer", "dpop")
}

// readChallenge parses resp's WWW-Authenticate headers with oauthex's
// parser. A header that does not parse yields what the others said.
func readChallenge(resp *http.Response) challenge {
	c := challenge{status: resp.StatusCode, dpopNonce: resp.Header.Get("DPoP-Nonce")}
	for _, line := range resp.Header.Values("WWW-Authenticate") {
		parsed, err := oauthex.ParseWWWAuthenticate([]string{line})
		if err != nil {
			continue
		}
		for _, ch := range parsed {
			if c.resourceMetadata == "" {
				c.resourceMetadata = ch.Params["resource_metadata"]
			}
			if ch.Scheme != "bearer" && ch.Scheme != "dpop" {
				continue
			}
			if c.scheme == "" || c.err == "" && ch.Params["error"] != "" {
				c.scheme = ch.Scheme
			}
			if c.err == "" {
				c.err = ch.Params["error"]
				c.description = ch.Params["error_description"]
			}
			if len(c.scope) == 0 {
				c.scope = strings.Fields(ch.Params["scope"])
			}
		}
	}
	return c
}

// stepUp reports whether the challenge asks for more scope (403
// insufficient_scope); any other 403 is a plain refusal.
func (c challenge) stepUp() bool {
	return c.status == http.StatusForbidden && c.err == "insufficient_scope"
}
