package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// headerToolSchema marks four arguments x-mcp-header, one of them nested.
const headerToolSchema = `{
	"type": "object",
	"properties": {
		"region": {"type": "string", "x-mcp-header": "Region"},
		"target": {"type": "object", "properties": {"zone": {"type": "string", "x-mcp-header": "Zone"}}},
		"replicas": {"type": "integer", "x-mcp-header": "Replicas"},
		"dry": {"type": "boolean", "x-mcp-header": "Dry-Run"},
		"service": {"type": "string"}
	}
}`

// addEcho adds a tool with schema to srv that returns its arguments.
func addEcho(srv *mcp.Server, name, schema string) {
	srv.AddTool(&mcp.Tool{Name: name, InputSchema: json.RawMessage(schema)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ran " + string(req.Params.Arguments)}}}, nil
		})
}

// statelessHandler serves srv the 2026-07-28 way: go-sdk checks every
// Mcp-Param header against the body and refuses a mismatch with -32020.
func statelessHandler(srv *mcp.Server) http.Handler {
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true})
}

// sentCalls returns the HTTP frames of our tools/call requests, in order.
func (r *recorder) sentCalls() []transport.Frame {
	var out []transport.Frame
	for _, f := range r.httpOut() {
		var m wireMsg
		if json.Unmarshal(f.Raw, &m) == nil && m.Method == "tools/call" {
			out = append(out, f)
		}
	}
	return out
}

// paramHeaders is a frame's Mcp-Param headers.
func paramHeaders(f transport.Frame) map[string]string {
	out := map[string]string{}
	for k, v := range f.HTTP.Header {
		if strings.HasPrefix(k, "Mcp-Param-") {
			out[k] = strings.Join(v, ",")
		}
	}
	return out
}

// mismatches counts the server's -32020 answers.
func (r *recorder) mismatches() int {
	n := 0
	for _, m := range r.in() {
		if m.Error != nil && m.Error.Code == jsonrpc.CodeHeaderMismatch {
			n++
		}
	}
	return n
}

func TestParamHeadersWithGoSDK(t *testing.T) {
	t.Parallel()
	args := map[string]any{"region": "eu-west1", "target": map[string]any{"zone": "b"}, "replicas": 3, "dry": true, "service": "api"}
	want := map[string]string{"Mcp-Param-Region": "eu-west1", "Mcp-Param-Zone": "b", "Mcp-Param-Replicas": "3", "Mcp-Param-Dry-Run": "true"}

	t.Run("listed", func(t *testing.T) {
		t.Parallel()
		srv := mcp.NewServer(&mcp.Implementation{Name: "hdr", Version: "1"}, nil)
		addEcho(srv, "deploy", headerToolSchema)
		rec := &recorder{}
		s := connectHTTP(t, statelessHandler(srv), &client.Options{}, rec)
		if _, err := s.ListTools(t.Context()); err != nil {
			t.Fatal(err)
		}
		res, err := s.CallTool(t.Context(), "deploy", args, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.Text(), `"region":"eu-west1"`) {
			t.Errorf("result %q", res.Text())
		}
		// Non-ASCII goes base64-encoded, and the server decodes it back.
		if _, err := s.CallTool(t.Context(), "deploy", map[string]any{"region": "Zürich"}, nil); err != nil {
			t.Fatal(err)
		}
		// A tools/call through the generic Request is mirrored too.
		if err := s.Request(t.Context(), "tools/call", map[string]any{"name": "deploy", "arguments": map[string]any{"replicas": 0}}, nil); err != nil {
			t.Fatal(err)
		}
		calls := rec.sentCalls()
		if len(calls) != 3 || rec.mismatches() != 0 {
			t.Fatalf("%d calls, %d mismatches", len(calls), rec.mismatches())
		}
		if got := paramHeaders(calls[2]); !maps.Equal(got, map[string]string{"Mcp-Param-Replicas": "0"}) {
			t.Errorf("Request headers %v", got)
		}
		if got := paramHeaders(calls[0]); !maps.Equal(got, want) {
			t.Errorf("headers %v, want %v", got, want)
		}
		if got := paramHeaders(calls[1]); !maps.Equal(got, map[string]string{"Mcp-Param-Region": "=?base64?WsO8cmljaA==?="}) {
			t.Errorf("headers %v", got)
		}
	})

	t.Run("not listed yet", func(t *testing.T) {
		t.Parallel()
		srv := mcp.NewServer(&mcp.Implementation{Name: "hdr", Version: "1"}, nil)
		addEcho(srv, "deploy", headerToolSchema)
		rec := &recorder{}
		s := connectHTTP(t, statelessHandler(srv), &client.Options{}, rec)
		// Without the schema the call goes out bare; the server refuses
		// it, the session lists the tools and sends it again.
		res, err := s.CallTool(t.Context(), "deploy", args, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.Text(), `"service":"api"`) {
			t.Errorf("result %q", res.Text())
		}
		calls := rec.sentCalls()
		if len(calls) != 2 || rec.mismatches() != 1 {
			t.Fatalf("%d calls, %d mismatches", len(calls), rec.mismatches())
		}
		if got := paramHeaders(calls[0]); len(got) != 0 {
			t.Errorf("first attempt sent %v", got)
		}
		if got := paramHeaders(calls[1]); !maps.Equal(got, want) {
			t.Errorf("retry sent %v, want %v", got, want)
		}
		if m := rec.methods(); !slices.Equal(m, []string{"server/discover", "tools/call", "tools/list", "tools/call"}) {
			t.Errorf("methods %v", m)
		}
		waitEvent(t, rec, func(n client.Notice) bool { return strings.Contains(n.Text, "listed the tools again") })
	})

	t.Run("stale schema", func(t *testing.T) {
		t.Parallel()
		srv := mcp.NewServer(&mcp.Implementation{Name: "hdr", Version: "1"}, nil)
		addEcho(srv, "deploy", `{"type":"object","properties":{"region":{"type":"string"}}}`)
		rec := &recorder{}
		s := connectHTTP(t, statelessHandler(srv), &client.Options{}, rec)
		if _, err := s.ListTools(t.Context()); err != nil {
			t.Fatal(err)
		}
		addEcho(srv, "deploy", headerToolSchema) // replaces it: region is now mirrored
		if _, err := s.CallTool(t.Context(), "deploy", map[string]any{"region": "us-east1"}, nil); err != nil {
			t.Fatal(err)
		}
		calls := rec.sentCalls()
		if len(calls) != 2 || rec.mismatches() != 1 || !maps.Equal(paramHeaders(calls[1]), map[string]string{"Mcp-Param-Region": "us-east1"}) {
			t.Errorf("%d calls, %d mismatches, retry headers %v", len(calls), rec.mismatches(), paramHeaders(calls[len(calls)-1]))
		}
	})

	t.Run("unmirrorable value is retried once at most", func(t *testing.T) {
		t.Parallel()
		srv := mcp.NewServer(&mcp.Implementation{Name: "hdr", Version: "1"}, nil)
		addEcho(srv, "deploy", headerToolSchema)
		rec := &recorder{}
		s := connectHTTP(t, statelessHandler(srv), &client.Options{}, rec)
		if _, err := s.ListTools(t.Context()); err != nil {
			t.Fatal(err)
		}
		// 2.5 is no integer: no header, and go-sdk's server wants one. A
		// fresh list changes nothing, so the call is not sent again.
		_, err := s.CallTool(t.Context(), "deploy", map[string]any{"replicas": 2.5}, nil)
		var rpcErr *jsonrpc.Error
		if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeHeaderMismatch {
			t.Fatalf("error %v, want -32020", err)
		}
		if n := len(rec.sentCalls()); n != 1 {
			t.Errorf("%d tools/call sent, want 1", n)
		}
		if m := rec.methods(); !slices.Equal(m, []string{"server/discover", "tools/list", "tools/call", "tools/list"}) {
			t.Errorf("methods %v", m)
		}
	})
}

// TestParamHeaderValuesAgainstGoSDK sends each value through a real go-sdk
// server, whose header check is the referee: a value we mirror must match
// what the server reads from the body, and a value we leave out must be one
// the server does not expect a header for (null) or cannot compare either
// (it then refuses the call: -32020, as it would go-sdk's own client).
func TestParamHeaderValuesAgainstGoSDK(t *testing.T) {
	t.Parallel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "hdr", Version: "1"}, nil)
	addEcho(srv, "v", `{"type":"object","properties":{"v":{"type":"string","x-mcp-header":"V"}}}`)
	rec := &recorder{}
	s := connectHTTP(t, statelessHandler(srv), &client.Options{}, rec)
	if _, err := s.ListTools(t.Context()); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		raw    string
		header string // "" for none
		ok     bool   // the server runs the tool
	}{
		{`"us-west1"`, "us-west1", true},
		{`"Hello, 世界"`, "=?base64?SGVsbG8sIOS4lueVjA==?=", true},
		{`" padded "`, "=?base64?IHBhZGRlZCA=?=", true},
		{`"=?base64?literal?="`, "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=", true},
		{`true`, "true", true},
		{`false`, "false", true},
		{`42`, "42", true},
		{`-7`, "-7", true},
		{`1.0`, "1", true},
		{`1e3`, "1000", true},
		{`9007199254740991`, "9007199254740991", true},
		{`null`, "", true},
		{`9007199254740993`, "", false},
		{`2.5`, "", false},
		{`{"a":1}`, "", false},
		{`["a"]`, "", false},
		// An empty value reads as a missing header on go-sdk's side.
		{`""`, "", false},
	} {
		before := len(rec.sentCalls())
		_, err := s.CallTool(t.Context(), "v", json.RawMessage(`{"v":`+tc.raw+`}`), nil)
		var rpcErr *jsonrpc.Error
		switch {
		case tc.ok && err != nil:
			t.Errorf("%s: %v", tc.raw, err)
		case !tc.ok && (!errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeHeaderMismatch):
			t.Errorf("%s: error %v, want -32020", tc.raw, err)
		}
		calls := rec.sentCalls()
		if len(calls) != before+1 {
			t.Errorf("%s: %d tools/call sent", tc.raw, len(calls)-before)
			continue
		}
		got, sent := paramHeaders(calls[before])["Mcp-Param-V"]
		if got != tc.header || sent != (tc.header != "" || tc.raw == `""`) {
			t.Errorf("%s: header %q (sent %v), want %q", tc.raw, got, sent, tc.header)
		}
	}
}

// TestInvalidHeaderToolsLeftOut: a Streamable HTTP client must reject a tool
// whose x-mcp-header annotations are invalid. go-sdk's server refuses to
// register such a tool, so a hand-written 2026-07-28 server lists them.
func TestInvalidHeaderToolsLeftOut(t *testing.T) {
	t.Parallel()
	tools := `[
		{"name":"good","inputSchema":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}},
		{"name":"plain","inputSchema":{"type":"object"}},
		{"name":"number","inputSchema":{"type":"object","properties":{"n":{"type":"number","x-mcp-header":"N"}}}},
		{"name":"twice","inputSchema":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"X"},"b":{"type":"string","x-mcp-header":"x"}}}},
		{"name":"injection","inputSchema":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A\r\nB"}}}}
	]`
	var callHeaders http.Header
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m wireMsg
		if err := json.NewDecoder(r.Body).Decode(&m); err != nil || m.ID == nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		var result string
		switch m.Method {
		case "server/discover":
			result = `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}}}`
		case "tools/list":
			result = `{"resultType":"complete","tools":` + tools + `}`
		case "tools/call":
			callHeaders = r.Header.Clone()
			result = `{"resultType":"complete","content":[{"type":"text","text":"ok"}]}`
		default:
			http.Error(w, "unexpected "+m.Method, http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, *m.ID, result)
	})
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	rec := &recorder{}
	s, err := client.Connect(t.Context(), &transport.HTTP{URL: ts.URL, Observer: rec}, &client.Options{Observer: rec})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	got, err := s.ListTools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range got {
		names = append(names, tool.Name)
	}
	if !slices.Equal(names, []string{"good", "plain"}) {
		t.Errorf("tools %v, want good and plain", names)
	}
	for _, bad := range []string{`"number"`, `"twice"`, `"injection"`} {
		waitEvent(t, rec, func(n client.Notice) bool { return strings.Contains(n.Text, "tool "+bad+" left out") })
	}
	if _, err := s.CallTool(t.Context(), "good", map[string]any{"region": "eu"}, nil); err != nil {
		t.Fatal(err)
	}
	if v := callHeaders.Get("Mcp-Param-Region"); v != "eu" {
		t.Errorf("Mcp-Param-Region %q", v)
	}
}

// TestNoParamHeadersOnStdio: stdio has no headers, so nothing is cached or
// left out there (the same tool list over HTTP would lose a tool).
func TestNoParamHeadersOnStdio(t *testing.T) {
	t.Parallel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "hdr", Version: "1"}, nil)
	addEcho(srv, "deploy", headerToolSchema)
	s := servePipe(t, srv, nil, nil)
	if s.Era() != "2026-07-28 stateless" {
		t.Fatalf("era %q", s.Era())
	}
	tools, err := s.ListTools(t.Context())
	if err != nil || len(tools) != 1 {
		t.Fatalf("tools %v, %v", tools, err)
	}
	if _, err := s.CallTool(t.Context(), "deploy", map[string]any{"region": "eu"}, nil); err != nil {
		t.Fatal(err)
	}
}
