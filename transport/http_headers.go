package transport

import (
	"encoding/base64"
	"fmt"
	"mime"
	"net/http"
	"strings"
	"unicode/utf8"
)

// Header names of the Streamable HTTP transport.
const (
	hdrSessionID       = "Mcp-Session-Id"
	hdrProtocolVersion = "Mcp-Protocol-Version"
	hdrMethod          = "Mcp-Method" // 2026-07-28
	hdrName            = "Mcp-Name"   // 2026-07-28
	hdrMCPPrefix       = "Mcp-"       // every MCP header is logged
	hdrLastEventID     = "Last-Event-Id"
	hdrAuthorization   = "Authorization"
	hdrContentType     = "Content-Type"
	hdrAccept          = "Accept"

	httpMediaJSON = "application/json"
	httpMediaSSE  = "text/event-stream"
)

// httpLoggedHeaders are the headers HTTPInfo keeps besides every Mcp-*
// one (session, version, method, name, Mcp-Param-*); the rest is noise in
// the traffic view (and may hold secrets, like cookies).
func httpLoggedHeaders() [4]string {
	return [...]string{hdrContentType, hdrAccept, hdrLastEventID, hdrAuthorization}
}

// httpLogHeader copies the headers that matter for the traffic log, with the
// Authorization credentials redacted (the scheme is kept: "Bearer" vs
// "Basic" is useful when debugging auth).
func httpLogHeader(h http.Header) http.Header {
	names := httpLoggedHeaders()
	out := make(http.Header, len(names)+4)
	for k, vs := range h {
		if len(vs) > 0 && strings.HasPrefix(http.CanonicalHeaderKey(k), hdrMCPPrefix) {
			out[http.CanonicalHeaderKey(k)] = append([]string(nil), vs...)
		}
	}
	for _, k := range names {
		vs := h.Values(k)
		if len(vs) == 0 {
			continue
		}
		if k == hdrAuthorization {
			red := make([]string, len(vs))
			for i, v := range vs {
				red[i] = httpRedact(v)
			}
			vs = red
		} else {
			vs = append([]string(nil), vs...)
		}
		out[k] = vs
	}
	return out
}

// Sentinel of the 2026-07-28 header value encoding.
const (
	httpB64Prefix = "=?base64?"
	httpB64Suffix = "?="
)

// httpHeaderValue encodes a value for Mcp-Name or Mcp-Param-{Name} by the
// 2026-07-28 rules: a value that is not plain header-safe ASCII (anything
// outside 0x20-0x7E, or leading or trailing space or tab), or that looks
// like the sentinel itself, is sent as =?base64?{std base64 of UTF-8}?=.
func httpHeaderValue(v string) string {
	if httpHeaderSafe(v) {
		return v
	}
	return httpB64Prefix + base64.StdEncoding.EncodeToString([]byte(v)) + httpB64Suffix
}

func httpHeaderSafe(v string) bool {
	if v == "" {
		return true
	}
	if first, last := v[0], v[len(v)-1]; first == ' ' || first == '\t' || last == ' ' || last == '\t' {
		return false
	}
	for i := 0; i < len(v); i++ {
		if v[i] < 0x20 || v[i] > 0x7E {
			return false
		}
	}
	return !(strings.HasPrefix(v, httpB64Prefix) && strings.HasSuffix(v, httpB64Suffix))
}

// ValidHeaderName reports whether name is an HTTP field name (RFC 9110
// token: 1*tchar), so that a name from a message or a schema cannot smuggle
// header syntax. go-sdk's validateHeaderName is the same check.
func ValidHeaderName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

func httpRedact(v string) string {
	scheme, _, ok := strings.Cut(strings.TrimSpace(v), " ")
	if !ok || scheme == "" || len(scheme) > 20 {
		return "[redacted]"
	}
	return scheme + " [redacted]"
}

// httpValidSessionID reports whether id is usable as Mcp-Session-Id: the spec
// allows only visible ASCII (0x21 to 0x7E), which also keeps header
// injection out.
func httpValidSessionID(id string) bool {
	if id == "" {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] < 0x21 || id[i] > 0x7E {
			return false
		}
	}
	return true
}

// httpMediaType returns the lower-case media type of a Content-Type value, or ""
// if there is none or it does not parse.
func httpMediaType(ct string) string {
	if ct == "" {
		return ""
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		// A bad parameter should not hide a usable type.
		mt = strings.ToLower(strings.TrimSpace(strings.SplitN(ct, ";", 2)[0]))
	}
	return mt
}

// StatusError is a non-2xx answer from an MCP HTTP endpoint. Write returns
// it (wrapped) for the message it sent; errors.As finds it, so callers can
// tell a 400 from a 404 (the legacy-transport fallback and the 2026-07-28
// era probe both key on the status and the body).
type StatusError struct {
	Method     string // POST, GET or DELETE
	StatusCode int
	// ContentType is the media type of the body ("application/json",
	// "text/html", ...), lower case, without parameters; "" if none.
	ContentType string
	// Body is the start of the response body (at most httpStatusBodyMax bytes),
	// as sent; it is untrusted server text.
	Body []byte
	// Err is the sentinel this status means, if any: ErrSessionExpired for
	// a 404 on a request that carried a session id.
	Err error
}

// httpStatusBodyMax bounds StatusError.Body: enough for a JSON-RPC error or a
// one-line explanation, not a whole HTML error page.
const httpStatusBodyMax = 512

func (e *StatusError) Error() string {
	msg := fmt.Sprintf("%s: HTTP %d %s", e.Method, e.StatusCode, http.StatusText(e.StatusCode))
	if ex := httpExcerpt(e.Body, 200); ex != "" {
		msg += ": " + ex
	}
	if e.Err != nil {
		msg += " (" + e.Err.Error() + ")"
	}
	return msg
}

// Unwrap returns the sentinel, so errors.Is(err, ErrSessionExpired) works.
func (e *StatusError) Unwrap() error { return e.Err }

// httpExcerpt renders untrusted bytes as a short, single-line, quoted string
// safe for logs and the terminal.
func httpExcerpt(b []byte, n int) string {
	b = []byte(strings.TrimSpace(string(b)))
	if len(b) == 0 {
		return ""
	}
	cut := len(b) > n
	if cut {
		b = b[:n]
		// Don't split the last rune (%q would show it as escapes).
		for i := 0; i < utf8.UTFMax-1 && len(b) > 0 && !utf8.Valid(b); i++ {
			b = b[:len(b)-1]
		}
	}
	s := fmt.Sprintf("%q", b)
	if cut {
		s += "…"
	}
	return s
}
