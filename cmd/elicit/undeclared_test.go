package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolsOnlyServer is a go-sdk server over Streamable HTTP that declares
// tools only, and records every method that reaches it.
type toolsOnlyServer struct {
	mu      sync.Mutex
	methods []string
}

func newToolsOnlyServer(t *testing.T, protocol string) (*toolsOnlyServer, string) {
	t.Helper()
	return newDeclaringServer(t, protocol, &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}})
}

// newDeclaringServer is a go-sdk server declaring caps alone, which
// records every method that reaches it.
func newDeclaringServer(t *testing.T, protocol string, caps *mcp.ServerCapabilities) (*toolsOnlyServer, string) {
	t.Helper()
	ts := &toolsOnlyServer{}
	srv := mcp.NewServer(&mcp.Implementation{Name: "declaring", Version: "1"}, &mcp.ServerOptions{Capabilities: caps})
	if caps.Tools != nil { // a tool would declare tools
		srv.AddTool(&mcp.Tool{Name: "noop", InputSchema: map[string]any{"type": "object"}},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{}, nil
			})
	}
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			ts.mu.Lock()
			ts.methods = append(ts.methods, method)
			ts.mu.Unlock()
			return next(ctx, method, req)
		}
	})
	// go-sdk speaks 2026-07-28 on a stateless handler only.
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: protocol == "2026-07-28"}))
	t.Cleanup(hs.Close)
	return ts, hs.URL
}

func (ts *toolsOnlyServer) got(method string) bool {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return slices.Contains(ts.methods, method)
}

// TestHeadlessListsOfUndeclaredCapability: against a go-sdk server that
// declares tools only, elicit resources, templates and prompts do not ask
// (nothing reaches the server), print the empty list and why, and exit
// 0; read and get, which ask for one thing, exit 4 with a message naming
// the capability, not the server's "Method not found".
func TestHeadlessListsOfUndeclaredCapability(t *testing.T) {
	for _, protocol := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(protocol, func(t *testing.T) {
			for _, tc := range []struct {
				args   []string
				method string
				member string // the list, for the listing commands
				cap    string
			}{
				{[]string{"resources"}, "resources/list", "resources", "resources"},
				{[]string{"templates"}, "resources/templates/list", "resourceTemplates", "resources"},
				{[]string{"prompts"}, "prompts/list", "prompts", "prompts"},
				{[]string{"read", "test://x"}, "resources/read", "", "resources"},
				{[]string{"get", "greet"}, "prompts/get", "", "prompts"},
			} {
				srv, url := newToolsOnlyServer(t, protocol)
				code, out, errs := runBin(t, append(tc.args, "--url", url, "--protocol", protocol)...)
				if srv.got(tc.method) {
					t.Errorf("%v: %s reached a server that did not declare %s", tc.args, tc.method, tc.cap)
				}
				if strings.Contains(out+errs, "Method not found") {
					t.Errorf("%v: the server's Method not found leaked:\n%s%s", tc.args, out, errs)
				}
				if tc.member == "" {
					if code != exit.ToolError || !strings.Contains(out, "did not declare "+tc.cap) {
						t.Errorf("%v: exit %d, want %d and a message naming %s; stdout:\n%s\nstderr: %s", tc.args, code, exit.ToolError, tc.cap, out, errs)
					}
					continue
				}
				var got map[string]json.RawMessage
				if code != exit.OK || json.Unmarshal([]byte(out), &got) != nil {
					t.Errorf("%v: exit %d, want 0 and JSON; stdout:\n%s\nstderr: %s", tc.args, code, out, errs)
					continue
				}
				if string(got[tc.member]) != "[]" {
					t.Errorf("%v: %s = %s, want []", tc.args, tc.member, got[tc.member])
				}
				if want := `"the server did not declare ` + tc.cap + `"`; string(got["skipped"]) != want {
					t.Errorf("%v: skipped = %s, want %s", tc.args, got["skipped"], want)
				}
			}
		})
	}
}

// TestHeadlessToolsOfUndeclaredCapability: against a go-sdk server that
// declares prompts only, elicit tools prints no tools and why (exit 0)
// and elicit call exits 4 naming tools; neither reaches the server.
func TestHeadlessToolsOfUndeclaredCapability(t *testing.T) {
	for _, protocol := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(protocol, func(t *testing.T) {
			srv, url := newDeclaringServer(t, protocol, &mcp.ServerCapabilities{Prompts: &mcp.PromptCapabilities{}})
			code, out, errs := runBin(t, "tools", "--url", url, "--protocol", protocol)
			var got map[string]json.RawMessage
			if code != exit.OK || json.Unmarshal([]byte(out), &got) != nil || string(got["tools"]) != "[]" ||
				string(got["skipped"]) != `"the server did not declare tools"` {
				t.Errorf("tools: exit %d; stdout:\n%s\nstderr: %s", code, out, errs)
			}
			code, out, errs = runBin(t, "call", "noop", "--url", url, "--protocol", protocol)
			if code != exit.ToolError || !strings.Contains(out, "did not declare tools") {
				t.Errorf("call: exit %d, want %d naming tools; stdout:\n%s\nstderr: %s", code, exit.ToolError, out, errs)
			}
			for _, m := range []string{"tools/list", "tools/call"} {
				if srv.got(m) {
					t.Errorf("%s reached a server that did not declare tools", m)
				}
			}
		})
	}
}
