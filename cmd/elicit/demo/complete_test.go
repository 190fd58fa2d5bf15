package demo_test

import (
	"slices"
	"testing"

	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestComplete: the demo declares completions in both eras; the scene
// template's {tool} completes to the tools it lists (one that serves
// 2026-07-28 only lists no withdrawn), the greet prompt's name to names, by prefix in any
// case; anything else to nothing.
func TestComplete(t *testing.T) {
	t.Parallel()
	for _, era := range []struct {
		name      string
		cs        func(t *testing.T) *mcp.ClientSession
		withdrawn bool
	}{
		{"2025-11-25", func(t *testing.T) *mcp.ClientSession { return connect(t, "memory", nil, nil, pinned) }, true},
		{"2026-07-28", func(t *testing.T) *mcp.ClientSession { return connectModern(t, "stateless", nil, nil) }, true},
		{"2026-07-28 only", func(t *testing.T) *mcp.ClientSession {
			return connectModern(t, "memory", &demo.Options{Protocol: demo.ProtocolStateless}, nil)
		}, false},
	} {
		t.Run(era.name, func(t *testing.T) {
			t.Parallel()
			cs := era.cs(t)
			if cs.InitializeResult().Capabilities.Completions == nil {
				t.Fatal("no completions capability declared")
			}
			ask := func(ref *mcp.CompleteReference, arg, value string) []string {
				t.Helper()
				res, err := cs.Complete(t.Context(), &mcp.CompleteParams{Ref: ref, Argument: mcp.CompleteParamsArgument{Name: arg, Value: value}})
				if err != nil {
					t.Fatalf("complete %s=%q: %v", arg, value, err)
				}
				if res.Completion.Total != len(res.Completion.Values) {
					t.Errorf("total %d for %d values", res.Completion.Total, len(res.Completion.Values))
				}
				return res.Completion.Values
			}
			scene := &mcp.CompleteReference{Type: "ref/resource", URI: demo.SceneTemplate}
			if got := ask(scene, "tool", "re"); !slices.Equal(got, []string{"reflow_month", "reflow_fail", "reflow_iserror", "reflow_stubborn"}) {
				t.Errorf("tool re = %q", got)
			}
			if got := ask(scene, "tool", "W"); slices.Contains(got, "withdrawn") != era.withdrawn || !slices.Contains(got, "wizard") {
				t.Errorf("tool W = %q (withdrawn listed: %v)", got, era.withdrawn)
			}
			if got := ask(&mcp.CompleteReference{Type: "ref/prompt", Name: "greet"}, "name", "al"); !slices.Equal(got, []string{"Alan", "Alice"}) {
				t.Errorf("name al = %q", got)
			}
			if got := ask(&mcp.CompleteReference{Type: "ref/prompt", Name: "nope"}, "x", ""); len(got) != 0 {
				t.Errorf("an unknown prompt completes to %q", got)
			}
		})
	}
}
