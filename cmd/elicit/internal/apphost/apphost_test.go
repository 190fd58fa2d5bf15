package apphost

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/client/wire"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestCSPHeader: the declared origins go into their directives; anything
// that is not an origin (a ';' that would add a directive, a keyword, a
// path) is left out, and nothing of the host's origin is allowed.
func TestCSPHeader(t *testing.T) {
	meta := json.RawMessage(`{"ui":{"csp":{"connectDomains":["https://api.example.com","https://x.com; script-src *","'self'"],
		"resourceDomains":["https://*.cdn.example","javascript:alert(1)","https://a.example/path"],"frameDomains":["*"]}}}`)
	h := cspOf(meta).Header()
	for _, want := range []string{"default-src 'none'", "connect-src https://api.example.com;", "script-src 'unsafe-inline' https://*.cdn.example;", "frame-src 'none'", "base-uri 'none'"} {
		if !strings.Contains(h+";", want) {
			t.Errorf("CSP %q lacks %q", h, want)
		}
	}
	for _, bad := range []string{"x.com", "'self'", "javascript", "/path", "*;", "script-src *"} {
		if strings.Contains(h, bad) {
			t.Errorf("CSP %q has %q", h, bad)
		}
	}
	// Names matched without regard to case are not the members.
	if h := cspOf(json.RawMessage(`{"ui":{"CSP":{"connectDomains":["https://a.example"]}}}`)).Header(); strings.Contains(h, "a.example") {
		t.Errorf("CSP %q took \"CSP\" for csp", h)
	}
}

// TestHostServesTheAppOnly: the app's tools/call reaches the session only
// for a tool visible to the app; an open-link request is answered and
// shown, never followed; ui/initialize says what the host does.
func TestHostServesTheAppOnly(t *testing.T) {
	var called []string
	app := wire.Tool{Name: "open", Meta: json.RawMessage(`{"ui":{"resourceUri":"ui://a/b"}}`)}
	tools := []wire.Tool{app,
		{Name: "model-only", Meta: json.RawMessage(`{"ui":{"visibility":["model"]}}`)},
		{Name: "app-only", Meta: json.RawMessage(`{"ui":{"visibility":["app"]}}`)}}
	var notices []string
	h, err := New(t.Context(), Config{Tool: app, Tools: tools,
		Call: func(_ context.Context, name string, _ map[string]any) (json.RawMessage, error) {
			called = append(called, name)
			return json.RawMessage(`{"content":[]}`), nil
		},
		Read: func(context.Context, string) ([]wire.ResourceContents, error) {
			return []wire.ResourceContents{{URI: "ui://a/b", MimeType: wire.AppMimeType, Text: "<p>hi</p>"}}, nil
		},
		OnNotice: func(s string) { notices = append(notices, s) },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer h.ln.Close()
	post := func(msg string) map[string]any {
		t.Helper()
		req := httptest.NewRequest(http.MethodPost, h.URL()+"rpc", strings.NewReader(`{"from":"app","message":`+msg+`}`))
		req.Host = h.ln.Addr().String()
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		var r struct{ Message, Link json.RawMessage }
		_ = json.Unmarshal(w.Body.Bytes(), &r)
		var m map[string]any
		_ = json.Unmarshal(r.Message, &m)
		if len(r.Link) > 0 {
			m["link"] = string(r.Link)
		}
		return m
	}
	if m := post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"model-only"}}`); m["error"] == nil {
		t.Errorf("model-only tool: %v, want an error", m)
	}
	if m := post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"unlisted"}}`); m["error"] == nil {
		t.Errorf("unlisted tool: %v, want an error", m)
	}
	if m := post(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"app-only"}}`); m["result"] == nil {
		t.Errorf("app-only tool: %v, want its result", m)
	}
	if strings.Join(called, ",") != "app-only" {
		t.Errorf("the session was called for %v, want app-only only", called)
	}
	if m := post(`{"jsonrpc":"2.0","id":4,"method":"ui/open-link","params":{"url":"https://example.com/x"}}`); m["link"] != `"https://example.com/x"` || len(notices) != 1 {
		t.Errorf("open-link: %v, notices %v", m, notices)
	}
	if m := post(`{"jsonrpc":"2.0","id":5,"method":"ui/open-link","params":{"url":"javascript:alert(1)"}}`); m["error"] == nil {
		t.Errorf("a javascript: link: %v, want refused", m)
	}
	m := post(`{"jsonrpc":"2.0","id":6,"method":"ui/initialize","params":{"protocolVersion":"2026-01-26"}}`)
	res, _ := m["result"].(map[string]any)
	caps, _ := res["hostCapabilities"].(map[string]any)
	if res["protocolVersion"] != "2026-01-26" || caps["serverTools"] == nil || caps["openLinks"] == nil {
		t.Errorf("ui/initialize: %v", m)
	}
	if m := post(`{"jsonrpc":"2.0","id":7,"method":"ui/message","params":{}}`); m["error"] == nil {
		t.Errorf("ui/message: %v, want method not found (no model here)", m)
	}
}
