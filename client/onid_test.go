package client_test

import (
	"context"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// TestCallOnID: CallOptions.OnID is told the call's request id before
// the server can ask anything about it, so the question the tool sends
// is already known to be that call's when the Prompter sees it (the
// hub's per-call answers rely on this), while another call is open too.
func TestCallOnID(t *testing.T) {
	t.Parallel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "onid", Version: "1"}, legacyOpts(nil))
	mcp.AddTool(srv, &mcp.Tool{Name: "ask"}, func(ctx context.Context, req *mcp.CallToolRequest, _ matrixArgs) (*mcp.CallToolResult, any, error) {
		res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "name?", RequestedSchema: map[string]any{
			"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string", "default": "x"}}}})
		if err != nil {
			return nil, nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: res.Action}}}, nil, nil
	})
	var mu sync.Mutex
	told := map[jsonrpc.ID]bool{}
	var missing []string
	prompter := question.PrompterFunc(func(_ context.Context, q *question.Question) question.Outcome {
		mu.Lock()
		defer mu.Unlock()
		if !told[q.Origin.CallID] {
			missing = append(missing, q.Key.String())
		}
		return question.Outcome{Kind: question.Accept, Content: map[string]any{"name": "y"}}
	})
	sess := servePipe(t, srv, &client.Options{Prompter: prompter}, nil)
	opts := &client.CallOptions{OnID: func(id jsonrpc.ID) {
		mu.Lock()
		told[id] = true
		mu.Unlock()
	}}
	for range 3 {
		if _, err := sess.CallTool(t.Context(), "ask", nil, opts); err != nil {
			t.Fatal(err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(told) != 3 || len(missing) > 0 {
		t.Fatalf("OnID told %d ids; questions before their call's id was told: %v", len(told), missing)
	}
}
