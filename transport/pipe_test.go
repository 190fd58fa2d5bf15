package transport_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

type greetArgs struct {
	Name string `json:"name"`
}

// TestPipeIOWithSDKServer puts a real go-sdk server on the raw end of
// PipeIO and speaks hand-written frames to it through our Conn.
func TestPipeIOWithSDKServer(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	server := mcp.NewServer(&mcp.Implementation{Name: "pipe-test", Version: "1.0.0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "greet", Description: "says hi"},
		func(_ context.Context, _ *mcp.CallToolRequest, a greetArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Hi " + a.Name}}}, nil, nil
		})

	rec := &recorder{}
	conn, r, w := transport.PipeIO(rec)
	ss, err := server.Connect(ctx, &mcp.IOTransport{Reader: r, Writer: w}, nil)
	if err != nil {
		t.Fatal(err)
	}

	call := func(id int64, method string, params string) json.RawMessage {
		t.Helper()
		req := &jsonrpc.Message{ID: jsonrpc.IntID(id), Method: method, Params: json.RawMessage(params)}
		if err := conn.Write(ctx, req, nil); err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		m, err := msgOf(conn.Read(ctx))
		if err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		if m.Kind() != jsonrpc.KindResponse || m.ID != req.ID || m.Error != nil {
			t.Fatalf("%s: got %+v (error %v)", method, m, m.Error)
		}
		return m.Result
	}

	var init struct {
		ProtocolVersion string
		ServerInfo      struct{ Name string }
	}
	res := call(1, "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"elicit-test","version":"0"}}`)
	if err := json.Unmarshal(res, &init); err != nil {
		t.Fatal(err)
	}
	if init.ProtocolVersion != "2025-11-25" || init.ServerInfo.Name != "pipe-test" {
		t.Errorf("initialize result = %s", res)
	}
	if err := conn.Write(ctx, &jsonrpc.Message{Method: "notifications/initialized", Params: json.RawMessage(`{}`)}, nil); err != nil {
		t.Fatal(err)
	}

	var list struct{ Tools []struct{ Name string } }
	if err := json.Unmarshal(call(2, "tools/list", `{}`), &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Tools) != 1 || list.Tools[0].Name != "greet" {
		t.Errorf("tools/list = %+v", list)
	}

	var result struct{ Content []struct{ Text string } }
	if err := json.Unmarshal(call(3, "tools/call", `{"name":"greet","arguments":{"name":"Ada"}}`), &result); err != nil {
		t.Fatal(err)
	}
	if len(result.Content) != 1 || result.Content[0].Text != "Hi Ada" {
		t.Errorf("tools/call = %+v", result)
	}

	// Everything crossed the wire in order and was logged.
	var methods []string
	for _, f := range rec.Frames() {
		m, err := jsonrpc.Decode(f.Raw)
		if err != nil {
			t.Fatalf("logged frame %q: %v", f.Raw, err)
		}
		methods = append(methods, f.Dir.String()+" "+m.Kind().String()+" "+m.Method)
	}
	want := []string{
		"out request initialize", "in response ",
		"out notification notifications/initialized",
		"out request tools/list", "in response ",
		"out request tools/call", "in response ",
	}
	if diff := cmp.Diff(want, methods); diff != "" {
		t.Errorf("frames (-want +got):\n%s", diff)
	}

	// Our Close ends the server session; the server closing ends our Read.
	if err := conn.Close(); err != nil {
		t.Fatal(err)
	}
	if err := ss.Wait(); err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, mcp.ErrConnectionClosed) {
		t.Logf("server session ended with %v", err)
	}
}

// TestPipeServerCloseIsEOF: when the server side goes away the client sees
// io.EOF, the "server closed the connection" case.
func TestPipeServerCloseIsEOF(t *testing.T) {
	t.Parallel()
	conn, r, w := transport.PipeIO(nil)
	defer conn.Close()
	r.Close()
	w.Close()
	_, err := conn.Read(t.Context())
	if !errors.Is(err, io.EOF) || errors.Is(err, transport.ErrClosed) {
		t.Fatalf("Read = %v, want io.EOF and not ErrClosed", err)
	}
}
