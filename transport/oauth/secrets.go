package oauth

import (
	"encoding/base64"
	"net/url"
)

// What the flow adds to Config.Secrets, as it gets each: an
// authorization server may echo anything it was sent in its error
// ("you sent client_secret=… code_verifier=…"), and that error reaches
// stderr, the output's failure and recordings. Every error and log line
// the Transport gives out is redacted with the set (authorize, refresh,
// Login, logf); the sinks of the process redact with it again.

// hold adds rec's tokens and client secrets.
func (t *Transport) hold(rec *Record) {
	if rec == nil {
		return
	}
	if tok := rec.Token; tok != nil {
		t.cfg.Secrets.Add(tok.AccessToken, tok.RefreshToken)
	}
	for _, c := range rec.Clients {
		t.holdClient(c)
	}
}

// holdClient adds c's secret, and the Basic credentials it makes for
// client_secret_basic (RFC 6749 §2.3.1: both parts form-encoded first).
func (t *Transport) holdClient(c Client) {
	if c.ClientSecret == "" {
		return
	}
	basic := url.QueryEscape(c.ClientID) + ":" + url.QueryEscape(c.ClientSecret)
	t.cfg.Secrets.Add(c.ClientSecret, base64.StdEncoding.EncodeToString([]byte(basic)))
}

// hold adds values the flow got (a verifier, a code, an assertion).
func (f *flow) hold(values ...string) { f.cfg.Secrets.Add(values...) }

// redacted is err as the Transport gives it out.
func (t *Transport) redacted(err error) error { return t.cfg.Secrets.Error(err) }

func (g *ClientCredentials) secrets() []string { return []string{g.ClientSecret} }
func (g *JWTBearer) secrets() []string         { return []string{g.ClientSecret} }
func (g *Enterprise) secrets() []string        { return []string{g.ClientSecret, g.IdPClientSecret} }
