package transport

import (
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
	hdrMethod          = "Mcp-Method" // 2026-07-28; only shown in the log for now
	hdrName            = "Mcp-Name"   // 2026-07-28; only shown in the log for now
	hdrLastEventID     = "Last-Event-Id"
	hdrAuthorization   = "Authorization"
	hdrContentType     = "Content-Type"
	hdrAccept          = "Accept"

	httpMediaJSON = "application/json"
	httpMediaSSE  = "text/event-stream"
)

// httpLoggedHeaders are the headers HTTPInfo keeps; the rest is noise in the
// traffic view (and may hold secrets, like cookies).
func httpLoggedHeaders() [8]string {
	return [...]string{
		hdrSessionID, hdrProtocolVersion, hdrMethod, hdrName,
		hdrContentType, hdrAccept, hdrLastEventID, hdrAuthorization,
	}
}

// httpLogHeader copies the headers that matter for the traffic log, with the
// Authorization credentials redacted (the scheme is kept: "Bearer" vs
// "Basic" is useful when debugging auth).
func httpLogHeader(h http.Header) http.Header {
	names := httpLoggedHeaders()
	out := make(http.Header, len(names))
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
