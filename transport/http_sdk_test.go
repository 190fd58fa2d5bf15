package transport_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

const httpTestVersion = "2025-11-25"

// httpSDKServer is a go-sdk server with two tools: "ask" elicits a name on
// the tools/call stream; "bounce" closes its own SSE stream (SEP-1699, retry
// 50 ms) and then answers, so the answer can only arrive by resumption.
func httpSDKServer(t *testing.T) http.Handler {
	t.Helper()
	server := mcp.NewServer(&mcp.Implementation{Name: "sdk-test", Version: "v1"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "ask", Description: "asks for a name"},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{
				Message: "Your name?",
				RequestedSchema: map[string]any{
					"type":       "object",
					"properties": map[string]any{"name": map[string]any{"type": "string"}},
					"required":   []string{"name"},
				},
			})
			if err != nil {
				return nil, nil, fmt.Errorf("elicit: %w", err)
			}
			return &mcp.CallToolResult{Content: []mcp.Content{
				&mcp.TextContent{Text: fmt.Sprintf("%s: hello %v", res.Action, res.Content["name"])},
			}}, nil, nil
		})
	mcp.AddTool(server, &mcp.Tool{Name: "bounce", Description: "closes its stream, then answers"},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			req.Extra.CloseSSEStream(mcp.CloseSSEStreamArgs{RetryAfter: 50 * time.Millisecond})
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "bounced"}}}, nil, nil
		})
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{EventStore: mcp.NewMemoryEventStore(nil)})
}

// httpInitialize runs initialize / SetProtocolVersion / initialized by hand
// and returns the session id the server gave.
func httpInitialize(t *testing.T, conn transport.Conn, log *httpLog) string {
	t.Helper()
	httpWrite(t, conn, httpReq(t, 1, "initialize", map[string]any{
		"protocolVersion": httpTestVersion,
		"capabilities":    map[string]any{"elicitation": map[string]any{"form": map[string]any{}}},
		"clientInfo":      map[string]any{"name": "elicit-test", "version": "0"},
	}))
	resp := httpRead(t, conn)
	var init struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	httpResult(t, resp, &init)
	if init.ProtocolVersion != httpTestVersion {
		t.Fatalf("negotiated %q, want %q", init.ProtocolVersion, httpTestVersion)
	}
	conn.(transport.VersionSetter).SetProtocolVersion(init.ProtocolVersion)
	httpWrite(t, conn, httpNote(t, "notifications/initialized", nil))

	var sid string
	for _, f := range log.Frames() {
		if f.Dir == transport.In && f.HTTP != nil && f.HTTP.Header.Get("Mcp-Session-Id") != "" {
			sid = f.HTTP.Header.Get("Mcp-Session-Id")
			break
		}
	}
	if sid == "" {
		t.Fatal("the initialize response frame shows no Mcp-Session-Id")
	}
	return sid
}

type httpToolResult struct {
	Content []struct {
		Text string `json:"text"`
	} `json:"content"`
	IsError bool `json:"isError"`
}

func TestHTTPSDKElicitation(t *testing.T) {
	t.Parallel()
	conn, log, _ := httpStart(t, httpSDKServer(t), &transport.HTTP{})
	sid := httpInitialize(t, conn, log)

	httpWrite(t, conn, httpReq(t, 2, "tools/call", map[string]any{"name": "ask", "arguments": map[string]any{}}))
	elicit := httpRead(t, conn)
	if elicit.Kind() != jsonrpc.KindRequest || elicit.Method != "elicitation/create" {
		t.Fatalf("got %s %q, want the elicitation/create request", elicit.Kind(), elicit.Method)
	}
	httpWrite(t, conn, httpResp(t, elicit.ID, map[string]any{"action": "accept", "content": map[string]any{"name": "Ada"}}))
	var res httpToolResult
	result := httpRead(t, conn)
	if result.ID != jsonrpc.IntID(2) {
		t.Fatalf("got response id %s, want 2", result.ID)
	}
	httpResult(t, result, &res)
	if res.IsError || len(res.Content) != 1 || res.Content[0].Text != "accept: hello Ada" {
		t.Fatalf("tool result = %+v, want accept: hello Ada", res)
	}

	// The standalone GET stream opens after SetProtocolVersion.
	log.WaitFor(t, "the standalone GET", func(s []httpSeen) bool {
		for _, r := range s {
			if r.Method == http.MethodGet {
				return true
			}
		}
		return false
	})
	if err := conn.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	// Where the elicitation came from: the tools/call POST's SSE stream.
	var elicitFrame *transport.Frame
	for _, f := range log.Frames() {
		if f.Dir == transport.In && strings.Contains(string(f.Raw), `"elicitation/create"`) {
			elicitFrame = &f
		}
	}
	if elicitFrame == nil || elicitFrame.HTTP.Method != http.MethodPost || elicitFrame.HTTP.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("elicitation frame = %+v, want one from a POST event stream", elicitFrame)
	}
	if errs := httpErrFrames(log.Frames()); len(errs) != 0 {
		t.Errorf("error frames: %+v", errs)
	}

	// Headers: nothing on initialize; the session id on everything after it;
	// the version on everything after SetProtocolVersion; DELETE at the end.
	seen := log.Seen()
	if h := seen[0].Header; h.Get("Mcp-Session-Id") != "" || h.Get("Mcp-Protocol-Version") != "" {
		t.Errorf("initialize carried session/version headers: %v", h)
	}
	for _, s := range seen[1:] {
		if got := s.Header.Get("Mcp-Session-Id"); got != sid {
			t.Errorf("%s %s: Mcp-Session-Id = %q, want %q", s.Method, httpWhat(s), got, sid)
		}
		if got := s.Header.Get("Mcp-Protocol-Version"); got != httpTestVersion {
			t.Errorf("%s %s: MCP-Protocol-Version = %q, want %q", s.Method, httpWhat(s), got, httpTestVersion)
		}
	}
	if gets := log.SeenMethod(http.MethodGet); gets[0].Header.Get("Accept") != "text/event-stream" {
		t.Errorf("GET Accept = %q", gets[0].Header.Get("Accept"))
	}
	if dels := log.SeenMethod(http.MethodDelete); len(dels) != 1 {
		t.Errorf("saw %d DELETEs, want 1", len(dels))
	}
	var answer *httpSeen
	for _, s := range log.SeenMethod(http.MethodPost) {
		if s.Msg != nil && s.Msg.Kind() == jsonrpc.KindResponse {
			answer = &s
		}
	}
	if answer == nil || answer.Msg.ID != elicit.ID {
		t.Errorf("the elicitation answer POST was not seen")
	}
}

// The go-sdk server closes the tools/call stream after its priming event
// (retry 50 ms); the result must still arrive, by GET with Last-Event-ID.
func TestHTTPSDKResumption(t *testing.T) {
	t.Parallel()
	conn, log, _ := httpStart(t, httpSDKServer(t), &transport.HTTP{})
	httpInitialize(t, conn, log)

	httpWrite(t, conn, httpReq(t, 2, "tools/call", map[string]any{"name": "bounce", "arguments": map[string]any{}}))
	var res httpToolResult
	httpResult(t, httpRead(t, conn), &res)
	if len(res.Content) != 1 || res.Content[0].Text != "bounced" {
		t.Fatalf("tool result = %+v", res)
	}
	var resumed bool
	for _, g := range log.SeenMethod(http.MethodGet) {
		resumed = resumed || g.Header.Get("Last-Event-ID") != ""
	}
	if !resumed {
		t.Error("no GET with Last-Event-ID was sent")
	}
	var fromGET bool
	for _, f := range log.Frames() {
		if f.Dir == transport.In && strings.Contains(string(f.Raw), "bounced") {
			fromGET = f.HTTP.Method == http.MethodGet && f.HTTP.EventID != ""
		}
	}
	if !fromGET {
		t.Error("the result frame did not come from the resumed GET stream with an event id")
	}
}

func httpWhat(s httpSeen) string {
	if s.Msg == nil {
		return ""
	}
	b, _ := json.Marshal(s.Msg.ID)
	return s.Msg.Method + " " + string(b)
}
