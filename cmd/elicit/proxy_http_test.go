package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpProxy runs the demo over Streamable HTTP and elicit proxy --listen
// in front of it, and returns the proxy's endpoint and recording, and
// what stops the proxy (its recording is whole then).
func httpProxy(t *testing.T, era string) (endpoint, rec string, stop func()) {
	t.Helper()
	up := "127.0.0.1:" + freePort(t)
	args := []string{"demo", "--serve", "http", "--addr", up}
	if era == "2026-07-28" {
		args = append(args, "--stateless") // the stateful demo serves the older eras
	}
	demo := exec.CommandContext(t.Context(), binPath, args...)
	if err := demo.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = demo.Process.Kill(); _ = demo.Wait() })
	waitListening(t, up)
	listen := "127.0.0.1:" + freePort(t)
	rec = filepath.Join(t.TempDir(), "proxy.jsonl")
	px := exec.CommandContext(t.Context(), binPath, "proxy", "--listen", listen, "--url", "http://"+up+"/mcp", "--record", rec)
	stderr, err := px.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := px.Start(); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	stop = func() { once.Do(func() { _ = px.Process.Signal(os.Interrupt); _ = px.Wait() }) }
	t.Cleanup(stop)
	waitLine(t, stderr, "the host's endpoint is")
	return "http://" + listen + "/mcp", rec, stop
}

// TestProxyHTTPGoHost: a go-sdk host over Streamable HTTP to elicit proxy
// --listen in front of the demo's HTTP server: without elicitation elicit
// fills it in and answers (2025-11-25: the question on the POST's SSE
// stream, answered upstream in the host's session; 2026-07-28: the
// round completed); declaring it, the host answers itself.
func TestProxyHTTPGoHost(t *testing.T) {
	t.Parallel()
	for _, era := range proxyEras {
		for _, declare := range []bool{false, true} {
			name := era + "/plain"
			if declare {
				name = era + "/declaring"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				endpoint, rec, stop := httpProxy(t, era)
				var asked atomic.Int32
				opts := &mcp.ClientOptions{}
				want := "priority P3"
				if declare {
					want = "priority P1"
					opts.ElicitationHandler = func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
						asked.Add(1)
						return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"priority": "P1"}}, nil
					}
				}
				c := mcp.NewClient(&mcp.Implementation{Name: "go-http-host", Version: "1"}, opts)
				cs, err := c.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: endpoint}, &mcp.ClientSessionOptions{ProtocolVersion: era})
				if err != nil {
					t.Fatal(err)
				}
				res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "create_ticket", Arguments: map[string]any{"title": "t"}})
				if err != nil {
					t.Fatal(err)
				}
				_ = cs.Close()
				stop()
				if got := hostResultText(res); !strings.Contains(got, want) || (declare && asked.Load() != 1) || (!declare && asked.Load() != 0) {
					t.Fatalf("result %q, host asked %d: want %s", got, asked.Load(), want)
				}
				frames := serverFrames(t, rec)
				if c := sentCaps(t, frames, era); string(c["elicitation"]) != `{"form":{},"url":{}}` {
					t.Errorf("elicitation sent %s: want form (the host's or elicit's) and url filled in", c["elicitation"])
				}
				if era == "2025-11-25" {
					for id, n := range serverAsked(frames) {
						if n != 1 {
							t.Errorf("elicitation %s answered %d times: want once", id, n)
						}
					}
				}
			})
		}
	}
}
