package demo

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// greetNames are what the greet prompt's name completes to.
func greetNames() []string {
	return []string{"Ada", "Alan", "Alice", "Grace", "Linus", "Margaret"}
}

// complete answers completion/complete, which makes the server declare the
// completions capability: the scene template's {tool} completes to the
// tools this server lists, the greet prompt's name to a few names. A value
// matches when it starts with what is typed, in any case; anything else
// completes to nothing.
func complete(cfg config) func(context.Context, *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	return func(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
		p := req.Params
		var all []string
		switch {
		case p.Ref == nil:
		case p.Ref.Type == "ref/resource" && p.Ref.URI == SceneTemplate && p.Argument.Name == "tool":
			for _, sc := range scenes() {
				if sc.listed(cfg) {
					all = append(all, sc.tools...)
				}
			}
		case p.Ref.Type == "ref/prompt" && p.Ref.Name == "greet" && p.Argument.Name == "name":
			all = greetNames()
		}
		typed := strings.ToLower(p.Argument.Value)
		values := []string{}
		for _, v := range all {
			if strings.HasPrefix(strings.ToLower(v), typed) {
				values = append(values, v)
			}
		}
		return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: values, Total: len(values)}}, nil
	}
}
