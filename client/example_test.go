package client_test

import (
	"context"
	"fmt"
	"log"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A session to an in-process go-sdk server whose tool asks a question,
// answered headlessly by the AcceptDefaults policy. The server speaks
// 2026-07-28, so the question travels in an input_required result and the
// session retries the call with the answer.
func ExampleConnect() {
	srv := mcp.NewServer(&mcp.Implementation{Name: "greeter", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "greet"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		answer, ok := req.Params.InputResponses["who"].(*mcp.ElicitResult)
		if !ok {
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"who": &mcp.ElicitParams{
				Message:         "Who are you?",
				RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string", "default": "world"}}},
			}}}, nil, nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("hello, %v", answer.Content["name"])}}}, nil, nil
	})
	conn, r, w := transport.PipeIO(nil)
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = srv.Run(context.Background(), &mcp.IOTransport{Reader: r, Writer: w})
	}()

	ctx := context.Background()
	s, err := client.Connect(ctx, connTransport{conn}, &client.Options{Name: "greeter", Prompter: question.AcceptDefaults})
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := s.CallTool(ctx, "greet", nil, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Era(), res.Text())
	_ = s.Close()
	<-served
	fmt.Println(s.Journal().Counts()[question.Accept], "accepted")
	// Output:
	// 2026-07-28 stateless hello, world
	// 1 accepted
}

// The package doc's sketch: a server run as a subprocess, its questions
// answered headlessly with their defaults. It has no Output line, so it is
// compiled but not run (it needs a server on PATH); ExampleConnect runs
// the same calls against an in-process server.
func Example_stdio() {
	ctx := context.Background()
	s, err := client.Connect(ctx, &transport.Stdio{Command: "server"}, &client.Options{
		Name:     "demo",
		Prompter: question.AcceptDefaults,
	})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	tools, err := s.ListTools(ctx)
	if err != nil {
		log.Fatal(err)
	}
	res, err := s.CallTool(ctx, "deploy", map[string]any{"env": "prod"}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(tools), res.Text())
}
