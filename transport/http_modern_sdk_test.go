package transport_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

const modernVersion = "2026-07-28"

// modernParams adds the 2026-07-28 per-request _meta to params.
func modernParams(params map[string]any) map[string]any {
	out := map[string]any{"_meta": map[string]any{
		"io.modelcontextprotocol/protocolVersion":    modernVersion,
		"io.modelcontextprotocol/clientCapabilities": map[string]any{},
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "elicit-test", "version": "0"},
	}}
	for k, v := range params {
		out[k] = v
	}
	return out
}

// modernSDKServer is a stateless go-sdk server (the only kind that speaks
// 2026-07-28 over HTTP) with three tools: "greet" echoes a name; "deploy"
// has a region argument marked x-mcp-header, so the server checks the
// Mcp-Param-Region header against it; "wait" closes started, blocks until
// its context ends and then closes cancelled. The handler ties tool
// contexts to the POST (PropagateRequestCancellation), as the spec requires
// of a server.
func modernSDKServer(t *testing.T, started, cancelled chan<- struct{}) http.Handler {
	t.Helper()
	server := mcp.NewServer(&mcp.Implementation{Name: "sdk-modern", Version: "v1"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "greet", Description: "greets"},
		func(ctx context.Context, req *mcp.CallToolRequest, in struct {
			Name string `json:"name"`
		}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hello " + in.Name}}}, nil, nil
		})
	server.AddTool(&mcp.Tool{Name: "deploy", Description: "deploys to a region", InputSchema: json.RawMessage(`{
		"type": "object",
		"properties": {
			"region": {"type": "string", "x-mcp-header": "Region"},
			"service": {"type": "string"}
		},
		"required": ["region"]
	}`)}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in struct{ Region, Service string }
		if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Service + "@" + in.Region}}}, nil
	})
	mcp.AddTool(server, &mcp.Tool{Name: "wait", Description: "waits to be cancelled"},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			close(started)
			select {
			case <-ctx.Done():
				close(cancelled)
				return nil, nil, ctx.Err()
			case <-time.After(30 * time.Second):
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "never cancelled"}}}, nil, nil
			}
		})
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: true, PropagateRequestCancellation: true})
}

// modernCall writes a modern request and reads its answer.
func modernCall(t *testing.T, conn transport.Conn, m *jsonrpc.Message) *jsonrpc.Message {
	t.Helper()
	return modernCallWith(t, conn, m, nil)
}

// modernCallWith is modernCall with write options.
func modernCallWith(t *testing.T, conn transport.Conn, m *jsonrpc.Message, opts *transport.WriteOptions) *jsonrpc.Message {
	t.Helper()
	httpWriteWith(t, conn, m, opts)
	resp := httpRead(t, conn)
	if resp.Kind() != jsonrpc.KindResponse || resp.ID != m.ID {
		t.Fatalf("got %s %s (id %s), want the response to %s", resp.Kind(), resp.Method, resp.ID, m.ID)
	}
	return resp
}

func modernText(t *testing.T, m *jsonrpc.Message) string {
	t.Helper()
	var res httpToolResult
	httpResult(t, m, &res)
	if res.IsError || len(res.Content) != 1 {
		t.Fatalf("tool result = %+v", res)
	}
	return res.Content[0].Text
}

// Against a real stateless go-sdk server: the probe works before the version
// is set (the header comes from _meta), the server's header checks pass
// (Mcp-Method, Mcp-Name, Mcp-Param-Region), a missing Mcp-Param header gets
// -32020 and an unknown method 404 -32601, both delivered as error responses
// with the server's message, and nothing stateful (session, GET, DELETE)
// ever reaches the wire.
func TestHTTPModernSDK(t *testing.T) {
	t.Parallel()
	conn, log, _ := httpStart(t, modernSDKServer(t, make(chan struct{}), make(chan struct{})), nil)

	// The era probe, before SetProtocolVersion.
	var disc struct {
		SupportedVersions []string `json:"supportedVersions"`
	}
	httpResult(t, modernCall(t, conn, httpReq(t, 1, "server/discover", modernParams(nil))), &disc)
	if !slices.Contains(disc.SupportedVersions, modernVersion) {
		t.Fatalf("server/discover supportedVersions = %v, want %s among them", disc.SupportedVersions, modernVersion)
	}
	conn.(transport.VersionSetter).SetProtocolVersion(modernVersion)

	greet := modernCall(t, conn, httpReq(t, 2, "tools/call", modernParams(map[string]any{
		"name": "greet", "arguments": map[string]any{"name": "Ada"}})))
	if got := modernText(t, greet); got != "hello Ada" {
		t.Errorf("greet = %q", got)
	}

	deploy := httpReq(t, 3, "tools/call", modernParams(map[string]any{
		"name": "deploy", "arguments": map[string]any{"region": "eu-west1", "service": "api"}}))
	region := &transport.WriteOptions{Headers: map[string]string{"Mcp-Param-Region": "eu-west1"}}
	if got := modernText(t, modernCallWith(t, conn, deploy, region)); got != "api@eu-west1" {
		t.Errorf("deploy = %q", got)
	}

	// Without the x-mcp-header mirror the server must refuse: this is what
	// proves the header above was sent and checked.
	bare := httpReq(t, 4, "tools/call", modernParams(map[string]any{
		"name": "deploy", "arguments": map[string]any{"region": "eu-west1"}}))
	if e := modernCall(t, conn, bare).Error; e == nil || e.Code != jsonrpc.CodeHeaderMismatch {
		t.Errorf("deploy without Mcp-Param-Region: error = %v, want code %d", e, jsonrpc.CodeHeaderMismatch)
	}
	unknown := modernCall(t, conn, httpReq(t, 5, "nope/nope", modernParams(nil)))
	if e := unknown.Error; e == nil || e.Code != jsonrpc.CodeMethodNotFound {
		t.Errorf("unknown method: error = %v, want code %d", e, jsonrpc.CodeMethodNotFound)
	}
	if err := conn.Close(); err != nil {
		t.Fatal(err)
	}

	seen := log.Seen()
	if len(seen) != 5 {
		t.Errorf("saw %d HTTP requests, want the 5 POSTs", len(seen))
	}
	for _, s := range seen {
		if s.Method != http.MethodPost {
			t.Errorf("saw a %s: the stateless era is POST only", s.Method)
			continue
		}
		for k, want := range map[string]string{
			"Mcp-Protocol-Version": modernVersion, "Mcp-Method": s.Msg.Method, "Mcp-Session-Id": "",
			"Accept": "application/json, text/event-stream", "Content-Type": "application/json",
		} {
			if got := s.Header.Get(k); got != want {
				t.Errorf("%s: %s = %q, want %q", httpWhat(s), k, got, want)
			}
		}
		if s.Msg.Method == "tools/call" && s.Header.Get("Mcp-Name") == "" {
			t.Errorf("%s: no Mcp-Name", httpWhat(s))
		}
	}
	// The traffic view shows the MCP headers, and the statuses of the
	// refused requests.
	var sawParam, saw400, saw404 bool
	for _, f := range log.Frames() {
		switch {
		case f.Dir == transport.Out && f.HTTP.Header.Get("Mcp-Param-Region") == "eu-west1":
			sawParam = f.HTTP.Header.Get("Mcp-Name") == "deploy" && f.HTTP.Header.Get("Mcp-Method") == "tools/call"
		case f.Dir == transport.In && f.HTTP.Status == http.StatusBadRequest:
			saw400 = f.Err == nil
		case f.Dir == transport.In && f.HTTP.Status == http.StatusNotFound:
			saw404 = f.Err == nil
		}
	}
	if !sawParam || !saw400 || !saw404 {
		t.Errorf("frames: Mcp-Param/Name/Method shown %v, 400 frame %v, 404 frame %v", sawParam, saw400, saw404)
	}
	if errs := httpErrFrames(log.Frames()); len(errs) != 0 {
		t.Errorf("error frames: %+v", errs)
	}
}

// CancelRequest closes the request's stream, and the real server sees its
// tool's context end: in this era that is the whole cancel. The Conn
// delivers nothing for the cancelled request and sends no
// notifications/cancelled.
//
// go-sdk sends the SSE headers only with the first event, so the Write of
// a silent tool call is still waiting for them; the cancel aborts it.
func TestHTTPModernSDKCancel(t *testing.T) {
	t.Parallel()
	started, cancelled := make(chan struct{}), make(chan struct{})
	conn, log, _ := httpStart(t, modernSDKServer(t, started, cancelled), nil)
	conn.(transport.VersionSetter).SetProtocolVersion(modernVersion)

	wrote := make(chan error, 1)
	go func() {
		wrote <- conn.Write(t.Context(), httpReq(t, 1, "tools/call", modernParams(map[string]any{"name": "wait", "arguments": map[string]any{}})), nil)
	}()
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("the tool did not start")
	}
	if !conn.(transport.RequestCanceler).CancelRequest(jsonrpc.IntID(1)) {
		t.Fatal("CancelRequest = false in the stateless era")
	}
	select {
	case <-cancelled:
	case <-time.After(10 * time.Second):
		t.Fatal("the server's tool context did not end after CancelRequest")
	}
	if err := <-wrote; !errors.Is(err, context.Canceled) {
		t.Errorf("the cancelled Write = %v, want context.Canceled", err)
	}
	// The next message read is the next call's response, not anything
	// for the cancelled one.
	greet := modernCall(t, conn, httpReq(t, 2, "tools/call", modernParams(map[string]any{
		"name": "greet", "arguments": map[string]any{"name": "Bo"}})))
	if got := modernText(t, greet); got != "hello Bo" {
		t.Errorf("greet = %q", got)
	}
	for _, s := range log.Seen() {
		if s.Msg != nil && s.Msg.Method == "notifications/cancelled" {
			t.Error("notifications/cancelled was sent over stateless HTTP")
		}
	}
	var cancelFrame bool
	for _, f := range log.Frames() {
		cancelFrame = cancelFrame || f.Dir == transport.Out && f.Err != nil && f.Raw == nil
	}
	if !cancelFrame {
		t.Error("the traffic log does not show the cancel")
	}
}

// A stateful go-sdk server given the era probe answers server/discover
// with only the older versions, which tells the client to fall back to
// initialize (the recipe in the HTTP doc, step 2).
func TestHTTPModernProbeStatefulSDK(t *testing.T) {
	t.Parallel()
	server := mcp.NewServer(&mcp.Implementation{Name: "sdk-stateful", Version: "v1"}, nil)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	conn, _, _ := httpStart(t, h, nil)
	var disc struct{ SupportedVersions []string }
	httpResult(t, modernCall(t, conn, httpReq(t, 1, "server/discover", modernParams(nil))), &disc)
	if len(disc.SupportedVersions) == 0 || slices.Contains(disc.SupportedVersions, modernVersion) {
		t.Errorf("a stateful server's discover lists %v, want older versions only", disc.SupportedVersions)
	}
}
