package demo_test

import (
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestDeploy(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		args map[string]any
		res  *mcp.ElicitResult
		want string
	}{
		{"accept", map[string]any{"service": "api"},
			&mcp.ElicitResult{Action: "accept", Content: map[string]any{"branch": "release", "confirm": true}},
			"Deploying api from release."},
		{"accept default service", nil,
			&mcp.ElicitResult{Action: "accept", Content: map[string]any{"branch": "hotfix", "confirm": true}},
			"Deploying web from hotfix."},
		{"accept unconfirmed", nil,
			&mcp.ElicitResult{Action: "accept", Content: map[string]any{"branch": "main", "confirm": false}},
			"Deployment of web from main not confirmed: nothing was deployed."},
		{"accept defaults", nil, nil, // branch main, confirm false
			"Deployment of web from main not confirmed: nothing was deployed."},
		{"decline", nil, &mcp.ElicitResult{Action: "decline"},
			"Deployment declined by the user: nothing was deployed."},
		{"cancel", nil, &mcp.ElicitResult{Action: "cancel"},
			"Deployment cancelled: the question was dismissed without an answer; ask again later."},
	}
	for _, kind := range transports {
		for _, c := range cases {
			t.Run(kind+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				cs := connect(t, kind, nil, answer(c.res), pinned)
				if got := okText(t, cs, "deploy", c.args); got != c.want {
					t.Errorf("deploy = %q, want %q", got, c.want)
				}
			})
		}
	}
}

// TestDeployQuestion checks what the client is asked: the message, a branch
// enum defaulting to main, and a confirm boolean.
func TestDeployQuestion(t *testing.T) {
	t.Parallel()
	got := make(chan *mcp.ElicitParams, 1)
	cs := connect(t, "memory", nil, elicitWith(func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		got <- req.Params
		return &mcp.ElicitResult{Action: "cancel"}, nil
	}), pinned)
	okText(t, cs, "deploy", nil)
	p := <-got
	if p.Message != "Which branch should be deployed to production?" {
		t.Errorf("message = %q", p.Message)
	}
	if p.Mode != "" && p.Mode != "form" {
		t.Errorf("mode = %q, want form", p.Mode)
	}
	props := p.RequestedSchema.(map[string]any)["properties"].(map[string]any)
	branch := props["branch"].(map[string]any)
	if diff := cmp.Diff([]any{"main", "release", "hotfix"}, branch["enum"]); diff != "" {
		t.Errorf("branch enum (-want +got):\n%s", diff)
	}
	if branch["default"] != "main" {
		t.Errorf("branch default = %v, want main", branch["default"])
	}
	if props["confirm"].(map[string]any)["type"] != "boolean" {
		t.Errorf("confirm = %v, want a boolean", props["confirm"])
	}
}

// TestDeployThreeOutcomesDiffer guards the point of the scene: decline and
// cancel must not read alike.
func TestDeployThreeOutcomesDiffer(t *testing.T) {
	t.Parallel()
	var texts []string
	for _, res := range []*mcp.ElicitResult{
		{Action: "accept", Content: map[string]any{"branch": "main", "confirm": true}},
		{Action: "decline"},
		{Action: "cancel"},
	} {
		cs := connect(t, "memory", nil, answer(res), pinned)
		texts = append(texts, okText(t, cs, "deploy", nil))
	}
	if len(slices.Compact(slices.Sorted(slices.Values(texts)))) != 3 {
		t.Fatalf("outcomes are not distinct: %q", texts)
	}
}
