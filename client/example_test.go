package client_test

import (
	"context"
	"fmt"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/transport"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A session to an in-process go-sdk server whose tool asks a question,
// answered headlessly by the AcceptDefaults policy.
func ExampleConnect() {
	srv := mcp.NewServer(&mcp.Implementation{Name: "greeter", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "greet"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{
			Message:         "Who are you?",
			RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string", "default": "world"}}},
		})
		if err != nil {
			return nil, nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("hello, %v", res.Content["name"])}}}, nil, nil
	})
	conn, r, w := transport.PipeIO(nil)
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = srv.Run(context.Background(), &mcp.IOTransport{Reader: r, Writer: w})
	}()

	ctx := context.Background()
	s, err := client.Connect(ctx, connTransport{conn}, &client.Options{Name: "greeter", Prompter: client.AcceptDefaults})
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := s.CallTool(ctx, "greet", nil, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Protocol(), res.Text())
	_ = s.Close()
	<-served
	fmt.Println(s.Journal().Counts()[client.Accept], "accepted")
	// Output:
	// 2025-11-25 hello, world
	// 1 accepted
}
