// Command mcpgo is mcp-go's client doing what elicit's headless commands
// do, for scripts/bench-peers (as ../gosdk does with go-sdk): connect,
// list the tools or call one, accept any form elicitation with its
// schema's defaults, print the result as indented JSON, and close.
//
// It starts at initialize (2025-11-25 unless --protocol says otherwise):
// mcp-go v1.6.0's default probes server/discover first and, when the
// server answers it with only older versions (go-sdk v1.8.0's does), fails
// rather than falling back to initialize. So this peer makes one round
// trip fewer than elicit and go-sdk's client, which probe, then initialize.
//
//	mcpgo tools (--url URL | -- CMD ARGS...)
//	mcpgo call TOOL [--args JSON] [--protocol V] (--url URL | -- CMD ARGS...)
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "mcpgo: %v\n", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		return errors.New("want tools or call")
	}
	cmd, args := args[0], args[1:]
	var tool string
	if cmd == "call" {
		if len(args) == 0 {
			return errors.New("call needs a TOOL")
		}
		tool, args = args[0], args[1:]
	}
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	url := fs.String("url", "", "Streamable HTTP endpoint")
	argsJSON := fs.String("args", "{}", "tool arguments")
	protocol := fs.String("protocol", "2025-11-25", "the protocol version to ask for")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ctx := context.Background()
	var t transport.Interface
	switch {
	case *url != "":
		h, err := transport.NewStreamableHTTP(*url)
		if err != nil {
			return fmt.Errorf("transport: %w", err)
		}
		t = h
	case fs.NArg() > 0:
		t = transport.NewStdio(fs.Arg(0), nil, fs.Args()[1:]...)
	default:
		return errors.New("want --url URL or -- CMD ARGS")
	}
	c := client.NewClient(t, client.WithElicitationHandler(acceptDefaults{}))
	if err := c.Start(ctx); err != nil {
		return fmt.Errorf("start: %w", err)
	}
	defer c.Close()
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = *protocol
	init.Params.ClientInfo = mcp.Implementation{Name: "mcpgo-peer", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	var out any
	switch cmd {
	case "tools":
		var tools []mcp.Tool
		var req mcp.ListToolsRequest
		for {
			page, err := c.ListTools(ctx, req)
			if err != nil {
				return fmt.Errorf("tools/list: %w", err)
			}
			tools = append(tools, page.Tools...)
			if page.NextCursor == "" {
				break
			}
			req.Params.Cursor = page.NextCursor
		}
		out = map[string]any{"tools": tools}
	case "call":
		var a map[string]any
		if err := json.Unmarshal([]byte(*argsJSON), &a); err != nil {
			return fmt.Errorf("--args: %w", err)
		}
		var req mcp.CallToolRequest
		req.Params.Name, req.Params.Arguments = tool, a
		res, err := c.CallTool(ctx, req)
		if err != nil {
			return fmt.Errorf("tools/call %s: %w", tool, err)
		}
		out = map[string]any{"result": res}
	default:
		return fmt.Errorf("unknown command %q", cmd)
	}
	w := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("writing: %w", err)
	}
	return w.Flush()
}

// acceptDefaults accepts every form with the defaults its schema gives.
type acceptDefaults struct{}

func (acceptDefaults) Elicit(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	content := map[string]any{}
	if s, ok := req.Params.RequestedSchema.(map[string]any); ok {
		props, _ := s["properties"].(map[string]any)
		for name, p := range props {
			if pm, ok := p.(map[string]any); ok {
				if d, ok := pm["default"]; ok {
					content[name] = d
				}
			}
		}
	}
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: content}}, nil
}
