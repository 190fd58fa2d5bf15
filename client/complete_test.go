package client_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/wire"
)

// TestCompleteContextByVersion: a go-sdk server hears the other arguments
// as context.arguments from 2025-06-18 on, and only the argument before
// it; a server without the capability is not asked.
func TestCompleteContextByVersion(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		version string
		context bool
	}{
		{wire.Protocol2025_03_26, false},
		{wire.Protocol2025_06_18, true},
		{wire.Protocol2025_11_25, true},
	} {
		t.Run(tc.version, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			var heard *mcp.CompleteParams
			srv := mcp.NewServer(&mcp.Implementation{Name: "complete", Version: "1"}, legacyOpts(&mcp.ServerOptions{
				CompletionHandler: func(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
					mu.Lock()
					heard = req.Params
					mu.Unlock()
					return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{"Alice", "Bob"}, Total: 3, HasMore: true}}, nil
				},
			}))
			srv.AddPrompt(&mcp.Prompt{Name: "team", Arguments: []*mcp.PromptArgument{{Name: "department"}, {Name: "name"}}},
				func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
					return &mcp.GetPromptResult{}, nil
				})
			s := servePipe(t, srv, &client.Options{Protocol: tc.version}, nil)
			if s.Protocol() != tc.version {
				t.Fatalf("negotiated %s, want %s", s.Protocol(), tc.version)
			}
			got, err := s.Complete(t.Context(), wire.CompleteRef{Type: wire.RefPrompt, Name: "team"}, "name", "", map[string]string{"department": "Engineering"})
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Values) != 2 || got.Total == nil || *got.Total != 3 || !got.HasMore {
				t.Errorf("completion = %+v", got)
			}
			mu.Lock()
			defer mu.Unlock()
			if heard == nil || heard.Argument.Name != "name" || heard.Ref.Name != "team" {
				t.Fatalf("server heard %+v", heard)
			}
			switch {
			case tc.context && (heard.Context == nil || heard.Context.Arguments["department"] != "Engineering"):
				t.Errorf("%s: context %+v, want department=Engineering", tc.version, heard.Context)
			case !tc.context && heard.Context != nil:
				t.Errorf("%s: context %+v sent before 2025-06-18", tc.version, heard.Context)
			}
		})
	}
	t.Run("no capability", func(t *testing.T) {
		t.Parallel()
		srv := mcp.NewServer(&mcp.Implementation{Name: "plain", Version: "1"}, legacyOpts(nil))
		s := servePipe(t, srv, nil, nil)
		_, err := s.Complete(t.Context(), wire.CompleteRef{Type: wire.RefPrompt, Name: "x"}, "a", "", nil)
		if !errors.Is(err, client.ErrNoCompletions) {
			t.Fatalf("err = %v, want ErrNoCompletions", err)
		}
	})
}
