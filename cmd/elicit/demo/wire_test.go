package demo_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/google/go-cmp/cmp"
)

// rawPeer speaks 2026-07-28 JSON-RPC to the stateless handler with nothing
// but net/http, so the tests see the exact wire shapes.
type rawPeer struct {
	t   *testing.T
	url string
	id  int
}

// rawResponse is one JSON-RPC response, result and error left raw.
type rawResponse struct {
	ID     json.RawMessage `json:"id"`
	Result map[string]any  `json:"result"`
	Error  *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

// meta is the per-request _meta of 2026-07-28; caps are the client's
// capabilities.
func meta(caps map[string]any) map[string]any {
	return map[string]any{
		"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
		"io.modelcontextprotocol/clientCapabilities": caps,
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "raw", "version": "0"},
	}
}

var formCaps = map[string]any{"elicitation": map[string]any{"form": map[string]any{}}}

// callTool posts tools/call with a fresh id (a retry must use a new one) and
// the headers the stateless transport requires.
func (p *rawPeer) callTool(params map[string]any) rawResponse {
	p.t.Helper()
	p.id++
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": p.id, "method": "tools/call", "params": params})
	if err != nil {
		p.t.Fatal(err)
	}
	req, err := http.NewRequestWithContext(p.t.Context(), http.MethodPost, p.url, bytes.NewReader(body))
	if err != nil {
		p.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", params["name"].(string))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	defer resp.Body.Close()
	if sid := resp.Header.Get("Mcp-Session-Id"); sid != "" {
		p.t.Errorf("stateless response carries Mcp-Session-Id %q", sid)
	}
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		p.t.Fatal(err)
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if mt == "text/event-stream" {
		raw = lastSSEData(p.t, raw)
	}
	var r rawResponse
	if err := json.Unmarshal(raw, &r); err != nil {
		p.t.Fatalf("HTTP %d, response %q: %v", resp.StatusCode, raw, err)
	}
	if string(r.ID) != strings.TrimSpace(string(mustJSON(p.t, p.id))) {
		p.t.Errorf("response id %s, want %d", r.ID, p.id)
	}
	return r
}

// lastSSEData returns the data of the last SSE event that holds a response.
func lastSSEData(t *testing.T, stream []byte) []byte {
	t.Helper()
	var last []byte
	sc := bufio.NewScanner(bytes.NewReader(stream))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data:"); ok && strings.Contains(data, `"id"`) {
			last = []byte(strings.TrimSpace(data))
		}
	}
	if last == nil {
		t.Fatalf("no response in the event stream %q", stream)
	}
	return last
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestWireWizard walks the wizard over raw HTTP and checks each result's
// shape: resultType, the inputRequests map of elicitation/create requests,
// requestState as a string echoed verbatim, and resultType "complete" at
// the end.
func TestWireWizard(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(demo.HTTPHandlerStateless(nil))
	t.Cleanup(ts.Close)
	p := &rawPeer{t: t, url: ts.URL + "/mcp"}

	r1 := p.callTool(map[string]any{"name": "wizard", "_meta": meta(formCaps)})
	if r1.Error != nil {
		t.Fatalf("round 1 error: %+v", r1.Error)
	}
	if r1.Result["resultType"] != "input_required" {
		t.Errorf("round 1 resultType = %v", r1.Result["resultType"])
	}
	want := map[string]any{"environment": map[string]any{
		"method": "elicitation/create",
		"params": map[string]any{
			"mode":    "form",
			"message": "What kind of environment?",
			"requestedSchema": map[string]any{
				"type":     "object",
				"required": []any{"environment"},
				"properties": map[string]any{"environment": map[string]any{
					"type": "string", "title": "Environment", "enum": []any{"staging", "production"},
				}},
			},
		},
	}}
	if diff := cmp.Diff(want, r1.Result["inputRequests"]); diff != "" {
		t.Errorf("round 1 inputRequests (-want +got):\n%s", diff)
	}
	state1, ok := r1.Result["requestState"].(string)
	if !ok || state1 == "" {
		t.Fatalf("round 1 requestState = %#v, want a string", r1.Result["requestState"])
	}
	if _, has := r1.Result["content"]; has && r1.Result["content"] != nil && len(r1.Result["content"].([]any)) > 0 {
		t.Errorf("round 1 has content: %v", r1.Result["content"])
	}

	r2 := p.callTool(map[string]any{
		"name":           "wizard",
		"inputResponses": map[string]any{"environment": map[string]any{"action": "accept", "content": map[string]any{"environment": "staging"}}},
		"requestState":   state1,
		"_meta":          meta(formCaps),
	})
	if r2.Error != nil || r2.Result["resultType"] != "input_required" {
		t.Fatalf("round 2 = %+v", r2)
	}
	slot, _ := r2.Result["inputRequests"].(map[string]any)["slot"].(map[string]any)
	if slot["method"] != "elicitation/create" || slot["params"].(map[string]any)["message"] != "Which staging slot?" {
		t.Errorf("round 2 inputRequests = %v", r2.Result["inputRequests"])
	}
	state2, _ := r2.Result["requestState"].(string)

	r3 := p.callTool(map[string]any{
		"name":           "wizard",
		"inputResponses": map[string]any{"slot": map[string]any{"action": "accept", "content": map[string]any{"slot": "slot-a"}}},
		"requestState":   state2,
		"_meta":          meta(formCaps),
	})
	if r3.Error != nil || r3.Result["resultType"] != "complete" {
		t.Fatalf("round 3 = %+v", r3)
	}
	if _, has := r3.Result["inputRequests"]; has {
		t.Errorf("final result has inputRequests: %v", r3.Result)
	}
	content := r3.Result["content"].([]any)[0].(map[string]any)
	if content["text"] != "Wizard done: environment staging, slot slot-a." {
		t.Errorf("final text = %v", content["text"])
	}
}

// TestWireStateOnly: needs_state_only's first answer asks nothing and
// carries requestState. go-sdk v1.8.0 writes the empty request map as
// "inputRequests": {} (it cannot omit it); either form asks nothing.
func TestWireStateOnly(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(demo.HTTPHandlerStateless(nil))
	t.Cleanup(ts.Close)
	p := &rawPeer{t: t, url: ts.URL}

	r1 := p.callTool(map[string]any{"name": "needs_state_only", "_meta": meta(map[string]any{})})
	if r1.Error != nil || r1.Result["resultType"] != "input_required" {
		t.Fatalf("first attempt = %+v", r1)
	}
	if reqs, has := r1.Result["inputRequests"]; has && len(reqs.(map[string]any)) != 0 {
		t.Errorf("inputRequests = %v, want none", reqs)
	}
	state, _ := r1.Result["requestState"].(string)
	if state == "" {
		t.Fatalf("requestState = %#v", r1.Result["requestState"])
	}
	r2 := p.callTool(map[string]any{"name": "needs_state_only", "requestState": state, "_meta": meta(map[string]any{})})
	if r2.Error != nil || r2.Result["resultType"] != "complete" {
		t.Fatalf("retry = %+v", r2)
	}
}

// TestWireMissingCapability: asking a client that declared no elicitation is
// refused with -32021 and the capability it lacks.
func TestWireMissingCapability(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(demo.HTTPHandlerStateless(nil))
	t.Cleanup(ts.Close)
	p := &rawPeer{t: t, url: ts.URL}
	r := p.callTool(map[string]any{"name": "deploy", "_meta": meta(map[string]any{})})
	if r.Error == nil || r.Error.Code != -32021 {
		t.Fatalf("response = %+v, want error -32021", r)
	}
	var data map[string]any
	if err := json.Unmarshal(r.Error.Data, &data); err != nil {
		t.Fatalf("error data %q: %v", r.Error.Data, err)
	}
	if diff := cmp.Diff(map[string]any{"requiredCapabilities": map[string]any{"elicitation": map[string]any{"form": map[string]any{}}}}, data); diff != "" {
		t.Errorf("error data (-want +got):\n%s", diff)
	}
}
