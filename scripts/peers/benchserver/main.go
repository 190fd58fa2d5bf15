// Command benchserver is the one MCP server both clients of
// scripts/bench-peers talk to (go-sdk, stateful Streamable HTTP or stdio),
// with a tool for each workload of the comparison:
//
//	echo {text}   the whole-process round trip
//	ask           one form elicitation (three fields with defaults)
//	huge {mib}    one text result of mib MiB (16 by default)
//	flood {n}     n notifications/message before its result (100,000)
//	six more      plain tools with small schemas: tools/list returns ten
//
// Logging is on from the first tools/call (the level is set as if the
// client had sent logging/setLevel debug): go-sdk sends no log message
// until a level is set, and elicit's headless commands set none, like most
// clients.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	serve := flag.String("serve", "stdio", "stdio or http")
	addr := flag.String("addr", "127.0.0.1:0", "listen address for -serve http")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	switch *serve {
	case "stdio":
		if err := newServer().Run(ctx, &mcp.StdioTransport{}); err != nil && ctx.Err() == nil {
			log.Fatalf("benchserver: %v", err)
		}
	case "http":
		if err := serveHTTP(ctx, *addr); err != nil {
			log.Fatalf("benchserver: %v", err)
		}
	default:
		log.Fatalf("benchserver: -serve %q: want stdio or http", *serve)
	}
}

// serveHTTP serves until ctx ends, printing the endpoint's URL on stdout
// once it listens (the driver reads it).
func serveHTTP(ctx context.Context, addr string) error {
	srv := newServer()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	hs := &http.Server{Handler: mux}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", addr, err)
	}
	fmt.Printf("http://%s/mcp\n", ln.Addr())
	go func() {
		<-ctx.Done()
		_ = hs.Close()
	}()
	if err := hs.Serve(ln); err != nil && ctx.Err() == nil {
		return fmt.Errorf("serving: %w", err)
	}
	return nil
}

type echoArgs struct {
	Text string `json:"text" jsonschema:"the text to return"`
}

type hugeArgs struct {
	MiB int `json:"mib,omitempty" jsonschema:"size of the text in MiB (default 16)"`
}

type floodArgs struct {
	N int `json:"n,omitempty" jsonschema:"how many notifications/message to send first (default 100000)"`
}

// plainArgs is the input of the six tools that only pad the list.
type plainArgs struct {
	Path    string   `json:"path" jsonschema:"a path to work on"`
	Depth   int      `json:"depth,omitempty" jsonschema:"how deep to go"`
	Labels  []string `json:"labels,omitempty" jsonschema:"labels to attach"`
	Verbose bool     `json:"verbose,omitempty" jsonschema:"say more"`
}

func newServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "benchserver", Version: "1"}, nil)
	srv.AddReceivingMiddleware(logAtDebug)
	mcp.AddTool(srv, &mcp.Tool{Name: "echo", Description: "Returns the text it was given."},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, any, error) {
			return text(in.Text), nil, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "ask", Description: "Asks one form question and returns the answer."},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{
				Message: "Who is asking?",
				RequestedSchema: map[string]any{
					"type": "object",
					"properties": map[string]any{
						"name": map[string]any{"type": "string", "title": "Name", "default": "Ada"},
						"age":  map[string]any{"type": "integer", "title": "Age", "minimum": 0, "default": 36},
						"ok":   map[string]any{"type": "boolean", "title": "OK?", "default": true},
					},
					"required": []string{"name"},
				},
			})
			if err != nil {
				return nil, nil, fmt.Errorf("ask: %w", err)
			}
			return text(fmt.Sprintf("%s: %v", res.Action, res.Content)), nil, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "huge", Description: "Returns one text block of mib MiB."},
		func(_ context.Context, _ *mcp.CallToolRequest, in hugeArgs) (*mcp.CallToolResult, any, error) {
			mib := in.MiB
			if mib <= 0 {
				mib = 16
			}
			return text(hugeText(mib << 20)), nil, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "flood", Description: "Sends n notifications/message, then returns."},
		func(ctx context.Context, req *mcp.CallToolRequest, in floodArgs) (*mcp.CallToolResult, any, error) {
			n := in.N
			if n <= 0 {
				n = 100000
			}
			for i := range n {
				//lint:ignore SA1019 notifications/message is the 2025-11-25 way to log
				err := req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Logger: "flood",
					Data: fmt.Sprintf("line %d of the flood", i)})
				if err != nil {
					return nil, nil, fmt.Errorf("flood: message %d: %w", i, err)
				}
			}
			return text(fmt.Sprintf("sent %d", n)), nil, nil
		})
	for _, name := range []string{"list_dir", "read_file", "search", "stat", "tag", "archive"} {
		mcp.AddTool(srv, &mcp.Tool{Name: name, Description: "A plain tool (" + name + ") that pads tools/list to ten."},
			func(_ context.Context, _ *mcp.CallToolRequest, in plainArgs) (*mcp.CallToolResult, any, error) {
				return text(name + " " + in.Path), nil, nil
			})
	}
	return srv
}

// logAtDebug sets the session's log level before each tools/call, as
// logging/setLevel debug would.
func logAtDebug(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if ss, ok := req.GetSession().(*mcp.ServerSession); ok && method == "tools/call" {
			set := &mcp.ServerRequest[*mcp.SetLoggingLevelParams]{Session: ss, Params: &mcp.SetLoggingLevelParams{Level: "debug"}}
			if _, err := next(ctx, "logging/setLevel", set); err != nil {
				return nil, fmt.Errorf("setting the log level: %w", err)
			}
		}
		return next(ctx, method, req)
	}
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// hugeText is n bytes of lines of text, each ending in a newline (which
// JSON escapes), like a large file read back.
func hugeText(n int) string {
	const line = "the quick brown fox jumps over the lazy dog, 0123456789 ABCDEF\n" // 64 bytes
	var b strings.Builder
	b.Grow(n)
	for b.Len()+len(line) <= n {
		b.WriteString(line)
	}
	b.WriteString(strings.Repeat("x", n-b.Len()))
	return b.String()
}
