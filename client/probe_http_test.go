package client_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/transport"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestHTTPProbeErrorBodies: over HTTP, how the answer to server/discover
// decides the era. Only the codes 2026-07-28 defines (-32020, -32021,
// -32022) prove a 2026-07-28 server, whether the transport delivers the
// error body (400, or 404 without a session) or reports the refused POST
// with it (403); -32601 and -32602 are plain JSON-RPC and fall back, as on
// stdio. The discover answer is canned (no real server gives each of these
// on demand); everything after it is a real stateful go-sdk server.
func TestHTTPProbeErrorBodies(t *testing.T) {
	t.Parallel()
	errBody := func(code, rest string) string {
		return `{"jsonrpc":"2.0","id":1,"error":{"code":` + code + `,"message":"refused"` + rest + `}}`
	}
	for _, tc := range []struct {
		name    string
		status  int
		body    string
		failure string // Connect's error; "" when it falls back to initialize
	}{
		{"400 header mismatch", 400, errBody("-32020", ""), "headers do not match"},
		{"400 missing capability", 400, errBody("-32021", `,"data":{"requiredCapabilities":{"sampling":{}}}`), "requires client capability sampling"},
		{"400 unsupported, nothing we speak", 400, errBody("-32022", `,"data":{"supported":["2030-01-01"]}`), "does not speak protocol"},
		{"403 missing capability, reported with the body", 403, errBody("-32021", ""), "HTTP 403"},
		{"400 unsupported, stateful listed", 400, errBody("-32022", `,"data":{"supported":["2025-11-25"]}`), ""},
		{"404 method not found", 404, errBody("-32601", ""), ""},
		{"400 invalid params", 400, errBody("-32602", ""), ""},
		{"400 not initialized", 400, `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: Server not initialized"}}`, ""},
		{"400 not JSON", 400, "Bad Request: no session", ""},
		{"403 -32601", 403, errBody("-32601", ""), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := mcp.NewServer(&mcp.Implementation{Name: "old", Version: "1"}, legacyOpts(nil))
			stateful := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodPost {
					body, _ := io.ReadAll(r.Body)
					var m wireMsg
					if json.Unmarshal(body, &m) == nil && m.Method == "server/discover" {
						if strings.HasPrefix(tc.body, "{") {
							w.Header().Set("Content-Type", "application/json")
						}
						w.WriteHeader(tc.status)
						_, _ = io.WriteString(w, tc.body)
						return
					}
					r.Body = io.NopCloser(bytes.NewReader(body))
				}
				stateful.ServeHTTP(w, r)
			})
			ts := httptest.NewServer(h)
			t.Cleanup(ts.Close)
			rec := &recorder{}
			s, err := client.Connect(t.Context(), &transport.HTTP{URL: ts.URL, Observer: rec}, &client.Options{Observer: rec})
			if s != nil {
				t.Cleanup(func() { _ = s.Close() })
			}
			initialized := slices.Contains(rec.methods(), "initialize")
			if tc.failure != "" {
				if err == nil || !strings.Contains(err.Error(), tc.failure) {
					t.Errorf("Connect error %v, want one with %q", err, tc.failure)
				}
				if initialized {
					t.Errorf("a 2026-07-28 answer fell back to initialize: %v", rec.methods())
				}
				return
			}
			if err != nil {
				t.Fatalf("Connect: %v", err)
			}
			if s.Era() != "2025-11-25 stateful" || !initialized {
				t.Errorf("Era %q, methods %v", s.Era(), rec.methods())
			}
		})
	}
}
