package client_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
)

// TestOriginAmbiguousTwoCalls: two calls of the same tool over stdio
// framing (no related-request id), each asking a question once both are
// open. Nothing ties a question to its call, and two calls are open, so
// the engine cannot say which it belongs to: but it is ours, not foreign.
// The Origin says which calls it may belong to.
func TestOriginAmbiguousTwoCalls(t *testing.T) {
	t.Parallel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "twice", Version: "1.0.0"}, legacyOpts(nil))
	var arrived sync.WaitGroup
	arrived.Add(2)
	mcp.AddTool(srv, &mcp.Tool{Name: "ask"}, func(ctx context.Context, req *mcp.CallToolRequest, in askArgs) (*mcp.CallToolResult, any, error) {
		arrived.Done()
		arrived.Wait() // both calls are open before either asks
		res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "question " + in.Name, RequestedSchema: askSchema})
		if err != nil {
			return nil, nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Name + " " + res.Action}}}, nil, nil
	})
	var mu sync.Mutex
	var asked []*question.Question
	var bothAsked sync.WaitGroup
	bothAsked.Add(2)
	pr := question.PrompterFunc(func(_ context.Context, q *question.Question) question.Outcome {
		mu.Lock()
		asked = append(asked, q)
		mu.Unlock()
		// Neither is answered before both are asked: an answer ends its
		// call, and the other question would then be read with one call
		// open (and rightly tied to it).
		bothAsked.Done()
		bothAsked.Wait()
		return question.Outcome{Kind: question.Accept, Content: map[string]any{"answer": "yes"}}
	})
	rec := &recorder{}
	s := servePipe(t, srv, &client.Options{Prompter: pr}, rec)
	var calls sync.WaitGroup
	for _, name := range []string{"a", "b"} {
		calls.Go(func() {
			if _, err := s.CallTool(t.Context(), "ask", map[string]any{"name": name}, nil); err != nil {
				t.Errorf("call %s: %v", name, err)
			}
		})
	}
	calls.Wait()
	var ids []string
	for _, m := range rec.sentTask("tools/call", "") {
		ids = append(ids, string(*m.msg.ID))
	}
	if len(asked) != 2 || len(ids) != 2 {
		t.Fatalf("%d questions, %d calls", len(asked), len(ids))
	}
	for _, q := range asked {
		o := q.Origin
		var maybe []string
		for _, m := range o.Maybe {
			if m.Kind != question.OriginToolCall || m.Name != "ask" {
				t.Errorf("%s: candidate %+v, want a call of tool ask", q.Message, m)
			}
			maybe = append(maybe, m.CallID.Raw())
		}
		want := slices.Clone(ids)
		slices.Sort(maybe)
		slices.Sort(want)
		if o.Kind != question.OriginUnknown || o.CallID.IsValid() || !slices.Equal(maybe, want) {
			t.Errorf("%s: origin %s, want unknown between the calls %v", q.Message, fmt.Sprintf("%+v", o), want)
		}
	}
}
