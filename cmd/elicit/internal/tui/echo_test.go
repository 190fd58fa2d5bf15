package tui

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The secrets the TUI's engine is tested with, and a server that echoes
// what it was sent (as cmd/elicit's end-to-end tests have them).

const (
	echoBearer = "bearer-token-0123456789"
	echoAPIKey = "api-key-value-abcdef"
)

// headerEchoServer is a go-sdk server over Streamable HTTP whose tools
// echo the request's headers and URL: in a result ("whoami"), in a
// tool error ("fail") and in a JSON-RPC error ("reject").
func headerEchoServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "echo", Version: "1"}, nil)
	echo := func(req *mcp.CallToolRequest) string {
		return fmt.Sprintf("you sent %v", req.Extra.Header)
	}
	srv.AddTool(&mcp.Tool{Name: "whoami", InputSchema: &jsonschema.Schema{Type: "object"}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: echo(req)}}}, nil
		})
	srv.AddTool(&mcp.Tool{Name: "fail", InputSchema: &jsonschema.Schema{Type: "object"}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: echo(req)}}}, nil
		})
	srv.AddTool(&mcp.Tool{Name: "reject", InputSchema: &jsonschema.Schema{Type: "object"}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, &jsonrpc.Error{Code: -32000, Message: echo(req)}
		})
	srv.AddResource(&mcp.Resource{URI: "echo://headers", Name: "headers", MIMEType: "text/plain"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "echo://headers", MIMEType: "text/plain",
				Text: fmt.Sprintf("you sent %v", req.Extra.Header)}}}, nil
		})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true}))
	t.Cleanup(ts.Close)
	return ts
}

// noneOf fails for each secret found in any of the texts.
func noneOf(t *testing.T, secrets []string, texts map[string]string) {
	t.Helper()
	for name, text := range texts {
		var found []string
		for _, s := range secrets {
			if strings.Contains(text, s) && !slices.Contains(found, s) {
				found = append(found, s)
			}
		}
		if len(found) > 0 {
			t.Errorf("%s holds the secrets %q:\n%s", name, found, text)
		}
	}
}
