package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
)

// TestCallListsToolsOnlyToCheck: a cold `elicit call` sends no tools/list
// (it cost every call a round trip, to check a result nobody had asked to
// be checked); with --check it lists the tools beside the call and
// reports the result that breaks its tool's outputSchema. Over HTTP
// against a go-sdk server (the methods its POSTs carried, as the server
// got them) and over stdio (the frames --record wrote).
func TestCallListsToolsOnlyToCheck(t *testing.T) {
	t.Parallel()
	t.Run("http", func(t *testing.T) {
		t.Parallel()
		srv := wrongSumServer(t)
		for _, check := range []bool{false, true} {
			args := []string{"call", "wrong", "--url", srv.url}
			if check {
				args = append(args, "--check")
			}
			srv.reset()
			code, out, errs := runBin(t, args...)
			assertCallChecked(t, check, code, []byte(out), []byte(errs), srv.methods())
		}
	})
	t.Run("stdio", func(t *testing.T) {
		t.Parallel()
		for _, check := range []bool{false, true} {
			f := filepath.Join(t.TempDir(), "call.jsonl")
			args := []string{"call", "wrong", "--record", f}
			if check {
				args = append(args, "--check")
			}
			code, out, errs := runHostile(t, "output-schema", args...)
			assertCallChecked(t, check, code, out, errs, recordedRequests(t, f))
		}
	})
}

// assertCallChecked: the call went out and ended well either way; the
// tools were listed, and the outputSchema finding reported, only when
// checked.
func assertCallChecked(t *testing.T, check bool, code int, out, errs []byte, sent []string) {
	t.Helper()
	if code != exit.OK {
		t.Fatalf("check=%v: exit %d, stderr %s", check, code, errs)
	}
	if !slices.Contains(sent, "tools/call") {
		t.Fatalf("check=%v: no tools/call among %v", check, sent)
	}
	if listed := slices.Contains(sent, "tools/list"); listed != check {
		t.Errorf("check=%v: tools/list sent: %v (the requests: %v)", check, listed, sent)
	}
	var got struct {
		Findings []findings.Finding `json:"findings"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("check=%v: output %v: %s", check, err, out)
	}
	switch {
	case !check && len(got.Findings) != 0:
		t.Errorf("unchecked call: findings %+v, want none", got.Findings)
	case check && (len(got.Findings) != 1 || got.Findings[0].Rule != findings.OutputSchema):
		t.Errorf("--check: findings %+v, want the outputSchema one", got.Findings)
	}
}

// recordedRequests is the methods of the requests a recording shows
// going to the server, in order.
func recordedRequests(t *testing.T, file string) []string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var methods []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var line struct {
			Type    string `json:"type"`
			Dir     string `json:"dir"`
			Message struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			} `json:"message"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("recording line %v: %s", err, sc.Bytes())
		}
		if line.Type == "frame" && line.Dir == "out" && line.Message.ID != nil && line.Message.Method != "" {
			methods = append(methods, line.Message.Method)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return methods
}

// methodLog is a go-sdk server over Streamable HTTP whose tool "wrong"
// breaks its own outputSchema ({"sum": number}, answered with "five"),
// and which notes the method of every request POSTed to it.
type methodLog struct {
	url  string
	mu   sync.Mutex
	seen []string
}

func (m *methodLog) reset() {
	m.mu.Lock()
	m.seen = nil
	m.mu.Unlock()
}

func (m *methodLog) methods() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.seen)
}

func wrongSumServer(t *testing.T) *methodLog {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "wrong-sum", Version: "1"}, nil)
	// The low-level AddTool: go-sdk leaves the result's check against
	// the outputSchema to the caller, so the server sends it as it is.
	srv.AddTool(&mcp.Tool{Name: "wrong", InputSchema: &jsonschema.Schema{Type: "object"},
		OutputSchema: &jsonschema.Schema{Type: "object", Required: []string{"sum"},
			Properties: map[string]*jsonschema.Schema{"sum": {Type: "number"}}}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "the sum is five"}},
				StructuredContent: map[string]any{"sum": "five"}}, nil
		})
	m := &methodLog{}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, err := io.ReadAll(r.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			var msg struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if json.Unmarshal(body, &msg) == nil && msg.ID != nil && msg.Method != "" {
				m.mu.Lock()
				m.seen = append(m.seen, msg.Method)
				m.mu.Unlock()
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	m.url = ts.URL
	return m
}
