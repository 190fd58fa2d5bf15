package redact_test

import (
	"testing"

	"github.com/elicit-dev/elicit/transport/redact"
)

// TestURL: what a redacted URL keeps and what it masks.
func TestURL(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"http://127.0.0.1:8080/mcp", "http://127.0.0.1:8080/mcp"},
		{"https://h/mcp?token=abc&x=1", "https://h/mcp?token=…&x=…"},
		{"https://user:pw@h/mcp", "https://…@h/mcp"},
		{"https://h/mcp#secret", "https://h/mcp"},
		{"https://h/messages?sessionId=abc", "https://h/messages?sessionId=…"},
		{"::not a url", "(a URL that does not parse)"},
	} {
		if got := redact.URL(c.in); got != c.want {
			t.Errorf("URL(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
