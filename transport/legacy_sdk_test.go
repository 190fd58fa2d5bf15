package transport_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// sseStart serves h (recorded) and dials an SSE Conn to path on it, with
// the log as observer. Both are closed by t.Cleanup, Conn first.
func sseStart(t *testing.T, h http.Handler, path string) (transport.Conn, *httpLog, *httptest.Server) {
	t.Helper()
	log := newHTTPLog()
	srv := httptest.NewServer(log.wrap(h))
	t.Cleanup(srv.Close)
	conn, err := (&transport.SSE{URL: srv.URL + path, Observer: log}).Dial(t.Context())
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn, log, srv
}

// A go-sdk legacy SSE server whose tool elicits: the elicitation/create
// request arrives on the event stream and reaches Read, our answer goes by
// POST to the endpoint, and the tool's result follows on the stream.
func TestSSESDKElicitation(t *testing.T) {
	t.Parallel()
	server := mcp.NewServer(&mcp.Implementation{Name: "sdk-legacy", Version: "v1"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "ask", Description: "asks for a name"},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{
				Message: "Your name?",
				RequestedSchema: map[string]any{
					"type":       "object",
					"properties": map[string]any{"name": map[string]any{"type": "string"}},
				},
			})
			if err != nil {
				return nil, nil, fmt.Errorf("elicit: %w", err)
			}
			return &mcp.CallToolResult{Content: []mcp.Content{
				&mcp.TextContent{Text: fmt.Sprintf("%s: hello %v", res.Action, res.Content["name"])},
			}}, nil, nil
		})
	h := mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return server }, nil)
	conn, log, srv := sseStart(t, h, "/sse")

	httpWrite(t, conn, httpReq(t, 1, "initialize", map[string]any{
		"protocolVersion": "2025-06-18",
		"capabilities":    map[string]any{"elicitation": map[string]any{}},
		"clientInfo":      map[string]any{"name": "elicit-test", "version": "0"},
	}))
	var init struct{ ProtocolVersion string }
	httpResult(t, httpRead(t, conn), &init)
	conn.(transport.VersionSetter).SetProtocolVersion(init.ProtocolVersion)
	httpWrite(t, conn, httpNote(t, "notifications/initialized", nil))

	httpWrite(t, conn, httpReq(t, 2, "tools/call", map[string]any{"name": "ask", "arguments": map[string]any{}}))
	elicit := httpRead(t, conn)
	if elicit.Kind() != jsonrpc.KindRequest || elicit.Method != "elicitation/create" {
		t.Fatalf("got %s %q, want the elicitation/create request", elicit.Kind(), elicit.Method)
	}
	httpWrite(t, conn, httpResp(t, elicit.ID, map[string]any{"action": "accept", "content": map[string]any{"name": "Ada"}}))
	result := httpRead(t, conn)
	if result.ID != jsonrpc.IntID(2) {
		t.Fatalf("got id %s, want the response to 2", result.ID)
	}
	var res httpToolResult
	httpResult(t, result, &res)
	if len(res.Content) != 1 || res.Content[0].Text != "accept: hello Ada" {
		t.Fatalf("tool result = %+v", res)
	}
	if err := conn.Close(); err != nil {
		t.Fatal(err)
	}

	// One GET (the stream), then every message POSTed to the endpoint,
	// which the server put on the same origin with a session query.
	seen := log.Seen()
	if len(seen) != 5 || seen[0].Method != http.MethodGet || seen[0].Header.Get("Accept") != "text/event-stream" {
		t.Fatalf("requests = %d, first %s %v; want GET then 4 POSTs", len(seen), seen[0].Method, seen[0].Header)
	}
	for _, s := range seen[1:] {
		if s.Method != http.MethodPost || s.Msg == nil {
			t.Errorf("saw %s %s, want POSTs of messages", s.Method, httpWhat(s))
		}
	}
	if got := seen[4].Header.Get("Mcp-Protocol-Version"); got != init.ProtocolVersion {
		t.Errorf("POST after SetProtocolVersion: MCP-Protocol-Version = %q", got)
	}
	for _, f := range log.Frames() {
		switch {
		case f.Err != nil:
			t.Errorf("error frame: %v", f.Err)
		case f.Dir == transport.In && (f.HTTP.Method != http.MethodGet || f.HTTP.Status != http.StatusOK || f.HTTP.URL != srv.URL+"/sse"):
			t.Errorf("incoming frame HTTP = %+v, want the GET stream", f.HTTP)
		case f.Dir == transport.Out && (f.HTTP.Method != http.MethodPost || !strings.HasPrefix(f.HTTP.URL, srv.URL+"/sse?sessionid=")):
			t.Errorf("outgoing frame HTTP = %+v, want a POST to the endpoint", f.HTTP)
		}
	}
}
