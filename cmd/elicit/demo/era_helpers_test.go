package demo_test

import (
	"encoding/json"
	"maps"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// modernPin asks for the stateless era; go-sdk probes server/discover.
var modernPin = &mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"}

// modernTransports are the ways a 2026-07-28 client reaches the demo:
// go-sdk's in-memory pipe, ServeIO over io.Pipes (what stdio runs), and the
// stateless HTTP handler behind httptest.
var modernTransports = []string{"memory", "pipes", "stateless"}

// connectModern connects a go-sdk client over kind, asking for 2026-07-28,
// and checks that it got it.
func connectModern(t *testing.T, kind string, opts *demo.Options, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx := t.Context()
	client := mcp.NewClient(&mcp.Implementation{Name: "demo-test", Version: "0"}, copts)
	var cs *mcp.ClientSession
	var err error
	switch kind {
	case "memory":
		return connect(t, "memory", opts, copts, modernPin)
	case "pipes":
		transport, done := servePipes(ctx)
		cs, err = client.Connect(ctx, transport, modernPin)
		if err != nil {
			t.Fatalf("client connect: %v", err)
		}
		t.Cleanup(func() {
			_ = cs.Close()
			if err := within(t, 5*time.Second, done, "ServeIO to return"); err != nil {
				t.Errorf("ServeIO = %v", err)
			}
		})
	case "stateless":
		ts := httptest.NewServer(demo.HTTPHandlerStateless(opts))
		t.Cleanup(ts.Close)
		cs, err = client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL}, modernPin)
		if err != nil {
			t.Fatalf("client connect: %v", err)
		}
		t.Cleanup(func() { _ = cs.Close() })
	default:
		t.Fatalf("unknown transport %q", kind)
	}
	if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
		t.Fatalf("%s: negotiated %q, want 2026-07-28", kind, v)
	}
	return cs
}

// byHand returns client options for driving MRTR rounds in the test: the
// automatic retry loop is off, and form elicitation is declared without a
// handler (the test plays the user).
func byHand() *mcp.ClientOptions {
	return &mcp.ClientOptions{
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
		Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{
			Form: &mcp.FormElicitationCapabilities{},
		}},
	}
}

// retry is one tools/call of a multi-round conversation: the arguments, the
// answers to the previous round and the requestState to echo.
func retry(t *testing.T, cs *mcp.ClientSession, name string, args any, answers mcp.InputResponseMap, state string) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{
		Name: name, Arguments: args, InputResponses: answers, RequestState: state,
	})
	if err != nil {
		t.Fatalf("tools/call %s: %v", name, err)
	}
	return res
}

// asked checks that res is input_required with exactly the given keys and a
// requestState, and returns its questions.
func asked(t *testing.T, res *mcp.CallToolResult, keys ...string) map[string]*mcp.ElicitParams {
	t.Helper()
	if !res.NeedsInput() {
		t.Fatalf("want input_required, got a complete result: %+v", res)
	}
	if len(res.Content) != 0 || res.StructuredContent != nil {
		t.Errorf("input_required result carries content: %+v", res)
	}
	if res.RequestState == "" {
		t.Error("input_required result has no requestState")
	}
	got := slices.Sorted(maps.Keys(res.InputRequests))
	if !slices.Equal(got, slices.Sorted(slices.Values(keys))) {
		t.Fatalf("inputRequests keys = %q, want %q", got, keys)
	}
	questions := map[string]*mcp.ElicitParams{}
	for k, r := range res.InputRequests {
		p, ok := r.(*mcp.ElicitParams)
		if !ok {
			t.Fatalf("inputRequests[%q] is %T, want an elicitation", k, r)
		}
		questions[k] = p
	}
	return questions
}

// accept is an accepted answer with content.
func accept(content map[string]any) *mcp.ElicitResult {
	return &mcp.ElicitResult{Action: "accept", Content: content}
}

// done checks that res is a complete, successful result and returns its text.
func done(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if res.NeedsInput() {
		t.Fatalf("want a complete result, got input_required: %+v", res.InputRequests)
	}
	if res.IsError {
		t.Fatalf("tool error: %s", textOf(t, res))
	}
	return textOf(t, res)
}

// enumOf returns the enum of property name in a question's schema.
func enumOf(t *testing.T, q *mcp.ElicitParams, name string) []any {
	t.Helper()
	props, _ := q.RequestedSchema.(map[string]any)["properties"].(map[string]any)
	prop, _ := props[name].(map[string]any)
	enum, _ := prop["enum"].([]any)
	if enum == nil {
		t.Fatalf("question %q has no enum for %q: %v", q.Message, name, q.RequestedSchema)
	}
	return enum
}

// asJSON renders v for a failure message.
func asJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// newStatelessServer serves HTTPHandlerStateless on httptest and returns
// its URL.
func newStatelessServer(t *testing.T) string {
	t.Helper()
	ts := httptest.NewServer(demo.HTTPHandlerStateless(nil))
	t.Cleanup(ts.Close)
	return ts.URL
}
