package demo_test

import (
	"context"
	"encoding/json"
	"maps"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// pinned is the protocol the tests speak: the era where elicitation is a
// server-to-client request.
var pinned = &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}

// transports are the two ways the tests reach the demo: go-sdk's in-memory
// pipe and the Streamable HTTP handler behind httptest.
var transports = []string{"memory", "http"}

// connect starts a demo server and connects a go-sdk client to it over kind.
// Everything is torn down when the test ends.
func connect(t *testing.T, kind string, opts *demo.Options, copts *mcp.ClientOptions, sopts *mcp.ClientSessionOptions) *mcp.ClientSession {
	t.Helper()
	ctx := t.Context()
	client := mcp.NewClient(&mcp.Implementation{Name: "demo-test", Version: "0"}, copts)
	switch kind {
	case "memory":
		st, ct := mcp.NewInMemoryTransports()
		ss, err := demo.New(opts).Connect(ctx, st, nil)
		if err != nil {
			t.Fatalf("server connect: %v", err)
		}
		cs, err := client.Connect(ctx, ct, sopts)
		if err != nil {
			t.Fatalf("client connect: %v", err)
		}
		t.Cleanup(func() {
			_ = cs.Close()
			_ = ss.Wait()
		})
		return cs
	case "http":
		ts := httptest.NewServer(demo.HTTPHandler(opts))
		t.Cleanup(ts.Close)
		cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL}, sopts)
		if err != nil {
			t.Fatalf("client connect: %v", err)
		}
		t.Cleanup(func() { _ = cs.Close() })
		return cs
	default:
		t.Fatalf("unknown transport %q", kind)
		return nil
	}
}

// elicitWith returns client options whose elicitation handler is h.
func elicitWith(h func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error)) *mcp.ClientOptions {
	return &mcp.ClientOptions{ElicitationHandler: h}
}

// answer is an elicitation handler that always gives a copy of res (go-sdk
// fills defaults into the content it is handed, so each call needs its own).
// A nil res accepts every field's default, like a client's "accept defaults".
func answer(res *mcp.ElicitResult) *mcp.ClientOptions {
	return elicitWith(func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		if res == nil {
			return &mcp.ElicitResult{Action: "accept", Content: defaultsOfRequest(req)}, nil
		}
		return &mcp.ElicitResult{Action: res.Action, Content: maps.Clone(res.Content)}, nil
	})
}

// defaultsOfRequest is defaultsOf for a handler, which has no *testing.T;
// a schema that does not decode yields no defaults and fails validation.
func defaultsOfRequest(req *mcp.ElicitRequest) map[string]any {
	raw, err := json.Marshal(req.Params.RequestedSchema)
	if err != nil {
		return nil
	}
	var s struct {
		Properties map[string]struct {
			Default any `json:"default"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil
	}
	content := map[string]any{}
	for name, p := range s.Properties {
		if p.Default != nil {
			content[name] = p.Default
		}
	}
	return content
}

// call runs a tool and returns its result; a protocol error fails the test.
func call(t *testing.T, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("tools/call %s: %v", name, err)
	}
	return res
}

// textOf returns the first content block's text.
func textOf(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) == 0 {
		t.Fatalf("result has no content: %+v", res)
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("first content block is %T, want text", res.Content[0])
	}
	return tc.Text
}

// okText runs a tool that must succeed and returns its text.
func okText(t *testing.T, cs *mcp.ClientSession, name string, args any) string {
	t.Helper()
	res := call(t, cs, name, args)
	if res.IsError {
		t.Fatalf("tools/call %s: tool error: %s", name, textOf(t, res))
	}
	return textOf(t, res)
}

// within waits for ch or fails the test after d.
func within[T any](t *testing.T, d time.Duration, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(d):
		t.Fatalf("timed out after %s waiting for %s", d, what)
		var zero T
		return zero
	}
}
