// Command gosdk is the go-sdk client doing what elicit's headless commands
// do, for scripts/bench-peers: connect (the SDK's defaults: server/discover,
// then initialize), list the tools or call one, answer any elicitation
// with the schema's defaults, print the result as indented JSON, and
// close.
//
//	gosdk tools (--url URL | -- CMD ARGS...)
//	gosdk call TOOL [--args JSON] [--protocol V] (--url URL | -- CMD ARGS...)
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "gosdk: %v\n", err)
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
	protocol := fs.String("protocol", "", "pin the protocol version (default: the SDK's)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var t mcp.Transport
	switch {
	case *url != "":
		t = &mcp.StreamableClientTransport{Endpoint: *url}
	case fs.NArg() > 0:
		c := exec.Command(fs.Arg(0), fs.Args()[1:]...)
		c.Stderr = os.Stderr
		t = &mcp.CommandTransport{Command: c}
	default:
		return errors.New("want --url URL or -- CMD ARGS")
	}
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "gosdk-peer", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: acceptDefaults,
	})
	cs, err := client.Connect(ctx, t, &mcp.ClientSessionOptions{ProtocolVersion: *protocol})
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer cs.Close()
	var out any
	switch cmd {
	case "tools":
		var tools []*mcp.Tool
		for tl, err := range cs.Tools(ctx, nil) {
			if err != nil {
				return fmt.Errorf("tools/list: %w", err)
			}
			tools = append(tools, tl)
		}
		out = map[string]any{"tools": tools}
	case "call":
		var a map[string]any
		if err := json.Unmarshal([]byte(*argsJSON), &a); err != nil {
			return fmt.Errorf("--args: %w", err)
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: a})
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
func acceptDefaults(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	content := map[string]any{}
	if s, ok := req.Params.RequestedSchema.(map[string]any); ok {
		props, _ := s["properties"].(map[string]any)
		for name, p := range props {
			if d, ok := p.(map[string]any)["default"]; ok {
				content[name] = d
			}
		}
	}
	return &mcp.ElicitResult{Action: "accept", Content: content}, nil
}
