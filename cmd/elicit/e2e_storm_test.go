package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stormServerEnv, when set to a file, makes the test binary a go-sdk stdio
// server that storms (runStormServer); it writes its counts to the file.
const stormServerEnv = "ELICIT_TEST_STORM_SERVER"

// stormN is how many tools/list_changed the storm server sends.
const stormN = 10_000

// runStormServer runs a go-sdk server on stdio whose tools and resources
// both say they change. The first resources/list starts the storm: it
// adds tool "added", whose one tools/list_changed goes out 10,000 times,
// and answers tools/list only once they are written (a server busy with
// its storm); then it adds resource "after", whose resources/list_changed
// comes after the whole storm. It writes "tools/list count when the storm
// began, in all, and resources/list in all" to the file at each request.
func runStormServer() bool {
	path := os.Getenv(stormServerEnv)
	if path == "" {
		return false
	}
	var (
		mu             sync.Mutex
		tools, toolsAt int
		resources      int
		storming       chan struct{} // made when the storm starts, closed when written
	)
	write := func() {
		_ = os.WriteFile(path, fmt.Appendf(nil, "%d %d %d\n", toolsAt, tools, resources), 0o600)
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "storm", Version: "1"}, &mcp.ServerOptions{
		SupportedProtocolVersions: []string{"2025-11-25"},
		Capabilities: &mcp.ServerCapabilities{
			Tools:     &mcp.ToolCapabilities{ListChanged: true},
			Resources: &mcp.ResourceCapabilities{ListChanged: true},
		}})
	noop := func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{}, nil
	}
	read := func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: "x"}}}, nil
	}
	srv.AddTool(&mcp.Tool{Name: "first", InputSchema: map[string]any{"type": "object"}}, noop)
	srv.AddResource(&mcp.Resource{Name: "before", URI: "storm://before"}, read)
	srv.AddSendingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != "notifications/tools/list_changed" {
				return next(ctx, method, req)
			}
			mu.Lock()
			done := storming
			mu.Unlock()
			defer close(done)
			for range stormN {
				if _, err := next(ctx, method, req); err != nil {
					return nil, err
				}
			}
			srv.AddResource(&mcp.Resource{Name: "after", URI: "storm://after"}, read)
			return nil, nil
		}
	})
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			mu.Lock()
			var wait chan struct{}
			switch method {
			case "tools/list":
				tools++
				wait = storming
			case "resources/list":
				resources++
				if storming == nil {
					storming, toolsAt = make(chan struct{}), tools
					srv.AddTool(&mcp.Tool{Name: "added", InputSchema: map[string]any{"type": "object"}}, noop)
				}
			}
			write()
			mu.Unlock()
			if wait != nil {
				select {
				case <-wait:
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}
			return next(ctx, method, req)
		}
	})
	_ = srv.Run(context.Background(), &mcp.StdioTransport{})
	return true
}

// TestTUIListChangedStorm: the TUI against a go-sdk server that sends
// 10,000 tools/list_changed asks for the tools at most twice more, not
// once per notification (160 to 1,602 times before), and shows the tool
// the storm added. The resources/list_changed the server sends after the
// storm is handled after every one of its events (lane 2 is ordered), so
// when the resources view asks again the TUI has seen the whole storm.
func TestTUIListChangedStorm(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	counts := dir + "/counts"
	tm := newTmux(t, dir, "--", "env", stormServerEnv+"="+counts, self)
	tm.waitText("ready")
	tm.press("F9") // resources/list: the storm starts
	tm.waitText("after")
	var toolsAt, tools, resources int
	deadline := time.Now().Add(20 * time.Second)
	for {
		b, _ := os.ReadFile(counts)
		if _, err := fmt.Sscan(string(b), &toolsAt, &tools, &resources); err == nil && resources >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the resources list was not asked again after the storm; counts %q", b)
		}
		time.Sleep(20 * time.Millisecond) // the interval of a poll of the counts file
	}
	if got := tools - toolsAt; got > 2 {
		t.Errorf("%d tools/list_changed cost %d tools/list; want at most 2", stormN, got)
	}
	tm.press("F5")
	s := tm.waitText("added")
	if !strings.Contains(s, "first") {
		t.Errorf("the tools view lacks the first tool:\n%s", s)
	}
}
